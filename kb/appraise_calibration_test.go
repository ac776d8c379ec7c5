package kb_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/appraise"
	"github.com/innate-mcp/innate-mcp/kb"
)

// hitRate is the true hit rate of a verdict by its strength band.
func hitRate(s float64) float64 {
	switch {
	case s < 0.25:
		return 0.30
	case s < 0.5:
		return 0.45
	case s < 0.75:
		return 0.55
	}
	return 0.70
}

// logVerdict writes a verdict log row (and its trace) as Appraise does.
func logVerdict(tb testing.TB, db interface {
	Update(context.Context, func(kb.Tx) error) error
}, id string, v appraise.Valence, strength float64) {
	tb.Helper()
	err := db.Update(context.Background(), func(tx kb.Tx) error {
		now := time.Now()
		if err := tx.InsertTrace(context.Background(), kb.Trace{ID: id, Tool: "appraise", CreatedAt: now, Request: []byte("{}"), Response: []byte("{}")}); err != nil {
			return err
		}
		return tx.InsertVerdict(context.Background(), kb.VerdictRecord{TraceID: id, CreatedAt: now,
			Mode: appraise.Focus, Valence: v, Directional: v, Strength: strength, Band: appraise.Weak, Support: 1})
	})
	if err != nil {
		tb.Fatal(err)
	}
}

// TestCalibration_replayThroughRecord replays 300 outcomes, drawn with known
// hit rates per strength band, through the verdict log and record: the
// calibration the KB then uses has an expected calibration error of at most
// 0.08 on fresh verdicts. Heeded verdicts, reported with the opposite
// outcome, are censored and change nothing.
func TestCalibration_replayThroughRecord(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	before, err := e.kb.Calibration(ctx)
	if err != nil || !before.Identity() {
		t.Fatalf("fresh calibration = %+v (%v), want identity", before, err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	heeded := true
	for i := range 400 {
		s := r.Float64()
		v := appraise.Affirm
		if i%3 == 0 {
			v = appraise.Caution
		}
		id := fmt.Sprintf("t_replay%03d", i)
		logVerdict(t, e.db, id, v, s)
		hit := r.Float64() < hitRate(s)
		req := kb.RecordRequest{TraceID: id}
		// Affirm hit = success, caution hit = failure.
		if hit == (v == appraise.Affirm) {
			req.Outcome = kb.OutcomeSuccess
		} else {
			req.Outcome = kb.OutcomeFailure
		}
		if i >= 300 { // heeded: the outcome no longer tests the verdict
			req.VerdictHeeded = &heeded
			if req.Outcome == kb.OutcomeSuccess {
				req.Outcome = kb.OutcomeFailure
			} else {
				req.Outcome = kb.OutcomeSuccess
			}
		}
		e.record(t, req)
	}
	cal, err := e.kb.Calibration(ctx)
	if err != nil || cal.Identity() {
		t.Fatalf("calibration after 300 outcomes = %+v (%v)", cal, err)
	}
	n := 0
	for _, k := range cal.Knots {
		n += k.N
	}
	if n != 300 {
		t.Fatalf("calibration rests on %d outcomes, want the 300 not heeded", n)
	}
	var conf, raw []float64
	var hits []bool
	for range 20000 {
		s := r.Float64()
		conf, raw, hits = append(conf, cal.Map(s)), append(raw, s), append(hits, r.Float64() < hitRate(s))
	}
	eceRaw, ece := appraise.ECE(raw, hits, 10), appraise.ECE(conf, hits, 10)
	t.Logf("ECE raw strength %.3f, calibrated confidence %.3f", eceRaw, ece)
	if ece > 0.08 {
		t.Fatalf("ECE after calibration = %.3f, want ≤ 0.08 (raw %.3f)", ece, eceRaw)
	}

	// The KB's verdicts now carry the calibrated confidence.
	e.add(t, withOrigin(kb.OriginUserStated, baseLessons...)...)
	v := e.appraise(t, kb.AppraiseRequest{Query: nilMapQuery})
	if v.Abstained || math.Abs(v.Confidence-cal.Map(v.Strength)) > 1e-3 || v.Confidence == v.Strength {
		t.Fatalf("verdict strength %.4f confidence %.4f, want the calibrated %.4f", v.Strength, v.Confidence, cal.Map(v.Strength))
	}
}
