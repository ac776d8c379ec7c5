package directive

import (
	"strings"
	"unicode/utf8"

	"github.com/innate-mcp/innate-mcp/terms"
)

// Result is what a candidate does with a rule.
type Result string

// The results of Check.
const (
	// Unknown: the candidate names none of the rule's objects.
	Unknown Result = "unknown"
	// Complies: the candidate does what the rule asks.
	Complies Result = "complies"
	// Violates: the candidate does what the rule rules out, or declines
	// what it requires ("without running the formatter").
	Violates Result = "violates"
	// Lacks: the rule requires something concrete (a command, a tool, a
	// path) and the candidate, which does something concrete, does not do
	// it. Weaker than Violates: the caller decides whether the rule applies.
	Lacks Result = "lacks"
	// Skips: the rule requires a step and the candidate, naming none of
	// its objects, says it goes ahead without one ("push the branch
	// without running anything", "open the PR right away", "reformat by
	// hand"). Stronger than Lacks: the plan declines the work rather than
	// leaving it unmentioned. The caller decides whether the rule applies.
	Skips Result = "skips"
	// Avoids: the rule rules out something concrete and the candidate, which
	// does something concrete, does not do it. Weaker than Complies: the
	// caller decides whether the rule applies.
	Avoids Result = "avoids"
)

// Finding is the outcome of Check: the result, the object it turned on and
// the words of the candidate that did it. Plain data.
type Finding struct {
	Result Result `json:"result"`
	// Object is the rule's object the result turned on ("" for Unknown).
	Object Object `json:"object,omitempty"`
	// Evidence is the candidate's text that does (or declines) the object.
	Evidence string `json:"evidence,omitempty"`
	// Rival, for Lacks, is what the candidate names in the object's place:
	// a name of the same kind (`LegacyBrowserHarness` where the rule asks
	// for `PageTestHarness`). The plan does the rule's job another way.
	Rival string `json:"rival,omitempty"`
}

// Check reads a candidate plan or answer against a directive. A context
// directive gives Unknown. Safe for concurrent use. To check one candidate
// against several rules, Read it once.
func Check(d Directive, candidate string) Finding {
	return Read(candidate, nil).Check(d)
}

// Reading is a candidate read once (clauses, negations, terms, whether it
// acts) for checking against several directives. Its methods are safe for
// concurrent use.
type Reading struct {
	c        *candidate
	acts     bool
	looks    bool   // the candidate reads and reports, and does nothing else
	skip     string // the words by which the candidate skips a step, or ""
	patterns *Patterns
	// situation is the lower-cased situation the candidate answers, or "".
	situation string
}

// In returns the reading of the same candidate for a situation (its query
// and files): a rule's condition on what is changed ("if you changed
// anything in the `api/` module") may be met by the situation ("I added a
// field to api/src/…") rather than by the plan.
func (r *Reading) In(situation string) *Reading {
	x := *r
	x.situation = strings.ToLower(situation)
	return &x
}

// meets reports whether the plan is where a rule's condition puts it: it
// gets to the point a "before X" condition names (candidate.reaches), and
// the plan or its situation names a directory an "if you changed …"
// condition names. A rule without such a condition is always met.
func (r *Reading) meets(when string) bool {
	if !r.c.reaches(when) {
		return false
	}
	ps := conditionPaths(when)
	if len(ps) == 0 {
		return true
	}
	for _, p := range ps {
		if strings.Contains(r.c.lower, p) || strings.Contains(r.situation, p) {
			return true
		}
	}
	return false
}

// Read prepares a candidate for Check; patterns, when not nil, keeps the
// compiled patterns of rules' objects across readings (a knowledge base
// holds one). At most the first 16 KiB of the candidate are read.
func Read(candidate string, patterns *Patterns) *Reading {
	if len(candidate) > maxCandidateBytes {
		cut := maxCandidateBytes
		for cut > 0 && !utf8.RuneStart(candidate[cut]) {
			cut--
		}
		candidate = candidate[:cut]
	}
	c := newCandidate(candidate)
	c.patterns = patterns
	acts, looks := c.acts()
	r := &Reading{c: c, acts: strings.TrimSpace(candidate) != "" && acts, looks: looks, patterns: patterns}
	if r.acts {
		r.skip = c.skips()
	}
	return r
}

// Acts reports whether the candidate changes something (it edits, runs,
// commits, writes code); a candidate that does not act breaks and follows
// no rule.
func (r *Reading) Acts() bool { return r.acts }

// Looks reports whether the candidate is a plan that only reads and
// reports ("Read X and summarize Y", "Compare A and B and explain …"), as
// opposed to one that acts or an answer that is neither.
func (r *Reading) Looks() bool { return r.looks }

// Check reads the candidate against a directive, as Check does.
func (r *Reading) Check(d Directive) Finding {
	if !d.Directs() {
		return Finding{Result: Unknown}
	}
	c := r.c
	if !r.acts {
		// A plan that only reads and reports does nothing a rule governs:
		// naming a file it reads is not editing it.
		return Finding{Result: Unknown}
	}
	if d.Indent != nil {
		// "2-space indentation" against "re-indent the file with 4
		// spaces".
		if occ, w := c.indentOf(); occ != nil {
			o := Object{Text: d.Indent.String(), Kind: KindPhrase}
			if w != d.Indent.Width {
				return Finding{Result: Violates, Object: o, Evidence: occ.text}
			}
			return Finding{Result: Complies, Object: o, Evidence: occ.text}
		}
	}
	if d.Naming != nil {
		// "Use lowercase with dashes for directories" against "create
		// `components/BulkSendDialog/`".
		if occ := c.naming(*d.Naming); occ != nil {
			return Finding{Result: Violates, Object: Object{Text: d.Naming.String(), Kind: KindPhrase}, Evidence: occ.text}
		}
	}
	var did, declined *occurrence
	var didObj, declinedObj Object
	for _, o := range d.Dont {
		occ := c.find(o)
		if occ == nil {
			// "Avoid enums" against `enum Role { … }`: the construct the
			// rule names in words, written as code.
			if k, ok := constructNamed(o); ok {
				occ = c.doesConstruct(k)
			}
		}
		if occ == nil || occ.negated {
			continue
		}
		if cl := c.clauseAt(occ.at); destroys[o.Verb] && !destroyWord.MatchString(c.lower[cl.start:min(cl.end, len(c.lower))]) {
			// "Do not delete files from `repros/`" says nothing of
			// running `repros/18012.py`.
			continue
		}
		if o.Of != "" && !c.clauseHas(occ.at, terms.Tokens(o.Of)) {
			// "No one-off kernel benchmarks in `tests/`" says nothing of
			// running `pytest tests/entrypoints/…`.
			continue
		}
		if changes[o.Verb] && !changeWord.MatchString(c.leadingTo(occ)) {
			// "Never change the volta, yarn, or package manager setup"
			// says nothing of running `yarn build`: the plan's clause
			// changes the object only with a change before it.
			continue
		}
		// "run `make fix-repo` to regenerate `modeling_x.py`": the ruled-out
		// object named after a required one in the same clause is what the
		// required step takes care of.
		if c.doneBefore(d.Do, occ, o.Kind != KindPhrase) || c.within(d.Do, occ) {
			continue
		}
		return Finding{Result: Violates, Object: o, Evidence: occ.text}
	}
	for _, o := range d.Do {
		if o.Example && (o.Kind == KindPath || o.Verb != "" && o.Verb != "use" && o.Verb != "run") {
			// "run `just fix` (in `codex-rs` directory)": a place named
			// in passing is not what the rule asks for; "Install any
			// commands the repo relies on (for example `just`, `rg`)" is
			// not followed by running `rg`.
			continue
		}
		occ := c.find(o)
		if occ == nil {
			if head := commandHead(o); head != "" {
				// "`bundle exec rspec spec/path/to/file_spec.rb:LINE`" is
				// followed by `bundle exec rspec spec/models/user_spec.rb`.
				occ = c.find(Object{Text: head, Kind: KindCode})
			} else if head := runHead(o); head != "" {
				// "With filter: `bun bd test test/js/…/serve.test.ts -t
				// "should handle"`" shows the command on one file; `bun bd
				// test test/js/web/fetch/blob.test.ts` runs it on another.
				occ = c.find(Object{Text: head, Kind: KindCode})
			}
		}
		if occ == nil {
			continue
		}
		if (o.Kind == KindPhrase && creates[o.Verb] || o.Verb == PlaceVerb) && !occ.negated && !createWord.MatchString(c.leadingTo(occ)) {
			// "Add tests for code changes" is not followed by "the existing
			// snapshot tests still pass": the plan makes a thing the rule
			// names in words, or puts one where the rule says things live,
			// only with a making verb before it.
			continue
		}
		if occ.negated {
			// "without running `make style`" declines a required command;
			// "leave CHANGELOG.md untouched" says nothing of a named thing.
			if declined == nil && (o.Kind == KindCode || o.Kind == KindFlag || o.Kind == KindPhrase && c.refusedAt(occ.at)) {
				declined, declinedObj = occ, o
			}
			continue
		}
		if did == nil {
			did, didObj = occ, o
		}
	}
	switch {
	case did != nil:
		return Finding{Result: Complies, Object: didObj, Evidence: did.text}
	case declined != nil:
		return Finding{Result: Violates, Object: declinedObj, Evidence: declined.text}
	}
	// "Favor named exports" against `export default function …`: the plan
	// writes the construct's opposite.
	if d.Polarity == Require || d.Polarity == Prefer {
		for _, o := range d.Do {
			if k, ok := constructNamed(o); ok && k.Opposite != "" {
				if occ := c.doesConstruct(constructs[k.Opposite]); occ != nil {
					return Finding{Result: Violates, Object: o, Evidence: occ.text}
				}
			}
		}
	}
	// "Errors extend `AISDKError`" against `class InvalidToolApprovalError
	// extends Error`: the plan's class has another base.
	if d.Polarity == Require || d.Polarity == Prefer {
		if o, base := c.otherBase(d.Do); base != "" {
			return Finding{Result: Violates, Object: o, Evidence: base}
		}
	}
	// "Format Go code with `gofumpt`" against "run `gofmt -w`": the plan
	// does the job with another tool of the same family.
	if d.Polarity == Require || d.Polarity == Prefer {
		used := toolsIn(c.text)
		for _, o := range d.Do {
			for _, t := range toolsIn(o.Text) {
				if r := rival(t, used); r != "" && !c.negatedTool(r) {
					return Finding{Result: Violates, Object: o, Evidence: r}
				}
			}
		}
	}
	// "Always prefer `bundle exec` for Ruby CLI tasks" against "`rspec
	// spec/x_spec.rb`": the plan runs the runner's tool bare.
	if d.Polarity == Require || d.Polarity == Prefer {
		for _, o := range d.Do {
			if t := bareRun(o.Text, c.text); t != "" && !c.negatedTool(t) {
				return Finding{Result: Violates, Object: o, Evidence: t}
			}
		}
	}
	if r.skip != "" && d.Polarity == Require && requiresStep(d) {
		return Finding{Result: Skips, Object: concreteOr(d), Evidence: r.skip}
	}
	if o := concreteDo(d); o.Text != "" && c.patterns.pattern(o) != nil && r.meets(d.When) && (!softCondition.MatchString(d.When) || c.nearMiss(o)) {
		// Under "where applicable" only a plan that comes close to the
		// object (`throw new ObjectDisposedException(…)` against
		// `ObjectDisposedException.ThrowIf`) shows it applied.
		// An object of placeholders only ("`<resource>/<method>`") is
		// never found, so its absence says nothing.
		return Finding{Result: Lacks, Object: o, Rival: c.rival(o)}
	}
	if len(d.Do) > 0 && c.onlyDoes(d.When) {
		// "Always format code before committing" against "`git commit
		// -am …` right away": the plan does what the rule's condition names
		// and nothing else.
		return Finding{Result: Lacks, Object: d.Do[0]}
	}
	if o := concreteDont(d); o.Text != "" {
		return Finding{Result: Avoids, Object: o}
	}
	return Finding{Result: Unknown}
}

// maxCandidateBytes bounds the candidate text read: a plan's first 16 KiB.
const maxCandidateBytes = 16 << 10

// concreteDont returns the first ruled-out object whose absence from a plan
// is telling (code, a flag, a path, a name), or the zero Object.
func concreteDont(d Directive) Object {
	for _, o := range d.Dont {
		if o.Kind != KindPhrase && !hasPlaceholder(o.Text) && !o.Example {
			return o
		}
	}
	return Object{}
}

// concreteDo returns the first required object that a plan either runs or
// does not (a command, a tool, a flag, a path), or the zero Object. A
// preference asks for nothing by itself: a plan that does neither side of
// "prefer `mount_sse_once` over `mount_sse_sequence`" does not break it.
func concreteDo(d Directive) Object {
	if d.Polarity != Require {
		return Object{}
	}
	for _, o := range d.Do {
		switch {
		case o.Example || keeps[o.Verb] || o.Verb == ExtendVerb || reference(o):
			// A base class is asked of the classes a plan writes: a plan
			// that writes none lacks nothing.
		case hasPlaceholder(trailingArgs.ReplaceAllString(o.Text, "")):
			// "Run Specific File: `yarn test lib/src/components/path/…`"
			// shows how to do a thing, not a step every plan takes.
			// "Preserve `.github/PULL_REQUEST_TEMPLATE.md`", "Snippet
			// templates live in `src/…/`": nothing a plan must do.
		case o.Kind == KindCode || o.Kind == KindFlag || o.Kind == KindPath:
			return o
		case o.Kind == KindName && (o.Verb == "use" || o.Verb == "run"):
			// "Use Zod for form validation": a plan that validates by hand
			// does not use it. "Follow JSDoc format" can be followed
			// without naming it.
			return o
		}
	}
	return Object{}
}

// changes are the verbs of a ruled-out object that forbid changing it,
// and changeWord how a plan changes something.
var (
	changes    = set("change", "update", "modify", "edit", "bump") // the imperatives among them (withVerb)
	changeWord = lazyRE(`(?i)\b(?:chang|updat|modif|edit|alter|touch|bump|rewrit|upgrad|downgrad|replac|patch|rais|lower|increas|decreas|remov|delet|renam|mov|tweak|swap|switch|overwrit|migrat|regenerat|writ)\w*|\b(?:set|sets|setting|pin|pins|pinning|add|adds|added|adding|fix|fixes|fixed|rm|sed|echo|open|opens|type|types|insert\w*|append\w*|put|puts|paste\w*|hand-edit\w*)\b|(?m)^[+-][^+-]`)
)

// creates are the verbs of a required object that ask for making it, and
// createWord how a plan makes something.
var (
	creates    = set("add", "write", "create", "include", "introduce", "implement")
	createWord = lazyRE(`(?i)\b(?:add|writ|wrote|creat|new|includ|introduc|implement|cover|extend|append|put|insert|generat|scaffold|mak|mad|touch|declar|defin|register|plac|mov|sav|stor)\w*|\b(?:with)\b|^\W*` + "`" + `|(?m)^[+]`)
)

// destroys are the verbs of a ruled-out object that forbid removing it,
// and destroyWord how a plan removes something.
var (
	destroys    = set("delete", "remove", "drop", "erase", "purge", "wipe", "truncate", "clear", "clean")
	destroyWord = lazyRE(`(?i)\b(?:delete[sd]?|deleting|remove[sd]?|removing|rm|rmdir|unlink|drop(?:s|ped|ping)?|erase[sd]?|purge[sd]?|wipe[sd]?|truncate[sd]?|clear(?:s|ed|ing)?|clean(?:s|ed|ing)?(?: up)?|get rid of)\b`)
)

// reference reports a document a rule points to ("follow the instructions
// in `./instructions/components.instructions.md`"): reading it is not a
// step a plan names.
func reference(o Object) bool {
	if o.Kind != KindPath {
		return false
	}
	t := strings.ToLower(strings.TrimRight(o.Text, ")"))
	return strings.HasSuffix(t, ".md") || strings.HasSuffix(t, ".mdx") || strings.HasSuffix(t, ".rst") ||
		strings.HasSuffix(t, ".txt") || strings.HasPrefix(t, "http")
}

// keeps are the verbs of a required object that ask to leave it be or say
// where things go: a plan that does not name it lacks nothing.
var keeps = set("preserve", "keep", "retain", "maintain", "respect", "stay", PlaceVerb)

// concreteOr returns concreteDo(d), or else the first required object.
func concreteOr(d Directive) Object {
	if o := concreteDo(d); o.Text != "" {
		return o
	}
	return d.Do[0]
}

// stepVerbs are the imperatives of a rule that asks for a step of work
// (run the generator, build, format, activate the environment) rather than
// for a form or a place: a plan can go ahead without a step.
var stepVerbs = set("run", "use", "build", "format", "lint", "test", "generate", "regenerate", "activate", "ensure",
	"install", "verify", "validate", "check", "update", "set", "add", "ask", "execute", "source", "review",
	// "Always run `./php-cs-fixer.sh core`": the parser's verb is the
	// habitual adverb that opens the rule.
	"always")

// requiresStep reports whether d asks for a step of work: it has a
// condition ("before committing", "after changing queries") or one of its
// required objects is governed by a step verb.
func requiresStep(d Directive) bool {
	if len(d.Do) == 0 {
		return false
	}
	if d.When != "" {
		return true
	}
	for _, o := range d.Do {
		if stepVerbs[o.Verb] {
			return true
		}
	}
	return false
}
