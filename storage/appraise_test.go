package storage

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/appraise"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/route"
)

// logAppraisal writes one appraisal as kb.Appraise does: trace, verdict with
// raises, routing decision.
func logAppraisal(t *testing.T, db *DB, id, session string, at time.Time, raised []string, next route.SessionState) {
	t.Helper()
	ctx := context.Background()
	err := db.Update(ctx, func(x kb.Tx) error {
		if err := x.InsertTrace(ctx, kb.Trace{ID: id, Tool: "appraise", Session: session, CreatedAt: at, Request: []byte("{}"), Response: []byte("{}")}); err != nil {
			return err
		}
		v := kb.VerdictRecord{TraceID: id, Session: session, CreatedAt: at, Mode: appraise.Focus, Valence: appraise.Affirm,
			Directional: appraise.Affirm, Strength: 0.6, Band: appraise.Strong,
			Contributors: []appraise.Contributor{{LessonID: "L1", Valence: appraise.Affirm, Strength: 0.6}}}
		for _, l := range raised {
			v.Raises = append(v.Raises, appraise.Raise{LessonID: l, Will: 0.7, Raised: true})
		}
		v.Raises = append(v.Raises, appraise.Raise{LessonID: "skipped-" + id, Will: 0.2, Reason: appraise.SkipBelowThreshold})
		if err := x.InsertVerdict(ctx, v); err != nil {
			return err
		}
		d := route.Route(route.Input{Message: "hi"}, route.DefaultWeights())
		d.Next = next
		return x.InsertRouting(ctx, kb.RoutingRecord{TraceID: id, Session: session, CreatedAt: at, Decision: d,
			Weights: route.DefaultWeights().Params(), Elapsed: time.Microsecond})
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestDB_appraiseState(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	st, err := db.AppraiseState(ctx, "s", 5)
	if err != nil || st.SessionTraces != 0 || st.Route != nil || len(st.Recent) != 0 {
		t.Fatalf("fresh state = %+v (%v)", st, err)
	}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	logAppraisal(t, db, "t1", "s", t0, []string{"a", "b"}, route.SessionState{Mode: route.Clarify, LowConfidenceStreak: 1})
	logAppraisal(t, db, "t2", "s", t0.Add(time.Second), nil, route.SessionState{Mode: route.Respond})
	logAppraisal(t, db, "t3", "s", t0.Add(2*time.Second), []string{"a"}, route.SessionState{Mode: route.Gather, Warmth: 0.4})
	logAppraisal(t, db, "o1", "other", t0, []string{"z"}, route.SessionState{Mode: route.Ignore})

	st, err = db.AppraiseState(ctx, "s", 2)
	if err != nil {
		t.Fatal(err)
	}
	if st.SessionTraces != 3 || st.Route == nil || st.Route.Mode != route.Gather || st.Route.Warmth != 0.4 {
		t.Fatalf("state = %+v route %+v", st, st.Route)
	}
	want := []kb.RecentAppraisal{{TraceID: "t3", Raised: []string{"a"}}, {TraceID: "t2"}}
	if fmt.Sprint(st.Recent) != fmt.Sprint(want) {
		t.Fatalf("recent = %+v, want %+v (newest first, window 2, raised only)", st.Recent, want)
	}
	var routed, weights int
	if err := db.sql.QueryRow(`SELECT COUNT(*), COUNT(DISTINCT weights_id) FROM routing_log`).Scan(&routed, &weights); err != nil || routed != 4 || weights != 1 {
		t.Fatalf("routing log %d rows over %d weight sets (%v), want 4 over 1", routed, weights, err)
	}
}

func TestDB_verdictOutcomeAndCalibration(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	t0 := time.Now()
	for i := range 3 {
		logAppraisal(t, db, fmt.Sprintf("t%d", i), "s", t0, nil, route.SessionState{})
	}
	rev := func() int64 {
		st, err := db.AppraiseState(ctx, "s", 0)
		if err != nil {
			t.Fatal(err)
		}
		return st.CalibrationRev
	}
	set := func(id string, o kb.Outcome, heeded *bool) error {
		return db.Update(ctx, func(x kb.Tx) error { return x.SetVerdictOutcome(ctx, id, o, heeded, t0) })
	}
	yes := true
	r0 := rev()
	if err := set("t0", kb.OutcomeSuccess, nil); err != nil {
		t.Fatal(err)
	}
	if err := set("t1", kb.OutcomeFailure, nil); err != nil {
		t.Fatal(err)
	}
	if err := set("t2", kb.OutcomeSuccess, &yes); err != nil {
		t.Fatal(err)
	}
	r1 := rev()
	if err := set("t0", kb.OutcomeSuccess, nil); err != nil { // no change
		t.Fatal(err)
	}
	if r1 != r0+3 || rev() != r1 {
		t.Fatalf("revisions %d → %d → %d: want one bump per change, none for a repeat", r0, r1, rev())
	}
	pts, err := db.CalibrationPoints(ctx)
	if err != nil || len(pts) != 2 {
		t.Fatalf("points = %+v (%v), want the two uncensored outcomes", pts, err)
	}
	hits := 0
	for _, p := range pts {
		if p.Hit {
			hits++
		}
	}
	if hits != 1 {
		t.Fatalf("hits = %d, want 1 (affirm+success)", hits)
	}
	if err := set("nope", kb.OutcomeSuccess, nil); !errors.Is(err, kb.ErrNotFound) {
		t.Fatalf("unknown verdict err = %v", err)
	}
	err = db.Update(ctx, func(x kb.Tx) error {
		return x.SetMisroute(ctx, "nope", route.MissedClarify, t0)
	})
	if !errors.Is(err, kb.ErrNotFound) {
		t.Fatalf("unknown routing decision err = %v", err)
	}
}
