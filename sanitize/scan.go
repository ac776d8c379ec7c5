package sanitize

import (
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// span is a half-open byte range.
type span struct{ start, end int }

// anchorIndex maps distinct literal anchors to the rules that use them, so
// every anchor is searched once per text however many rules share it.
type anchorIndex struct {
	anchors []string
	rules   [][]int
}

func newAnchorIndex(ruleAnchors [][]string) *anchorIndex {
	pos := map[string]int{}
	ix := &anchorIndex{}
	for r, as := range ruleAnchors {
		for _, a := range as {
			i, ok := pos[a]
			if !ok {
				i = len(ix.anchors)
				pos[a] = i
				ix.anchors = append(ix.anchors, a)
				ix.rules = append(ix.rules, nil)
			}
			if !slices.Contains(ix.rules[i], r) {
				ix.rules[i] = append(ix.rules[i], r)
			}
		}
	}
	return ix
}

// windows returns, per rule, the merged windows of s that surround an
// occurrence of one of the rule's anchors, extended by before bytes to the
// left and after bytes to the right of the anchor. Windows are aligned to rune
// boundaries and, on the left, to the start of a word. Rules with no anchor
// in s get a nil slice.
func (ix *anchorIndex) windows(s string, nrules int, before, after func(rule int) int) [][]span {
	out := make([][]span, nrules)
	for i, a := range ix.anchors {
		for from := 0; from < len(s); {
			j := strings.Index(s[from:], a)
			if j < 0 {
				break
			}
			p := from + j
			for _, r := range ix.rules[i] {
				w := span{alignLeft(s, p-before(r)), alignRight(s, p+len(a)+after(r))}
				out[r] = append(out[r], w)
			}
			from = p + len(a)
		}
	}
	for r, ws := range out {
		if len(ws) > 1 {
			out[r] = mergeSpans(ws)
		}
	}
	return out
}

// mergeSpans sorts spans and joins the ones that overlap or touch.
func mergeSpans(ws []span) []span {
	slices.SortFunc(ws, func(a, b span) int { return a.start - b.start })
	merged := ws[:1]
	for _, w := range ws[1:] {
		last := &merged[len(merged)-1]
		if w.start <= last.end {
			last.end = max(last.end, w.end)
			continue
		}
		merged = append(merged, w)
	}
	return merged
}

func alignLeft(s string, i int) int {
	if i <= 0 {
		return 0
	}
	// Back up to a non-word byte so a pattern's \b cannot fire inside a word.
	for k := 0; k < 32 && i > 0 && isWordByte(s[i-1]); k++ {
		i--
	}
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}

func alignRight(s string, i int) int {
	if i >= len(s) {
		return len(s)
	}
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return i
}

func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= 0x80
}

// findIn runs re over each window of s and returns the matches as absolute
// submatch index slices. With first set it stops at the first match.
func findIn(re *regexp.Regexp, s string, ws []span, first bool) [][]int {
	var out [][]int
	for _, w := range ws {
		sub := s[w.start:w.end]
		if first {
			m := re.FindStringSubmatchIndex(sub)
			if m == nil {
				continue
			}
			shift(m, w.start)
			return [][]int{m}
		}
		for _, m := range re.FindAllStringSubmatchIndex(sub, -1) {
			shift(m, w.start)
			out = append(out, m)
		}
	}
	return out
}

func shift(m []int, by int) {
	for i := range m {
		if m[i] >= 0 {
			m[i] += by
		}
	}
}
