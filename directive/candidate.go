package directive

import (
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/innate-mcp/innate-mcp/terms"
)

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

// skipCue is how a plan says it goes ahead without a step: without doing
// a step or anything ("without running anything", "without regenerating",
// "without any checks"), at once ("right away", "immediately", "straight
// to"), by hand, or by skipping. Read on the lower-cased text.
var skipCue = lazyRE(`\bwithout (?:any(?:thing)?\b|(?:running|regenerating|generating|compiling|building|testing|formatting|linting|checking|verifying|validating|updating|activating|reviewing|asking|discussing)\b)` +
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
var codeSpan = lazyRE("`[^`]*`")

// maskSpans hides what the code spans of s hold behind c, keeping every
// offset: their commas, dots and words part nothing and say nothing.
func maskSpans(s, c string) string {
	return codeSpan.ReplaceAllStringFunc(s, func(m string) string { return strings.Repeat(c, len(m)) })
}

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
	// paths are the runs of the text that are paths (no space, a slash),
	// in order.
	paths spans
}

// spans are ordered, disjoint [start, end) ranges of a text.
type spans [][]int

// holds reports whether offset at lies inside one of the spans, in
// O(log n).
func (s spans) holds(at int) bool {
	i := sort.Search(len(s), func(i int) bool { return s[i][1] > at })
	return i < len(s) && s[i][0] <= at
}

type clauseSpan struct {
	start, end int
	negated    []int // offsets after which the clause is negated ("without …")
}

// holds reports whether offset i is in the clause (an empty clause holds
// its start).
func (cl clauseSpan) holds(i int) bool { return i >= cl.start && i < max(cl.end, cl.start+1) }

// leadingTo returns the lower-cased text of occ's clause up to and
// including occ: where the verb that acts on it stands.
func (c *candidate) leadingTo(occ *occurrence) string {
	cl := c.clauseAt(occ.at)
	return c.lower[min(cl.start, occ.at):min(occ.at+len(occ.text), len(c.lower))]
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
// in occ's clause; for a concrete occ (code, a path, a name) only objects
// that are themselves concrete count.
func (c *candidate) doneBefore(objects []Object, occ *occurrence, concrete bool) bool {
	cl := c.clauseAt(occ.at)
	for _, o := range objects {
		if o.Kind == KindPhrase && concrete {
			// A step named in words ("Import directly from source
			// files") does not take care of a named module.
			continue
		}
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
		if o.Kind == KindPhrase || o.Kind == KindName {
			continue // words, not a place or a name that holds another
		}
		for _, loc := range c.locate(o) {
			// Inside, or at the start of a longer one:
			// `@calcom/ui/components/button` is not `@calcom/ui`.
			if loc[0] <= occ.at && occ.at < loc[1] && (loc[0] < occ.at || loc[1]-loc[0] > len(occ.text)) {
				return true
			}
		}
	}
	return false
}

// clauseAt returns the clause holding offset i.
func (c *candidate) clauseAt(i int) clauseSpan {
	for _, cl := range c.clauses {
		if cl.holds(i) {
			return cl
		}
	}
	return clauseSpan{start: 0, end: len(c.text)}
}

var candClauseSplit = lazyRE(`[.!?;](?:\s+|$)|\n+|,\s+(?:then|and then|but)\s+|\s+and then\s+|\s+then\s+`)

// negationWords make the rest of a candidate's clause a thing not done
// ("without running", "won't push", "instead of npm"); negationPairs are
// the two-word forms. Read on lower-cased ASCII words.
var (
	negationWords = set("without", "don't", "dont", "won't", "wont", "never", "not", "no", "skip", "skipping",
		"skipped", "avoid", "avoiding", "untouched", "omit", "omitting", "refuse", "isn't", "aren't", "shouldn't",
		"instead", "rather", "refrain")
	negationCJK = []string{"不要", "不", "别", "しない", "ない"}
)

// clauseHas reports whether the clause at i holds one of the terms in its
// prose, or the path at i holds one
// (`providers/google/newsfragments/1.rst` holds a newsfragment).
func (c *candidate) clauseHas(i int, want []string) bool {
	cl := c.clauseAt(i)
	for i < len(c.text) && (unicode.IsSpace(rune(c.text[i])) || strings.IndexByte("`'\"(>", c.text[i]) >= 0) {
		i++ // an occurrence may open with the character before the object
	}
	runStart, runEnd := i, i
	for runStart > 0 && !unicode.IsSpace(rune(c.text[runStart-1])) && c.text[runStart-1] != '`' {
		runStart--
	}
	for runEnd < len(c.text) && !unicode.IsSpace(rune(c.text[runEnd])) && c.text[runEnd] != '`' {
		runEnd++
	}
	for _, t := range c.toks {
		inClause := !t.part && cl.holds(t.start)
		inPath := t.start >= runStart && t.start < runEnd
		if (inClause || inPath) && slices.Contains(want, t.term) {
			return true
		}
	}
	return false
}

// rival returns a name the candidate writes in the place of an object, or
// "": for an object that is one CamelCase name (`PageTestHarness`,
// `core::AppError` by its last part), another name of the candidate that
// ends in the same word of four letters or more and differs before it
// (`LegacyBrowserHarness`): a thing of the same kind, chosen instead. A
// name the object holds, or one that holds the object, is no rival.
func (c *candidate) rival(o Object) string {
	if o.Kind != KindCode || strings.ContainsAny(o.Text, " <>()[]{}/\\") {
		return ""
	}
	name := o.Text
	if i := strings.LastIndexAny(name, ".:"); i >= 0 {
		name = name[i+1:]
	}
	tail := camelTail(name)
	if tail == "" || tail == name {
		return ""
	}
	for _, w := range identRE.FindAllString(c.text, -1) {
		if w != name && camelTail(w) == tail && !strings.Contains(w, name) && !strings.Contains(name, w) {
			return w
		}
	}
	return ""
}

// identRE is a name in code.
var identRE = lazyRE(`[A-Za-z_][A-Za-z0-9_]*`)

// camelTail is the last word of a CamelCase name, of four letters or more
// ("Harness" of `PageTestHarness`); "" for a name that is not CamelCase.
func camelTail(name string) string {
	if name == "" {
		return ""
	}
	i := len(name) - 1
	for i > 0 && !isUpperByte(name[i]) {
		i--
	}
	tail := name[i:]
	if i == 0 && !isUpperByte(name[0]) || len(tail) < 4 || strings.ToUpper(tail) == tail {
		return ""
	}
	return tail
}

// nearMiss reports whether the candidate names the head of an object it
// does not hold: the first part of a dotted name, a path or a command, of
// at least four letters (`ObjectDisposedException` of
// `ObjectDisposedException.ThrowIf`).
func (c *candidate) nearMiss(o Object) bool {
	head := o.Text
	if f := strings.Fields(head); len(f) > 1 {
		// A command: its program and first word (`prefect server` of
		// `prefect server start`), the program alone being the project's.
		head = f[0] + " " + f[1]
	} else if i := strings.IndexAny(head, ".:/("); i >= 0 {
		head = head[:i]
	}
	return len(head) >= 4 && strings.Contains(c.lower, terms.LowerASCII(head))
}

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

var negWord = lazyRE(`[a-z]+(?:'t)?`)

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// leaveAlone marks a clause that leaves its object alone.
var leaveAlone = lazyRE(`(?i)\b(leave|leaving|keep|keeping|left)\b.*\b(untouched|alone|as is|as-is|unchanged|out|uncommitted|unstaged|unpushed|in place)\b`)

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
	c.paths = pathRun.FindAllStringIndex(s, -1)
	// A commit message, a label or a log line says something, it does not
	// do it ("retry failed deliveries" in a commit message adds no
	// retries).
	quoted := spans(doubleQuoted.FindAllStringIndex(s, -1))
	for _, m := range wordRE.FindAllStringIndex(s, -1) {
		part := isIdentifier(s[m[0]:m[1]]) || c.paths.holds(m[0]) || quoted.holds(m[0])
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

// classBase finds a class declared with a base: `class X extends Y`
// (TypeScript, Java, PHP), `class X(Y):` (Python), `class X : Y` (C#,
// Kotlin, Swift), `class X < Y` (Ruby). The base is group 1.
var classBase = lazyRE(`\bclass\s+[A-Z]\w*(?:<[^>]*>)?\s*(?:extends\s+|\(\s*|:\s*|<\s+)([A-Za-z_][\w.:]*)`)

// otherBase returns the base class a rule asks for (an object with
// ExtendVerb) and the candidate's declaration of a class with none of the
// rule's bases, or "" when the candidate declares none or extends one of
// them.
func (c *candidate) otherBase(do []Object) (Object, string) {
	var want []Object
	for _, o := range do {
		if o.Verb == ExtendVerb && o.Kind == KindCode && !hasPlaceholder(o.Text) {
			want = append(want, o)
		}
	}
	if len(want) == 0 {
		return Object{}, ""
	}
	for _, m := range classBase.FindAllStringSubmatchIndex(c.text, 8) {
		if c.negatedAt(m[0]) {
			continue
		}
		base := lastSegment(c.text[m[2]:m[3]])
		if slices.ContainsFunc(want, func(o Object) bool { return strings.EqualFold(lastSegment(o.Text), base) }) {
			return Object{}, ""
		}
		return want[0], c.text[m[0]:m[3]]
	}
	return Object{}, ""
}

// lastSegment is a qualified name's last part: `Dependabot::DependabotError`
// → "DependabotError", `errors.Base` → "Base".
func lastSegment(name string) string {
	name = strings.TrimRight(name, "(){}<>,;: ")
	if i := strings.LastIndexAny(name, ".:"); i >= 0 {
		return name[i+1:]
	}
	return name
}

// refusal ends the words by which a plan refuses to make a thing: "no new
// case", "without adding a test", "skip the changelog".
var refusal = lazyRE(`(?i)(?:\bno (?:new|additional|extra|further)|\bwithout (?:adding|writing|creating)(?: an?| any)?(?: new)?|\bskip(?:ping)?(?: the| a| any)?)\s+$`)

// notNeeded follows a thing a plan says it does without: "no case is
// needed", "no tests are required".
var notNeeded = lazyRE(`(?i)^\w*\s+(?:is|are)\s+(?:needed|required|necessary)\b`)

// refusedAt reports whether the plan refuses to make what it names at
// offset i: "no new case is needed", "without adding a test", "no test is
// required"; "no tests broke" refuses nothing.
func (c *candidate) refusedAt(i int) bool {
	before := c.lower[max(0, i-40):i]
	if refusal.MatchString(before) {
		return true
	}
	return strings.HasSuffix(before, "no ") && notNeeded.MatchString(c.lower[i:min(len(c.lower), i+40)])
}
