package embed

import (
	"context"
	"os"
	"slices"
	"testing"

	"github.com/innate-mcp/innate-mcp/internal/evaldata"
)

type evalDoc struct {
	ID      string `json:"id"`
	Content string `json:"content"`
}

type evalQuery struct {
	Query       string   `json:"query"`
	RelevantIDs []string `json:"relevant_ids"`
}

type retrievalScore struct{ mrr10, r1, r10 float64 }

// denseRetrieval embeds corpus and queries with the built-in model and
// scores cosine ranking, separately for the first and second half of the
// queries (nothing is tuned here; the halves show the spread).
func denseRetrieval(t *testing.T, set string) [2]retrievalScore {
	docs := evaldata.Lines[evalDoc](t, "retrieval", corpusName(set))
	queries := evaldata.Lines[evalQuery](t, "retrieval", set+"-queries.jsonl")
	e := Builtin()
	ctx := context.Background()
	texts := make([]string, len(docs))
	for i, d := range docs {
		texts[i] = d.Content
	}
	dv, err := e.EmbedBatch(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	qtexts := make([]string, len(queries))
	for i, q := range queries {
		qtexts[i] = q.Query
	}
	qv, err := e.EmbedBatch(ctx, qtexts)
	if err != nil {
		t.Fatal(err)
	}
	var scores [2]retrievalScore
	half := len(queries) / 2
	for qi, q := range queries {
		sims := make([]float64, len(docs))
		order := make([]int, len(docs))
		for i := range docs {
			sims[i] = cosine(qv[qi], dv[i])
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int {
			switch {
			case sims[a] > sims[b]:
				return -1
			case sims[a] < sims[b]:
				return 1
			}
			return 0
		})
		s := &scores[min(1, qi/half)]
		for rank, i := range order[:10] {
			if slices.Contains(q.RelevantIDs, docs[i].ID) {
				s.mrr10 += 1 / float64(rank+1)
				if rank == 0 {
					s.r1++
				}
				s.r10++
				break
			}
		}
	}
	for h, n := range []int{half, len(queries) - half} {
		scores[h].mrr10 /= float64(n)
		scores[h].r1 /= float64(n)
		scores[h].r10 /= float64(n)
		t.Logf("%s queries half %d (%d): MRR@10=%.3f R@1=%.3f R@10=%.3f", set, h+1, n, scores[h].mrr10, scores[h].r1, scores[h].r10)
	}
	return scores
}

// TestEval_STSB reports dense paraphrase retrieval on the STS-B dev set
// (skipped when ../shared/eval is absent). The floor only catches a broken
// model: a working sentence encoder finds most paraphrases first.
func TestEval_STSB(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("embeds 1,858 texts")
	}
	for h, s := range denseRetrieval(t, "stsb-dev") {
		if s.mrr10 < 0.6 {
			t.Errorf("half %d: MRR@10=%.3f, want >= 0.6", h+1, s.mrr10)
		}
	}
}

// TestEval_CoSQA reports dense code search on CoSQA; it embeds 6,767
// texts, so it runs only with EMBED_EVAL_COSQA=1.
func TestEval_CoSQA(t *testing.T) {
	if os.Getenv("EMBED_EVAL_COSQA") != "1" {
		t.Skip("set EMBED_EVAL_COSQA=1 to run")
	}
	denseRetrieval(t, "cosqa-dev")
}

// corpusName maps a query set to its corpus file ("cosqa-dev" queries
// search "cosqa-corpus").
func corpusName(set string) string {
	if set == "cosqa-dev" {
		return "cosqa-corpus.jsonl"
	}
	return set + "-corpus.jsonl"
}
