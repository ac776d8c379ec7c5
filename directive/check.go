package directive

import (
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
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

// Patterns caches the compiled patterns of objects. The zero value is ready
// to use; it is safe for concurrent use and grows with the distinct objects
// of the rules checked (bounded by the knowledge base's rules).
type Patterns struct {
	m sync.Map // object text → *regexp.Regexp (nil when it does not compile)
}

// pattern returns the compiled pattern of o, from the cache when there is one.
func (p *Patterns) pattern(o Object) *regexp.Regexp {
	if p == nil {
		return objectPattern(o)
	}
	if v, ok := p.m.Load(o.Text); ok {
		return v.(*regexp.Regexp)
	}
	re := objectPattern(o)
	p.m.Store(o.Text, re)
	return re
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
		// "run `make fix-repo` to regenerate `modeling_x.py`": the ruled-out
		// object named after a required one in the same clause is what the
		// required step takes care of.
		if c.doneBefore(d.Do, occ) || c.within(d.Do, occ) {
			continue
		}
		return Finding{Result: Violates, Object: o, Evidence: occ.text}
	}
	for _, o := range d.Do {
		occ := c.find(o)
		if occ == nil {
			if head := commandHead(o); head != "" {
				// "`bundle exec rspec spec/path/to/file_spec.rb:LINE`" is
				// followed by `bundle exec rspec spec/models/user_spec.rb`.
				occ = c.find(Object{Text: head, Kind: KindCode})
			}
		}
		if occ == nil {
			continue
		}
		if occ.negated {
			// "without running `make style`" declines a required command;
			// "leave CHANGELOG.md untouched" says nothing of a named thing.
			if declined == nil && (o.Kind == KindCode || o.Kind == KindFlag) {
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
	if o := concreteDo(d); o.Text != "" && c.reaches(d.When) {
		return Finding{Result: Lacks, Object: o}
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

// negatedTool reports whether every mention of tool in the candidate is in
// a negated part of its clause ("instead of npm").
func (c *candidate) negatedTool(tool string) bool {
	locs := c.locateName(tool)
	if len(locs) == 0 {
		return false
	}
	for _, l := range locs {
		if !c.negatedAt(l[0]) {
			return false
		}
	}
	return true
}

// trailingArgs is the "..." that stands for a command's arguments in a
// rule ("`RUN_SLOW=1 pytest ...`"): the command before it is concrete.
var trailingArgs = regexp.MustCompile(`\s*(\.\.\.|…|<[\w-]+>)\s*$`)

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
// does not (a command, a tool, a flag, a path), or the zero Object.
func concreteDo(d Directive) Object {
	if d.Polarity != Require && d.Polarity != Prefer {
		return Object{}
	}
	for _, o := range d.Do {
		switch {
		case o.Example || keeps[o.Verb] || reference(o):
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

// destroys are the verbs of a ruled-out object that forbid removing it,
// and destroyWord how a plan removes something.
var (
	destroys    = set("delete", "remove", "drop", "erase", "purge", "wipe", "truncate", "clear", "clean")
	destroyWord = regexp.MustCompile(`(?i)\b(?:delete[sd]?|deleting|remove[sd]?|removing|rm|rmdir|unlink|drop(?:s|ped|ping)?|erase[sd]?|purge[sd]?|wipe[sd]?|truncate[sd]?|clear(?:s|ed|ing)?|clean(?:s|ed|ing)?(?: up)?|get rid of)\b`)
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

// skipCue is how a plan says it goes ahead without a step: without doing
// a step or anything ("without running anything", "without regenerating",
// "without any checks"), at once ("right away", "immediately", "straight
// to"), by hand, or by skipping. Read on the lower-cased text.
var skipCue = regexp.MustCompile(`\bwithout (?:any(?:thing)?\b|(?:running|regenerating|generating|compiling|building|testing|formatting|linting|checking|verifying|validating|updating|activating|reviewing|asking|discussing)\b)` +
	`|\b(?:right away|immediately|straight (?:to|away)|by hand|manually|hand-made|handmade|hand-written|handwritten|hand-rolled|skip|skipping)\b`)

// earlyExit are the verbs of an early return just before "immediately"
// ("return immediately when the list is empty"): control flow, not a
// skipped step.
var earlyExit = set("return", "returns", "exit", "exits", "fail", "fails", "bail", "bails", "stop", "stops",
	"abort", "aborts", "throw", "throws", "break", "continue", "yield", "out")

// skipWords are the words one of which every skipCue holds: a candidate
// without any is not run through the expression.
var skipWords = []string{"without", "right away", "immediately", "straight", "hand", "manually", "skip"}

// skips returns the words by which the candidate goes ahead without a
// step, outside code spans and not itself negated ("I won't push right
// away"), or "".
func (c *candidate) skips() string {
	if !slices.ContainsFunc(skipWords, func(w string) bool { return strings.Contains(c.lower, w) }) {
		return ""
	}
	for _, m := range skipCue.FindAllStringIndex(c.lower, -1) {
		if insideCode(c.text, m[0]) || earlyExit[lastWord(c.lower[:m[0]])] || !inProse(c.text, m[0], m[1]) {
			continue
		}
		// A negation other than the cue's own "without" or "skip" before
		// it in the clause turns it around.
		cl := c.clauseAt(m[0])
		turned := false
		for _, n := range cl.negated {
			if n < m[0] {
				turned = true
			}
		}
		if !turned {
			return c.text[m[0]:m[1]]
		}
	}
	return ""
}

// inProse reports whether s[i:j] is words of prose: not part of a flag or
// an identifier (`--skip-slow`, `skip_empty`, `t.Skip(`), and on a line
// that, its backticked spans aside, does not read as code and is not a
// comment (a file's content or a command a hook reads: `// skip blank
// lines` above a loop, `continue // skip`).
func inProse(s string, i, j int) bool {
	if i > 0 && strings.IndexByte("-_./($", s[i-1]) >= 0 || j < len(s) && strings.IndexByte("-_(", s[j]) >= 0 {
		return false
	}
	start := strings.LastIndexByte(s[:i], '\n') + 1
	end := strings.IndexByte(s[j:], '\n')
	if end < 0 {
		end = len(s)
	} else {
		end += j
	}
	line := codeSpan.ReplaceAllString(s[start:end], "``")
	before := codeSpan.ReplaceAllString(s[start:i], "``")
	return !codeLike.MatchString(line) && !strings.ContainsAny(line, ";{}") && !strings.Contains(before, "//") &&
		!strings.HasPrefix(strings.TrimSpace(line), "#")
}

// codeSpan is a backticked span.
var codeSpan = regexp.MustCompile("`[^`]*`")

// lastWord returns the last run of ASCII letters in s, ignoring trailing
// spaces.
func lastWord(s string) string {
	s = strings.TrimRight(s, " \t")
	i := len(s)
	for i > 0 && (s[i-1] >= 'a' && s[i-1] <= 'z' || s[i-1] >= 'A' && s[i-1] <= 'Z') {
		i--
	}
	return s[i:]
}

// candidate is a candidate's text prepared for matching.
type candidate struct {
	patterns *Patterns // nil: compile each time
	text     string
	lower    string
	clauses  []clauseSpan
	toks     []tokenAt
}

type clauseSpan struct {
	start, end int
	negated    []int // offsets after which the clause is negated ("without …")
}

type tokenAt struct {
	term  string
	start int
	// part is set for a term read out of an identifier, a path or a
	// quoted string (`fetch_latest_version`, `crates/biome_js/`, a commit
	// message): not the plan's own prose.
	part bool
}

type occurrence struct {
	text    string
	at      int
	negated bool
}

// doneBefore reports whether one of objects occurs, not negated, before occ
// in occ's clause.
func (c *candidate) doneBefore(objects []Object, occ *occurrence) bool {
	cl := c.clauseAt(occ.at)
	for _, o := range objects {
		for _, loc := range c.locate(o) {
			if loc[0] < occ.at && loc[0] >= cl.start && !c.negatedAt(loc[0]) {
				return true
			}
		}
	}
	return false
}

// within reports whether occ lies inside an occurrence of one of objects:
// `infra/website/docs/blog/x.md` holds the required `/infra/website/docs/blog/`,
// not the ruled-out `docs/blog/`.
func (c *candidate) within(objects []Object, occ *occurrence) bool {
	for _, o := range objects {
		for _, loc := range c.locate(o) {
			if loc[0] < occ.at && occ.at < loc[1] {
				return true
			}
		}
	}
	return false
}

// clauseAt returns the clause holding offset i.
func (c *candidate) clauseAt(i int) clauseSpan {
	for _, cl := range c.clauses {
		if i >= cl.start && i < max(cl.end, cl.start+1) {
			return cl
		}
	}
	return clauseSpan{start: 0, end: len(c.text)}
}

var candClauseSplit = regexp.MustCompile(`[.!?;](?:\s+|$)|\n+|,\s+(?:then|and then|but)\s+|\s+and then\s+|\s+then\s+`)

// negationWords make the rest of a candidate's clause a thing not done
// ("without running", "won't push", "instead of npm"); negationPairs are
// the two-word forms. Read on lower-cased ASCII words.
var (
	negationWords = set("without", "don't", "dont", "won't", "wont", "never", "not", "no", "skip", "skipping",
		"skipped", "avoid", "avoiding", "untouched", "omit", "omitting", "refuse", "isn't", "aren't", "shouldn't",
		"instead", "rather", "refrain")
	negationCJK = []string{"不要", "不", "别", "しない", "ない"}
)

// negations returns the offsets in s[start:end] where a negation starts,
// outside code spans.
func negations(s string, lower string, start, end int) []int {
	var out []int
	for _, m := range negWord.FindAllStringIndex(lower[start:end], -1) {
		if negationWords[lower[start+m[0]:start+m[1]]] && !insideCode(s, start+m[0]) {
			out = append(out, start+m[0])
		}
	}
	if !isASCII(s[start:end]) {
		for _, cue := range negationCJK {
			if i := strings.Index(s[start:end], cue); i >= 0 {
				out = append(out, start+i)
			}
		}
	}
	return out
}

var negWord = regexp.MustCompile(`[a-z]+(?:'t)?`)

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// leaveAlone marks a clause that leaves its object alone.
var leaveAlone = regexp.MustCompile(`(?i)\b(leave|leaving|keep|keeping|left)\b.*\b(untouched|alone|as is|as-is|unchanged|out|uncommitted|unstaged|unpushed|in place)\b`)

func newCandidate(s string) *candidate {
	c := &candidate{text: s, lower: terms.LowerASCII(s)}
	start := 0
	for _, loc := range append(candClauseSplit.FindAllStringIndex(s, -1), []int{len(s), len(s)}) {
		cl := clauseSpan{start: start, end: loc[0]}
		cl.negated = append(cl.negated, negations(s, c.lower, start, loc[0])...)
		// "leave X untouched", "keep X out": the clause does nothing to X.
		if leaveAlone.MatchString(s[start:loc[0]]) {
			cl.negated = append(cl.negated, start)
		}
		c.clauses = append(c.clauses, cl)
		start = loc[1]
	}
	quoted := quotedSpans(s)
	for _, m := range wordRE.FindAllStringIndex(s, -1) {
		part := isIdentifier(s[m[0]:m[1]]) || inPath(s, m[0], m[1]) || inSpans(quoted, m[0])
		for _, t := range terms.Tokens(s[m[0]:m[1]]) {
			c.toks = append(c.toks, tokenAt{term: t, start: m[0], part: part})
		}
	}
	return c
}

// insideCode reports whether offset i of s is inside a `code` span.
func insideCode(s string, i int) bool {
	return strings.Count(s[:i], "`")%2 == 1
}

// negatedAt reports whether the text at offset i is in a negated part of its
// clause.
func (c *candidate) negatedAt(i int) bool {
	for _, cl := range c.clauses {
		if i < cl.start || i >= cl.end && cl.end > cl.start {
			continue
		}
		for _, n := range cl.negated {
			if n <= i {
				return true
			}
		}
		return false
	}
	return false
}

// find returns the first occurrence of o in the candidate, preferring one
// that is not negated; nil when there is none.
func (c *candidate) find(o Object) *occurrence {
	var first *occurrence
	for _, loc := range c.locate(o) {
		occ := &occurrence{text: c.text[loc[0]:loc[1]], at: loc[0], negated: c.negatedAt(loc[0])}
		if !occ.negated {
			return occ
		}
		if first == nil {
			first = occ
		}
	}
	return first
}

// locate returns where o occurs in the candidate.
func (c *candidate) locate(o Object) [][]int {
	switch o.Kind {
	case KindPhrase:
		return c.locatePhrase(o.Text)
	case KindName:
		if locs := c.locateName(o.Text); len(locs) > 0 {
			return locs
		}
		if locs := c.locatePhrase(o.Text); len(locs) > 0 {
			return locs
		}
	}
	re := c.patterns.pattern(o)
	if re == nil {
		return nil
	}
	return re.FindAllStringIndex(c.text, 8)
}

// maxNameSites bounds the places locateName reports for one name.
const maxNameSites = 8

// locateName finds a name as a word or as a part of a CamelCase or
// snake_case identifier, singular or plural: "ViewModels" in "ListsViewModel", at most
// maxNameSites times.
func (c *candidate) locateName(name string) [][]int {
	base := name
	if len(base) > 4 && strings.HasSuffix(base, "s") && !strings.HasSuffix(base, "ss") {
		base = base[:len(base)-1]
	}
	lb := terms.LowerASCII(base)
	var out [][]int
	for i := 0; i+len(lb) <= len(c.lower) && len(out) < maxNameSites; {
		j := strings.Index(c.lower[i:], lb)
		if j < 0 {
			break
		}
		at := i + j
		end := at + len(lb)
		if end < len(c.lower) && c.lower[end] == 's' {
			end++
		}
		// A part of a snake_case name counts too ("Riverpod" in
		// `flutter_riverpod`), but not one of a path's (`crates/biome_js/`
		// does not name Biome).
		snake := !inPath(c.text, at, end)
		leftOK := at == 0 || !isWordByte(c.text[at-1]) || snake && c.text[at-1] == '_' || isUpperByte(c.text[at]) && !isUpperByte(c.text[at-1])
		rightOK := end == len(c.text) || !isWordByte(c.text[end]) || snake && c.text[end] == '_' || isUpperByte(c.text[end])
		if leftOK && rightOK {
			out = append(out, []int{at, end})
		}
		i = at + 1
	}
	return out
}

func isUpperByte(b byte) bool { return b >= 'A' && b <= 'Z' }

// quotedSpans returns where double-quoted strings are: a commit message, a
// label or a log line says something, it does not do it ("retry failed
// deliveries" in a commit message adds no retries).
func quotedSpans(s string) [][]int {
	return doubleQuoted.FindAllStringIndex(s, -1)
}

var doubleQuoted = regexp.MustCompile(`"[^"\n]{0,400}"|“[^”\n]{0,400}”`)

func inSpans(spans [][]int, at int) bool {
	for _, sp := range spans {
		if at > sp[0] && at < sp[1] {
			return true
		}
	}
	return false
}

// inPath reports whether text[at:end] is part of a path: the run of
// non-space characters around it holds a slash.
func inPath(text string, at, end int) bool {
	for i := at - 1; i >= 0 && !unicode.IsSpace(rune(text[i])) && text[i] != '`'; i-- {
		if text[i] == '/' || text[i] == '\\' {
			return true
		}
	}
	for i := end; i < len(text) && !unicode.IsSpace(rune(text[i])) && text[i] != '`'; i++ {
		if text[i] == '/' || text[i] == '\\' {
			return true
		}
	}
	return false
}

// locatePhrase finds the phrase's content terms together in one clause,
// in its prose: a rule's words are not read out of an identifier or a path
// ("latest versions" is not in `fetch_latest_version`).
func (c *candidate) locatePhrase(phrase string) [][]int {
	want := terms.Tokens(phrase)
	if len(want) == 0 {
		return nil
	}
	var out [][]int
	for _, cl := range c.clauses {
		first, found := -1, 0
		for _, w := range want {
			for _, t := range c.toks {
				if !t.part && t.start >= cl.start && t.start < max(cl.end, cl.start+1) && t.term == w {
					if first < 0 || t.start < first {
						first = t.start
					}
					found++
					break
				}
			}
		}
		if found == len(want) && first >= 0 {
			end := first + len(want[0])
			out = append(out, []int{first, min(end, len(c.text))})
		}
	}
	return out
}

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

// beforeCondition is a rule's "before …" condition.
var beforeCondition = regexp.MustCompile(`(?i)^before\b`)

// reaches reports whether the candidate gets to the point a rule's "before
// X" condition names (it commits, pushes, opens the PR): "run `go test`
// before committing" says nothing of a plan that only runs `go vet`. A
// condition of another form, or none, is always reached.
func (c *candidate) reaches(when string) bool {
	if !beforeCondition.MatchString(when) {
		return true
	}
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
// terms but the step words ("before", "run", "any", "the", …).
func pointTerms(when string) map[string]bool {
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
	if !beforeCondition.MatchString(when) {
		return false
	}
	want := pointTerms(when)
	if len(want) == 0 {
		return false
	}
	acting := 0
	for _, cl := range actClauses.Split(c.text, -1) {
		lc := terms.LowerASCII(strings.TrimSpace(cl))
		w := firstWord(leadIn.ReplaceAllString(lc, ""))
		code := strings.HasPrefix(strings.TrimSpace(cl), "`")
		if !(imperatives[w] || actions[w] || programs[w] || code) {
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

// stepWords are the words of a condition that name no action.
var stepWords = set("befor", "before", "run", "ani", "any", "you", "your", "the", "a", "an", "task", "session", "chang", "code")

// actClauses splits a candidate where a new action may start.
var actClauses = regexp.MustCompile(`[.!?;:](?:\s+|$)|\n\s*|,\s*(?:and\s+|then\s+|so\s+)?|\s+(?:and|then|so)\s+`)

// sentenceEnd ends a sentence of a plan.
var sentenceEnd = regexp.MustCompile(`[.!?;](?:\s+|$)|\n\s*`)

// checkIn is "check in", "check out" or "check `code`", which change
// something (the last writes the check).
var checkIn = regexp.MustCompile("^\\s*(?:\\S+\\s+)?check\\s+(?:in\\b|out\\b|`)")

// whWord opens what an investigative verb asks about ("explain how …",
// "summarize what …").
var whWord = regexp.MustCompile(`\b(?:how|what|why|where|which|when|whether|who|if)\b`)

// leadIn is what precedes the verb of a plan's clause: "I'll", "we will",
// "first", "just".
var leadIn = regexp.MustCompile(`^(?:(?:i|we)(?:'ll| will| would| am going to| are going to| plan to)?\s+|let's\s+|first,?\s+|just\s+|then\s+|now\s+|also\s+|simply\s+|only\s+|finally,?\s+)+`)

// codeLike is text that is code rather than prose: calls, assignments,
// blocks, operators.
var codeLike = regexp.MustCompile(`[\w)\]]\(|[=!]=|\{.*\}|=>|->|::|\$\w|\s=\s|\w\.\w+\(`)

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

// placeholderWords stand for any value in a rule's example: "type(scope):
// message", `<name>`, "tests/<dir>/XxxTest.php".
var placeholderWords = set("type", "scope", "message", "msg", "description", "desc", "summary", "subject", "name",
	"module", "feature", "username", "user", "package", "pkg", "file", "filename", "path", "dir", "directory",
	"value", "val", "key", "id", "version", "number", "num", "foo", "bar", "baz", "thing", "something", "component",
	"classname", "class", "function", "func", "method", "arg", "args", "param", "params", "title", "text", "branch",
	"issue", "ticket", "data", "x", "y", "z", "n", "item", "items", "my", "example", "your", "project", "service",
	"resource", "model", "table", "field", "tag", "env", "command", "cmd", "app", "lib", "test", "tests", "target",
	"variable", "var")

// placeholderCount counts the lower-case placeholder words of s.
func placeholderCount(s string) int {
	n := len(issueNumber.FindAllStringIndex(s, -1))
	for _, w := range letterRun.FindAllString(s, -1) {
		if placeholderWords[w] || placeholderWords[strings.ToLower(w)] && titleCase(w) {
			n++
		}
	}
	return n
}

var letterRun = regexp.MustCompile(`[a-zA-Z]+`)

// titleCase reports a word with one capital, its first letter
// ("Description").
func titleCase(w string) bool {
	return len(w) > 1 && isUpperByte(w[0]) && strings.ToLower(w[1:]) == w[1:]
}

// issueNumber is an issue or pull request number in an example ("Fix
// #12345: Description"): it stands for any number.
var issueNumber = regexp.MustCompile(`#\d{2,}\b`)

// htmlTags are tag names that are code, not placeholders, in `<tag>`.
var htmlTags = set("a", "b", "i", "p", "br", "hr", "div", "span", "img", "script", "style", "template", "html",
	"head", "body", "slot", "button", "input", "form", "table", "tr", "td", "th", "ul", "ol", "li", "section",
	"main", "header", "footer", "nav", "h1", "h2", "h3", "h4", "h5", "h6", "meta", "link", "title", "label",
	"select", "option", "textarea", "svg", "path", "code", "pre", "em", "strong", "iframe", "video", "audio",
	"canvas", "article", "aside", "details", "summary", "dialog", "picture", "source", "env")

// isPlaceholderTag reports whether s opens with a placeholder such as
// `<name>` or `<ClassName>`, as opposed to markup such as `<script setup>`
// or `<div>`.
func isPlaceholderTag(s string) bool {
	j := strings.IndexByte(s, '>')
	if j < 2 {
		return false
	}
	inner := s[1:j]
	if strings.ContainsAny(inner, " \t=\"'/<") {
		return false
	}
	return !htmlTags[strings.ToLower(inner)]
}

// hasPlaceholder reports whether an object's text holds a placeholder:
// "...", a glob star, `<name>`, `{package}` or XxxName.
func hasPlaceholder(s string) bool {
	if strings.ContainsAny(s, "*…") || strings.Contains(s, "...") || strings.Contains(s, "Xxx") || braceWord.MatchString(s) ||
		pathPlaceholder.MatchString(s) {
		return true
	}
	for i := strings.IndexByte(s, '<'); i >= 0; {
		if isPlaceholderTag(s[i:]) {
			return true
		}
		j := strings.IndexByte(s[i+1:], '<')
		if j < 0 {
			break
		}
		i += j + 1
	}
	return false
}

// commandHead returns the words of a command with placeholders before its
// first placeholder ("bundle exec rspec" of `bundle exec rspec
// spec/path/to/file_spec.rb:LINE_NUMBER`), when there are at least two
// and the first names a program; otherwise "".
func commandHead(o Object) string {
	if o.Kind != KindCode || !hasPlaceholder(o.Text) {
		return ""
	}
	var head []string
	for _, f := range strings.Fields(o.Text) {
		if hasPlaceholder(f) || upperPlaceholder.MatchString(f) || strings.ContainsAny(f, "<>{}") {
			break
		}
		head = append(head, f)
	}
	if len(head) < 2 || !programs[strings.ToLower(head[0])] {
		return ""
	}
	return strings.Join(head, " ")
}

// upperPlaceholder is an upper-case stand-in in a command: LINE_NUMBER,
// `PATH`, `TEST_NAME`.
var upperPlaceholder = regexp.MustCompile(`[A-Z]{2,}(?:_[A-Z]+)+|^[A-Z]{4,}$`)

// pathPlaceholder is a path's stand-in segment: `tests/path/to/test.py`,
// `lib/src/components/path/component.test.tsx`, `your_module/`.
var pathPlaceholder = regexp.MustCompile(`(?i)(?:^|[/\\\s])(?:path/to|path|your[_-]?\w*|my[_-]\w+|foo|bar|example)[/\\]`)

// braceWord is a `{placeholder}` in a path or command.
var braceWord = regexp.MustCompile(`\{[\w-]+\}`)

// objectPattern compiles an object into a case-insensitive pattern:
// placeholders match any text of their shape, white space is flexible,
// and a word at either end of the object must be a whole word.
func objectPattern(o Object) *regexp.Regexp {
	s := strings.TrimSpace(o.Text)
	if s == "" || len(s) > 4*maxObjectBytes {
		return nil
	}
	var b strings.Builder
	b.WriteString(`(?i)`)
	if o.Kind == KindPath && len(s) > 1 && s[0] == '/' && isWordByte(s[1]) {
		// "/infra/website/docs/blog/" is rooted at the repository:
		// `infra/website/docs/blog/post.md` is in it.
		s = s[1:]
		b.WriteString(`/?`)
	}
	if r := rune(s[0]); unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' {
		b.WriteString(`(?:^|[^\w-])`)
	}
	// Common words stand for values only in an example built of several
	// of them ("type(scope): message", `data["key"]`), never alone (`.test`).
	structured := strings.ContainsAny(s, "()[]:=.{}<>/\\-") && placeholderCount(s) >= 2
	for i := 0; i < len(s); {
		switch {
		case s[i] == '<' && isPlaceholderTag(s[i:]):
			j := strings.IndexByte(s[i:], '>')
			b.WriteString(`[^\s]{1,60}?`)
			i += j + 1
		case strings.HasPrefix(s[i:], "{}"):
			// An empty initializer in a rule stands for any: `new
			// List<T>{}` is `new List<string> { "a" }`.
			b.WriteString(`\s*\{[^{}]*\}`)
			i += 2
		case strings.HasPrefix(s[i:], "()"):
			// An empty call in a rule stands for a call with any arguments.
			b.WriteString(`\([^()]*\)`)
			i += 2
		case s[i] == '{' && strings.IndexByte(s[i:], '}') > 1 && !strings.Contains(s[i:i+strings.IndexByte(s[i:], '}')], " "):
			j := strings.IndexByte(s[i:], '}')
			if i > 0 && s[i-1] == '$' {
				// "${VARIABLE}": the braces are the shell's, the name a
				// placeholder.
				b.WriteString(`\{[^\s{}]{1,60}?\}`)
			} else {
				b.WriteString(`[^\s]{1,60}?`)
			}
			i += j + 1
		case strings.HasPrefix(s[i:], "..."):
			b.WriteString(`.{0,80}?`)
			i += 3
		case strings.HasPrefix(s[i:], "…"):
			b.WriteString(`.{0,80}?`)
			i += len("…")
		case s[i] == '*':
			b.WriteString(`[^\s]{0,60}?`)
			i++
		case s[i] == '#' && issueNumber.MatchString(s[i:]) && issueNumber.FindStringIndex(s[i:])[0] == 0:
			b.WriteString(`#\d+`)
			i += issueNumber.FindStringIndex(s[i:])[1]
		case s[i] == '"' || s[i] == '\'':
			// A string literal in an example stands for any argument.
			q := s[i]
			j := strings.IndexByte(s[i+1:], q)
			if j < 0 {
				b.WriteString(regexp.QuoteMeta(string(q)))
				i++
				continue
			}
			b.WriteString(`(?:"[^"]*"|'[^']*'|[\w.]+)`)
			i += j + 2
		case s[i] == '/' || s[i] == '\\':
			b.WriteString(`[/\\]`)
			i++
		case s[i] == ' ' || s[i] == '\t':
			for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
				i++
			}
			b.WriteString(`\s*`)
		case isWordByte(s[i]):
			j := i
			for j < len(s) && isWordByte(s[j]) {
				j++
			}
			w := s[i:j]
			switch {
			case strings.HasPrefix(w, "Xxx") || strings.HasPrefix(w, "XXX"):
				b.WriteString(`\w*` + regexp.QuoteMeta(w[3:]))
			case structured && placeholderWords[strings.ToLower(w)] && (strings.ToLower(w) == w || titleCase(w)):
				b.WriteString(`[\w-]+`)
			case i > 0 && s[i-1] == '$' && placeholderWords[strings.ToLower(w)] && strings.ToUpper(w) == w:
				// "$VARIABLE", "$NAME": a shell variable, any name.
				b.WriteString(`[A-Za-z_]\w*`)
			default:
				b.WriteString(regexp.QuoteMeta(w))
			}
			i = j
		default:
			b.WriteString(regexp.QuoteMeta(s[i : i+1]))
			i++
		}
	}
	if r := rune(s[len(s)-1]); unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' {
		b.WriteString(`(?:$|[^\w])`)
	}
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil
	}
	return re
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
