package sanitize

import (
	"slices"
	"strings"
	"testing"
)

// TestAnchorScanner maps literals to ids in order of first appearance,
// anchors first, records which rules use each anchor, and with wordStart
// lets a word-initial anchor count only at the start of a word. Matching
// itself is internal/ahocorasick's, tested there.
func TestAnchorScanner(t *testing.T) {
	sc, lit := newAnchorScanner([][]string{{"ignore", "rm "}, {"rm ", "disregard"}}, []string{"ignore", "curl"}, true)
	if want := []string{"ignore", "rm ", "disregard", "curl"}; !slices.Equal(sc.lits, want) {
		t.Fatalf("lits: got=%q, want %q", sc.lits, want)
	}
	for i, a := range sc.lits {
		if got := lit(a); got != i {
			t.Errorf("lit(%q): got=%d, want %d", a, got, i)
		}
	}
	wantRules := [][]int{{0}, {0, 1}, {1}, nil}
	for i := range wantRules {
		if !slices.Equal(sc.rules[i], wantRules[i]) {
			t.Errorf("rules[%q]: got=%v, want %v", sc.lits[i], sc.rules[i], wantRules[i])
		}
	}
	type occ struct{ lit, start int }
	text := "please ignore it; xignore; rm -rf; curl"
	var got []occ
	sc.scan(text, func(l, start, end int) {
		if text[start:end] != sc.lits[l] {
			t.Errorf("match %q at %d, want %q", text[start:end], start, sc.lits[l])
		}
		if sc.anchorOK(text, l, start) {
			got = append(got, occ{l, start})
		}
	})
	want := []occ{{0, 7}, {1, 27}, {3, 35}} // "xignore" does not start a word
	if !slices.Equal(got, want) {
		t.Errorf("scan: got=%v, want %v", got, want)
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
