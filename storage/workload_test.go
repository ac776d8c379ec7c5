package storage

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/appraise"
	"github.com/innate-mcp/innate-mcp/internal/fakeembed"
	"github.com/innate-mcp/innate-mcp/kb"
)

// workload drives a knowledge base over a DB the way an agent does: a mix
// of recall, appraise, hesitate and record calls (outcomes and feedback on
// recalls, outcomes and heeding on verdicts, reviews of hesitations), on a
// clock that advances a minute per call. It counts the calls it makes.
type workload struct {
	tb  testing.TB
	db  *DB
	kb  *kb.KB
	rng *rand.Rand

	mu  sync.Mutex
	now time.Time

	lastRecall   kb.RecallResult
	lastAppraise string
	lastHesitate string

	recalls, appraisals, hesitations, records int
	// verdicts are the appraisals in call order, with what record said
	// of them; reviews the latest review of each reviewed hesitation.
	verdicts []verdictRecord
	verdict  map[string]int // trace id → index in verdicts
	reviews  map[string]string
}

// verdictRecord is an appraisal as the workload saw it.
type verdictRecord struct {
	strength  float64
	valence   appraise.Valence
	abstained bool
	outcome   kb.Outcome
	heeded    bool
}

// topics and verbs make the lessons and the situations: situations share
// words with some lessons and none with others, so recall is sometimes
// empty and appraise sometimes abstains.
var (
	topics = []string{"database migrations", "HTTP handlers", "error wrapping", "context cancellation", "table tests",
		"goroutine leaks", "JSON decoding", "file permissions", "SQL transactions", "logging secrets", "race detector",
		"dependency updates", "release tags", "config flags", "retry loops", "time zones"}
	verbs = []string{"Always check", "Never skip", "Prefer to review", "Run the linter on", "Write a test for", "Document"}
)

// newWorkload opens a database at a temporary path with opts and a
// knowledge base of 96 lessons over it.
func newWorkload(tb testing.TB, opts Options) *workload {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "kb.db")
	db, err := Open(context.Background(), path, opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	w := &workload{tb: tb, db: db, rng: rand.New(rand.NewPCG(1, 2)), now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		verdict: map[string]int{}, reviews: map[string]string{}}
	k, err := kb.New(kb.Config{Store: db, Embedder: fakeembed.New(64), Session: "soak", Now: w.clock})
	if err != nil {
		tb.Fatal(err)
	}
	w.kb = k
	var nls []kb.NewLesson
	for i, t := range topics {
		for j, v := range verbs {
			nls = append(nls, kb.NewLesson{Content: fmt.Sprintf("%s %s in service %d before merging.", v, t, i*len(verbs)+j),
				Trigger: "working on " + t, Origin: kb.OriginUserStated})
		}
	}
	if _, err := k.Add(context.Background(), nls, nil); err != nil {
		tb.Fatal(err)
	}
	return w
}

// clock is the workload's time.
func (w *workload) clock() time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.now
}

// run makes n calls.
func (w *workload) run(n int) {
	w.tb.Helper()
	for range n {
		w.step()
	}
}

// step makes one call and advances the clock a minute.
func (w *workload) step() {
	w.tb.Helper()
	ctx := context.Background()
	defer func() {
		w.mu.Lock()
		w.now = w.now.Add(time.Minute)
		w.mu.Unlock()
	}()
	topic := topics[w.rng.IntN(len(topics))]
	query := fmt.Sprintf("I am changing the %s code in module %d", topic, w.rng.IntN(1000))
	if w.rng.IntN(5) == 0 {
		query = fmt.Sprintf("bake bread number %d with rye flour", w.rng.IntN(1000)) // nothing relevant
	}
	switch c := w.rng.IntN(10); {
	case c < 3:
		res, err := w.kb.Recall(ctx, kb.RecallRequest{Query: query})
		if err != nil {
			w.tb.Fatalf("recall: %v", err)
		}
		w.lastRecall = res
		w.recalls++
	case c < 5:
		res, err := w.kb.Appraise(ctx, kb.AppraiseRequest{Query: query,
			Candidate: fmt.Sprintf("%s %s now and merge.", verbs[w.rng.IntN(len(verbs))], topic)})
		if err != nil {
			w.tb.Fatalf("appraise: %v", err)
		}
		w.lastAppraise = res.TraceID
		w.appraisals++
		w.verdict[res.TraceID] = len(w.verdicts)
		w.verdicts = append(w.verdicts, verdictRecord{strength: res.Strength, valence: res.Valence, abstained: res.Abstained})
	case c < 7:
		res, err := w.kb.Hesitate(ctx, kb.HesitateRequest{Draft: "I think the " + topic + " change probably works, so I will push it.",
			Actions: []string{"commit", "push"}})
		if err != nil {
			w.tb.Fatalf("hesitate: %v", err)
		}
		w.lastHesitate = res.TraceID
		w.hesitations++
	default:
		w.record()
	}
}

// record reports on the latest recall, appraisal or hesitation.
func (w *workload) record() {
	w.tb.Helper()
	outcome := kb.OutcomeSuccess
	if w.rng.IntN(3) == 0 {
		outcome = kb.OutcomeFailure
	}
	var req kb.RecordRequest
	switch c := w.rng.IntN(3); {
	case c == 0 && w.lastRecall.TraceID != "":
		req = kb.RecordRequest{TraceID: w.lastRecall.TraceID, Outcome: outcome}
		if len(w.lastRecall.Lessons) > 0 {
			id := w.lastRecall.Lessons[0].ID
			req.Used = []string{id}
			if w.rng.IntN(4) == 0 {
				req.Feedback = []kb.FeedbackItem{{LessonID: id, Signal: "up"}}
			}
		}
	case c == 1 && w.lastAppraise != "":
		heeded := w.rng.IntN(8) == 0
		req = kb.RecordRequest{TraceID: w.lastAppraise, Outcome: outcome, VerdictHeeded: &heeded}
	case w.lastHesitate != "":
		review := "confirmed"
		if w.rng.IntN(3) == 0 {
			review = "rejected"
		}
		req = kb.RecordRequest{TraceID: w.lastHesitate, Review: review}
	default:
		return
	}
	if _, err := w.kb.Record(context.Background(), req); err != nil {
		w.tb.Fatalf("record %+v: %v", req, err)
	}
	w.records++
	if i, ok := w.verdict[req.TraceID]; ok {
		w.verdicts[i].outcome, w.verdicts[i].heeded = req.Outcome, *req.VerdictHeeded
	}
	if req.Review != "" {
		w.reviews[req.TraceID] = req.Review
	}
}

// calibrationPoints are the points the calibration should be fitted on, as
// the workload saw its verdicts: the newest maxCalibrationPoints verdicts
// with an outcome, not heeded, not abstained, affirm or caution.
func (w *workload) calibrationPoints() []appraise.Point {
	var out []appraise.Point
	for i := len(w.verdicts) - 1; i >= 0 && len(out) < maxCalibrationPoints; i-- {
		v := w.verdicts[i]
		if v.heeded || v.abstained || (v.outcome != kb.OutcomeSuccess && v.outcome != kb.OutcomeFailure) ||
			(v.valence != appraise.Affirm && v.valence != appraise.Caution) {
			continue
		}
		hit := (v.valence == appraise.Affirm) == (v.outcome == kb.OutcomeSuccess)
		out = append(out, appraise.Point{Strength: v.strength, Hit: hit})
	}
	return out
}

// verdictTrace returns the trace id of the i-th appraisal.
func (w *workload) verdictTrace(i int) string {
	for id, j := range w.verdict {
		if j == i {
			return id
		}
	}
	w.tb.Fatalf("no appraisal %d", i)
	return ""
}

// reviewCounts counts the hesitations reviewed as confirmed and rejected.
func (w *workload) reviewCounts() (confirmed, rejected int) {
	for _, r := range w.reviews {
		if r == "confirmed" {
			confirmed++
		} else {
			rejected++
		}
	}
	return confirmed, rejected
}

// figures are what the stats report and the calibration read of a
// database, for comparison before and after a prune.
type figures struct {
	Recall      RecallStats
	Appraise    AppraiseStats
	Modes       map[string]int
	Hesitation  HesitationStats
	Calibration int
	Hits        int
	Strength    float64
}

// readFigures reads the figures of db.
func readFigures(tb testing.TB, db *DB) figures {
	tb.Helper()
	ctx := context.Background()
	var f figures
	var err error
	if f.Recall, err = db.RecallStats(ctx, time.Time{}, 5); err != nil {
		tb.Fatal(err)
	}
	if f.Appraise, err = db.AppraiseStats(ctx, time.Time{}); err != nil {
		tb.Fatal(err)
	}
	if f.Modes, err = db.ModeCounts(ctx, time.Time{}); err != nil {
		tb.Fatal(err)
	}
	if f.Hesitation, err = db.HesitationStats(ctx, time.Time{}); err != nil {
		tb.Fatal(err)
	}
	pts, err := db.CalibrationPoints(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	f.Calibration = len(pts)
	for _, p := range pts {
		f.Strength += p.Strength
		if p.Hit {
			f.Hits++
		}
	}
	// Sums added in another order differ in the last bits.
	f.Appraise.ECE, f.Appraise.Brier = round6(f.Appraise.ECE), round6(f.Appraise.Brier)
	f.Strength = round6(f.Strength)
	return f
}

func round6(x float64) float64 { return float64(int64(x*1e6+0.5)) / 1e6 }

// traceCount returns the number of traces db holds.
func traceCount(tb testing.TB, db *DB) int {
	tb.Helper()
	var n int
	if err := db.sql.QueryRow(`SELECT count(*) FROM traces`).Scan(&n); err != nil {
		tb.Fatal(err)
	}
	return n
}
