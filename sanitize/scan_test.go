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
		sc.scan(text, func(l, start, _ int) { got = append(got, occ{l, start}) })
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

// TestRuleTables_WellFormed checks the invariants the engines rely on:
// anchors are lower case (they are searched in folded text), every pattern
// rule has anchors, ids are unique and name a known category.
func TestRuleTables_WellFormed(t *testing.T) {
	ids := map[string]bool{}
	for _, r := range injectionRuleTable {
		if ids[r.id] {
			t.Errorf("duplicate rule id %s", r.id)
		}
		ids[r.id] = true
		if categoryOf(r.id) == CategoryHiddenText {
			t.Errorf("%s: unknown category prefix", r.id)
		}
		if len(r.anchors) == 0 {
			t.Errorf("%s: no anchors", r.id)
		}
		for _, a := range append(append([]string(nil), r.anchors...), r.needs...) {
			if a == "" || strings.ToLower(a) != a {
				t.Errorf("%s: anchor or need %q is not lower case", r.id, a)
			}
		}
	}
	for _, r := range secretRuleTable {
		if len(r.kind) > maxKindLen {
			t.Errorf("kind %s longer than maxKindLen", r.kind)
		}
		if len(r.anchors) == 0 {
			t.Errorf("%s: no anchors", r.kind)
		}
		for _, a := range r.anchors {
			if a == "" || strings.ToLower(a) != a {
				t.Errorf("%s: anchor %q is not lower case", r.kind, a)
			}
		}
	}
	if len(injections().rules) != len(injectionRuleTable)+len(hiddenRules) {
		t.Errorf("compiled %d rules, want %d", len(injections().rules), len(injectionRuleTable)+len(hiddenRules))
	}
}
