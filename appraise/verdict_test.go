package appraise

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/innate-mcp/innate-mcp/internal/answerfree"
)

// TestVerdict_answerFree walks the Verdict type and the JSON of a verdict
// with flagged points and contributors: no field or key may be named like
// an answer, and no flagged summary may contain the candidate's text, even
// when the lesson text quotes the candidate.
func TestVerdict_answerFree(t *testing.T) {
	answerfree.CheckType(t, reflect.TypeFor[Verdict]())

	candidate := "Use fmt.Errorf with %w to wrap the error"
	quoting := caution("q", 0.8)
	quoting.Trigger = "when you want to use fmt.Errorf with %w to wrap the error in old Go"
	echo := caution("e", 0.7)
	echo.Trigger, echo.Content = "", candidate+". It breaks on Go before 1.13."
	r := Appraise(Input{Lessons: []Lesson{quoting, echo}, Candidate: candidate, Mode: Brainstorm}, DefaultConfig())
	v := r.Verdict
	if len(v.FlaggedPoints) != 2 || len(v.Contributors) != 2 {
		t.Fatalf("setup: want two flagged points, got %+v", v)
	}
	for _, p := range v.FlaggedPoints {
		if strings.Contains(strings.ToLower(p.Summary), strings.ToLower(candidate)) {
			t.Errorf("flagged summary %q contains the candidate", p.Summary)
		}
		if !strings.HasPrefix(p.Summary, "Watch out") {
			t.Errorf("summary %q is not phrased as a caution", p.Summary)
		}
	}
	b := answerfree.CheckJSON(t, v)
	if strings.Contains(string(b), candidate) {
		t.Errorf("verdict JSON echoes the candidate: %s", b)
	}
}

func TestParseMode(t *testing.T) {
	for in, want := range map[string]Mode{"": Focus, "focus": Focus, "brainstorm": Brainstorm, "quiet": Quiet} {
		if got, err := ParseMode(in); got != want || err != nil {
			t.Errorf("ParseMode(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseMode("loud"); !errors.Is(err, ErrUnknownMode) {
		t.Fatalf("ParseMode(loud) err = %v", err)
	}
}
