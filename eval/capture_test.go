package eval_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/innate-mcp/innate-mcp/eval"
	"github.com/innate-mcp/innate-mcp/internal/evaldata"
)

// TestCapture_devSet runs capture over the corrections dev set as
// `innate-mcp eval capture` does and holds the targets: correction
// precision ≥ 0.80 with recall ≥ 0.30, rule precision ≥ 0.70 with recall
// ≥ 0.35.
func TestCapture_devSet(t *testing.T) {
	path := evaldata.Path(t, "corrections", "dev.jsonl")
	rep, err := eval.Capture(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s", b)
	if rep.Turns != 340 {
		t.Logf("the set has %d turns, not the 340 the targets were set on", rep.Turns)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"correction precision", rep.CorrectionPrecision, 0.80},
		{"correction recall", rep.CorrectionRecall, 0.30},
		{"rule precision", rep.RulePrecision, 0.70},
		{"rule recall", rep.RuleRecall, 0.35},
	} {
		if c.got < c.want {
			t.Errorf("%s = %.3f, want at least %.2f", c.name, c.got, c.want)
		}
	}
	if rep.RuleTextRight != rep.RuleRight {
		t.Errorf("%d of %d rules found have a text that misses the labelled rule", rep.RuleRight-rep.RuleTextRight, rep.RuleRight)
	}
}

func TestRuleTextOverlaps(t *testing.T) {
	for _, c := range []struct {
		got, want string
		ok        bool
	}{
		{"do not update seeds, never update seeds please", "never update seeds please", true},
		{"Check errors from compilation", "never update seeds please", false},
		{"以后都不要用npm", "以后都不要用npm，请用pnpm", true},
		{"", "never update seeds", false},
	} {
		if got := eval.RuleTextOverlaps(c.got, c.want); got != c.ok {
			t.Errorf("RuleTextOverlaps(%q, %q) = %v, want %v", c.got, c.want, got, c.ok)
		}
	}
}

func TestCapture_missingFile(t *testing.T) {
	if _, err := eval.Capture(context.Background(), t.TempDir()+"/none.jsonl"); err == nil {
		t.Fatal("Capture on a missing file: no error")
	}
}

// TestCapture_widerSet runs capture over the wider set of real user
// messages (eval/testdata/capture, other repositories' chats) and holds
// its figures at the level measured when the set was added, which is
// below issue 29's goals (the check half's correction precision is 0.68
// against 0.80): it guards against regressions, not for the goal.
func TestCapture_widerSet(t *testing.T) {
	rep, err := eval.Capture(context.Background(), "testdata/capture/messages.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("tune: %+v", rep.Tune)
	t.Logf("check: %+v", rep.Check)
	if rep.Turns < 1550 || len(rep.CheckRepos) < 20 || len(rep.TuneRepos) < 20 {
		t.Fatalf("the set: %d turns, %d tune and %d check repositories", rep.Turns, len(rep.TuneRepos), len(rep.CheckRepos))
	}
	if rep.CorrectionPrecision < 0.69 || rep.CorrectionRecall < 0.29 {
		t.Errorf("corrections: precision %.3f (≥ 0.69), recall %.3f (≥ 0.29)", rep.CorrectionPrecision, rep.CorrectionRecall)
	}
}
