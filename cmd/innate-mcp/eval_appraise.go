package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/innate-mcp/innate-mcp/appraise"
	"github.com/innate-mcp/innate-mcp/eval"
	"github.com/innate-mcp/innate-mcp/mcpserver"
)

// appraiseParams is appraise's default configuration with the parameters
// of a --params JSON object applied.
func appraiseParams(paramsJSON string) (appraise.Config, error) {
	cfg := appraise.DefaultConfig()
	if paramsJSON == "" {
		return cfg, nil
	}
	var p map[string]float64
	if err := mcpserver.DecodeStrict(strings.NewReader(paramsJSON), &p); err != nil {
		return cfg, fmt.Errorf("--params: %w", err)
	}
	cfg, err := cfg.WithParams(p)
	if err == nil {
		err = cfg.Validate()
	}
	if err != nil {
		return cfg, fmt.Errorf("--params: %w", err)
	}
	return cfg, nil
}

// evalAppraise runs eval.Appraise on a HaluEval QA file.
func (m *Main) evalAppraise(ctx context.Context, g *globals, args []string, stdout, stderr io.Writer) (err error) {
	fs := newFlagSet("eval appraise", g, stderr, "--data FILE [--params JSON] [--dump FILE] [--limit N]")
	dataPath := fs.String("data", "", "JSONL records {id, knowledge, question, right_answer, hallucinated_answer}")
	paramsJSON := fs.String("params", "", "JSON object of appraise parameters to try instead of the defaults, e.g. '{\"appraise.floor.resonance\":0.3}'")
	dumpPath := fs.String("dump", "", "write every record's verdicts and log columns to this JSONL file, for analysis")
	limit := fs.Int("limit", 0, "evaluate only the first N records (0: all)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dataPath == "" {
		return fmt.Errorf("%w: eval appraise needs --data", errUsage)
	}
	recs, err := readQA(*dataPath)
	if err != nil {
		return err
	}
	if *limit > 0 && *limit < len(recs) {
		recs = recs[:*limit]
	}
	ev, err := m.openEvalKB(ctx, g, stderr, evalKBOptions{params: *paramsJSON})
	if err != nil {
		return err
	}
	defer ev.close()
	var opts eval.AppraiseOptions
	dump, done, err := createDump(*dumpPath)
	if err != nil {
		return err
	}
	defer done(&err)
	opts.Dump = dump
	rep, err := eval.Appraise(ctx, ev.kb, ev.store, recs, opts)
	if err != nil {
		return err
	}
	rep.Embedder = ev.emb.Name()
	return writeJSON(stdout, rep)
}

// readQA reads an appraise evaluation file.
func readQA(path string) ([]eval.QARecord, error) {
	out, err := readJSONL(path, func(r eval.QARecord) error {
		if r.Knowledge == "" || r.Question == "" {
			return errors.New("knowledge and question are required")
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, errors.New(path + ": no records")
	}
	return out, nil
}
