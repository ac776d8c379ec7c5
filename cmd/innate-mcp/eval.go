package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/innate-mcp/innate-mcp/eval"
)

func (m *Main) runEval(ctx context.Context, g *globals, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if ok, err := helpFirst("eval", "retrieval|appraise|hedging|hesitation|rules|capture|actions|stop [flags]   (innate-mcp eval KIND -h lists a kind's flags)", g, stderr, args); ok {
		return err
	}
	if len(args) == 0 {
		return fmt.Errorf("%w: eval needs a kind: retrieval, appraise, hedging, hesitation, rules, capture, actions or stop", errUsage)
	}
	switch args[0] {
	case "retrieval":
		return m.evalRetrieval(ctx, g, args[1:], stdout, stderr)
	case "appraise":
		return m.evalAppraise(ctx, g, args[1:], stdout, stderr)
	case "hedging":
		return m.evalHedging(args[1:], stdout, stderr, g)
	case "hesitation":
		return m.evalHesitation(args[1:], stdout, stderr, g)
	case "rules":
		return m.evalRules(ctx, g, args[1:], stdout, stderr)
	case "capture":
		return m.evalCapture(ctx, g, args[1:], stdout, stderr)
	case "actions":
		return m.evalActions(ctx, g, args[1:], stdout, stderr)
	case "stop":
		return m.evalStop(ctx, g, args[1:], stdout, stderr)
	}
	return fmt.Errorf("%w: unknown eval kind %q: use retrieval, appraise, hedging, hesitation, rules, capture, actions or stop", errUsage, args[0])
}

// evalCapture measures how the UserPromptSubmit hook reads user messages
// (package capture) on a labelled corrections file.
func (m *Main) evalCapture(ctx context.Context, g *globals, args []string, stdout, stderr io.Writer) error {
	path, err := dataFlag("eval capture", g, args, stderr)
	if err != nil {
		return err
	}
	rep, err := eval.Capture(ctx, path)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return writeJSON(stdout, rep)
}

// evalKBOptions says how to build an evaluation knowledge base.
type evalKBOptions struct {
	path    string // database file to keep; "" for a fresh temporary one
	weights string // --weights: JSON object of fused-score weights
	params  string // --params: JSON object of appraise parameters
}

// evalRetrieval runs eval.Retrieval on a corpus and a query file.
func (m *Main) evalRetrieval(ctx context.Context, g *globals, args []string, stdout, stderr io.Writer) (err error) {
	var corpusPath, queriesPath string
	var opts eval.RetrievalOptions
	fs := newFlagSet("eval retrieval", g, stderr, "--corpus FILE --queries FILE [--channels]")
	fs.StringVar(&corpusPath, "corpus", "", "JSONL corpus: {id, content[, trigger]} per line")
	fs.StringVar(&queriesPath, "queries", "", "JSONL queries: {query, relevant_ids} per line")
	fs.BoolVar(&opts.Channels, "channels", false, "also rank by each channel alone, side by side")
	dumpPath := fs.String("dump", "", "write every query's top candidates with their breakdowns to this JSONL file, for analysis")
	kbPath := fs.String("kb", "", "keep the evaluation knowledge base in this file and reuse it when it already holds the corpus (default: a fresh temporary one)")
	weightsJSON := fs.String("weights", "", "JSON object of fused-score weights to try instead of the defaults, e.g. '{\"lexical\":0.5}'")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if corpusPath == "" || queriesPath == "" {
		return fmt.Errorf("%w: eval retrieval needs --corpus and --queries", errUsage)
	}
	data, err := os.ReadFile(corpusPath)
	if err != nil {
		return err
	}
	corpus, err := parseJSONL(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("corpus %s: %w", corpusPath, err)
	}
	queries, err := readJSONL[eval.RetrievalQuery](queriesPath, nil)
	if err != nil {
		return err
	}
	ev, err := m.openEvalKB(ctx, g, stderr, evalKBOptions{path: *kbPath, weights: *weightsJSON})
	if err != nil {
		return err
	}
	defer ev.close()
	opts.Log = ev.log
	dump, done, err := createDump(*dumpPath)
	if err != nil {
		return err
	}
	defer done(&err)
	opts.Dump = dump
	rep, err := eval.Retrieval(ctx, ev.kb, corpus, queries, opts)
	if err != nil {
		return err
	}
	rep.Embedder = ev.emb.Name()
	return writeJSON(stdout, rep)
}

// createDump creates the file a --dump flag names, or nothing for "" (a
// nil writer). The caller defers done(&err): the error of closing the
// file becomes the command's unless it failed before.
func createDump(path string) (w io.Writer, done func(err *error), err error) {
	if path == "" {
		return nil, func(*error) {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, nil, err
	}
	return f, func(err *error) {
		if cerr := f.Close(); cerr != nil && *err == nil {
			*err = cerr
		}
	}, nil
}

// readJSONL reads a JSONL file of T, each line checked by check when it is
// not nil.
func readJSONL[T any](path string, check func(T) error) ([]T, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []T
	err = eachJSONLine(bytes.NewReader(data), maxJSONLine, func(_ int, b []byte) error {
		var v T
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
		if check != nil {
			if err := check(v); err != nil {
				return err
			}
		}
		out = append(out, v)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}
