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
// hook and holds its figures at the level measured when the set was added
// (issue 28's recall of 0.50 is not met yet on the check half).
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
	if rep.Precision < 0.82 || rep.FalseBlockRate > 0.05 || rep.Recall < 0.38 {
		t.Errorf("precision %.3f (want ≥ 0.82), false blocks %.3f (≤ 0.05), recall %.3f (≥ 0.38)", rep.Precision, rep.FalseBlockRate, rep.Recall)
	}
}
