package kb_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/internal/fakeembed"
	"github.com/innate-mcp/innate-mcp/internal/metric"
	"github.com/innate-mcp/innate-mcp/kb"
)

// replayResult is what a replay of recorded outcomes ends with.
type replayResult struct {
	auroc    float64
	lessons  int // lessons in the database at the end, any state
	recorded int // records made
}

// replay drives the knowledge base through records over lessons, half of
// which truly succeed 80% of the time and half 20%: each record comes from
// one of many agent sessions, recalls the lesson through its own text,
// reports it used (90% of the time) with an outcome drawn from its true
// rate, and now and then a user gives feedback. It returns the AUROC of the
// final confidences for good over bad lessons.
func replay(tb testing.TB, nLessons, nRecords int, seed uint64) replayResult {
	tb.Helper()
	r := rand.New(rand.NewPCG(seed, 99))
	c := &clock{t: time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)}
	base := newEnv(tb, withClock(c, "import"))
	lessons := make([]kb.NewLesson, nLessons)
	for i := range lessons {
		lessons[i] = kb.NewLesson{Content: fmt.Sprintf("Lesson %d: when module m%dx fails, apply remedy r%dx to component c%dx.", i, i, i, i),
			Trigger: fmt.Sprintf("module m%dx failing in component c%dx", i, i)}
	}
	ids := base.add(tb, lessons...)
	good := make(map[string]bool, nLessons)
	for i, id := range ids {
		good[id] = i%2 == 0
	}
	sessions := make([]*kb.KB, 0, 400)
	for i := range cap(sessions) {
		k, err := kb.New(kb.Config{Store: base.db, Embedder: fakeembed.New(256), Session: fmt.Sprintf("agent-%d", i), Now: c.now})
		if err != nil {
			tb.Fatal(err)
		}
		sessions = append(sessions, k)
	}
	ctx := context.Background()
	res := replayResult{}
	for n := range nRecords {
		c.t = c.t.Add(3 * time.Minute) // about three weeks over 10k records
		i := r.IntN(nLessons)
		k := sessions[(n/8+r.IntN(3))%len(sessions)] // a session handles a few records in a row
		// The lesson was in front of the agent: a trace that returned it
		// (written directly, so that the replay measures how confidence
		// follows evidence, not which lessons recall keeps injecting).
		traceID := fmt.Sprintf("t_replay_%d", n)
		err := base.db.Update(ctx, func(tx kb.Tx) error {
			return tx.InsertTrace(ctx, kb.Trace{ID: traceID, Tool: "recall", Session: k.Session(), CreatedAt: c.t,
				Request: []byte("{}"), Response: []byte("{}"), Returned: []kb.ReturnedEntry{{LessonID: ids[i], Rank: 1}}})
		})
		if err != nil {
			tb.Fatal(err)
		}
		rec := kb.RecallResult{TraceID: traceID}
		p := 0.2
		if good[ids[i]] {
			p = 0.8
		}
		req := kb.RecordRequest{TraceID: rec.TraceID, Outcome: kb.OutcomeFailure}
		if r.Float64() < p {
			req.Outcome = kb.OutcomeSuccess
		}
		if r.Float64() < 0.9 {
			req.Used = []string{ids[i]}
		}
		if r.Float64() < 0.05 { // the user reacts, right 80% of the time
			up := good[ids[i]] == (r.Float64() < 0.8)
			f := kb.FeedbackItem{LessonID: ids[i], Signal: "up"}
			if !up {
				f = kb.FeedbackItem{LessonID: ids[i], Signal: "down", Reason: "did not help"}
			}
			req.Feedback = []kb.FeedbackItem{f}
		}
		if _, err := k.Record(ctx, req); err != nil {
			tb.Fatal(err)
		}
		res.recorded++
	}
	var pos, neg []float64
	err := base.db.Lessons(ctx, kb.LessonFilter{}, func(l kb.Lesson) error {
		res.lessons++
		l = base.kb.DecayedToNow(l)
		if good[l.ID] {
			pos = append(pos, l.Confidence)
		} else {
			neg = append(neg, l.Confidence)
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	res.auroc = metric.AUROC(pos, neg)
	return res
}

// TestReplay_confidenceSeparatesGoodFromBad is the small replay run in CI;
// BenchmarkReplay runs the full 10k records over 1k lessons.
func TestReplay_confidenceSeparatesGoodFromBad(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 2,000 records")
	}
	res := replay(t, 200, 2000, 1)
	if res.lessons != 200 {
		t.Fatalf("lessons at the end = %d, want 200: none may be lost", res.lessons)
	}
	if res.auroc < 0.9 {
		t.Fatalf("AUROC = %.3f over %d records, want ≥ 0.9 on this small replay", res.auroc, res.recorded)
	}
	t.Logf("AUROC %.3f over %d records", res.auroc, res.recorded)
}

// BenchmarkReplay is the replay: 10k records over 1k lessons, half
// truly succeeding 80% of the time and half 20%. Target: AUROC ≥ 0.95 and
// no lesson lost.
func BenchmarkReplay(b *testing.B) {
	for b.Loop() {
		res := replay(b, 1000, 10_000, 1)
		b.ReportMetric(res.auroc, "auroc")
		b.ReportMetric(float64(1000-res.lessons), "lessons-lost")
	}
}
