package directive

import (
	"maps"
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
		snake := !c.paths.holds(at)
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

// doubleQuoted is a double-quoted string.
var doubleQuoted = lazyRE(`"[^"\n]{0,400}"|“[^”\n]{0,400}”`)

// pathRun is a run of text without spaces or backticks that holds a slash:
// a path, whose words are not prose.
var pathRun = lazyRE("[^\\s`]*[/\\\\][^\\s`]*")

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
				if !t.part && cl.holds(t.start) && t.term == w {
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
