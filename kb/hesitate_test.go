package kb_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/hesitation"
	"github.com/innate-mcp/innate-mcp/kb"
)

func (e *env) hesitate(tb testing.TB, req kb.HesitateRequest) kb.HesitateResult {
	tb.Helper()
	res, err := e.kb.Hesitate(context.Background(), req)
	if err != nil {
		tb.Fatalf("hesitate: %v", err)
	}
	return res
}

func behaviour(res kb.HesitateResult, a hesitation.Action) hesitation.Behaviour {
	for _, s := range res.Plan {
		if s.Action == a {
			return s.Behaviour
		}
	}
	return ""
}

// TestHesitate_learnsFromCorrection: a correction recorded through record
// makes the next draft that repeats the mistake hold, while an unrelated
// draft is unaffected.
func TestHesitate_learnsFromCorrection(t *testing.T) {
	e := newEnv(t)
	mistake := "I'll run the migration directly against the production database with psql and drop the old orders table."
	unrelated := "I'll rename the helper function and update its two call sites in the billing package."
	before := e.hesitate(t, kb.HesitateRequest{Draft: mistake, Actions: []string{"migrate"}})
	other := e.hesitate(t, kb.HesitateRequest{Draft: unrelated, Actions: []string{"migrate"}})

	rec := e.record(t, kb.RecordRequest{Message: "No! I told you never to touch the production database; use the staging database for migrations.",
		Correction: nil})
	if rec.PatternID == "" || len(rec.CorrectionCues) == 0 {
		t.Fatalf("message not learned as a correction: %+v", rec)
	}
	// A second correction about the same mistake, with the draft, strengthens it.
	e.record(t, kb.RecordRequest{Correction: &kb.CorrectionInput{Text: "Wrong database again: production is off limits for migrations.", Draft: mistake}})

	after := e.hesitate(t, kb.HesitateRequest{Draft: mistake, Actions: []string{"migrate"}})
	if after.Score <= before.Score || behaviour(after, "migrate") != hesitation.Hold || len(after.MatchedPatterns) == 0 {
		t.Fatalf("repeat of the corrected mistake: score %d → %d, plan %v, patterns %v", before.Score, after.Score, after.Plan, after.MatchedPatterns)
	}
	again := e.hesitate(t, kb.HesitateRequest{Draft: unrelated, Actions: []string{"migrate"}})
	if again.Score != other.Score || len(again.MatchedPatterns) != 0 {
		t.Fatalf("unrelated draft changed: %d → %d, patterns %v", other.Score, again.Score, again.MatchedPatterns)
	}
	patterns, err := e.db.ErrorPatterns(context.Background())
	if err != nil || len(patterns) == 0 || patterns[0].TriggerCount == 0 {
		t.Fatalf("patterns = %+v, %v", patterns, err)
	}
	// The same correction again strengthens its pattern instead of adding one.
	n := len(patterns)
	e.record(t, kb.RecordRequest{Correction: &kb.CorrectionInput{Text: "Wrong database again: production is off limits for migrations.", Draft: mistake}})
	patterns, _ = e.db.ErrorPatterns(context.Background())
	strengthened := false
	for _, p := range patterns {
		strengthened = strengthened || p.Corrections == 2
	}
	if len(patterns) != n || !strengthened {
		t.Fatalf("repeated correction: %d patterns (was %d), none with 2 corrections: %+v", len(patterns), n, patterns)
	}
}

func TestHesitate_reviewAndStats(t *testing.T) {
	e := newEnv(t)
	res := e.hesitate(t, kb.HesitateRequest{Draft: "All tests pass and the bug is fixed. Deploying now.", Actions: []string{"deploy"}})
	if behaviour(res, "deploy") != hesitation.Hold {
		t.Fatalf("unverified success before deploy not held: %+v", res.Result)
	}
	e.record(t, kb.RecordRequest{TraceID: res.TraceID, Review: "confirmed"})
	st, err := e.db.HesitationStats(context.Background(), time.Time{})
	if err != nil || st.Calls != 1 || st.Held != 1 || st.Confirmed != 1 || st.Signals["unverified_success"] != 1 {
		t.Fatalf("stats = %+v, %v", st, err)
	}
	rec := e.recall(t, kb.RecallRequest{Query: "anything"})
	if _, err := e.kb.Record(context.Background(), kb.RecordRequest{TraceID: rec.TraceID, Review: "confirmed"}); !errors.Is(err, kb.ErrInput) {
		t.Fatalf("review of a recall trace: err = %v", err)
	}
}

func TestHesitate_inputErrors(t *testing.T) {
	e := newEnv(t)
	for name, req := range map[string]kb.HesitateRequest{
		"empty":       {Draft: "  "},
		"huge":        {Draft: strings.Repeat("x", 300<<10)},
		"bad action":  {Draft: "ok", Actions: []string{"launch-missiles"}},
		"huge output": {Draft: "ok", ToolOutputs: []string{strings.Repeat("y", 2<<20)}},
	} {
		if _, err := e.kb.Hesitate(context.Background(), req); !errors.Is(err, kb.ErrInput) {
			t.Errorf("%s: err = %v, want ErrInput", name, err)
		}
	}
}

func TestHesitate_switchOff(t *testing.T) {
	cfg := hesitation.DefaultConfig()
	cfg.Enabled = false
	e := newEnv(t, func(c *kb.Config) { c.Hesitation = &cfg })
	res := e.hesitate(t, kb.HesitateRequest{Draft: "All tests pass. Deploying.", Actions: []string{"deploy"}})
	if !res.Disabled || res.Score != 0 || behaviour(res, "deploy") != hesitation.Proceed {
		t.Fatalf("disabled hesitation: %+v", res)
	}
}
