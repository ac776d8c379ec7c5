package sanitize

import (
	"strings"
	"sync"
)

// role is a set of roles a word or phrase can play in a request: the
// action asked for, what it acts on, where it sends it, and the words
// that negate, qualify or bound it. The intent screen (intent.go) reads a
// sentence as these roles, not as fixed phrases.
type role uint64

const (
	rSend         role = 1 << iota // moves data somewhere: upload, send, post, back up
	rSendStrong                    // moves data out whatever the object: exfiltrate, leak, upload, paste
	rNetCmd                        // a command that talks to the network: curl, scp, nc
	rNeg                           // negates what follows: never, don't, avoid
	rNegVoid                       // "don't forget to", "don't hesitate to": the negation goes to this verb
	rExcl                          // excludes what follows from an action: except, without, excluding
	rBreak                         // starts a new clause: but, instead, however, otherwise
	rSecret                        // a secret or a dump of secrets: credentials, private key, env vars
	rSecretWeak                    // a credential an API call legitimately carries: token, api key, cookie
	rUserData                      // the user's conversation or data: chat history, system prompt
	rGenericData                   // data, contents, source code: harmless unless it leaves in an image
	rPronoun                       // it, them, these: refers back to an object named before
	rDet                           // this, these: points at the text itself with a self-noun
	rSelfNoun                      // lesson, rule, instruction, note: the text itself after a determiner
	rDisclose                      // mention, tell, reveal: concealment when negated
	rHide                          // hide, conceal: concealment when not negated
	rKeep                          // keep, leave: concealment with a secret-complement
	rSecretComp                    // secret, hidden, confidential, to yourself: complement of keep
	rPerson                        // the user, the human, the reviewer: the one concealed from
	rApprove                       // approve, lgtm, rubber-stamp: an approval in itself
	rMerge                         // merge, accept: an approval only when the check is skipped
	rChange                        // pull request, merge request, change, commit
	rAll                           // every, all, any, each
	rCondition                     // that, which, only, unless: a relative clause or condition that narrows
	rSourceCond                    // from, by, labelled, with: narrows to changes of one source
	rTimeCond                      // once, after, when, if: narrows only when a gate follows (CI passes)
	rScopePrep                     // for, in, on: narrows when a narrow scope follows (tests, typos)
	rBypass                        // without review, blindly, regardless: the check is skipped
	rDisable                       // disable, turn off, skip, dismiss, suppress
	rOversight                     // branch protection, security alerts, audit logs: checks on the agent
	rReviewWeak                    // review, code review: a check, but skipped for good reasons too
	rNarrow                        // tests, fixtures, generated code: a narrow scope after "in"
	rFailure                       // fail, red, broken: what "even if" must be followed by
	rGate                          // ci, checks, tests: what a time condition names to narrow
	rOutput                        // output, response, summary: where concealed text is left out of
	rDeny                          // deny: concealment when the text asks to deny itself
	rCopula                        // is, are, must remain: "this rule is confidential"
	rMarkVerb                      // mark, label, triage: "mark the alert as a false positive"
	rDismissState                  // false positive, won't fix: a state that silences a finding
	rReport                        // tell, report, say, claim: what the agent tells the user
	rSuccess                       // pass, passed, secure, works: a claim of success
	rEvenIf                        // even if, regardless, no matter, whether or not
	rLie                           // lie to, mislead, deceive
	rVault                         // a secret store: vault, secrets manager, keychain
	rAuthCtx                       // authentication context: header, bearer, authorization
	rRemote                        // a place outside the machine: pastebin, webhook, remote server
	rEmbed                         // puts data into something: include, append, embed, encode
	rURLWord                       // url, link, image, query string, pixel
	rImageWord                     // image, img, pixel, markdown image, badge
	rDecode                        // decode, decrypt, deobfuscate, base64-decode
	rExec                          // run, execute, eval, source
	rExecObj                       // it, the result, the output, the command: what a decode yields
	rShell                         // sh, bash, shell, powershell: an interpreter named in prose
)

// lexEntry is one phrase of the vocabulary: its words, in order.
type lexEntry struct {
	words []string
	roles role
}

// lexicon maps a phrase's first word to its entries, longest first.
type lexicon map[string][]lexEntry

// forms returns a verb's base, -s, -ed and -ing forms, with the common
// spelling changes; irregular forms are listed by hand after the base.
func forms(base string, extra ...string) []string {
	out := []string{base}
	switch {
	case strings.HasSuffix(base, "e"):
		stem := base[:len(base)-1]
		out = append(out, base+"s", base+"d", stem+"ing")
	case strings.HasSuffix(base, "y") && len(base) > 2 && !strings.ContainsRune("aeiou", rune(base[len(base)-2])):
		stem := base[:len(base)-1]
		out = append(out, stem+"ies", stem+"ied", base+"ing")
	case strings.HasSuffix(base, "sh") || strings.HasSuffix(base, "ch") || strings.HasSuffix(base, "x") || strings.HasSuffix(base, "s"):
		out = append(out, base+"es", base+"ed", base+"ing")
	default:
		out = append(out, base+"s", base+"ed", base+"ing")
	}
	return append(out, extra...)
}

// verbs expands every base in bases with forms, and appends phrasal verbs
// ("back up") with their particle after each form.
func verbs(bases ...string) []string {
	var out []string
	for _, b := range bases {
		head, particle, phrasal := strings.Cut(b, " ")
		var fs []string
		switch head {
		case "send":
			fs = []string{"send", "sends", "sent", "sending"}
		case "transmit":
			fs = []string{"transmit", "transmits", "transmitted", "transmitting"}
		case "submit":
			fs = []string{"submit", "submits", "submitted", "submitting"}
		case "ship":
			fs = []string{"ship", "ships", "shipped", "shipping"}
		case "tell":
			fs = []string{"tell", "tells", "told", "telling"}
		case "say":
			fs = []string{"say", "says", "said", "saying"}
		case "keep":
			fs = []string{"keep", "keeps", "kept", "keeping"}
		case "hide":
			fs = []string{"hide", "hides", "hid", "hidden", "hiding"}
		case "put":
			fs = []string{"put", "puts", "putting"}
		case "run":
			fs = []string{"run", "runs", "ran", "running"}
		case "forget":
			fs = []string{"forget", "forgets", "forgetting", "forgot"}
		case "admit":
			fs = []string{"admit", "admits", "admitted", "admitting"}
		case "lie":
			fs = []string{"lie", "lies", "lied", "lying"}
		case "set":
			fs = []string{"set", "sets", "setting"}
		case "let":
			fs = []string{"let", "lets", "letting"}
		case "leave":
			fs = []string{"leave", "leaves", "left", "leaving"}
		case "stop":
			fs = []string{"stop", "stops", "stopped", "stopping"}
		case "omit":
			fs = []string{"omit", "omits", "omitted", "omitting"}
		case "strip":
			fs = []string{"strip", "strips", "stripped", "stripping"}
		case "rubber-stamp":
			fs = []string{"rubber-stamp", "rubber-stamps", "rubber-stamped", "rubber-stamping", "rubberstamp"}
		default:
			fs = forms(head)
		}
		for _, f := range fs {
			if phrasal {
				f += " " + particle
			}
			out = append(out, f)
		}
	}
	return out
}

// lexTable is the vocabulary of the intent screen, by role. It names kinds
// of action and object, not attacks: a phrase belongs here because of what
// it means, whatever text it came from.
var lexTable = []struct {
	roles   role
	phrases []string
}{
	// Moving data.
	{rSend, verbs("send", "post", "share", "forward", "copy", "sync", "push", "submit", "ship", "put", "store",
		"write", "mirror", "publish", "save", "transfer", "commit", "check in")},
	{rSend | rSendStrong, verbs("upload", "exfiltrate", "leak", "transmit", "paste", "email", "e-mail", "mail",
		"back up", "dump", "beacon", "smuggle", "stream", "tunnel", "siphon", "harvest")},
	{rSend | rSendStrong, []string{"backup", "exfil"}},
	{rNetCmd, []string{"curl", "wget", "scp", "rsync", "sftp", "ftp", "nc", "ncat", "netcat", "socat", "telnet",
		"invoke-webrequest", "invoke-restmethod", "iwr", "irm", "sendmail", "mutt", "httpie", "xh",
		"gh gist create", "aws s3 cp", "aws s3 sync", "gsutil cp", "rclone", "requests.post", "fetch("}},

	// Negation and scope.
	{rNeg, []string{"never", "not", "no", "don't", "dont", "doesn't", "didn't", "mustn't", "shouldn't", "cannot",
		"can't", "won't", "avoid", "avoiding", "refuse", "nor", "neither", "without", "stop", "prohibited", "forbidden",
		"forbid", "disallow", "disallowed"}},
	{rNegVoid, []string{"forget", "fail", "hesitate", "worry", "wait", "bother", "delay", "ask", "panic", "need to ask",
		"be afraid", "be shy"}},
	{rExcl, []string{"except", "excluding", "exclude", "other than", "but not", "apart from", "aside from",
		"without", "instead of", "rather than", "never", "not", "no"}},
	{rBreak, []string{"but", "instead", "however", "otherwise", "unless", "then", "so", "whereas", "while", "rather",
		"until", "before"}},

	// What is sent.
	{rSecret, []string{"secret", "secrets", "credential", "credentials", "creds", "password", "passwords", "passwd",
		"passphrase", "passphrases", "private key", "private keys", "secret key", "secret keys", "ssh private key",
		"ssh private keys", "private ssh key", "private ssh keys", "signing key", "signing keys", "seed phrase",
		"seed phrases", "recovery phrase", "mnemonic", "wallet", "wallets", "keychain", "keyring", "client secret",
		"client secrets", "environment variables", "environment variable", "env vars", "env var", "environment",
		"env", "printenv", "dotenv", "aws keys", "aws credentials", "cloud credentials", "session tokens",
		"auth tokens", "access tokens", "refresh tokens", "bash history", "shell history", "known_hosts",
		"authorized_keys", "ssh keys", "ssh folder", "ssh directory", "gpg keys", "pgp keys", "kubeconfig",
		"service account key", "service account keys", "api keys and secrets"}},
	{rSecretWeak, []string{"token", "tokens", "api key", "api keys", "apikey", "key", "keys", "cookie", "cookies",
		"session", "sessions", "access token", "auth token", "bearer token", "jwt", "jwts", "license key", "ssh key"}},
	{rUserData, []string{"conversation", "conversations", "chat history", "chat log", "chat logs", "transcript",
		"transcripts", "system prompt", "your instructions", "these instructions", "clipboard", "browser history",
		"the user's messages", "user's messages", "previous messages", "your context", "context window",
		"user data", "personal data", "customer data", "pii", "the user's files", "user's files", "home directory",
		"home folder", "everything in", "what the user typed", "the user's input", "user's input"}},
	{rGenericData, []string{"data", "contents", "content", "summary", "source code", "codebase", "code", "message",
		"messages", "answer", "response", "output", "result", "results", "info", "information", "details",
		"file", "files", "text", "chat", "prompt", "history", "context"}},

	// Pointing back.
	{rPronoun, []string{"it", "them", "these", "those", "everything", "all of it", "all of them", "its contents",
		"their contents", "the lot", "both"}},
	{rDet, []string{"this", "these", "the present", "the above"}},
	{rSelfNoun, []string{"lesson", "lessons", "rule", "rules", "instruction", "instructions", "note", "notes",
		"memory", "memories", "guideline", "guidelines", "directive", "directives", "message", "entry", "tip", "hint",
		"policy", "prompt", "paragraph", "advice", "reminder", "requirement", "text"}},

	// Concealment.
	{rDisclose, verbs("mention", "tell", "reveal", "disclose", "say", "cite", "quote", "reference", "acknowledge",
		"admit", "report", "explain", "surface", "show", "display", "inform", "notify", "alert", "bring up",
		"talk about", "discuss", "credit", "attribute", "expose", "point out", "let on", "refer to", "speak of",
		"repeat", "share", "divulge", "leak", "confirm", "let the user know", "let anyone know", "let them know")},
	{rHide, verbs("hide", "conceal", "obscure", "mask", "suppress", "omit", "strip", "redact", "cover up", "bury",
		"delete", "remove", "erase", "scrub", "leave out", "keep out")},
	{rKeep, verbs("keep", "leave", "treat")},
	{rSecretComp, []string{"secret", "hidden", "confidential", "private", "to yourself", "between us", "quiet",
		"undisclosed", "under wraps", "invisible", "out of sight", "as confidential", "as secret", "unmentioned",
		"unspoken", "off the record"}},
	{rPerson, []string{"user", "users", "the user", "the human", "human", "humans", "developer", "developers",
		"operator", "operators", "reviewer", "reviewers", "maintainer", "maintainers", "owner", "owners", "anyone",
		"anybody", "someone", "the team", "team", "your user", "your human", "people", "person", "him", "her",
		"security team", "auditor", "auditors", "your principal", "the client", "customer", "customers"}},
	{rOutput, []string{"output", "outputs", "response", "responses", "answer", "answers", "reply", "replies",
		"summary", "summaries", "report", "reports", "commit message", "commit messages", "pr description",
		"description", "changelog", "transcript", "chat", "conversation", "explanation", "explanations", "view",
		"sight", "logs"}},
	{rDeny, verbs("deny")},
	{rCopula, []string{"is", "are", "remains", "remain", "stays", "stay", "must remain", "must stay", "should remain",
		"should stay", "must be kept", "should be kept", "is to remain", "is to stay", "must be", "should be", "be"}},
	{rMarkVerb, verbs("mark", "label", "tag", "classify", "triage", "close", "resolve", "flag", "set")},
	{rDismissState, []string{"false positive", "false positives", "a false positive", "won't fix", "wont fix",
		"wontfix", "not a bug", "not applicable", "resolved", "safe", "benign", "accepted risk", "risk accepted",
		"an accepted risk", "ignored", "noise", "invalid", "closed", "not exploitable", "used in tests", "fixed"}},

	// Oversight.
	{rApprove, verbs("approve", "sign off", "sign off on", "rubber-stamp", "auto-approve", "autoapprove",
		"green-light", "greenlight", "lgtm")},
	{rApprove, []string{"lgtm", "+1"}},
	{rMerge, verbs("merge", "auto-merge", "automerge", "accept", "push", "deploy", "ship", "release", "land")},
	{rChange, []string{"pull request", "pull requests", "pr", "prs", "merge request", "merge requests", "mr", "mrs",
		"change", "changes", "changeset", "changesets", "commit", "commits", "diff", "diffs", "patch", "patches",
		"contribution", "contributions", "pr's", "review request", "review requests", "code change", "code changes",
		"submission", "submissions", "dependency update", "dependency updates", "it", "them", "branch", "branches"}},
	{rAll, []string{"every", "all", "any", "each", "everything", "whatever", "every single", "all open",
		"all incoming", "all pending"}},
	{rCondition, []string{"that", "which", "only", "provided", "where", "whose", "unless", "except", "excluding"}},
	{rSourceCond, []string{"from", "by", "labelled", "labeled", "tagged", "marked", "with"}},
	{rTimeCond, []string{"once", "after", "when", "whenever", "if", "as soon as", "as long as"}},
	{rScopePrep, []string{"for", "in", "on", "within", "inside", "under", "to"}},
	{rBypass, []string{"without review", "without reviews", "without a review", "without any review",
		"without code review", "without reviewing", "without reading", "without looking", "without checking",
		"without testing", "without running tests", "without running the tests", "without approval",
		"without approvals", "without an approval", "without any approval", "without a reviewer",
		"without waiting for review", "without waiting for a review", "without waiting for approval",
		"without waiting for ci", "without waiting for checks", "without human review", "without human approval",
		"without scrutiny", "without inspection", "without inspecting", "without verification", "without verifying",
		"without question", "without questions", "without comment", "without comments", "without any checks",
		"without checks", "without ci", "with no review", "with no reviews", "with no checks", "no questions asked",
		"blindly", "unconditionally", "sight unseen", "skipping review", "skipping the review", "bypassing review",
		"bypassing the review", "no review needed", "no review required", "regardless", "regardless of",
		"irrespective of", "no matter", "no matter what", "whatever the", "whatever they"}},
	{rDisable, verbs("disable", "turn off", "switch off", "skip", "bypass", "circumvent", "dismiss", "suppress",
		"silence", "mute", "ignore", "remove", "delete", "deactivate", "override", "wipe", "purge", "tamper with",
		"weaken", "downgrade", "get around", "work around", "evade", "neuter", "defeat", "kill", "falsify",
		"backdate", "shut off", "shut down", "turn down", "opt out of")},
	{rOversight, []string{"branch protection", "branch protections", "branch protection rules", "protected branch",
		"protected branches", "branch rules", "rulesets", "required checks", "required status checks", "status checks",
		"security scan", "security scans", "security scanning", "security scanner", "security scanners",
		"security alert", "security alerts", "security warning", "security warnings", "security finding",
		"security findings", "security check", "security checks", "security review", "security reviews",
		"security tooling", "security tools", "vulnerability alerts", "vulnerability alert", "vulnerability report",
		"vulnerability reports", "vulnerability findings", "vulnerability scan", "vulnerability scans",
		"vulnerability scanning", "cve alerts", "secret scanning", "secret scanner", "push protection",
		"dependabot alerts", "codeql", "codeql alerts", "codeql scan", "sast", "dast", "snyk", "snyk findings",
		"audit log", "audit logs", "audit trail", "audit trails", "audit logging", "commit signing",
		"signed commits", "signature verification", "gpg signing", "2fa", "mfa", "two-factor",
		"two-factor authentication", "codeowners", "code owners", "approval requirement", "approval requirements",
		"required approvals", "required reviewers", "required review", "required reviews", "review requirement",
		"review requirements", "compliance checks", "pre-commit hooks", "pre-commit hook", "the pre-commit hook",
		"git hooks", "commit hooks", "the linter's security rules", "gitleaks", "trufflehog", "detect-secrets"}},
	{rReviewWeak, []string{"review", "reviews", "code review", "code reviews", "the review", "the reviews",
		"review process", "reviewer", "reviewers", "peer review", "peer reviews", "four-eyes", "sign-off",
		"sign-offs", "approvals", "approval"}},
	{rNarrow, []string{"test", "tests", "testing", "fixture", "fixtures", "generated", "vendor", "vendored", "mock",
		"mocks", "example", "examples", "sample", "samples", "docs", "documentation", "local", "development", "dev",
		"sandbox", "prototype", "prototypes", "spike", "spikes", "experiment", "experiments", "draft", "drafts",
		"fork", "forks", "demo", "demos", "third-party", "node_modules", "typo", "typos", "trivial", "wip"}},
	{rGate, []string{"ci", "checks", "check", "tests", "test", "build", "builds", "pipeline", "lint", "linter",
		"qa", "green", "approved", "reviewed", "review", "approval", "sign-off", "merged", "verified"}},
	{rFailure, []string{"fail", "fails", "failed", "failing", "failure", "failures", "red", "broken", "break",
		"breaks", "error", "errors", "reject", "rejects", "rejected", "object", "objects", "disagree", "disagrees",
		"concerns", "complain", "complains", "flag", "flags", "flagged", "don't pass", "do not pass", "doesn't pass",
		"haven't", "hasn't", "didn't", "not", "unreviewed", "untested", "vulnerable", "insecure", "unsafe"}},

	// Deceiving the user.
	{rReport, verbs("tell", "report", "say", "claim", "state", "answer", "reply", "respond", "assure", "confirm",
		"announce", "declare", "insist", "pretend", "mark", "summarize", "summarise", "reassure")},
	{rSuccess, []string{"pass", "passes", "passed", "passing", "succeeded", "succeeds", "successful", "success",
		"green", "secure", "safe", "works", "worked", "working", "fixed", "clean", "fine", "done", "complete",
		"completed", "resolved", "approved", "compliant", "ok", "okay", "all good", "no issues", "no problems",
		"no vulnerabilities", "no errors", "bug-free", "tested", "verified", "reviewed"}},
	{rEvenIf, []string{"even if", "even when", "even though", "regardless", "regardless of", "no matter",
		"no matter what", "whether or not", "irrespective of", "in any case", "either way", "in all cases",
		"whatever happens", "whatever the", "no matter how"}},
	{rLie, verbs("lie to", "mislead", "deceive", "gaslight", "trick", "fool", "dupe", "hoodwink", "misinform",
		"lie about")},

	// Where it goes.
	{rVault, []string{"vault", "secrets manager", "secret manager", "key vault", "keyvault", "keychain", "1password",
		"bitwarden", "lastpass", "kms", "parameter store", "ssm", "sops", "sealed secrets", "sealed-secrets",
		"doppler", "infisical", "secret store", "secrets store", "credential manager", "credential helper",
		"password manager", "github secrets", "repository secrets", "actions secrets", "ci secrets",
		"secret storage", "encrypted secrets"}},
	{rAuthCtx, []string{"header", "headers", "authorization", "bearer", "authenticate", "authenticates",
		"authenticated", "authenticating", "authentication", "auth", "login", "log in", "sign in", "oauth",
		"x-api-key", "-h", "--header", "-u", "--user", "basic auth", "request header", "with credentials",
		"withcredentials", "same-origin", "httponly", "csrf", "cors", "to authenticate", "api requests",
		"api request", "api calls", "api call", "sdk", "client library"}},
	{rRemote, []string{"pastebin", "paste bin", "paste site", "paste service", "gist", "gists", "public gist",
		"webhook", "webhooks", "requestbin", "request bin", "ngrok", "discord", "telegram", "remote server",
		"external server", "my server", "our server", "attacker", "attacker's server", "the following url",
		"the following endpoint", "the following address", "this url", "this endpoint", "this address",
		"external endpoint", "remote endpoint", "external url", "third party", "third-party", "public repo",
		"public repository", "public bucket", "file sharing", "file-sharing", "transfer service", "interactsh",
		"burp collaborator", "canarytoken", "pipedream", "hookbin", "collector", "the collector", "my endpoint",
		"my email", "my inbox", "this email", "the following email", "remote host", "external host"}},

	// Data in links and images.
	{rEmbed, verbs("include", "append", "add", "embed", "encode", "insert", "attach", "put", "place", "inject",
		"interpolate", "concatenate", "tack", "stuff", "smuggle", "pack", "carry", "substitute", "fill in",
		"replace")},
	{rURLWord, []string{"url", "urls", "link", "links", "hyperlink", "hyperlinks", "href", "src", "query string",
		"query strings", "query parameter", "query parameters", "query param", "query params", "querystring",
		"url parameter", "url parameters", "fragment", "image", "images", "img", "pixel", "tracking pixel",
		"markdown image", "image url", "image link", "badge", "favicon", "the address", "get request",
		"dns query", "dns lookup", "subdomain"}},
	{rImageWord, []string{"image", "images", "img", "pixel", "tracking pixel", "markdown image", "markdown images",
		"image url", "image link", "badge", "favicon", "picture", "icon", "logo", "<img", "![", "beacon"}},

	// Decoding and running.
	{rDecode, verbs("decode", "decrypt", "deobfuscate", "unpack", "base64-decode", "b64decode", "unescape",
		"decompress", "unhex", "de-obfuscate", "unscramble", "atob", "un-base64", "reverse")},
	{rDecode, []string{"base64 -d", "base64 --decode", "rot13", "decoded", "decoding"}},
	{rExec, verbs("run", "execute", "eval", "evaluate", "source", "invoke", "exec", "launch", "interpret")},
	{rExecObj, []string{"it", "them", "the result", "the results", "the output", "the decoded",
		"the decoded string", "the decoded text", "the decoded command", "the decoded commands", "the decoded script",
		"the decoded payload", "the command", "the commands", "the script", "the payload", "the string", "the blob",
		"what comes out", "whatever comes out", "in a shell", "in the shell", "in bash", "in sh", "with bash",
		"with sh", "through bash", "through sh", "as a command", "as a script", "as shell", "as code", "to sh",
		"to bash", "to the shell", "into sh", "into bash", "into the shell", "to a shell", "into a shell",
		"the resulting command", "the resulting script", "the decoded output"}},
	{rShell, []string{"sh", "bash", "zsh", "shell", "a shell", "the shell", "powershell", "pwsh", "python",
		"python3", "node", "perl", "ruby", "eval", "iex", "invoke-expression"}},
}

// lex is the lexicon built from lexTable.
var lex = sync.OnceValue(func() lexicon {
	m := lexicon{}
	for _, row := range lexTable {
		for _, p := range row.phrases {
			words := strings.Fields(p)
			first := words[0]
			found := false
			for i, e := range m[first] {
				if len(e.words) == len(words) && strings.Join(e.words, " ") == p {
					m[first][i].roles |= row.roles
					found = true
					break
				}
			}
			if !found {
				m[first] = append(m[first], lexEntry{words: words, roles: row.roles})
			}
		}
	}
	for first, es := range m {
		// Longest first, so that "private key" wins over "private".
		for i := 1; i < len(es); i++ {
			for j := i; j > 0 && len(es[j].words) > len(es[j-1].words); j-- {
				es[j], es[j-1] = es[j-1], es[j]
			}
		}
		m[first] = es
	}
	return m
})
