package hesitation

import "sort"

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
	sc := &scanned{folded: fold(s)}
	l.ac.scan(sc.folded, func(id int32, start, end int) {
		for _, ti := range l.byText[id] {
			t := &l.terms[ti]
			if t.latin && !atBoundary(sc.folded, start, end) {
				// All terms of one text share the same boundary needs.
				return
			}
			sc.byCat[t.cat] = append(sc.byCat[t.cat], match{term: t, start: start, end: end})
		}
	})
	for c := range sc.byCat {
		sc.byCat[c] = dropNested(sc.byCat[c])
	}
	return sc
}

// dropNested orders matches by position and removes those that lie inside
// a longer match of the same category ("絶対" inside "絶対に").
func dropNested(ms []match) []match {
	if len(ms) < 2 {
		return ms
	}
	sort.SliceStable(ms, func(i, j int) bool {
		if ms[i].start != ms[j].start {
			return ms[i].start < ms[j].start
		}
		return ms[i].end > ms[j].end
	})
	out := ms[:0]
	maxEnd := -1
	for _, m := range ms {
		if m.end <= maxEnd {
			continue
		}
		out = append(out, m)
		maxEnd = m.end
	}
	return out
}

// has reports whether any match of cat exists.
func (sc *scanned) has(cat category) bool { return len(sc.byCat[cat]) > 0 }

// countIn counts matches of cat inside span sp.
func (sc *scanned) countIn(cat category, sp Span) int {
	n := 0
	for _, m := range sc.byCat[cat] {
		if m.start >= sp.Start && m.end <= sp.End {
			n++
		}
	}
	return n
}
