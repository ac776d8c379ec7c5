package main

import (
	"context"
	"fmt"
	"io"

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
	r, err := m.openReplay(ctx, g, stderr, "stop", *dumpPath)
	if err != nil {
		return err
	}
	defer r.close(&err)
	rep, err := eval.Stop(ctx, *dataDir, eval.StopOptions{Root: r.root, Dump: r.dump,
		Handler: func(project string) *hook.Handler { return r.handler(project, nil) }})
	if err != nil {
		return err
	}
	return r.write(stdout, rep)
}
