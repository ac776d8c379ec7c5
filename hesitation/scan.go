package hesitation

import (
	"sort"

	"github.com/innate-mcp/innate-mcp/terms"
)

// match is one boundary-checked occurrence of a lexicon term.
type match struct {
	term       *term
	start, end int
}

// scanned holds the matches of one text grouped by category.
type scanned struct {
	folded []byte
	byCat  [numCategories][]match
}

// scanText runs the lexicon automaton once over s and groups the matches
// (those that respect word boundaries) by category.
func scanText(s string) *scanned {
	l := lex()
	sc := &scanned{folded: terms.FoldASCII(s)}
	l.ac.ScanBytes(sc.folded, func(id, start, end int) {
		for _, ti := range l.byText[id] {
			t := &l.terms[ti]
			if t.latin && !atBoundary(sc.folded, start, end) {
				// All terms of one text share the same boundary needs.
				return
			}
			sc.byCat[t.cat] = pushMatch(sc.byCat[t.cat], match{term: t, start: start, end: end})
		}
	})
	return sc
}

// pushMatch appends m to ms, a list ordered by end, keeping only matches
// not nested in a longer one of the same list ("絶対" inside "絶対に").
// The automaton reports matches by end position and, at equal ends,
// longest first, so nesting can be settled against the tail of the list;
// the result stays ordered by start and by end.
func pushMatch(ms []match, m match) []match {
	if n := len(ms); n > 0 && ms[n-1].start <= m.start && ms[n-1].end >= m.end {
		return ms // inside the previous match
	}
	for len(ms) > 0 && ms[len(ms)-1].start >= m.start {
		ms = ms[:len(ms)-1] // the previous match lies inside m
	}
	return append(ms, m)
}

// has reports whether any match of cat exists.
func (sc *scanned) has(cat category) bool { return len(sc.byCat[cat]) > 0 }

// anyIn reports whether a match of cat lies inside span sp. Matches of a
// category are ordered by start, so this is a binary search.
func (sc *scanned) anyIn(cat category, sp Span) bool {
	ms := sc.byCat[cat]
	k := sort.Search(len(ms), func(k int) bool { return ms[k].start >= sp.Start })
	return k < len(ms) && ms[k].end <= sp.End
}
