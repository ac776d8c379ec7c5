package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"time"

	"github.com/innate-mcp/innate-mcp/internal/metric"
	"github.com/innate-mcp/innate-mcp/kb"
)

// RetrievalQuery is one line of a retrieval query file.
type RetrievalQuery struct {
	Query       string   `json:"query"`
	RelevantIDs []string `json:"relevant_ids"`
}

// RankMetrics are the standard retrieval figures over a query set.
type RankMetrics struct {
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
func (r *RankMetrics) add(ranked [][]string, relevant map[string]bool) float64 {
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
func (r RankMetrics) done() RankMetrics {
	if r.N == 0 {
		return r
	}
	n := float64(r.N)
	r.MRRAt10, r.RecallAt1 = metric.Round4(r.MRRAt10/n), metric.Round4(r.RecallAt1/n)
	r.RecallAt5, r.RecallAt10 = metric.Round4(r.RecallAt5/n), metric.Round4(r.RecallAt10/n)
	return r
}

// RetrievalReport is the outcome of Retrieval.
type RetrievalReport struct {
	RankMetrics
	EmptyRate float64 `json:"empty_rate"`
	// ReadAs counts the queries with a word no lesson holds that recall
	// read as a typo or as words run together (see kb.RecallResult.ReadAs).
	ReadAs     int                    `json:"read_as_queries"`
	Corpus     int                    `json:"corpus"`
	Embedder   string                 `json:"embedder"`
	ImportSecs float64                `json:"import_seconds"`
	QuerySecs  float64                `json:"query_seconds"`
	Channels   map[string]RankMetrics `json:"channels,omitempty"`
	// FusedVsLexical counts the queries whose relevant lesson the fused
	// ranking (no floor) puts higher, and lower, than BM25 alone.
	FusedVsLexical *Versus `json:"fused_vs_lexical,omitempty"`
}

// Versus counts queries one ranking wins and loses against another.
type Versus struct {
	Better int `json:"better"`
	Worse  int `json:"worse"`
}

// RetrievalOptions configures Retrieval.
type RetrievalOptions struct {
	// Channels also ranks by each channel alone, side by side.
	Channels bool
	// Dump, when not nil, receives every query's top candidates with their
	// breakdowns, one JSON line per query.
	Dump io.Writer
	// Log, when not nil, is told how many corpus lessons were rejected.
	Log *slog.Logger
}

// Retrieval imports corpus into k (as imported lessons) and measures how
// well recall finds each query's relevant ids in it. The report's Embedder
// is left for the caller to fill in.
func Retrieval(ctx context.Context, k *kb.KB, corpus []kb.NewLesson, queries []RetrievalQuery, opts RetrievalOptions) (RetrievalReport, error) {
	start := time.Now()
	c, err := importCorpus(ctx, k, corpus, opts.Log)
	if err != nil {
		return RetrievalReport{}, err
	}
	run := newRetrievalRun(k, c, opts)
	out := RetrievalReport{Corpus: c.added, ImportSecs: Seconds(start)}
	start = time.Now()
	for _, q := range queries {
		if err := run.query(ctx, q); err != nil {
			return out, err
		}
	}
	out.QuerySecs = Seconds(start)
	run.report(&out)
	return out, nil
}

// Seconds is the time since start in seconds, rounded to four places, as
// the evaluation reports print it.
func Seconds(start time.Time) float64 { return metric.Round4(time.Since(start).Seconds()) }

// corpusIndex is an imported corpus: how many lessons it added, the corpus
// ids each lesson stands for, and whether any has a trigger.
type corpusIndex struct {
	added      int
	alias      map[string][]string
	hasTrigger bool
}

// importCorpus adds corpus to k as imported lessons.
func importCorpus(ctx context.Context, k *kb.KB, corpus []kb.NewLesson, log *slog.Logger) (corpusIndex, error) {
	for i := range corpus {
		corpus[i].Origin = kb.OriginImported
	}
	rep, err := k.Add(ctx, corpus, nil)
	if err != nil {
		return corpusIndex{}, err
	}
	if rep.Rejected > 0 && log != nil {
		log.Warn("corpus lessons rejected", "n", rep.Rejected)
	}
	// Map lesson ids to the corpus ids they stand for (one, unless the
	// corpus repeats a text, which the knowledge base stores once).
	c := corpusIndex{added: rep.Added, alias: map[string][]string{}}
	for i, it := range rep.Items {
		if corpus[i].ID != "" && it.ID != "" {
			c.alias[it.ID] = append(c.alias[it.ID], corpus[i].ID)
		}
	}
	for _, l := range corpus {
		c.hasTrigger = c.hasTrigger || l.Trigger != ""
	}
	return c, nil
}

// retrievalRun accumulates the figures of the queries run so far.
type retrievalRun struct {
	k      *kb.KB
	c      corpusIndex
	opts   RetrievalOptions
	dump   *json.Encoder
	fused  RankMetrics
	chans  map[string]*RankMetrics
	empty  int
	readAs int
	vs     Versus
}

func newRetrievalRun(k *kb.KB, c corpusIndex, opts RetrievalOptions) *retrievalRun {
	r := &retrievalRun{k: k, c: c, opts: opts,
		chans: map[string]*RankMetrics{"content": {}, "trigger": {}, "lexical": {}, "fused_no_floor": {}}}
	if opts.Dump != nil {
		r.dump = json.NewEncoder(opts.Dump)
	}
	return r
}

// query recalls one query and scores its ranking, and each channel's when
// asked for; a query without relevant ids is skipped.
func (r *retrievalRun) query(ctx context.Context, q RetrievalQuery) error {
	rel := map[string]bool{}
	for _, id := range q.RelevantIDs {
		rel[id] = true
	}
	if len(rel) == 0 {
		return nil
	}
	res, err := r.k.Recall(ctx, kb.RecallRequest{Query: q.Query, Top: 10})
	if err != nil {
		return fmt.Errorf("query %q: %w", q.Query, err)
	}
	if res.Empty {
		r.empty++
	}
	if len(res.ReadAs) > 0 {
		r.readAs++
	}
	var ids [][]string
	for _, l := range res.Lessons {
		ids = append(ids, orID(r.c.alias, l.ID))
	}
	r.fused.add(ids, rel)
	if r.dump == nil && !r.opts.Channels {
		return nil
	}
	ranked, err := r.k.Rank(ctx, kb.Situation{Query: q.Query})
	if err != nil {
		return err
	}
	if r.dump != nil {
		if err := r.dumpQuery(q, ranked, rel); err != nil {
			return err
		}
	}
	if r.opts.Channels {
		r.rankChannels(ranked, rel)
	}
	return nil
}

// dumpQuery writes a query's top 20 candidates, and any relevant one
// beyond them, with their breakdowns.
func (r *retrievalRun) dumpQuery(q RetrievalQuery, ranked []kb.Scored, rel map[string]bool) error {
	type cand struct {
		ID        []string     `json:"id"`
		Relevant  bool         `json:"relevant"`
		Score     float64      `json:"score"`
		Breakdown kb.Breakdown `json:"breakdown"`
	}
	var cs []cand
	for _, s := range ranked {
		c := cand{ID: orID(r.c.alias, s.Lesson.ID), Score: s.Score, Breakdown: s.Breakdown}
		for _, id := range c.ID {
			c.Relevant = c.Relevant || rel[id]
		}
		if len(cs) < 20 || c.Relevant {
			cs = append(cs, c)
		}
	}
	return r.dump.Encode(map[string]any{"query": q.Query, "candidates": cs})
}

// rankChannels scores the ranking by each channel alone, and counts
// whether the fused ranking beat BM25 alone.
func (r *retrievalRun) rankChannels(ranked []kb.Scored, rel map[string]bool) {
	rr := map[string]float64{}
	for name, key := range map[string]func(kb.Scored) float64{
		"content":        func(s kb.Scored) float64 { return s.Breakdown.ContentCos },
		"trigger":        func(s kb.Scored) float64 { return s.Breakdown.TriggerCos },
		"lexical":        func(s kb.Scored) float64 { return s.Breakdown.Lexical },
		"fused_no_floor": func(s kb.Scored) float64 { return s.Score },
	} {
		if name == "trigger" && !r.c.hasTrigger {
			continue
		}
		rr[name] = r.chans[name].add(rankBy(ranked, key, r.c.alias), rel)
	}
	switch {
	case rr["fused_no_floor"] > rr["lexical"]:
		r.vs.Better++
	case rr["fused_no_floor"] < rr["lexical"]:
		r.vs.Worse++
	}
}

// report fills out's figures from the queries run.
func (r *retrievalRun) report(out *RetrievalReport) {
	out.RankMetrics = r.fused.done()
	out.ReadAs = r.readAs
	if out.N > 0 {
		out.EmptyRate = metric.Round4(float64(r.empty) / float64(out.N))
	}
	if r.opts.Channels {
		vs := r.vs
		out.FusedVsLexical = &vs
		out.Channels = map[string]RankMetrics{}
		for name, m := range r.chans {
			if m.N > 0 {
				out.Channels[name] = m.done()
			}
		}
	}
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

// orID returns the corpus ids a lesson id stands for: its alias, or itself.
func orID(alias map[string][]string, id string) []string {
	if a, ok := alias[id]; ok {
		return a
	}
	return []string{id}
}
