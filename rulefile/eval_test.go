package rulefile

import (
	"slices"
	"testing"

	"github.com/innate-mcp/innate-mcp/internal/evaldata"
)

// TestParse_CursorRules parses the 967 real rule files (each as the file
// named by its source) and reports, per half, the number of rules, the
// median rule length and the files that yield none. Every file must parse;
// at most 1% may yield no rule.
func TestParse_CursorRules(t *testing.T) {
	recs := evaldata.CursorRules(t)
	type stats struct {
		files, rules, empty int
		lengths             []int
	}
	halves := map[string]*stats{"tune": {}, "check": {}}
	for _, r := range recs {
		st := halves[evaldata.Half(r.ID)]
		st.files++
		rules, err := Parse(r.Source, []byte(r.Content))
		if err != nil {
			t.Errorf("%s: %v", r.ID, err)
			continue
		}
		if len(rules) == 0 {
			st.empty++
			t.Logf("%s yields no rule: %q", r.ID, r.Content)
		}
		st.rules += len(rules)
		for _, x := range rules {
			st.lengths = append(st.lengths, len(x.Content))
		}
	}
	empty := 0
	for _, half := range []string{"tune", "check"} {
		st := halves[half]
		slices.Sort(st.lengths)
		med := 0
		if len(st.lengths) > 0 {
			med = st.lengths[len(st.lengths)/2]
		}
		t.Logf("%s half: %d files, %d rules (%.1f per file), median rule length %d bytes, %d files with no rule",
			half, st.files, st.rules, float64(st.rules)/float64(st.files), med, st.empty)
		empty += st.empty
	}
	if empty*100 > len(recs) {
		t.Errorf("%d of %d files yield no rule, want at most 1%%", empty, len(recs))
	}
}
