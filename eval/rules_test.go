package eval_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/innate-mcp/innate-mcp/embed"
	"github.com/innate-mcp/innate-mcp/eval"
	"github.com/innate-mcp/innate-mcp/internal/evaldata"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/storage"
)

// TestRules_devSet runs the rules dev set (20 projects' own rule files) as
// `innate-mcp eval rules` does and holds the figures the README reports:
// the goals where they are met, the measured level (less a margin
// for the race detector's slower but identical run) where they are not yet.
func TestRules_devSet(t *testing.T) {
	if testing.Short() {
		t.Skip("imports 20 rule files with the built-in encoder")
	}
	dir := evaldata.Path(t, "rules")
	ctx := context.Background()
	db, err := storage.Open(ctx, filepath.Join(t.TempDir(), "eval.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	k, err := kb.New(kb.Config{Store: db, Embedder: embed.Builtin(), Session: "eval"})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := eval.Rules(ctx, k, dir, eval.RulesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", rep.RuleFigures)
	if rep.Missing != 0 {
		t.Errorf("%d rules of the set are in no imported lesson", rep.Missing)
	}
	for _, c := range []struct {
		name      string
		got, want float64
		atMost    bool
	}{
		{"appraise caution on complies (false alarms)", rep.CautionComplies, 0.10, true},
		{"appraise affirm on complies", rep.AffirmComplies, 0.50, false},
		{"appraise abstains on unrelated", rep.AbstainUnrelated, 0.80, false},
		{"appraise caution on violates", rep.CautionViolates, 0.60, false},
		{"appraise abstains on rule scenarios", rep.AbstainRules, 0.25, true},
		{"recall hit@3", rep.RecallHit3, 0.46, false},
	} {
		if c.atMost && c.got > c.want || !c.atMost && c.got < c.want {
			bound := "at least"
			if c.atMost {
				bound = "at most"
			}
			t.Errorf("%s = %.3f, want %s %.2f", c.name, c.got, bound, c.want)
		}
	}
}
