package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/innate-mcp/innate-mcp/eval"
)

// evalRules runs the rules set (eval.Rules) on a fresh temporary knowledge
// base and prints its figures.
func (m *Main) evalRules(ctx context.Context, g *globals, args []string, stdout, stderr io.Writer) (err error) {
	fs := newFlagSet("eval rules", g, stderr, "--data DIR [--consultant DIR] [--noise FILE] [--dump FILE]\n   or: innate-mcp eval rules --data DIR --data DIR... [--consultant DIR --consultant DIR...]   (sets pooled)")
	var dataDirs, consultants stringList
	fs.Var(&dataDirs, "data", "the rules set: DIR/rules/<project>.md and DIR/scenarios.jsonl; repeat it to pool several sets, each in a knowledge base of its own")
	noisePath := fs.String("noise", "", "JSONL lessons imported globally first, to crowd the projects' rules")
	dumpPath := fs.String("dump", "", "write what recall and appraise returned for every scenario to this JSONL file")
	paramsJSON := fs.String("params", "", "JSON object of appraise parameters to try instead of the defaults, e.g. '{\"appraise.rule.applies\":0.2}'")
	weightsJSON := fs.String("weights", "", "JSON object of fused-score weights to try instead of the defaults, e.g. '{\"lexical\":0.5}'")
	fs.Var(&consultants, "consultant", "recorded consultant answers, DIR/<rule file's name>.json, applied after each file is imported; with several --data, one for each, in order")
	kbPath := fs.String("kb", "", "measure on this empty PostgreSQL database (postgres://…) instead of a fresh temporary SQLite file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if len(dataDirs) == 0 {
		return fmt.Errorf("%w: eval rules needs --data DIR", errUsage)
	}
	if len(consultants) > 0 && len(consultants) != len(dataDirs) {
		return fmt.Errorf("%w: give one --consultant for each --data (%d and %d)", errUsage, len(consultants), len(dataDirs))
	}
	if len(dataDirs) > 1 {
		return m.evalRulesPooled(ctx, g, dataDirs, consultants, stdout, stderr)
	}
	opts := eval.RulesOptions{}
	if len(consultants) == 1 {
		opts.Consultant = consultants[0]
	}
	dataDir := &dataDirs[0]
	if *noisePath != "" {
		data, err := os.ReadFile(*noisePath)
		if err != nil {
			return err
		}
		if opts.Noise, err = parseJSONL(bytes.NewReader(data)); err != nil {
			return fmt.Errorf("noise %s: %w", *noisePath, err)
		}
		for i := range opts.Noise {
			opts.Noise[i].Project = ""
		}
	}
	dump, done, err := createDump(*dumpPath)
	if err != nil {
		return err
	}
	defer done(&err)
	opts.Dump = dump
	if *kbPath != "" && !isPostgres(*kbPath) {
		return fmt.Errorf("%w: eval rules --kb takes an empty PostgreSQL database (postgres://…); without it, a temporary SQLite file", errUsage)
	}
	ev, err := m.openEvalKB(ctx, g, stderr, evalKBOptions{path: *kbPath, weights: *weightsJSON, params: *paramsJSON})
	if err != nil {
		return err
	}
	defer ev.close()
	k, emb := ev.kb, ev.emb
	last := ""
	opts.Progress = func(stage string, done, total int) {
		if stage != last || done == total {
			fmt.Fprintf(stderr, "eval rules: %s %d/%d\n", stage, done, total)
			last = stage
		}
	}
	start := time.Now()
	rep, err := eval.Rules(ctx, k, *dataDir, opts)
	if err != nil {
		return err
	}
	return writeJSON(stdout, struct {
		eval.RulesReport
		Embedder string  `json:"embedder"`
		Seconds  float64 `json:"seconds"`
	}{rep, emb.Name(), eval.Seconds(start)})
}

// evalRulesPooled runs several rules sets, each on a fresh knowledge base,
// and prints each set's figures and the pooled ones.
func (m *Main) evalRulesPooled(ctx context.Context, g *globals, dirs, consultants []string, stdout, stderr io.Writer) error {
	start := time.Now()
	var reps []eval.RulesReport
	type setOut struct {
		Data string `json:"data"`
		eval.RulesReport
	}
	var sets []setOut
	for i, dir := range dirs {
		ev, err := m.openEvalKB(ctx, g, stderr, evalKBOptions{})
		if err != nil {
			return err
		}
		opts := eval.RulesOptions{}
		if len(consultants) > 0 {
			opts.Consultant = consultants[i]
		}
		fmt.Fprintf(stderr, "eval rules: set %d/%d %s\n", i+1, len(dirs), dir)
		rep, err := eval.Rules(ctx, ev.kb, dir, opts)
		ev.close()
		if err != nil {
			return fmt.Errorf("%s: %w", dir, err)
		}
		reps = append(reps, rep)
		sets = append(sets, setOut{dir, rep})
	}
	return writeJSON(stdout, struct {
		Pooled eval.PooledFigures `json:"pooled"`
		Sets   []setOut           `json:"sets"`
		Secs   float64            `json:"seconds"`
	}{eval.Pool(reps), sets, eval.Seconds(start)})
}
