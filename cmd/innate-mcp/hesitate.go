package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/innate-mcp/innate-mcp/hesitation"
	"github.com/innate-mcp/innate-mcp/internal/metric"
	"github.com/innate-mcp/innate-mcp/kb"
)

func (m *Main) runHesitate(ctx context.Context, g *globals, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var req kb.HesitateRequest
	var actions, outputs, sources, files stringList
	var asJSON bool
	fs := newFlagSet("hesitate", g, stderr, "[flags] < DRAFT   (--json: tool arguments as JSON on stdin)")
	fs.Var(&actions, "action", "intended action: reply (default), question, record_lesson, task, commit, push, delete, deploy, migrate, other (repeatable)")
	fs.StringVar(&req.Query, "query", "", "the user's request the draft answers")
	fs.BoolVar(&req.TestsRun, "tests-run", false, "the test suite ran after the last change")
	fs.Var(&outputs, "tool-output", "FILE holding a tool or command output that backs the draft (repeatable)")
	fs.Var(&sources, "source", "a cited source (repeatable)")
	fs.Var(&files, "file", "a file read for the draft (repeatable)")
	fs.BoolVar(&asJSON, "json", false, "read the tool's JSON arguments from stdin instead of a plain draft")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if asJSON {
		if err := readArgs(stdin, &req, needHesitateJSON); err != nil {
			return err
		}
	} else {
		draft, err := readStdin(stdin)
		if err != nil {
			return fmt.Errorf("read draft: %w", err)
		}
		if len(bytes.TrimSpace(draft)) == 0 {
			return fmt.Errorf("%w: %s", errUsage, needHesitate)
		}
		req.Draft = string(draft)
		req.Actions, req.Sources, req.Files = actions, sources, files
		for _, f := range outputs {
			b, err := os.ReadFile(f)
			if err != nil {
				return fmt.Errorf("%w: --tool-output: %v", errUsage, err)
			}
			req.ToolOutputs = append(req.ToolOutputs, string(b))
		}
	}
	a, err := m.open(ctx, g, stderr, m.cliSession(), logAccess)
	if err != nil {
		return err
	}
	defer a.close()
	m.syncProject(ctx, a, m.currentProject())
	res, err := a.kb.Hesitate(ctx, req)
	if err != nil {
		return err
	}
	return writeJSON(stdout, res)
}

func (m *Main) runPatterns(ctx context.Context, g *globals, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("patterns", g, stderr, "list | remove ID...")
	if err := fs.Parse(reorderFlags(fs, args)); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("%w: patterns needs list or remove", errUsage)
	}
	acc := writeAccess
	if fs.Arg(0) == "list" {
		acc = readAccess
	}
	a, err := m.open(ctx, g, stderr, m.cliSession(), acc)
	if err != nil {
		return err
	}
	defer a.close()
	switch fs.Arg(0) {
	case "list":
		ps, err := a.store.ErrorPatterns(ctx)
		if err != nil {
			return err
		}
		type row struct {
			hesitation.Pattern
			Decayed float64 `json:"decayed_strength"`
			Expired bool    `json:"expired"`
		}
		cfg := a.kb.HesitationConfig()
		now := time.Now()
		out := make([]row, 0, len(ps))
		for _, p := range ps {
			out = append(out, row{p, metric.Round4(hesitation.Decayed(p, now, cfg.PatternHalfLife)), hesitation.Expired(p, now, cfg)})
		}
		return writeJSON(stdout, out)
	case "remove":
		if fs.NArg() < 2 {
			return fmt.Errorf("%w: patterns remove needs at least one ID", errUsage)
		}
		for _, id := range fs.Args()[1:] {
			if err := a.store.DeletePattern(ctx, id); err != nil {
				return fmt.Errorf("remove %s: %w", id, err)
			}
		}
		return writeJSON(stdout, map[string]any{"removed": fs.Args()[1:]})
	}
	return fmt.Errorf("%w: patterns %q: use list or remove", errUsage, fs.Arg(0))
}

// evalHedging runs the uncertainty-cue evaluation over a {text, label} file.
func (m *Main) evalHedging(args []string, stdout, stderr io.Writer, g *globals) error {
	path, err := dataFlag("eval hedging", g, args, stderr)
	if err != nil {
		return err
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	rep, err := hesitation.EvalHedging(f)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return writeJSON(stdout, rep)
}

// evalHesitation runs the hesitation AUROC evaluation over a {prompt,
// response, label} file, with the default configuration.
func (m *Main) evalHesitation(args []string, stdout, stderr io.Writer, g *globals) error {
	path, err := dataFlag("eval hesitation", g, args, stderr)
	if err != nil {
		return err
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	rep, err := hesitation.EvalHesitation(f, hesitation.DefaultConfig())
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return writeJSON(stdout, rep)
}

// dataFlag parses the --data flag of an eval.
func dataFlag(name string, g *globals, args []string, stderr io.Writer) (string, error) {
	var path string
	fs := newFlagSet(name, g, stderr, "--data FILE")
	fs.StringVar(&path, "data", "", "JSONL data file")
	if err := fs.Parse(args); err != nil {
		return "", err
	}
	if path == "" {
		return "", fmt.Errorf("%w: %s needs --data FILE", errUsage, name)
	}
	return path, nil
}
