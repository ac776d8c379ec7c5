package tuning_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/internal/fakeembed"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/regulate"
	"github.com/innate-mcp/innate-mcp/storage"
	"github.com/innate-mcp/innate-mcp/tuning"
)

func TestRevert_restoresTheBeforeValueOnce(t *testing.T) {
	ctx := context.Background()
	db, err := storage.Open(ctx, filepath.Join(t.TempDir(), "kb.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	k, err := kb.New(kb.Config{Store: db, Embedder: fakeembed.New(32)})
	if err != nil {
		t.Fatal(err)
	}
	r, err := tuning.New()
	if err != nil {
		t.Fatal(err)
	}
	p := regulate.ParamHesitationHedge
	at := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	// The regulator moved the hedge threshold from its default 40 to 42.
	before := k.HesitationConfig().HedgeThreshold
	move := func(from, to float64, when time.Time) {
		t.Helper()
		_, err := db.Regulate(ctx, func(map[string]float64, []regulate.Change) regulate.Result {
			return regulate.Result{Changes: []regulate.Change{{Kind: regulate.KindChange, Param: p, Before: from, After: to,
				Metric: "hesitation.confirm_ratio", MetricValue: 0.3, Want: 1, At: when, Reason: "test"}}}
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	move(float64(before), float64(before)+2, at)
	if err := r.Retune(ctx, db, k); err != nil {
		t.Fatal(err)
	}
	if got := k.HesitationConfig().HedgeThreshold; got != before+2 {
		t.Fatalf("after the change the threshold is %d, want %d", got, before+2)
	}
	now := at.Add(3 * time.Hour)
	c, err := r.Revert(ctx, db, k, p, at, now, "reverted from the dashboard")
	if err != nil {
		t.Fatal(err)
	}
	if c.Kind != regulate.KindRevert || c.After != float64(before) || !c.Ref.Equal(at) {
		t.Errorf("revert entry %+v", c)
	}
	if got := k.HesitationConfig().HedgeThreshold; got != before {
		t.Errorf("after the revert the threshold is %d, want %d", got, before)
	}
	params, err := db.Params(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if params[p] != float64(before) {
		t.Errorf("stored %s = %v, want %d", p, params[p], before)
	}
	hist, err := db.RegulatorHistory(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(hist); n != 2 || hist[1].Kind != regulate.KindRevert {
		t.Fatalf("log %+v, want the change then its revert", hist)
	}
	// A second revert, a change not in the log and a parameter that moved
	// since are refused, and log nothing.
	if _, err := r.Revert(ctx, db, k, p, at, now, ""); !errors.Is(err, tuning.ErrNotRevertible) {
		t.Errorf("second revert: %v", err)
	}
	if _, err := r.Revert(ctx, db, k, p, at.Add(time.Minute), now, ""); !errors.Is(err, tuning.ErrNotRevertible) {
		t.Errorf("revert of no change: %v", err)
	}
	at2 := at.Add(72 * time.Hour)
	move(float64(before), float64(before)+2, at2)
	move(float64(before)+2, float64(before)+4, at2.Add(72*time.Hour))
	if _, err := r.Revert(ctx, db, k, p, at2, now, ""); !errors.Is(err, tuning.ErrNotRevertible) {
		t.Errorf("revert of a change moved since: %v", err)
	}
	if hist, _ := db.RegulatorHistory(ctx); len(hist) != 4 {
		t.Errorf("refused reverts logged something: %d entries", len(hist))
	}
}
