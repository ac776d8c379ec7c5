package appraise

import (
	"strings"
	"testing"

	"github.com/innate-mcp/innate-mcp/confidence"
)

func TestGoesAgainst(t *testing.T) {
	tests := []struct {
		lesson, candidate string
		want              bool
	}{
		{"Never commit directly to main; open a pull request.", "Push the commit directly to main", true},
		{"Never commit directly to main; open a pull request.", "I will push the commit directly to main.", true},
		{"Never commit directly to main; open a pull request.", "Open a pull request instead of committing directly to main.", false},
		{"Never commit directly to main; open a pull request.", "Open a pull request for review.", false},
		{"Do not mock the database in integration tests.", "We'll mock the database in the integration tests to speed them up.", true},
		{"Do not mock the database in integration tests.", "Run the integration tests against the docker compose database.", false},
		{"Give every React list item a stable key prop; never use the array index as key when items reorder.", "Use the array index as the key for the list items.", true},
		{"Give every React list item a stable key prop.", "Use the array index as the key for the list items.", false},
		{"Never commit directly to main.", "", false},
	}
	for _, tt := range tests {
		got := goesAgainst(Lesson{Content: tt.lesson}, candidateClaims(tt.candidate))
		if got != tt.want {
			t.Errorf("goesAgainst(%q, %q) = %v, want %v (claims %+v)", tt.lesson, tt.candidate, got, tt.want, candidateClaims(tt.candidate))
		}
	}
}

// TestAppraise_candidateGoesAgainstRule: a plan that does what a user rule
// forbids gets a caution with a flagged point, not an affirmation; a plan
// that follows the rule is affirmed.
func TestAppraise_candidateGoesAgainstRule(t *testing.T) {
	l := Lesson{ID: "main", Origin: confidence.OriginUserStated, Content: "Never commit directly to main; open a pull request.",
		Trigger: "committing changes to the main branch", HasTrigger: true, TriggerCos: 0.5,
		Score: 0.7, Resonance: 0.62, Calibration: 0.08, Lexical: 0.6, Confidence: 0.7}
	cfg := DefaultConfig()
	bad := Appraise(Input{Lessons: []Lesson{l}, Candidate: "Push the commit directly to main"}, cfg).Verdict
	if bad.Valence != Caution || len(bad.FlaggedPoints) != 1 || !strings.Contains(bad.FlaggedPoints[0].Summary, "go against") {
		t.Fatalf("violating plan: %+v", bad)
	}
	if strings.Contains(strings.ToLower(bad.FlaggedPoints[0].Summary), "push the commit") {
		t.Fatalf("summary echoes the candidate: %q", bad.FlaggedPoints[0].Summary)
	}
	good := Appraise(Input{Lessons: []Lesson{l}, Candidate: "Open a pull request with the commit instead of committing to main"}, cfg).Verdict
	if good.Valence != Affirm || len(good.FlaggedPoints) != 0 {
		t.Fatalf("compliant plan: %+v", good)
	}
}

func FuzzCandidateClaims(f *testing.F) {
	f.Add("I will push the commit directly to main.", "Never commit directly to main.")
	f.Add("let's 不要 mock", "避免使用全局变量。")
	f.Add("\xff we'll", "")
	f.Fuzz(func(t *testing.T, candidate, lesson string) {
		goesAgainst(Lesson{Content: lesson}, candidateClaims(candidate)) // must not panic
	})
}
