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
)

// ErrInjection is the sentinel wrapped by every error [CheckInjection]
// returns; callers branch on it with errors.Is.
var ErrInjection = errors.New("prompt injection")

// Finding is one injection-like instruction found in a text.
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
// text (see normalize) and use the macros expanded by expandMacros.
type injRule struct {
	id       string
	anchors  []string // literals of which every match contains at least one
	pattern  string
	before   int    // window bytes before an anchor; 0 means defaultBefore
	after    int    // window bytes after an anchor; 0 means defaultAfter
	negation bool   // skip a match right after "never", "do not", ...
	unless   string // skip a match whose surrounding text matches this
}

const (
	defaultBefore = 160
	defaultAfter  = 320
	contextBytes  = 160 // text either side of a match that unless sees
)

type compiledRule struct {
	injRule
	cat    Category
	re     *regexp.Regexp
	veto   *regexp.Regexp
	bef    int
	aft    int
	hidden func(text string, n *normText) []Finding
}

type injectionSet struct {
	rules []compiledRule
	index *anchorIndex
	neg   *regexp.Regexp
}

// macros keep the rule table readable: {s} is a short run of separators
// between two words, {wN} a separator plus up to N filler words.
var macros = strings.NewReplacer(
	"{s}", `[^\pL\pN]{1,4}`,
	"{w1}", `[^\pL\pN]{1,4}(?:[\pL\pN'_-]{1,30}[^\pL\pN]{1,4}){0,1}`,
	"{w2}", `[^\pL\pN]{1,4}(?:[\pL\pN'_-]{1,30}[^\pL\pN]{1,4}){0,2}`,
	"{w3}", `[^\pL\pN]{1,4}(?:[\pL\pN'_-]{1,30}[^\pL\pN]{1,4}){0,3}`,
	"{w5}", `[^\pL\pN]{1,4}(?:[\pL\pN'_-]{1,30}[^\pL\pN]{1,4}){0,5}`,
)

var injections = sync.OnceValue(func() *injectionSet {
	set := &injectionSet{
		neg: regexp.MustCompile(`(?:^|[^\pL\pN])(?:never|not|don't|dont|do not|avoid|must not|mustn't|should not|shouldn't|cannot|can't|won't|refuse to|no)` +
			`(?:[^\pL\pN]{1,3}(?:ever|run|running|use|using|execute|executing|try|trying|to|attempt|attempting|allow|allowing|the|a|an|any|such|as|like|commands?|things?|be|tempted|just|blindly|simply|ask|asking|obey|follow|do))*[^\pL\pN]{0,4}$`),
	}
	var anchors [][]string
	for _, r := range injectionRuleTable {
		c := compiledRule{injRule: r, cat: categoryOf(r.id), bef: r.before, aft: r.after}
		if c.bef == 0 {
			c.bef = defaultBefore
		}
		if c.aft == 0 {
			c.aft = defaultAfter
		}
		c.re = regexp.MustCompile(macros.Replace(r.pattern))
		if r.unless != "" {
			c.veto = regexp.MustCompile(macros.Replace(r.unless))
		}
		set.rules = append(set.rules, c)
		anchors = append(anchors, r.anchors)
	}
	for _, h := range hiddenRules {
		set.rules = append(set.rules, compiledRule{injRule: injRule{id: h.id}, cat: CategoryHiddenText, hidden: h.find})
		anchors = append(anchors, nil)
	}
	set.index = newAnchorIndex(anchors)
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
	}
	return CategoryHiddenText
}

func scanInjections(text string, first bool) []Finding {
	set := injections()
	n := normalize(text)
	s := n.s
	wins := set.index.windows(s, len(set.rules),
		func(r int) int { return set.rules[r].bef },
		func(r int) int { return set.rules[r].aft })

	var out []Finding
	for ri := range set.rules {
		r := &set.rules[ri]
		if r.hidden != nil {
			fs := r.hidden(text, &n)
			if first && len(fs) > 1 {
				fs = fs[:1]
			}
			out = append(out, fs...)
			continue
		}
		if len(wins[ri]) == 0 {
			continue
		}
		for _, w := range wins[ri] {
			ms := findIn(r.re, s, []span{w}, false)
			kept := 0
			for _, m := range ms {
				if !set.accept(r, s, m[0], m[1]) {
					continue
				}
				start, end := n.span(text, m[0], m[1])
				out = append(out, newFinding(r.id, r.cat, text, start, end))
				kept++
				if first {
					break
				}
			}
			if first && kept > 0 {
				break
			}
		}
	}
	slices.SortStableFunc(out, func(a, b Finding) int { return a.Start - b.Start })
	return out
}

// accept applies a rule's negation and veto checks to a match s[start:end].
func (set *injectionSet) accept(r *compiledRule, s string, start, end int) bool {
	if r.negation {
		lo := max(0, start-48)
		if nl := strings.LastIndexByte(s[lo:start], '\n'); nl >= 0 {
			lo += nl + 1
		}
		if set.neg.MatchString(s[alignRight(s, lo):start]) {
			return false
		}
	}
	if r.veto != nil {
		lo, hi := alignRight(s, max(0, start-contextBytes)), alignRight(s, min(len(s), end+contextBytes))
		if r.veto.MatchString(s[lo:hi]) {
			return false
		}
	}
	return true
}

func newFinding(rule string, cat Category, text string, start, end int) Finding {
	ex := text[start:end]
	if len(ex) > 120 {
		cut := 120
		for cut > 0 && !utf8.RuneStart(ex[cut]) {
			cut--
		}
		ex = ex[:cut]
	}
	return Finding{Rule: rule, Category: cat, Start: start, End: end, Excerpt: ex}
}
