package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/innate-mcp/innate-mcp/eval"
	"github.com/innate-mcp/innate-mcp/hook"
)

// evalStop replays the stop set's real turns through the Stop hook on a
// fresh temporary knowledge base (eval.Stop) and prints its figures.
func (m *Main) evalStop(ctx context.Context, g *globals, args []string, stdout, stderr io.Writer) (err error) {
	fs := newFlagSet("eval stop", g, stderr, "--data DIR [--dump FILE]")
	dataDir := fs.String("data", "", "the stop set: DIR/sources.jsonl and DIR/repos/<owner>__<name>/turns.jsonl")
	dumpPath := fs.String("dump", "", "write every turn's answer and label to this JSONL file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dataDir == "" {
		return fmt.Errorf("%w: eval stop needs --data DIR", errUsage)
	}
	dump, done, err := createDump(*dumpPath)
	if err != nil {
		return err
	}
	defer done(&err)
	ev, err := m.openEvalKB(ctx, g, stderr, evalKBOptions{})
	if err != nil {
		return err
	}
	defer ev.close()
	root, err := os.MkdirTemp("", "innate-stop-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(root)
	state := &hook.StateDir{Dir: root + "/.state"}
	start := time.Now()
	rep, err := eval.Stop(ctx, *dataDir, eval.StopOptions{Root: root, Dump: dump,
		Handler: func(project string) *hook.Handler {
			return &hook.Handler{KB: ev.kb, Config: hook.DefaultConfig(), Log: ev.log.With("component", "hook"),
				Project: func(string) string { return project }, State: state}
		}})
	if err != nil {
		return err
	}
	return writeJSON(stdout, struct {
		eval.StopReport
		Embedder string  `json:"embedder"`
		Seconds  float64 `json:"seconds"`
	}{rep, ev.emb.Name(), eval.Seconds(start)})
}
