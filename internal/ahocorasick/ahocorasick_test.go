package ahocorasick

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// occ is one reported occurrence.
type occ struct{ id, start, end int }

func scanAll(a *Automaton, text string) []occ {
	var got []occ
	a.Scan(text, func(id, start, end int) { got = append(got, occ{id, start, end}) })
	return got
}

func TestAutomaton_Scan(t *testing.T) {
	tests := []struct {
		name     string
		patterns []string
		text     string
		want     []occ
	}{
		{"none", []string{"abc"}, "xyz", nil},
		{"empty text", []string{"a"}, "", nil},
		{"no patterns", nil, "abc", nil},
		{"one", []string{"he"}, "the", []occ{{0, 1, 3}}},
		{"overlapping", []string{"aa"}, "aaa", []occ{{0, 0, 2}, {0, 1, 3}}},
		// At equal ends, longest first.
		{"nested", []string{"he", "she", "hers"}, "ushers", []occ{{1, 1, 4}, {0, 2, 4}, {2, 2, 6}}},
		{"suffix chain", []string{"c", "bc", "abc"}, "abc", []occ{{2, 0, 3}, {1, 1, 3}, {0, 2, 3}}},
		// A duplicate is reported with its first id; empty patterns never.
		{"duplicate", []string{"ab", "", "ab"}, "abab", []occ{{0, 0, 2}, {0, 2, 4}}},
		{"utf-8 bytes", []string{"絶対", "絶対に"}, "絶対に", []occ{{0, 0, 6}, {1, 0, 9}}},
		{"bytes outside every pattern", []string{"b"}, "a\x00b\xffb", []occ{{0, 2, 3}, {0, 4, 5}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := New(tt.patterns)
			if got := scanAll(a, tt.text); !slices.Equal(got, tt.want) {
				t.Errorf("Scan: got=%v, want %v", got, tt.want)
			}
			var got []occ
			a.ScanBytes([]byte(tt.text), func(id, start, end int) { got = append(got, occ{id, start, end}) })
			if !slices.Equal(got, tt.want) {
				t.Errorf("ScanBytes: got=%v, want %v", got, tt.want)
			}
		})
	}
}

// TestAutomaton_MatchesNaiveSearch checks the automaton against
// strings.HasPrefix at every offset of random texts over a small alphabet,
// where overlapping and nested patterns are frequent.
func TestAutomaton_MatchesNaiveSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = "abc "[rng.IntN(4)]
		}
		return string(b)
	}
	for trial := 0; trial < 500; trial++ {
		var pats []string
		for range 1 + rng.IntN(8) {
			pats = append(pats, word(1+rng.IntN(4)))
		}
		text := word(rng.IntN(200))
		got := scanAll(New(pats), text)
		var want []occ
		first := map[string]int{}
		for id, p := range pats {
			if _, ok := first[p]; !ok {
				first[p] = id
			}
		}
		for end := 1; end <= len(text); end++ {
			// Longest first at equal ends.
			for start := 0; start < end; start++ {
				if id, ok := first[text[start:end]]; ok {
					want = append(want, occ{id, start, end})
				}
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("patterns %q in %q: got=%v, want %v", pats, text, got, want)
		}
	}
}

func FuzzAutomaton_Scan(f *testing.F) {
	f.Add("he,she,hers", "ushers")
	f.Add("a,aa,aaa", "aaaa")
	f.Fuzz(func(t *testing.T, list, text string) {
		if len(list) > 200 || len(text) > 1000 {
			return
		}
		pats := strings.Split(list, ",")
		n := 0
		for _, o := range scanAll(New(pats), text) {
			if o.start < 0 || o.end > len(text) || text[o.start:o.end] != pats[o.id] {
				t.Fatalf("occurrence %v of %q does not match", o, pats[o.id])
			}
			n++
		}
		want := 0
		seen := map[string]bool{}
		for _, p := range pats {
			if p == "" || seen[p] {
				continue
			}
			seen[p] = true
			for i := 0; i+len(p) <= len(text); i++ {
				if strings.HasPrefix(text[i:], p) {
					want++
				}
			}
		}
		if n != want {
			t.Fatalf("%d occurrences, want %d", n, want)
		}
	})
}
