package answerfree

import (
	"reflect"
	"testing"
)

func TestBearing(t *testing.T) {
	for _, name := range []string{"Answer", "FixText", "fix", "solution", "corrected_code", "Suggestions", "suggested_fix", "final_answer"} {
		if !Bearing(name) {
			t.Errorf("Bearing(%q) = false", name)
		}
	}
	for _, name := range []string{"valence", "flagged_points", "Prefix", "summary", "trace_id", "Advisory"} {
		if Bearing(name) {
			t.Errorf("Bearing(%q) = true", name)
		}
	}
}

// recorder is a testing.TB that counts errors instead of failing.
type recorder struct {
	testing.TB
	errors int
}

func (r *recorder) Helper()               {}
func (r *recorder) Errorf(string, ...any) { r.errors++ }

func TestCheck_findsNestedFields(t *testing.T) {
	type inner struct {
		Summary string `json:"summary"`
		Fix     string `json:"remedy"`
	}
	type outer struct {
		Points []inner        `json:"points"`
		Extra  map[string]any `json:"extra"`
		Next   *outer         `json:"next,omitempty"`
	}
	r := &recorder{TB: t}
	CheckType(r, reflect.TypeFor[outer]())
	if r.errors != 1 {
		t.Errorf("CheckType found %d answer-bearing fields, want 1 (inner.Fix)", r.errors)
	}
	r = &recorder{TB: t}
	CheckJSON(r, outer{Extra: map[string]any{"ok": 1, "nested": []any{map[string]any{"suggestion": "x"}}}})
	if r.errors != 1 {
		t.Errorf("CheckJSON found %d answer-bearing keys, want 1 (suggestion)", r.errors)
	}
}
