package eval_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/innate-mcp/innate-mcp/embed"
	"github.com/innate-mcp/innate-mcp/eval"
	"github.com/innate-mcp/innate-mcp/hook"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/storage"
)

// TestStop_realTurns replays the stop set's real turns through the Stop
// hook: the check half must meet issue 28's figures (precision ≥ 0.75,
// recall ≥ 0.50, false blocks ≤ 0.08), and the whole set must stay near
// what was measured (0.986, 0.845, 0.007).
func TestStop_realTurns(t *testing.T) {
	if testing.Short() {
		t.Skip("replays real agent turns")
	}
	ctx := context.Background()
	dir := t.TempDir()
	db, err := storage.Open(ctx, filepath.Join(dir, "eval.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	k, err := kb.New(kb.Config{Store: db, Embedder: embed.Builtin(), Session: "eval"})
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, "turns")
	if err := os.MkdirAll(root, 0o700); err != nil {
		t.Fatal(err)
	}
	state := &hook.StateDir{Dir: filepath.Join(dir, "state")}
	rep, err := eval.Stop(ctx, filepath.Join("testdata", "stop"), eval.StopOptions{Root: root,
		Handler: func(project string) *hook.Handler {
			return &hook.Handler{KB: k, Config: hook.DefaultConfig(), Project: func(string) string { return project }, State: state}
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("all: %+v", rep.StopFigures)
	t.Logf("tune: %+v", rep.Tune)
	t.Logf("check: %+v", rep.Check)
	if rep.Turns+rep.Unsure < 300 || rep.Tune.Repos < 6 || rep.Check.Repos < 6 || rep.Expected < 50 {
		t.Fatalf("the set: %+v", rep.StopFigures)
	}
	if c := rep.Check; c.Precision < 0.75 || c.FalseBlockRate > 0.08 || c.Recall < 0.50 {
		t.Errorf("check half: precision %.3f (want ≥ 0.75), false blocks %.3f (≤ 0.08), recall %.3f (≥ 0.50)", c.Precision, c.FalseBlockRate, c.Recall)
	}
	if rep.Precision < 0.93 || rep.FalseBlockRate > 0.03 || rep.Recall < 0.80 {
		t.Errorf("all: precision %.3f (want ≥ 0.93), false blocks %.3f (≤ 0.03), recall %.3f (≥ 0.80)", rep.Precision, rep.FalseBlockRate, rep.Recall)
	}
}
