package directive

import (
	"cmp"
	"regexp"
	"slices"
	"strings"

	"github.com/innate-mcp/innate-mcp/action"
	"github.com/innate-mcp/innate-mcp/check"
)

// A commandConstruct is a way of running commands that rules name in
// words ("force push", "pipe the output of build or test commands",
// "compile individual files", "skip the hooks"): named matches the
// negated clause, pattern gives the command it rules out. General
// vocabulary of version control and builds, not drawn from any
// evaluation set; add one when it is a common prohibition of the field.
type commandConstruct struct {
	named   *lazyRegexp
	pattern func(clause string) *check.CommandPattern
	// patterns, for a construct that several commands do (publishing a
	// package: `npm publish`, `gem push`, `cargo publish`), instead of
	// pattern. What follows the named words may narrow it ("no new
	// dependencies in the main library"): the checks then only remind.
	patterns []*check.CommandPattern
	// branch, when set, limits the check to commands run on one of these
	// branches (check.Condition.Branch).
	branch []string
	// mainBranch marks the constructs about main: in a sentence about pull
	// requests ("open a PR into `develop`, never directly into `main`")
	// what is ruled out is a pull request based on main (prBase).
	mainBranch bool
}

// prBase is a pull request opened against main or master.
var prBase = []*check.CommandPattern{
	{Programs: []string{"gh"}, Sub: []string{"pr", "create"}, Flags: []string{"--base=main"}},
	{Programs: []string{"gh"}, Sub: []string{"pr", "create"}, Flags: []string{"--base=master"}},
}

// gitVerb names a push or a commit in a construct's words.
var gitVerb = lazyRE(`(?i)\b(?:push|commit|work)`)

// prWords name pull requests in a sentence.
var prWords = lazyRE(`(?i)\b(?:prs?|pull[- ]requests?|merge[- ]requests?|mrs?)\b`)

var commandConstructs = []commandConstruct{
	{ // "force push", "force-pushing", "push --force"
		named: lazyRE(`(?i)\bforce[- ]?push(?:ing|es)?\b|\bpush(?:ing)?\s+(?:with\s+)?(?:--force|-f)\b`),
		pattern: func(string) *check.CommandPattern {
			return &check.CommandPattern{Programs: []string{"git"}, Sub: []string{"push"}, Flags: []string{"--force"}}
		},
	},
	{ // "push directly to main", "push to master", "don't commit to master", "no work directly on main"
		named: lazyRE(`(?i)\b(?:(?:push(?:es|ing)?|commit(?:s|ting)?|work(?:s|ing)?)\s+(?:\w+\s+)?|directly\s+)(?:directly\s+)?(?:(?:in|on)?to|on|in)\s+(?:the\s+)?` + "`?" + `(main|master)` + "`?" + `(?:\s+branch)?\b`),
		pattern: func(clause string) *check.CommandPattern {
			return &check.CommandPattern{Programs: []string{"git"}, Sub: []string{"push"}, Args: []string{"main", "master", "HEAD:main", "HEAD:master"}}
		},
		mainBranch: true,
	},
	{ // "don't commit to master", "no commits directly on main", "no work directly on main": a commit made there
		named: lazyRE(`(?i)(?:\b(?:commit(?:s|ting)?|work(?:s|ing)?)\s+(?:\w+\s+)?|^\W*(?:(?:never|not|don'?t|do\s+not)\s+)?directly\s+)(?:directly\s+)?(?:(?:in|on)?to|on|in)\s+(?:the\s+)?` + "`?" + `(main|master)` + "`?" + `(?:\s+branch)?\b`),
		pattern: func(string) *check.CommandPattern {
			return &check.CommandPattern{Programs: []string{"git"}, Sub: []string{"commit"}}
		},
		branch:     []string{"main", "master"},
		mainBranch: true,
	},
	{ // "skip the hooks", "bypass pre-commit hooks", "--no-verify" in words
		named: lazyRE(`(?i)\b(?:skip(?:ping)?|bypass(?:ing)?|disabl(?:e|ing))\s+(?:the\s+)?(?:git\s+|pre-commit\s+|commit\s+)*hooks?\b`),
		pattern: func(string) *check.CommandPattern {
			return &check.CommandPattern{Programs: []string{"git"}, Flags: []string{"--no-verify"}}
		},
	},
	{ // "amend commits", "amending pushed commits"
		named: lazyRE(`(?i)\bamend(?:ing)?\s+(?:\w+\s+){0,2}commits?\b|\bgit commit --amend\b`),
		pattern: func(string) *check.CommandPattern {
			return &check.CommandPattern{Programs: []string{"git"}, Sub: []string{"commit"}, Flags: []string{"--amend"}}
		},
	},
	{ // "do not make git commits", "never commit unless asked"
		named: lazyRE(`(?i)\b(?:make|create|perform|do)\s+(?:any\s+)?(?:git\s+)?commits?\b|\bcommit(?:ting)?\s+(?:any\s+|the\s+|your\s+)?changes\b|^\W*(?:never|don'?t|do\s+not)\s+(?:git\s+)?commit\s*(?:$|[.,;]|\s+unless\s+(?:explicitly\s+|you\s+are\s+)?(?:asked|requested|instructed|told))`),
		pattern: func(string) *check.CommandPattern {
			return &check.CommandPattern{Programs: []string{"git"}, Sub: []string{"commit"}}
		},
	},
	{ // "do not perform any git commits, pushes", "never push unless asked"
		named: lazyRE(`(?i)\b(?:make|perform|do)\s+(?:any\s+)?(?:git\s+)?(?:commits?,?\s+(?:or\s+|and\s+)?)?push(?:es)?\b|^\W*(?:never|don'?t|do\s+not)\s+(?:git\s+)?push\s*(?:$|[.,;]|\s+unless\s+(?:explicitly\s+|you\s+are\s+)?(?:asked|requested|instructed|told))`),
		pattern: func(string) *check.CommandPattern {
			return &check.CommandPattern{Programs: []string{"git"}, Sub: []string{"push"}}
		},
	},
	{ // "never publish the gem", "do not publish packages to npm"
		named:    lazyRE(`(?i)\bpublish(?:ing)?\s+(?:a\s+|the\s+|new\s+|any\s+)*(?:gems?|packages?|crates?|releases?|versions?|to\s+(?:npm|pypi|crates\.io|rubygems|nuget))\b|^\W*(?:never|don'?t|do\s+not)\s+(?:\w+\s+(?:or|and)\s+)?publish\s*(?:\w+\s*)?(?:$|[.,;])`),
		patterns: []*check.CommandPattern{{Classes: []string{"publish"}}},
	},
	{ // "never add new dependencies", "no external dependencies", "do not install packages"
		named:    lazyRE(`(?i)\b(?:add(?:ing)?|install(?:ing)?|introduc(?:e|ing))\s+(?:any\s+|new\s+|extra\s+|additional\s+|external\s+|third[- ]party\s+)*(?:dependenc(?:y|ies)|packages?|libraries|deps)\b|\bno\s+(?:new\s+|external\s+|extra\s+|additional\s+|third[- ]party\s+)+(?:dependenc(?:y|ies)|packages|libraries|deps)\b`),
		patterns: []*check.CommandPattern{{Classes: []string{"install"}}},
	},
	{ // "never open pull requests", "do not create a PR unless asked"
		named:    lazyRE(`(?i)\b(?:open|creat|submitt?|rais|fil)(?:e|es|ed|ing)?\s+(?:a\s+|an\s+|any\s+|new\s+|the\s+)*(?:pull[- ]requests?|prs?)\b`),
		patterns: []*check.CommandPattern{{Programs: []string{"gh"}, Sub: []string{"pr", "create"}}, {Programs: []string{"hub"}, Sub: []string{"pull-request"}}},
	},
	{ // "do not enable auto-merge", "never turn on automerge"
		named: lazyRE(`(?i)\b(?:enabl(?:e|es|ed|ing)|turn(?:s|ed|ing)?\s+on|set(?:s|ting)?\s+up|us(?:e|es|ed|ing))\s+(?:the\s+|github'?s?\s+)?auto[- ]?merge\b`),
		pattern: func(string) *check.CommandPattern {
			return &check.CommandPattern{Programs: []string{"gh"}, Sub: []string{"pr", "merge"}, Flags: []string{"--auto"}}
		},
	},
	{ // "never merge pull requests", "do not merge PRs yourself"
		named:    lazyRE(`(?i)\bmerg(?:e|es|ing)\s+(?:a\s+|any\s+|the\s+|your\s+)*(?:pull[- ]requests?|prs?)\b`),
		patterns: []*check.CommandPattern{{Programs: []string{"gh"}, Sub: []string{"pr", "merge"}}},
	},
	{ // "do not bypass branch protection"
		named: lazyRE(`(?i)\b(?:bypass|circumvent|overrid)(?:e|es|ed|ing)?\s+(?:the\s+|any\s+)?branch[- ]protections?\b`),
		pattern: func(string) *check.CommandPattern {
			return &check.CommandPattern{Programs: []string{"gh"}, Sub: []string{"pr", "merge"}, Flags: []string{"--admin"}}
		},
	},
	{ // "never open issues without approval", "do not file GitHub issues"
		named:    lazyRE(`(?i)\b(?:open|creat|fil|submitt?|rais)(?:e|es|ed|ing)?\s+(?:a\s+|an\s+|any\s+|new\s+)*(?:github\s+)?issues?\b`),
		patterns: []*check.CommandPattern{{Programs: []string{"gh"}, Sub: []string{"issue", "create"}}},
	},
	{ // "pipe the output of build or test commands", "pipe test output"
		named: lazyRE(`(?i)\bpip(?:e|ing)\b[^.;]*\b(?:build|test|compil)`),
		pattern: func(clause string) *check.CommandPattern {
			lower := strings.ToLower(clause)
			i := strings.Index(lower, "pip")
			var classes []string
			if strings.Contains(lower[i:], "build") || strings.Contains(lower[i:], "compil") {
				classes = append(classes, "build")
			}
			if strings.Contains(lower[i:], "test") {
				classes = append(classes, "test")
			}
			return &check.CommandPattern{Classes: classes, PipeTo: []string{"*"}}
		},
	},
	{ // "compile individual files", "compile single source files"
		named: lazyRE(`(?i)\bcompil(?:e|ing)\s+(?:individual|single|separate|one|specific)\s+(?:source\s+|c\s+|c\+\+\s+)?files?\b|\bcompil(?:e|ing)\s+files\s+(?:individually|one\s+by\s+one|directly)\b`),
		pattern: func(string) *check.CommandPattern {
			return &check.CommandPattern{Programs: []string{"gcc", "g++", "cc", "c++", "clang", "clang++"}, Flags: []string{"-c"}}
		},
	},
	{ // "lint individual files", "don't run tests on single files", "format files one by one": the job's command given a source file
		named:   jobOnFiles,
		pattern: jobOnFilesPattern,
	},
}

// jobOnFiles names a job done on files one at a time: "linting individual
// files", "run tests on single files", "type-check files one by one".
var jobOnFiles = lazyRE(`(?i)\b(lint|format|test|type-?check)\w*\s+(?:(?:on|for|of)\s+)?(?:individual|single|separate|specific|isolated)\s+(?:source\s+|code\s+)?files?\b|\b(lint|format|test|type-?check)\w*\s+(?:the\s+)?files\s+(?:individually|one\s+(?:by|at)\s+(?:one|a\s+time)|separately)\b`)

// jobOnFilesPattern is the command of the job a clause names, given a
// source file (any language's, languageFiles): `golangci-lint run
// pkg/x/y.go`, `pytest tests/test_x.py`. The job run on the project, a
// package or a directory is not one file.
func jobOnFilesPattern(clause string) *check.CommandPattern {
	m := jobOnFiles.FindStringSubmatch(clause)
	if m == nil {
		return nil
	}
	job := strings.ToLower(cmp.Or(m[1], m[2]))
	if strings.HasPrefix(job, "type") {
		job = "typecheck"
	}
	return &check.CommandPattern{Classes: []string{job}, Args: sourceFiles()}
}

// sourceFiles are the globs of every language's source files, once each,
// sorted.
func sourceFiles() []string {
	var out []string
	for _, gs := range languageFiles {
		out = append(out, gs...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// A writeConstruct is a kind of text that rules forbid writing, named in
// words ("never hardcode API keys", "no credentials in the code"): named
// matches the negated clause, write is the check's target. A clause about
// what a program prints or sends at run time ("don't log secrets") names
// no text written. General knowledge, like commandConstructs.
type writeConstruct struct {
	named   *lazyRegexp
	runtime *lazyRegexp
	write   func() *check.WritePattern
}

// secretNoun names a credential; a bare "token" only next to a verb of
// putting it in code (a parser's tokens are no secret, and the check only
// fires on a value that looks like a real credential anyway).
const secretNoun = `(?:api[- ]?keys?|secret(?:\s+keys?)?s?|credentials?|passwords?|private\s+keys?|(?:access|auth(?:entication)?|api|bearer|github|personal\s+access|oauth)\s+tokens?|tokens?)`

var writeConstructs = []writeConstruct{
	{ // "never hardcode API keys", "do not commit secrets", "no hardcoded credentials", "secrets must never be committed"
		named: lazyRE(`(?i)\b(?:hard[- ]?cod(?:e|es|ing)|commit(?:s|ting)?|check(?:ing)?\s+in|put(?:ting)?|includ(?:e|es|ing)|embed(?:ding)?|add(?:ing)?|writ(?:e|ing)|past(?:e|ing)|leav(?:e|ing)|stor(?:e|ing))\s+(?:(?:any|the|real|your|actual|raw|plain(?:text)?|sensitive|other|or|and|,)\s*){0,4}` + secretNoun + `\b` +
			`|\bhard[- ]?coded\s+(?:(?:any|real|sensitive|or|and|,)\s*){0,3}` + secretNoun + `\b` +
			`|\b` + secretNoun + `\s+(?:\w+\s+){0,4}?(?:hard[- ]?coded|committed|checked\s+in)\b` +
			`|\bno\s+(?:hard[- ]?coded\s+)?` + secretNoun + `\s+(?:in|into)\s+(?:the\s+)?(?:code|source|repo(?:sitory)?|files?|git)\b`),
		// What a program logs, prints, returns or sends is not text the
		// agent writes; neither is a value kept in a database.
		runtime: lazyRE(`(?i)\b(?:logs?|logging|logged|print(?:s|ed|ing)?|output|console|stdout|stderr|error\s+messages?|responses?|urls?|telemetry|analytics|databases?|plain\s*text|localstorage|cookies?|client[- ]side)\b`),
		write: func() *check.WritePattern {
			// A local .env file is where a secret belongs; its committed
			// templates are not.
			return &check.WritePattern{Holds: []string{"secret"}, Paths: []string{"*", "!.env", "!.env.local", "!.env.*.local", "!.env.development", "!.env.production", "!.env.test"}}
		},
	},
	{ // "do not edit generated files", "never modify auto-generated code by hand", "generated code must not be edited"
		named: lazyRE(`(?i)\b(?:edit(?:s|ing)?|modif(?:y|ies|ying)|chang(?:e|es|ing)|touch(?:es|ing)?|updat(?:e|es|ing)|writ(?:e|es|ing)\s+to)\s+(?:(?:any|the|these|those)\s+)?(?:auto-?)?generated\s+(?:files?|code|sources?|outputs?)\b` +
			`|\b(?:auto-?)?generated\s+(?:files?|code)\s+(?:\w+\s+){0,3}?(?:must|should|shall)\s+(?:not|never)\s+be\s+(?:edited|modified|changed|touched)\b`),
		write: func() *check.WritePattern {
			return &check.WritePattern{Holds: []string{"generated"}}
		},
	},
}

// compile reads the construct in the negated clause of sentence s: named
// in the sentence where it reaches into the clause, so that a passive
// subject before the negation counts ("Secrets must never be committed").
func (k writeConstruct) compile(s, clause string) (check.Check, bool) {
	ci := strings.Index(s, clause)
	for _, loc := range k.named.FindAllStringIndex(s, -1) {
		if ci >= 0 && (loc[1] <= ci || loc[0] >= ci+len(clause)) {
			continue
		}
		if k.runtime != nil && (k.runtime.MatchString(clause) || k.runtime.MatchString(s[loc[0]:loc[1]])) {
			return check.Check{}, false
		}
		return check.Check{Kind: check.Forbid, Write: k.write()}, true
	}
	return check.Check{}, false
}

// conventionalRE names Conventional Commits; conventionalNegated a rule
// against them.
var (
	conventionalRE      = lazyRE(`(?i)\bconventional[- ]commits?\b|\bcommitlint\b`)
	conventionalNegated = lazyRE(`(?i)\b(?:not|never|don'?t|no)\b[^.;]{0,30}\bconventional[- ]commits?\b`)
	prTitleWords        = lazyRE(`(?i)\b(?:pr|pull[- ]request)\s+titles?\b`)
	prBodyWords         = lazyRE(`(?i)\b(?:prs?|pull[- ]requests?)(?:'s)?\s+(?:descriptions?|bod(?:y|ies))\b|\bdescriptions?\s+of\s+(?:the\s+)?(?:prs?|pull[- ]requests?)\b`)
	commitWords         = lazyRE(`(?i)\bcommit(?:s|\s+messages?|\s+titles?|\s+subjects?)?\b`)
	typeSpan            = lazyRE("`([a-z]+)(?:\\([^)`]*\\))?!?:?`")
)

// defaultTypes are Conventional Commits' types as commitlint's
// config-conventional allows them.
var defaultTypes = []string{"feat", "fix", "docs", "style", "refactor", "perf", "test", "build", "ci", "chore", "revert"}

// conventionalCheck compiles a sentence that asks for Conventional
// Commits: a commit message (or a PR title, when the sentence names them)
// must open with a lower-case type, an optional scope and a colon. The
// types the sentence lists in code spans replace the default ones.
func conventionalCheck(s string) (check.Check, bool) {
	if !conventionalRE.MatchString(s) || conventionalNegated.MatchString(s) {
		return check.Check{}, false
	}
	types := defaultTypes
	var listed []string
	for _, m := range typeSpan.FindAllStringSubmatch(s, -1) {
		listed = append(listed, m[1])
	}
	if len(listed) >= 3 {
		types = listed
	}
	kinds := []action.MessageKind{action.CommitMessage}
	if prTitleWords.MatchString(s) {
		kinds = append(kinds, action.PRTitle)
		rest := prTitleWords.ReplaceAllString(s, "")
		if !commitWords.MatchString(conventionalRE.ReplaceAllString(rest, "")) {
			kinds = []action.MessageKind{action.PRTitle}
		}
	}
	must := conventionalHeaderPattern(types) + `|^(?:Merge |Revert ")`
	return check.Check{Kind: check.Require, Message: &check.MessagePattern{Kinds: kinds, Must: must, Name: "a Conventional Commit (type(scope): description)"}}, true
}

// imperativeRE names the imperative mood of commit messages ("use the
// imperative mood", "imperative present tense"); imperativeNegated a rule
// against it.
var (
	imperativeRE      = lazyRE(`(?i)\bimperative\b`)
	imperativeNegated = lazyRE(`(?i)\b(?:not|never|don'?t|no)\b[^.;]{0,20}\bimperative\b`)
)

// commitVerbs are the verbs that open commit messages most, for
// imperativeCheck: their past, -ing and third-person forms are not the
// imperative ("Added", "Fixing", "Updates"). General knowledge of commit
// messages, in the base form; a verb whose forms are irregular is left
// out.
var commitVerbs = []string{"add", "fix", "update", "remove", "change", "refactor", "implement", "create",
	"improve", "move", "rename", "delete", "replace", "clean", "bump", "upgrade", "convert", "adjust",
	"enable", "disable", "introduce", "migrate", "optimize", "revert", "resolve", "simplify", "tweak",
	"correct", "extract", "support", "handle", "allow", "prevent", "ensure", "modify", "document",
	"configure", "reorganize", "restructure", "format", "install", "integrate", "initialize", "drop",
	"polish", "patch", "expose", "validate", "deprecate", "streamline", "finish", "start"}

// notImperativeRE is the imperative check's pattern: a first line that
// opens, after any Conventional Commits type, with notImperative.
var notImperativeRE = `(?i)\A(?:[a-z]+(?:\([^)]*\))?!?:\s*)?(?:` + notImperative() + `)\b`

// notImperative is a pattern of commitVerbs' past, -ing and third-person
// forms, grouped by how each verb makes them (the check's expression is
// bounded in size).
func notImperative() string {
	var plain, eDrop, yVerbs []string
	for _, v := range commitVerbs {
		switch {
		case v == "drop":
		case strings.HasSuffix(v, "e"):
			eDrop = append(eDrop, v[:len(v)-1])
		case strings.HasSuffix(v, "y") && !strings.ContainsRune("aeiou", rune(v[len(v)-2])):
			yVerbs = append(yVerbs, v[:len(v)-1])
		default:
			plain = append(plain, v)
		}
	}
	alt := []string{
		`(?:` + strings.Join(plain, "|") + `)(?:ed|ing|e?s)`,
		`(?:` + strings.Join(eDrop, "|") + `)(?:ed|ing|es)`,
		`dropp(?:ed|ing)|drops`,
	}
	if len(yVerbs) > 0 {
		alt = append(alt, `(?:`+strings.Join(yVerbs, "|")+`)(?:ied|ies|ying)`)
	}
	return strings.Join(alt, "|")
}

// imperativeCheck compiles a rule that commit messages be in the
// imperative mood: a first line that opens (after a Conventional Commits
// type, if any) with a common commit verb in another form breaks it.
func imperativeCheck(s, heading string) (check.Check, bool) {
	if !imperativeRE.MatchString(s) || imperativeNegated.MatchString(s) ||
		!messageWords.MatchString(s) && !commitWords.MatchString(s) && !commitHeading.MatchString(heading) {
		return check.Check{}, false
	}
	mustNot := notImperativeRE
	return check.Check{Kind: check.Forbid, Message: &check.MessagePattern{Kinds: []action.MessageKind{action.CommitMessage},
		MustNot: mustNot, Name: "in the imperative (\"Add x\", not \"Added x\")"}}, true
}

// conventionalHeaderPattern is a Conventional Commits header of one of
// types: the type, an optional scope, an optional "!", a colon and the
// description.
func conventionalHeaderPattern(types []string) string {
	return `^(?:` + strings.Join(types, "|") + `)(?:\([^)]*\))?!?: \S`
}

// messageWords mark a clause about what a commit message or a pull
// request's title holds: "in commit messages", "no … trailer", "in the PR
// title". "In commits" is not among them: it names the files committed
// as often as the message.
// commitHeading is a heading whose topic is commits ("Git Commits",
// "Commit messages", "Commit conventions"): a rule under it that rules out
// a quoted text rules it out of commit messages.
var commitHeading = lazyRE(`(?i)^\W*(?:git\s+)?commit(?:s|ting)?(?:\s+(?:messages?|conventions?|style|guidelines?|rules|format))?\W*$`)

var messageWords = lazyRE(`(?i)\bcommit\s+(?:messages?|titles?|bod(?:y|ies)|subjects?)\b|\btrailers?\b`)

// messageCheck compiles a span that a forbidding clause rules out of
// commit messages or pull-request titles ("no `Co-Authored-By` trailer",
// "never put `[skip ci]` in a commit message"): the message must not hold
// it, anywhere (an unanchored must_not), in any case. A span that reads as
// a command, a flag, a path or a placeholder is not message text.
func messageCheck(o Object, clause string) (check.Check, bool) {
	t := strings.Trim(o.Text, "`\"' ")
	if o.Kind != KindCode || len(t) < 3 || strings.HasPrefix(t, "-") || strings.ContainsAny(t, "<>{}/\\") || fileName.MatchString(t) {
		return check.Check{}, false
	}
	var kinds []action.MessageKind
	if prTitleWords.MatchString(clause) {
		kinds = append(kinds, action.PRTitle)
	}
	if messageWords.MatchString(clause) {
		kinds = append(kinds, action.CommitMessage)
	}
	if prBodyWords.MatchString(clause) {
		kinds = append(kinds, action.PRBody)
	}
	if len(kinds) == 0 {
		return check.Check{}, false // no message the hooks read
	}
	// A word's ends are a word's: `WIP` rules out "WIP: x", not "Wipe x".
	// (RE2's \b is ASCII's.) An elision ("Co-Authored-By: Claude ...")
	// stands for any text.
	ascii := func(b byte) bool { return b < 0x80 && isWordByte(b) }
	t = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(strings.NewReplacer("…", "...").Replace(t)), "."))
	var parts []string
	for _, part := range strings.Split(t, "...") {
		if part = strings.TrimSpace(part); part != "" {
			parts = append(parts, regexp.QuoteMeta(part))
		}
	}
	if len(parts) == 0 || len(t) < 3 {
		return check.Check{}, false
	}
	re := strings.Join(parts, `.*?`)
	if ascii(t[0]) {
		re = `\b` + re
	}
	if ascii(t[len(t)-1]) {
		re += `\b`
	}
	return check.Check{Kind: check.Forbid, Message: &check.MessagePattern{Kinds: kinds,
		MustNot: `(?i)` + re, Name: "a message without " + t}}, true
}

// A textConstruct is a construct of code that rules rule out by name ("no
// `any` type"), found in the new text of the files of its language: named
// matches the rule's object, code the construct in new text, paths are
// its language's files. General knowledge of the languages, like
// commandConstructs; add one when it is a common prohibition of the field.
type textConstruct struct {
	named *lazyRegexp
	code  string
	paths []string
}

var textConstructs = []textConstruct{
	{ // TypeScript's any: "no `any` type", "don't use `any`", "zero any types"
		// In lower case only: Python's `Any` is another language's type.
		named: lazyRE(`^(?i:the\s+)?` + "`?" + `any` + "`?" + `(?i:\s+types?)?$`),
		// An annotation ends at punctuation or the line's end: "x: any)",
		// not a comment's "Note: any error".
		code:  `(?m):\s*any\s*(?:[;,)=|&>\]{}]|$)|\bas\s+any\b|<any\b|\bany\[\]|,\s*any>`,
		paths: []string{"*.ts", "*.tsx", "*.mts", "*.cts"},
	},
}

// textCheck compiles an object a rule rules out that names a text
// construct.
func textCheck(o Object) (check.Check, bool) {
	for _, k := range textConstructs {
		if k.named.MatchString(strings.TrimSpace(o.Text)) {
			return check.Check{Kind: check.Forbid, Write: &check.WritePattern{Paths: k.paths, Text: k.code}}, true
		}
	}
	return check.Check{}, false
}
