package sanitize

import (
	"regexp"
	"unicode/utf8"

	"github.com/innate-mcp/innate-mcp/internal/ahocorasick"
)

// span is a half-open byte range.
type span struct{ start, end int }

// anchorScanner finds every occurrence of a fixed set of literals in one
// pass (an Aho-Corasick automaton). Literals are anchors of rules (every
// match of a rule begins at one of its anchors, so a rule's regexp only
// runs, anchored, at those offsets) or other literals a caller wants
// located.
type anchorScanner struct {
	ac    *ahocorasick.Automaton
	lits  []string
	rules [][]int // rules[lit] = rules using lit as an anchor
	// wordStart makes an anchor that begins with an ASCII letter or digit
	// count only at the start of a word.
	wordStart bool
}

// newAnchorScanner builds a scanner for the anchors of each rule plus the
// extra literals; literal ids are assigned in order of first appearance,
// anchors first. lit returns the id of a literal.
func newAnchorScanner(ruleAnchors [][]string, extra []string, wordStart bool) (sc *anchorScanner, lit func(string) int) {
	sc = &anchorScanner{wordStart: wordStart}
	pos := map[string]int{}
	add := func(a string) int {
		i, ok := pos[a]
		if !ok {
			i = len(sc.lits)
			pos[a] = i
			sc.lits = append(sc.lits, a)
			sc.rules = append(sc.rules, nil)
		}
		return i
	}
	for r, as := range ruleAnchors {
		for _, a := range as {
			i := add(a)
			sc.rules[i] = append(sc.rules[i], r)
		}
	}
	for _, a := range extra {
		add(a)
	}
	sc.ac = ahocorasick.New(sc.lits)
	return sc, func(a string) int { return pos[a] }
}

// scan calls found(lit, start, end) for every occurrence of a literal in s,
// in order of the occurrence's end offset.
func (sc *anchorScanner) scan(s string, found func(lit, start, end int)) { sc.ac.Scan(s, found) }

// anchorOK reports whether literal lit at start may begin a rule match: with
// wordStart, an anchor beginning with an ASCII letter or digit must start a
// word.
func (sc *anchorScanner) anchorOK(s string, lit, start int) bool {
	a := sc.lits[lit]
	return !sc.wordStart || start == 0 || a[0] >= utf8.RuneSelf || !isWordByte(a[0]) || !isWordByte(s[start-1])
}

func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= 0x80
}

// matchAt runs re, which must be anchored with ^, on s[start:start+maxLen]
// (extended to a rune boundary) and returns the submatch indexes shifted to
// offsets of s, or nil.
func matchAt(re *regexp.Regexp, s string, start, maxLen int) []int {
	end := min(len(s), start+maxLen)
	for end < len(s) && !utf8.RuneStart(s[end]) {
		end++
	}
	m := re.FindStringSubmatchIndex(s[start:end])
	if m == nil {
		return nil
	}
	for i := range m {
		if m[i] >= 0 {
			m[i] += start
		}
	}
	return m
}

// alignRight moves i forward to a rune boundary of s.
func alignRight(s string, i int) int {
	if i >= len(s) {
		return len(s)
	}
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return i
}
