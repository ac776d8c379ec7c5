package sanitize

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// Category groups injection rules by what the injected instruction attempts.
type Category string

// Categories of injection findings.
const (
	CategoryOverride     Category = "instruction-override" // "ignore previous instructions"
	CategoryRoleHijack   Category = "role-hijack"          // "you are now DAN"
	CategoryFakeTurn     Category = "fake-turn"            // "<|im_start|>system", "Human:"
	CategoryExfiltration Category = "exfiltration"         // "send the .env to http://…", "curl … | sh"
	CategoryToolAbuse    Category = "tool-abuse"           // "rm -rf /", "disable the safety checks"
	CategoryConcealment  Category = "concealment"          // "without telling the user"
	CategoryHiddenText   Category = "hidden-text"          // bidi overrides, tag characters, HTML comments
	CategoryOversight    Category = "oversight"            // "approve every PR without review", "disable branch protection"
)

// ErrInjection is the sentinel wrapped by every error [CheckInjection]
// returns; callers branch on it with errors.Is.
var ErrInjection = errors.New("prompt injection")

// Finding is one injection-like instruction found in a text. It is a plain
// value, safe to copy and share.
type Finding struct {
	// Rule is the stable identifier of the rule that matched, such as
	// "override/ignore-previous"; its prefix names the category.
	Rule string `json:"rule"`
	// Category groups the rule.
	Category Category `json:"category"`
	// Start and End delimit the match as a half-open byte range of the
	// original (not normalised) text.
	Start int `json:"start"`
	End   int `json:"end"`
	// Excerpt is the original text of the match, cut to at most 120 bytes
	// on a rune boundary.
	Excerpt string `json:"excerpt"`
}

// String formats the finding for logs and error messages.
func (f Finding) String() string {
	return fmt.Sprintf("%s at bytes %d-%d: %q", f.Rule, f.Start, f.End, f.Excerpt)
}

// InjectionError reports the first injection found by [CheckInjection]. It
// wraps [ErrInjection].
type InjectionError struct {
	// Finding is the earliest injection found.
	Finding Finding
}

// Error describes the finding.
func (e *InjectionError) Error() string {
	return fmt.Sprintf("prompt injection (%s): %s", e.Finding.Category, e.Finding)
}

// Unwrap returns [ErrInjection].
func (e *InjectionError) Unwrap() error { return ErrInjection }

// CheckInjection returns nil when text carries no injection-like instruction,
// else an *[InjectionError] (wrapping [ErrInjection]) for the earliest
// finding. It is safe for concurrent use.
func CheckInjection(text string) error {
	f, ok := Injection(text)
	if !ok {
		return nil
	}
	return &InjectionError{Finding: f}
}

// Injection returns the earliest injection-like instruction in text (by start
// offset, ties broken by rule order) and true, or a zero Finding and false.
// It is safe for concurrent use and never fails; run time is linear in
// len(text).
func Injection(text string) (Finding, bool) {
	fs := scanInjections(text, true)
	if len(fs) == 0 {
		return Finding{}, false
	}
	return fs[0], true
}

// Injections returns every injection-like instruction found in text, sorted
// by start offset. Overlapping findings of different rules are all kept. It
// is safe for concurrent use and never fails.
func Injections(text string) []Finding {
	return scanInjections(text, false)
}

// injRule is one injection rule in source form. Patterns run on normalised
// text (see normalize), use the macros expanded by macros, and every match
// begins with one of the rule's anchors.
type injRule struct {
	id       string
	anchors  []string // literals every match starts with
	pattern  string
	maxLen   int    // longest match; 0 means defaultMaxLen
	negation bool   // skip a match right after "never", "do not", ...
	unless   string // skip a match whose surrounding text matches this
	// needs lists literals of which a match must contain one: a cheap test
	// that spares the regexp at most anchor hits.
	needs []string
	// line, when set, is a regexp the text between the start of the line
	// and the anchor must match: the rule only fires near a line start.
	line string
	// tail, when set, splits the rule in two: pattern matches the head at
	// the anchor, and tail must match at an occurrence of one of needs
	// later on the same line, within maxLen. The match runs from the head
	// to the end of the tail. This keeps "X ... Y" rules out of the slow
	// regexp paths.
	tail string
}

const (
	defaultMaxLen = 300
	contextBytes  = 160 // text either side of a match, on its line, that unless sees
)

type compiledRule struct {
	injRule
	cat    Category
	re     *regexp.Regexp
	veto   *regexp.Regexp
	line   *regexp.Regexp
	tail   *regexp.Regexp
	needID []int // ids of needs in injectionSet.needs
	hidden func(text string, n *normText) []Finding
}

type injectionSet struct {
	rules   []compiledRule
	needs   []string // distinct needed literals of all rules
	litNeed []int    // need id of each scanner literal, or -1
	// commentRule is the index of the HTML comment rule, the only hidden
	// rule that can fire on ASCII text.
	commentRule int
	scanner     *anchorScanner
	neg         *regexp.Regexp
}

// macros keep the rule table readable: {s} is a short run of separators
// between two words, {wN} a separator plus up to N filler words.
var macros = strings.NewReplacer(
	"{s}", `[^\pL\pN]{1,4}`,
	"{w1}", `[^\pL\pN]{1,4}(?:[\pL\pN'_-]{1,30}[^\pL\pN]{1,4}){0,1}`,
	"{w2}", `[^\pL\pN]{1,4}(?:[\pL\pN'_-]{1,30}[^\pL\pN]{1,4}){0,2}`,
	"{w3}", `[^\pL\pN]{1,4}(?:[\pL\pN'_-]{1,30}[^\pL\pN]{1,4}){0,3}`,
)

var injections = sync.OnceValue(func() *injectionSet {
	set := &injectionSet{
		neg: regexp.MustCompile(`(?:^|[^\pL\pN])(?:never|not|don't|dont|do not|avoid|must not|mustn't|should not|shouldn't|cannot|can't|won't|refuse to|no)` +
			`(?:[^\pL\pN.!?;\n]{1,3}(?:ever|run|running|use|using|execute|executing|try|trying|to|attempt|attempting|allow|allowing|the|a|an|any|such|as|like|commands?|things?|be|tempted|just|blindly|simply|ask|asking|obey|follow|do|send|post|upload|share|include|put|store|log|expose|commit|hardcode|print|write|paste|pass|your|our|their|accidentally|ever|system|it|them))*[^\pL\pN.!?;\n]{0,4}$`),
	}
	var anchors [][]string
	for _, r := range injectionRuleTable {
		c := compiledRule{injRule: r, cat: categoryOf(r.id)}
		if c.maxLen == 0 {
			c.maxLen = defaultMaxLen
		}
		c.re = regexp.MustCompile(`^(?:` + macros.Replace(r.pattern) + `)`)
		if r.unless != "" {
			c.veto = regexp.MustCompile(macros.Replace(r.unless))
		}
		for _, nd := range r.needs {
			id := slices.Index(set.needs, nd)
			if id < 0 {
				id = len(set.needs)
				set.needs = append(set.needs, nd)
			}
			c.needID = append(c.needID, id)
		}
		if r.line != "" {
			c.line = regexp.MustCompile(`^(?:` + r.line + `)$`)
		}
		if r.tail != "" {
			c.tail = regexp.MustCompile(`^(?:` + macros.Replace(r.tail) + `)`)
		}
		set.rules = append(set.rules, c)
		anchors = append(anchors, r.anchors)
	}
	for _, h := range hiddenRules {
		if h.id == "hidden/html-comment-directive" {
			set.commentRule = len(set.rules)
		}
		set.rules = append(set.rules, compiledRule{injRule: injRule{id: h.id}, cat: CategoryHiddenText, hidden: h.find})
		anchors = append(anchors, nil)
	}
	var lit func(string) int
	set.scanner, lit = newAnchorScanner(anchors, set.needs, true)
	set.litNeed = make([]int, len(set.scanner.lits))
	for i := range set.litNeed {
		set.litNeed[i] = -1
	}
	for id, nd := range set.needs {
		set.litNeed[lit(nd)] = id
	}
	return set
})

func categoryOf(id string) Category {
	prefix, _, _ := strings.Cut(id, "/")
	switch prefix {
	case "override":
		return CategoryOverride
	case "role":
		return CategoryRoleHijack
	case "turn":
		return CategoryFakeTurn
	case "exfil":
		return CategoryExfiltration
	case "tool":
		return CategoryToolAbuse
	case "conceal":
		return CategoryConcealment
	case "oversight":
		return CategoryOversight
	}
	return CategoryHiddenText
}

func scanInjections(text string, first bool) []Finding {
	set := injections()
	n := normalize(text)
	s := n.s
	type ranked struct {
		Finding
		prio int
	}
	var found []ranked
	// One pass finds the anchor hits and where each needed literal occurs.
	type hit struct{ rule, start int }
	var hits []hit
	needAt := make([][]int, len(set.needs))
	sc := set.scanner
	sc.scan(s, func(lit, start, _ int) {
		if id := set.litNeed[lit]; id >= 0 {
			needAt[id] = append(needAt[id], start)
		}
		if len(sc.rules[lit]) > 0 && sc.anchorOK(s, lit, start) {
			for _, ri := range sc.rules[lit] {
				hits = append(hits, hit{ri, start})
			}
		}
	})
	lastStart := make([]int, len(set.rules))
	for i := range lastStart {
		lastStart[i] = -1
	}
	for _, h := range hits {
		r := &set.rules[h.rule]
		if lastStart[h.rule] == h.start {
			continue // another anchor of the same rule at the same offset
		}
		lastStart[h.rule] = h.start
		if !set.prefilter(r, s, h.start, needAt) {
			continue
		}
		m := matchAt(r.re, s, h.start, r.maxLen)
		if m != nil && r.tail != nil {
			m = set.matchTail(r, s, h.start, needAt)
		}
		if m == nil || m[1] <= m[0] || !set.accept(r, s, m[0], m[1]) {
			continue
		}
		a, b := n.span(text, m[0], m[1])
		found = append(found, ranked{newFinding(r.id, r.cat, text, a, b), h.rule})
	}
	ascii := isASCII(text)
	for ri := range set.rules {
		if h := set.rules[ri].hidden; h != nil {
			if ascii && ri != set.commentRule {
				continue // the other hidden-text rules look for non-ASCII runes
			}
			for _, f := range h(text, &n) {
				found = append(found, ranked{f, ri})
			}
		}
	}
	// The intent screen (intent.go) ranks after every rule above.
	for _, f := range intentFindings(text, &n) {
		found = append(found, ranked{f, len(set.rules)})
	}
	// Earliest first; at the same offset, the rule listed first.
	slices.SortFunc(found, func(a, b ranked) int {
		if a.Start != b.Start {
			return a.Start - b.Start
		}
		return a.prio - b.prio
	})
	// Drop findings nested in an earlier finding of the same rule.
	var kept []Finding
	lastEnd := map[string]int{}
	for _, r := range found {
		f := r.Finding
		if e, ok := lastEnd[f.Rule]; ok && f.Start < e {
			continue
		}
		lastEnd[f.Rule] = f.End
		kept = append(kept, f)
	}
	if first && len(kept) > 1 {
		kept = kept[:1]
	}
	return kept
}

// prefilter applies a rule's cheap tests at an anchor hit: the line prefix
// and the needed literals.
func (set *injectionSet) prefilter(r *compiledRule, s string, start int, needAt [][]int) bool {
	if r.line != nil {
		lo := max(0, start-maxLinePrefix)
		nl := strings.LastIndexByte(s[lo:start], '\n')
		if nl < 0 || !r.line.MatchString(s[lo+nl+1:start]) {
			return false
		}
	}
	if len(r.needID) == 0 {
		return true
	}
	for _, id := range r.needID {
		// An occurrence wholly inside [start, start+maxLen).
		at := needAt[id]
		i, _ := slices.BinarySearch(at, start)
		if i < len(at) && at[i]+len(set.needs[id]) <= start+r.maxLen {
			return true
		}
	}
	return false
}

// matchTail finds the earliest occurrence of one of r's needs after start,
// on the same line and within maxLen, at which r's tail matches, and
// returns the span from start to the end of the tail.
func (set *injectionSet) matchTail(r *compiledRule, s string, start int, needAt [][]int) []int {
	limit := min(len(s), start+r.maxLen)
	if nl := strings.IndexByte(s[start:limit], '\n'); nl >= 0 {
		limit = start + nl
	}
	best, bestEnd := -1, -1
	for _, id := range r.needID {
		at := needAt[id]
		for i, _ := slices.BinarySearch(at, start); i < len(at) && at[i] < limit; i++ {
			p := at[i]
			if best >= 0 && p >= best {
				break
			}
			if p > 0 && isWordByte(s[p-1]) && isWordByte(s[p]) {
				continue // inside a word
			}
			if m := matchAt(r.tail, s, p, r.maxLen); m != nil {
				best, bestEnd = p, m[1]
				break
			}
		}
	}
	if best < 0 {
		return nil
	}
	return []int{start, bestEnd}
}

// maxLinePrefix bounds the text between a line start and a line rule's
// anchor.
const maxLinePrefix = 16

// negationLookback bounds, in bytes, the text before a match on its line
// in which a negation ("never", "do not") turns the match off.
const negationLookback = 48

// accept applies a rule's negation and veto checks to a match s[start:end].
func (set *injectionSet) accept(r *compiledRule, s string, start, end int) bool {
	if r.negation {
		lo := max(0, start-negationLookback)
		if nl := strings.LastIndexByte(s[lo:start], '\n'); nl >= 0 {
			lo += nl + 1
		}
		if set.neg.MatchString(s[alignRight(s, lo):start]) {
			return false
		}
	}
	if r.veto != nil {
		// The veto sees the match's own line, at most contextBytes either side.
		lo, hi := max(0, start-contextBytes), min(len(s), end+contextBytes)
		if nl := strings.LastIndexByte(s[lo:start], '\n'); nl >= 0 {
			lo += nl + 1
		}
		if nl := strings.IndexByte(s[end:hi], '\n'); nl >= 0 {
			hi = end + nl
		}
		if r.veto.MatchString(s[alignRight(s, lo):alignRight(s, hi)]) {
			return false
		}
	}
	return true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// maxExcerptBytes bounds a finding's excerpt of the matched text.
const maxExcerptBytes = 120

func newFinding(rule string, cat Category, text string, start, end int) Finding {
	ex := text[start:end]
	if len(ex) > maxExcerptBytes {
		cut := maxExcerptBytes
		for cut > 0 && !utf8.RuneStart(ex[cut]) {
			cut--
		}
		ex = ex[:cut]
	}
	return Finding{Rule: rule, Category: cat, Start: start, End: end, Excerpt: ex}
}
