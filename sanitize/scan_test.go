package sanitize

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestAnchorScanner_MatchesNaiveSearch checks the Aho-Corasick scanner
// against strings.Index on random texts over a small alphabet, where
// overlapping and nested literals are frequent.
func TestAnchorScanner_MatchesNaiveSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = "abc "[rng.IntN(4)]
		}
		return string(b)
	}
	for trial := 0; trial < 200; trial++ {
		var lits []string
		for range 1 + rng.IntN(8) {
			lits = append(lits, word(1+rng.IntN(4)))
		}
		sc, lit := newAnchorScanner([][]string{lits}, nil, false)
		text := word(rng.IntN(200))
		type occ struct{ lit, start int }
		var got, want []occ
		sc.scan(text, func(l, start int) { got = append(got, occ{l, start}) })
		seen := map[string]bool{}
		for _, a := range lits {
			if seen[a] {
				continue
			}
			seen[a] = true
			for i := 0; i+len(a) <= len(text); i++ {
				if strings.HasPrefix(text[i:], a) {
					want = append(want, occ{lit(a), i})
				}
			}
		}
		cmp := func(a, b occ) int {
			if a.start != b.start {
				return a.start - b.start
			}
			return a.lit - b.lit
		}
		slices.SortFunc(got, cmp)
		slices.SortFunc(want, cmp)
		if !slices.Equal(got, want) {
			t.Fatalf("literals %q in %q: got %v, want %v", lits, text, got, want)
		}
	}
}
