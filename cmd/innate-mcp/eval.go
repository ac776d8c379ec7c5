package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/innate-mcp/innate-mcp/embed"
	"github.com/innate-mcp/innate-mcp/internal/metric"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/storage"
)

func (m *Main) runEval(ctx context.Context, g *globals, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: eval needs a kind: retrieval, appraise, hedging, hesitation or rules", errUsage)
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
	}
	return fmt.Errorf("%w: unknown eval kind %q: use retrieval, appraise, hedging, hesitation or rules", errUsage, args[0])
}

// evalKBOptions says how to build an evaluation knowledge base.
type evalKBOptions struct {
	path    string // database file to keep; "" for a fresh temporary one
	weights string // --weights: JSON object of fused-score weights
	params  string // --params: JSON object of appraise parameters
}

// evalKB is a knowledge base built for an evaluation run, with what it
// needs; close releases all of it (and removes a temporary database).
type evalKB struct {
	kb    *kb.KB
	db    *storage.DB
	emb   *embed.Embedder
	log   *slog.Logger
	close func()
}

// openEvalKB opens the knowledge base an `eval` command measures on: the
// configured embedder, the weights and appraise parameters given on the
// command line, in a temporary database unless a path is given.
func (m *Main) openEvalKB(ctx context.Context, g *globals, stderr io.Writer, o evalKBOptions) (*evalKB, error) {
	w := kb.DefaultWeights()
	if o.weights != "" {
		if err := decodeStrict(strings.NewReader(o.weights), &w); err != nil {
			return nil, fmt.Errorf("--weights: %w", err)
		}
	}
	ac, err := appraiseParams(o.params)
	if err != nil {
		return nil, err
	}
	emb, err := embed.New(embed.ConfigFromEnv(m.Getenv))
	if err != nil {
		return nil, err
	}
	log, closeLog, err := m.logger(g, stderr)
	if err != nil {
		return nil, err
	}
	cleanup := []func(){closeLog}
	closeAll := func() {
		for i := len(cleanup) - 1; i >= 0; i-- {
			cleanup[i]()
		}
	}
	path := o.path
	if path == "" {
		dir, err := os.MkdirTemp("", "innate-eval-*")
		if err != nil {
			closeAll()
			return nil, err
		}
		cleanup = append(cleanup, func() { os.RemoveAll(dir) })
		path = filepath.Join(dir, "eval.db")
	}
	db, err := storage.Open(ctx, path, storage.Options{Logger: log})
	if err != nil {
		closeAll()
		return nil, err
	}
	cleanup = append(cleanup, func() { db.Close() })
	k, err := kb.New(kb.Config{Store: db, Embedder: emb, Session: "eval", Logger: log, Weights: &w, Appraise: &ac})
	if err != nil {
		closeAll()
		return nil, err
	}
	return &evalKB{kb: k, db: db, emb: emb, log: log, close: closeAll}, nil
}

// retrievalQuery is one line of a retrieval query file.
type retrievalQuery struct {
	Query       string   `json:"query"`
	RelevantIDs []string `json:"relevant_ids"`
}

// rankMetrics are the standard retrieval figures over a query set.
type rankMetrics struct {
	N          int     `json:"n"`
	MRRAt10    float64 `json:"mrr_at_10"`
	RecallAt1  float64 `json:"recall_at_1"`
	RecallAt5  float64 `json:"recall_at_5"`
	RecallAt10 float64 `json:"recall_at_10"`
}

// add accumulates one query's ranking and returns its reciprocal rank (0
// when nothing relevant is in the top 10): ranked holds, for each returned
// lesson in order, the corpus ids it stands for (several when the corpus
// holds duplicates, which the knowledge base stores once).
func (r *rankMetrics) add(ranked [][]string, relevant map[string]bool) float64 {
	r.N++
	first := 0
	found := map[int]int{}
	for i, ids := range ranked {
		if i == 10 {
			break
		}
		hits := 0
		for _, id := range ids {
			if relevant[id] {
				hits++
			}
		}
		if hits > 0 {
			if first == 0 {
				first = i + 1
			}
			for _, k := range []int{1, 5, 10} {
				if i < k {
					found[k] += hits
				}
			}
		}
	}
	var rr float64
	if first > 0 {
		rr = 1 / float64(first)
	}
	r.MRRAt10 += rr
	n := float64(len(relevant))
	r.RecallAt1 += float64(found[1]) / n
	r.RecallAt5 += float64(found[5]) / n
	r.RecallAt10 += float64(found[10]) / n
	return rr
}

// done turns sums into means, rounded to four places.
func (r rankMetrics) done() rankMetrics {
	if r.N == 0 {
		return r
	}
	n := float64(r.N)
	r.MRRAt10, r.RecallAt1 = metric.Round4(r.MRRAt10/n), metric.Round4(r.RecallAt1/n)
	r.RecallAt5, r.RecallAt10 = metric.Round4(r.RecallAt5/n), metric.Round4(r.RecallAt10/n)
	return r
}

// retrievalReport is what eval retrieval prints.
type retrievalReport struct {
	rankMetrics
	EmptyRate float64 `json:"empty_rate"`
	// ReadAs counts the queries with a word no lesson holds that recall
	// read as a typo or as words run together (see kb.RecallResult.ReadAs).
	ReadAs     int                    `json:"read_as_queries"`
	Corpus     int                    `json:"corpus"`
	Embedder   string                 `json:"embedder"`
	ImportSecs float64                `json:"import_seconds"`
	QuerySecs  float64                `json:"query_seconds"`
	Channels   map[string]rankMetrics `json:"channels,omitempty"`
	// FusedVsLexical counts the queries whose relevant lesson the fused
	// ranking (no floor) puts higher, and lower, than BM25 alone.
	FusedVsLexical *versus `json:"fused_vs_lexical,omitempty"`
}

// versus counts queries one ranking wins and loses against another.
type versus struct {
	Better int `json:"better"`
	Worse  int `json:"worse"`
}

func (m *Main) evalRetrieval(ctx context.Context, g *globals, args []string, stdout, stderr io.Writer) error {
	var corpusPath, queriesPath string
	var channels bool
	fs := newFlagSet("eval retrieval", g, stderr, "--corpus FILE --queries FILE [--channels]")
	fs.StringVar(&corpusPath, "corpus", "", "JSONL corpus: {id, content[, trigger]} per line")
	fs.StringVar(&queriesPath, "queries", "", "JSONL queries: {query, relevant_ids} per line")
	fs.BoolVar(&channels, "channels", false, "also rank by each channel alone, side by side")
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
	queries, err := readQueries(queriesPath)
	if err != nil {
		return err
	}
	ev, err := m.openEvalKB(ctx, g, stderr, evalKBOptions{path: *kbPath, weights: *weightsJSON})
	if err != nil {
		return err
	}
	defer ev.close()
	k, emb, log := ev.kb, ev.emb, ev.log
	for i := range corpus {
		corpus[i].Origin = kb.OriginImported
	}
	start := time.Now()
	rep, err := k.Add(ctx, corpus, nil)
	if err != nil {
		return err
	}
	if rep.Rejected > 0 {
		log.Warn("corpus lessons rejected", "n", rep.Rejected)
	}
	out := retrievalReport{Corpus: rep.Added, Embedder: emb.Name(), ImportSecs: metric.Round4(time.Since(start).Seconds())}
	// Map lesson ids to the corpus ids they stand for (one, unless the
	// corpus repeats a text, which the knowledge base stores once).
	alias := map[string][]string{}
	for i, it := range rep.Items {
		if corpus[i].ID != "" && it.ID != "" {
			alias[it.ID] = append(alias[it.ID], corpus[i].ID)
		}
	}
	hasTrigger := false
	for _, c := range corpus {
		hasTrigger = hasTrigger || c.Trigger != ""
	}
	var fused rankMetrics
	chans := map[string]*rankMetrics{"content": {}, "trigger": {}, "lexical": {}, "fused_no_floor": {}}
	empty := 0
	var vs versus
	var dump *json.Encoder
	if *dumpPath != "" {
		f, err := os.Create(*dumpPath)
		if err != nil {
			return err
		}
		defer f.Close()
		dump = json.NewEncoder(f)
	}
	start = time.Now()
	for _, q := range queries {
		rel := map[string]bool{}
		for _, id := range q.RelevantIDs {
			rel[id] = true
		}
		if len(rel) == 0 {
			continue
		}
		res, err := k.Recall(ctx, kb.RecallRequest{Query: q.Query, Top: 10})
		if err != nil {
			return fmt.Errorf("query %q: %w", q.Query, err)
		}
		if res.Empty {
			empty++
		}
		if len(res.ReadAs) > 0 {
			out.ReadAs++
		}
		var ids [][]string
		for _, l := range res.Lessons {
			ids = append(ids, orID(alias, l.ID))
		}
		fused.add(ids, rel)
		var ranked []kb.Scored
		if dump != nil || channels {
			if ranked, err = k.Rank(ctx, kb.Situation{Query: q.Query}); err != nil {
				return err
			}
		}
		if dump != nil {
			type cand struct {
				ID        []string     `json:"id"`
				Relevant  bool         `json:"relevant"`
				Score     float64      `json:"score"`
				Breakdown kb.Breakdown `json:"breakdown"`
			}
			var cs []cand
			for _, s := range ranked {
				c := cand{ID: orID(alias, s.Lesson.ID), Score: s.Score, Breakdown: s.Breakdown}
				for _, id := range c.ID {
					c.Relevant = c.Relevant || rel[id]
				}
				if len(cs) < 20 || c.Relevant {
					cs = append(cs, c)
				}
			}
			if err := dump.Encode(map[string]any{"query": q.Query, "candidates": cs}); err != nil {
				return err
			}
		}
		if channels {
			rr := map[string]float64{}
			for name, key := range map[string]func(kb.Scored) float64{
				"content":        func(s kb.Scored) float64 { return s.Breakdown.ContentCos },
				"trigger":        func(s kb.Scored) float64 { return s.Breakdown.TriggerCos },
				"lexical":        func(s kb.Scored) float64 { return s.Breakdown.Lexical },
				"fused_no_floor": func(s kb.Scored) float64 { return s.Score },
			} {
				if name == "trigger" && !hasTrigger {
					continue
				}
				rr[name] = chans[name].add(rankBy(ranked, key, alias), rel)
			}
			switch {
			case rr["fused_no_floor"] > rr["lexical"]:
				vs.Better++
			case rr["fused_no_floor"] < rr["lexical"]:
				vs.Worse++
			}
		}
	}
	out.QuerySecs = metric.Round4(time.Since(start).Seconds())
	out.rankMetrics = fused.done()
	if out.N > 0 {
		out.EmptyRate = metric.Round4(float64(empty) / float64(out.N))
	}
	if channels {
		out.FusedVsLexical = &vs
		out.Channels = map[string]rankMetrics{}
		for name, r := range chans {
			if r.N > 0 {
				out.Channels[name] = r.done()
			}
		}
	}
	return writeJSON(stdout, out)
}

// rankBy orders scored lessons by key, best first, and returns their ids.
func rankBy(ranked []kb.Scored, key func(kb.Scored) float64, alias map[string][]string) [][]string {
	s := slices.Clone(ranked)
	slices.SortStableFunc(s, func(a, b kb.Scored) int {
		ka, kb := key(a), key(b)
		switch {
		case ka > kb:
			return -1
		case ka < kb:
			return 1
		}
		return 0
	})
	ids := make([][]string, 0, min(10, len(s)))
	for _, x := range s[:min(10, len(s))] {
		ids = append(ids, orID(alias, x.Lesson.ID))
	}
	return ids
}

func orID(alias map[string][]string, id string) []string {
	if a, ok := alias[id]; ok {
		return a
	}
	return []string{id}
}

// readQueries reads a JSONL query file.
func readQueries(path string) ([]retrievalQuery, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []retrievalQuery
	err = eachJSONLine(bytes.NewReader(data), maxJSONLine, func(_ int, b []byte) error {
		var q retrievalQuery
		if err := json.Unmarshal(b, &q); err != nil {
			return err
		}
		out = append(out, q)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}
