package main

import (
	"context"
	"fmt"
	"io"

	"github.com/innate-mcp/innate-mcp/eval"
	"github.com/innate-mcp/innate-mcp/hook"
	"github.com/innate-mcp/innate-mcp/rulesync"
)

// evalActions replays the actions set through the PreToolUse hook on a
// fresh temporary knowledge base (eval.Actions) and prints its figures.
func (m *Main) evalActions(ctx context.Context, g *globals, args []string, stdout, stderr io.Writer) (err error) {
	fs := newFlagSet("eval actions", g, stderr, "--data DIR [--consultant DIR] [--no-overrides] [--dump FILE]")
	dataDir := fs.String("data", "", "the actions set: DIR/sources.jsonl and DIR/repos/<owner>__<name>/{rules/,calls.jsonl}")
	noOverrides := fs.Bool("no-overrides", false, "replay without the user letting wrong asks through (no check learns from overrides)")
	dumpPath := fs.String("dump", "", "write every call's answer and label to this JSONL file")
	consultant := fs.String("consultant", "", "recorded consultant answers, DIR/<owner>__<name>/<rule file, / as __>.json, applied after each repository's rules sync")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dataDir == "" {
		return fmt.Errorf("%w: eval actions needs --data DIR", errUsage)
	}
	r, err := m.openReplay(ctx, g, stderr, "actions", *dumpPath)
	if err != nil {
		return err
	}
	defer r.close(&err)
	ev := r.ev
	syncer := rulesync.New(ev.kb, ev.store, rulesync.Options{Log: ev.log.With("component", "rulesync")})
	opts := eval.ActionsOptions{
		Root: r.root, NoOverrides: *noOverrides, Dump: r.dump, Lesson: ev.kb.Lesson, Consultant: *consultant, KB: ev.kb,
		Handler:  func(project string) *hook.Handler { return r.handler(project, syncer.Seen) },
		Progress: func(done, total int) { fmt.Fprintf(stderr, "eval actions: calls %d/%d\n", done, total) },
	}
	rep, err := eval.Actions(ctx, *dataDir, opts)
	if err != nil {
		return err
	}
	return r.write(stdout, rep)
}
