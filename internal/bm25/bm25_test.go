package bm25

import (
	"context"
	"maps"
	"math"
	"slices"
	"testing"
)

func TestEncodeDecode_roundTrip(t *testing.T) {
	d := LessonDoc("# Go rules\nUse gofmt before a commit.", "formatting go code")
	got, err := Decode(d.Encode(), d.Length)
	if err != nil {
		t.Fatal(err)
	}
	if got.Length != d.Length || !maps.Equal(got.TF, d.TF) {
		t.Errorf("round trip: got %+v, want %+v", got, d)
	}
	// The heading is descriptive: its terms count twice.
	if d.TF["rule"] != 2 && d.TF["rules"] != 2 {
		t.Errorf("heading terms counted %v, want twice", d.TF)
	}
}

// FuzzDecode: statistics read back from a database never panic the
// decoder, and whatever decodes re-encodes to the same bytes when it came
// from Encode.
func FuzzDecode(f *testing.F) {
	f.Add(LessonDoc("Close HTTP response bodies.", "http").Encode())
	f.Add([]byte{})
	f.Add([]byte{0xff})
	f.Add([]byte{2, 1, 'a', 1})
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := Decode(b, 0)
		if err != nil {
			return
		}
		if _, err := Decode(d.Encode(), 0); err != nil {
			t.Fatalf("re-encoded statistics do not decode: %v", err)
		}
	})
}

func TestQuery_scoreAndCandidates(t *testing.T) {
	docs := map[int64]Doc{
		1: LessonDoc("Always close the response body of an HTTP request.", "http clients"),
		2: LessonDoc("Run the race detector on every test run.", "testing"),
		3: LessonDoc("HTTP handlers: close the request body; HTTP status codes matter.", "http servers"),
	}
	df := map[string]int{}
	var total int64
	for _, d := range docs {
		total += int64(d.Length)
		for term := range d.TF {
			df[term]++
		}
	}
	q := NewQuery([]string{"close", "bodi", "race"}, df, int64(len(docs)), total)
	if q == nil {
		t.Fatal("nil query over a non-empty collection")
	}
	postings := func(_ context.Context, ts []string) (map[string][]int64, error) {
		out := map[string][]int64{}
		for _, term := range ts {
			for _, seq := range slices.Sorted(maps.Keys(docs)) {
				if docs[seq].TF[term] > 0 {
					out[term] = append(out[term], seq)
				}
			}
		}
		return out, nil
	}
	stats := func(_ context.Context, seqs []int64, fn func(int64, int, []byte) error) error {
		for _, s := range seqs {
			if err := fn(s, docs[s].Length, docs[s].Encode()); err != nil {
				return err
			}
		}
		return nil
	}
	all, err := q.Candidates(context.Background(), postings, stats, 10)
	if err != nil || len(all) != 3 {
		t.Fatalf("candidates %v, %v: want all three lessons", all, err)
	}
	// With a pool of one the exact BM25 decides among the lessons found.
	best, err := q.Candidates(context.Background(), postings, stats, 1)
	if err != nil || len(best) != 1 {
		t.Fatalf("pool 1: %v, %v", best, err)
	}
	top, topScore := int64(0), -1.0
	for seq, d := range docs {
		tf := make([]int, 3)
		for i, term := range []string{"close", "bodi", "race"} {
			tf[i] = d.TF[term]
		}
		if s := q.Score(tf, d.Length); s > topScore {
			top, topScore = seq, s
		}
	}
	if best[0] != top {
		t.Errorf("pool 1 kept lesson %d, the best BM25 is lesson %d", best[0], top)
	}
	if s, err := q.ScoreStats(top, nil, 0); err != nil || math.Abs(s-topScore) > 1e-12 {
		t.Errorf("ScoreStats of a scored lesson = %v, %v; want the score kept, %v", s, err, topScore)
	}
	if (*Query)(nil).Score([]int{1}, 3) != 0 || NewQuery(nil, df, 3, 30) != nil || NewQuery([]string{"x"}, df, 0, 0) != nil {
		t.Error("an empty query or collection must score 0")
	}
}
