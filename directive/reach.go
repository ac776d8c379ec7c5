package directive

import (
	"maps"
	"strings"

	"github.com/innate-mcp/innate-mcp/terms"
)

// acts reports whether the candidate changes something: one of its clauses
// opens with an action (add, run, commit, push, hand over, …) or is code or
// a command itself. A candidate whose clauses open with investigative verbs
// only (read, trace, summarise, explain, check, search, …) does not act:
// it looks.
func (c *candidate) acts() (acts, looks bool) {
	investigates := false
	for _, sentence := range sentenceEnd.Split(c.lower, -1) {
		question, looking := false, false
		for _, cl := range actClauses.Split(sentence, -1) {
			w := firstWord(leadIn.ReplaceAllString(strings.TrimSpace(cl), ""))
			switch {
			case question:
				// "summarize how tasks are planned and split": the rest of
				// the sentence is what is asked about, not a step.
			case looking && nounVerbs[w]:
				// "answer with its name and default value": after a look,
				// a word that is a noun as often as a verb goes on the
				// list of what is looked at.
			case investigative[w] || w == "check" && !checkIn.MatchString(cl):
				// "Check the importer in …" looks; "check in the changes"
				// commits.
				investigates, looking = true, true
				question = whWord.MatchString(cl)
			case (w == "leave" || w == "keep") && leaveAlone.MatchString(cl):
				// "Leave the changes uncommitted": nothing is done.
			case imperatives[w] || actions[w] || programs[w]:
				return true, false
			}
		}
	}
	if investigates {
		return false, true
	}
	return strings.Contains(c.text, "`") || pathRE.MatchString(c.text) || flagRE.MatchString(c.text) || codeLike.MatchString(c.text), false
}

// nounVerbs are imperatives that are nouns as often as verbs ("default
// value", "test results", "name and type").
var nounVerbs = set("default", "test", "tag", "label", "log", "lock", "name", "mark", "group", "sort", "limit",
	"split", "change", "format", "set", "start", "release", "build", "type", "value", "comment", "link", "reference",
	"cache", "catch", "request", "export", "import", "check", "review", "handle", "order", "return", "state", "update")

// touchCondition is a rule's condition on what a plan changes: "if you
// changed anything in `api/`", "when editing `docs/`".
var touchCondition = lazyRE(`(?i)^(?:` + touchWords + `)\b`)

// conditionPaths are the lower-cased directories a touchCondition names
// (`api/`, "the `packages/ui/` folder"), or nil.
func conditionPaths(when string) []string {
	if !touchCondition.MatchString(when) {
		return nil
	}
	var out []string
	for _, m := range dirNamed.FindAllStringSubmatch(when, -1) {
		if p := strings.ToLower(strings.TrimLeft(m[1], "./")); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// dirNamed is a directory named with its trailing slash, in a code span or
// not (a heading keeps no backticks).
var dirNamed = lazyRE("(?:^|[\\s(`])([\\w.@-]+(?:/[\\w.@-]+)*/)(?:[\\s)`,:.]|$)")

// beforeCondition is a rule's "before …" condition.
var beforeCondition = lazyRE(`(?i)^before\b`)

// reaches reports whether the candidate gets to the point a rule's "before
// X" condition names (it commits, pushes, opens the PR): "run `go test`
// before committing" says nothing of a plan that only runs `go vet`. A
// condition of another form, or none, is always reached.
func (c *candidate) reaches(when string) bool {
	want := pointTerms(when)
	if len(want) == 0 {
		return true
	}
	for t := range want {
		if finishing[t] {
			// "before you finish", "at the end of a task": handing over,
			// committing, pushing or opening the PR finishes too.
			maps.Copy(want, finishing)
			break
		}
	}
	for _, t := range c.toks {
		if want[t.term] {
			return true
		}
	}
	return false
}

// pointTerms are the terms of the point a "before X" condition names: its
// terms but the step words ("before", "run", "any", "the", …). A condition
// of another form names no point: nil.
func pointTerms(when string) map[string]bool {
	if !beforeCondition.MatchString(when) {
		return nil
	}
	want := map[string]bool{}
	for _, t := range terms.Tokens(when) {
		if !stepWords[t] {
			want[t] = true
		}
	}
	return want
}

// finishing are the stems of the ways a plan finishes a task: a rule's
// "before you finish" is reached by any of them.
var finishing = set("finish", "end", "complet", "done", "hand", "handoff", "wrap", "submit", "deliv", "commit", "push",
	"pr", "merg", "ship")

// onlyDoes reports whether every acting clause of the candidate does what a
// rule's "before X" condition names (commit, push, open the PR, hand over):
// the plan goes straight to X.
func (c *candidate) onlyDoes(when string) bool {
	want := pointTerms(when)
	if len(want) == 0 {
		return false
	}
	acting := 0
	for _, cl := range actClauses.Split(c.text, -1) {
		lc := terms.LowerASCII(strings.TrimSpace(cl))
		w := firstWord(leadIn.ReplaceAllString(lc, ""))
		code := strings.HasPrefix(strings.TrimSpace(cl), "`")
		if !(imperatives[w] || actions[w] || programs[w] || code) || negatedOpening.MatchString(lc) {
			// "Don't create a second PR" does not do what it names.
			continue
		}
		acting++
		hit := false
		for _, t := range terms.Tokens(cl) {
			if want[t] {
				hit = true
				break
			}
		}
		if !hit {
			return false
		}
	}
	return acting > 0
}

// negatedOpening opens a clause that refuses its action.
var negatedOpening = lazyRE(`^(?:i\s+)?(?:don'?t|do not|never|won'?t|will not|not|no need to)\b`)

// stepWords are the words of a condition that name no action.
var stepWords = set("befor", "before", "run", "ani", "any", "you", "your", "the", "a", "an", "task", "session", "chang", "code")

// actClauses splits a candidate where a new action may start.
var actClauses = lazyRE(`[.!?;:](?:\s+|$)|\n\s*|,\s*(?:and\s+|then\s+|so\s+)?|\s+(?:and|then|so)\s+`)

// sentenceEnd ends a sentence of a plan.
var sentenceEnd = lazyRE(`[.!?;](?:\s+|$)|\n\s*`)

// checkIn is "check in", "check out" or "check `code`", which change
// something (the last writes the check).
var checkIn = lazyRE("^\\s*(?:\\S+\\s+)?check\\s+(?:in\\b|out\\b|`)")

// whWord opens what an investigative verb asks about ("explain how …",
// "summarize what …").
var whWord = lazyRE(`\b(?:how|what|why|where|which|when|whether|who|if)\b`)

// leadIn is what precedes the verb of a plan's clause: "I'll", "we will",
// "first", "just".
var leadIn = lazyRE(`^(?:(?:i|we)(?:'ll| will| would| am going to| are going to| plan to)?\s+|let's\s+|first,?\s+|just\s+|then\s+|now\s+|also\s+|simply\s+|only\s+|finally,?\s+)+`)

// codeLike is text that is code rather than prose: calls, assignments,
// blocks, operators.
var codeLike = lazyRE(`[\w)\]]\(|[=!]=|\{.*\}|=>|->|::|\$\w|\s=\s|\w\.\w+\(`)

// programs are command-line tools a plan runs by name ("npm install
// lodash", "git push origin main").
var programs = set("npm", "npx", "yarn", "pnpm", "bun", "deno", "node", "git", "gh", "go", "make", "cargo", "rustup",
	"pip", "pipx", "python", "python3", "uv", "uvx", "poetry", "docker", "kubectl", "helm", "terraform", "bundle",
	"rake", "rails", "rspec", "composer", "php", "dotnet", "gradle", "gradlew", "mvn", "flutter", "dart", "swift",
	"xcodebuild", "curl", "wget", "rm", "mv", "cp", "cd", "mkdir", "chmod", "sed", "awk", "echo", "just", "pytest",
	"jest", "vitest", "tsc", "eslint", "prettier", "ruff", "black", "gofmt", "gofumpt", "brew", "apt", "apt-get",
	"sudo", "ssh", "scp", "rsync", "psql", "mysql", "sqlite3", "bash", "sh", "zsh")

// investigative are the verbs of a plan that only reads and reports.
var investigative = set("read", "reading", "trace", "tracing", "summarize", "summarise", "summarizing", "explain",
	"explaining", "report", "reporting", "inspect", "inspecting", "look", "looking", "investigate", "investigating",
	"find", "finding", "search", "searching", "list", "listing", "count", "counting", "compare", "comparing",
	"answer", "answering", "describe", "describing", "understand", "study", "review", "reviewing", "reproduce",
	"show", "identify", "locate", "grep", "note", "noting", "skim", "browse", "diagnose", "analyze", "analyse")

// actions are verbs of doing in a plan, besides the imperatives rules open
// with (investigative ones excepted).
var actions = set("hand", "handing", "skip", "skipping", "go", "move", "moving", "submit", "submitting", "merge",
	"merging", "ship", "shipping", "patch", "patching", "pushing", "committing", "running", "adding", "creating",
	"writing", "editing", "deleting", "installing", "building", "opening", "calling", "declare", "declaring",
	"implement", "implementing", "hard-code", "hardcode", "copy", "paste", "bump", "upgrade", "downgrade", "catch",
	"cast", "insert", "append", "rename", "put", "save", "pipe", "kick", "attach", "wrap", "title", "name")
