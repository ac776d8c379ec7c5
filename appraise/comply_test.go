package appraise

import (
	"testing"

	"github.com/innate-mcp/innate-mcp/directive"
)

// TestApplicableRule_namedBreach: a plan that follows the best rule but
// names outright what one of the next rules forbids is cautioned on that
// rule; a breach by a rule past the first three, or one only read from a
// missing step, does not outvote the compliance.
func TestApplicableRule_namedBreach(t *testing.T) {
	rule := func(id, text string, score float64) Lesson {
		d := directive.Parse(text, "")
		return Lesson{ID: id, Content: text, Own: true, Directive: &d, Score: score, Resonance: score}
	}
	general := rule("Lgeneral", "Tests use the sqllogictest format (`.test` files).", 0.28)
	slow := rule("Lslow", "Slow tests should use `.test_slow` extension instead of `.test`.", 0.24)
	other := rule("Lother", "Run `make format-fix` before committing.", 0.20)
	filler := rule("Lfiller", "Use `idx_t` instead of `size_t` for offsets.", 0.19)
	slowFourth := rule("Lslow", "Slow tests should use `.test_slow` extension instead of `.test`.", 0.15)
	tests := []struct {
		name      string
		candidate string
		rules     []Lesson
		want      Valence
		wantID    string
	}{
		{"the forbidden object named outright outranks a compliance", "Save it as `test/sql/join/spill.test`.",
			[]Lesson{general, slow, other}, Caution, "Lslow"},
		{"the rule's own alternative complies", "Save it as `test/sql/join/spill.test_slow`.",
			[]Lesson{general, slow, other}, Affirm, "Lslow"},
		{"a breach past the first three rules does not count", "Save it as `test/sql/join/spill.test`.",
			[]Lesson{general, other, filler, slowFourth}, Affirm, "Lgeneral"},
		{"a missing step of a later rule does not count", "Save it as `test/sql/join/spill.test` and commit it.",
			[]Lesson{general, other}, Affirm, "Lgeneral"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := applicableRule(Input{Candidate: tc.candidate, Lessons: tc.rules}, DefaultConfig())
			if r.valence != tc.want || r.lesson.ID != tc.wantID {
				t.Errorf("valence %s by %q (%s), want %s by %q", r.valence, r.lesson.ID, r.finding.Result, tc.want, tc.wantID)
			}
		})
	}
}
