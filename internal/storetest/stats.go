package storetest

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/appraise"
	"github.com/innate-mcp/innate-mcp/hesitation"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/regulate"
	"github.com/innate-mcp/innate-mcp/route"
)

// Pruner is a store that prunes its traces by the retention it was opened
// with (kb.Retention); the suite's stores are opened with
// kb.DefaultRetention().
type Pruner interface {
	Prune(ctx context.Context, now time.Time, maxBatches int) (kb.PruneReport, error)
}

// loggedCalls is what seedCalls logs: the traces by id, with the lessons
// the recalls returned.
type loggedCalls struct {
	traces []string
}

// seedCalls logs one set of calls, every trace id prefixed by tag, the
// first at base and the others a minute apart, returning lessons a and b:
//   - recalls: one returning a and b, one returning a, one empty;
//   - appraisals (verdict and routing decision each): an abstention whose
//     directional affirm failed (a justified abstention); an affirm of
//     confidence 0.75 that succeeded; a caution of confidence 0.25 that
//     succeeded (a miss); an affirm without an outcome; an affirm that
//     succeeded but was heeded (censored);
//   - the routing decisions: respond, respond (ambiguous), clarify (marked
//     missed_clarify), acknowledge, respond;
//   - hesitate calls: one not confident that held an action, with signals
//     absolute_claim twice and no_hedge, reviewed confirmed; one confident
//     with no_hedge, not reviewed.
//
// Confidences are exact binary fractions, so that sums are exact in any
// order.
func seedCalls(t *testing.T, s kb.Admin, tag string, base time.Time, a, b string) loggedCalls {
	t.Helper()
	ctx := context.Background()
	var out loggedCalls
	at := func(i int) time.Time { return base.Add(time.Duration(i) * time.Minute) }
	n := 0
	trace := func(tx kb.Tx, tool, response string, returned ...string) (string, time.Time, error) {
		id := tag + "_" + tool + "_" + string(rune('a'+n))
		when := at(n)
		n++
		tr := kb.Trace{ID: id, Tool: tool, Session: tag, CreatedAt: when, Request: []byte(`{}`), Response: []byte(response)}
		for i, l := range returned {
			tr.Returned = append(tr.Returned, kb.ReturnedEntry{LessonID: l, Rank: i + 1, Score: 0.5})
		}
		out.traces = append(out.traces, id)
		return id, when, tx.InsertTrace(ctx, tr)
	}
	err := s.Update(ctx, func(tx kb.Tx) error {
		for _, ls := range [][]string{{a, b}, {a}, nil} {
			resp := `{"empty":false}`
			if ls == nil {
				resp = `{"empty":true}`
			}
			if _, _, err := trace(tx, "recall", resp, ls...); err != nil {
				return err
			}
		}
		yes := true
		verdicts := []struct {
			abstained            bool
			valence, directional appraise.Valence
			conf                 float64
			outcome              kb.Outcome
			heeded               *bool
			mode                 route.Mode
			ambiguous            bool
			misroute             route.Misroute
		}{
			{true, appraise.Neutral, appraise.Affirm, 0.5, kb.OutcomeFailure, nil, route.Respond, false, ""},
			{false, appraise.Affirm, appraise.Affirm, 0.75, kb.OutcomeSuccess, nil, route.Respond, true, ""},
			{false, appraise.Caution, appraise.Caution, 0.25, kb.OutcomeSuccess, nil, route.Clarify, false, route.MissedClarify},
			{false, appraise.Affirm, appraise.Affirm, 0.75, "", nil, route.Acknowledge, false, ""},
			{false, appraise.Affirm, appraise.Affirm, 0.75, kb.OutcomeSuccess, &yes, route.Respond, false, ""},
		}
		for _, v := range verdicts {
			id, when, err := trace(tx, "appraise", `{}`)
			if err != nil {
				return err
			}
			if err := tx.InsertVerdict(ctx, kb.VerdictRecord{TraceID: id, Session: tag, CreatedAt: when, Mode: appraise.Focus,
				Valence: v.valence, Directional: v.directional, Strength: 0.5, Confidence: v.conf, Band: appraise.Medium,
				Abstained: v.abstained}); err != nil {
				return err
			}
			if v.outcome != "" || v.heeded != nil {
				if err := tx.SetVerdictOutcome(ctx, id, v.outcome, v.heeded, when.Add(time.Second)); err != nil {
					return err
				}
			}
			d := route.Route(route.Input{Message: "hi"}, route.DefaultWeights())
			d.Mode, d.Ambiguous = v.mode, v.ambiguous
			if err := tx.InsertRouting(ctx, kb.RoutingRecord{TraceID: id, Session: tag, CreatedAt: when, Decision: d,
				Weights: route.DefaultWeights().Params(), Elapsed: time.Microsecond}); err != nil {
				return err
			}
			if v.misroute != "" {
				if err := tx.SetMisroute(ctx, id, v.misroute, when.Add(time.Second)); err != nil {
					return err
				}
			}
		}
		sig := func(ty hesitation.SignalType) hesitation.Signal { return hesitation.Signal{Type: ty, Weight: 10} }
		id, when, err := trace(tx, "hesitate", `{}`)
		if err != nil {
			return err
		}
		if err := tx.LogHesitation(ctx, kb.HesitationEntry{TraceID: id, CreatedAt: when, Held: true,
			Result: hesitation.Result{Score: 60, Threshold: 40, Signals: []hesitation.Signal{
				sig(hesitation.SignalAbsoluteClaim), sig(hesitation.SignalAbsoluteClaim), sig(hesitation.SignalNoHedge)}}}); err != nil {
			return err
		}
		if err := tx.ReviewHesitation(ctx, id, "confirmed", when.Add(time.Second)); err != nil {
			return err
		}
		id, when, err = trace(tx, "hesitate", `{}`)
		if err != nil {
			return err
		}
		return tx.LogHesitation(ctx, kb.HesitationEntry{TraceID: id, CreatedAt: when,
			Result: hesitation.Result{Score: 10, Threshold: 40, Confident: true, Signals: []hesitation.Signal{sig(hesitation.SignalNoHedge)}}})
	})
	if err != nil {
		t.Fatalf("log calls: %v", err)
	}
	return out
}

// figures are the all-time statistics a store reports.
type figures struct {
	Recall      kb.RecallStats
	Appraise    kb.AppraiseStats
	Modes       map[string]int
	Hesitation  kb.HesitationStats
	Calibration []appraise.Point
}

func readFigures(t *testing.T, s kb.Admin, since time.Time) figures {
	t.Helper()
	ctx := context.Background()
	var f figures
	var err error
	if f.Recall, err = s.RecallStats(ctx, since, 5); err != nil {
		t.Fatalf("recall stats: %v", err)
	}
	if f.Appraise, err = s.AppraiseStats(ctx, since); err != nil {
		t.Fatalf("appraise stats: %v", err)
	}
	if f.Modes, err = s.ModeCounts(ctx, since); err != nil {
		t.Fatalf("mode counts: %v", err)
	}
	if f.Hesitation, err = s.HesitationStats(ctx, since); err != nil {
		t.Fatalf("hesitation stats: %v", err)
	}
	if f.Calibration, err = s.CalibrationPoints(ctx); err != nil {
		t.Fatalf("calibration points: %v", err)
	}
	return f
}

// wantFigures are the figures of k sets of seedCalls's calls, lesson a
// with content ca.
func wantFigures(k int, a, ca, b, cb string) figures {
	return figures{
		Recall: kb.RecallStats{Calls: 3 * k, Empty: k, EmptyRate: 1.0 / 3, Selections: 3 * k,
			Top: []kb.Usage{{LessonID: a, Content: ca, Count: 2 * k, Share: 2.0 / 3}, {LessonID: b, Content: cb, Count: k, Share: 1.0 / 3}}},
		Appraise: kb.AppraiseStats{Verdicts: 5 * k, Abstained: k, AbstainRate: 0.2, KnownAbstentions: k, Justified: k,
			AbstentionPrecision: 1, Calibrated: 2 * k, ECE: 0.25, Brier: 0.0625},
		Modes: map[string]int{"respond": 3 * k, "clarify": k, "acknowledge": k},
		Hesitation: kb.HesitationStats{Calls: 2 * k, Triggered: k, TriggerRate: 0.5, Held: k, Confirmed: k,
			Signals: map[string]int{"absolute_claim": k, "no_hedge": 2 * k}},
		Calibration: nil, // checked apart: its order depends on seq
	}
}

// statsOverLoggedCalls: each summary counts the logged calls as storage
// defines it (empty recalls, top lessons and their share; abstentions,
// their precision, ECE and Brier over uncensored directional verdicts;
// modes; hesitation triggers, holds, reviews and signals once per call),
// since a time counts only the calls from then, and the regulator's
// metrics read the same logs.
func statsOverLoggedCalls(t *testing.T, s kb.Admin, _ func() kb.Admin) {
	ctx := context.Background()
	a := insert(t, s, newLesson("Run the linter before pushing.", ""))
	b := insert(t, s, newLesson("Pin the toolchain version.", ""))
	base := time.Now().Add(-time.Hour).UTC()
	seedCalls(t, s, "s1", base, a.ID, b.ID)

	got := readFigures(t, s, time.Time{})
	if len(got.Calibration) != 2 {
		t.Errorf("%d calibration points, want 2 (the uncensored directional verdicts with an outcome)", len(got.Calibration))
	}
	got.Calibration = nil
	if want := wantFigures(1, a.ID, a.Content, b.ID, b.Content); !reflect.DeepEqual(got, want) {
		t.Errorf("figures:\n got %+v\nwant %+v", got, want)
	}

	// From the third call on: the empty recall, and every appraisal and
	// hesitation.
	since := base.Add(2 * time.Minute)
	got = readFigures(t, s, since)
	if got.Recall.Calls != 1 || got.Recall.Empty != 1 || got.Recall.Selections != 0 || len(got.Recall.Top) != 0 {
		t.Errorf("recall stats since the third call: %+v, want the one empty call", got.Recall)
	}
	if got.Appraise.Verdicts != 5 || got.Hesitation.Calls != 2 || got.Modes["respond"] != 3 {
		t.Errorf("since the third call: %d verdicts, %d hesitate calls, %v modes; want all 5, 2, 3 respond",
			got.Appraise.Verdicts, got.Hesitation.Calls, got.Modes)
	}
	late := base.Add(time.Hour)
	if got = readFigures(t, s, late); got.Recall.Calls != 0 || got.Appraise.Verdicts != 0 || len(got.Modes) != 0 ||
		got.Hesitation.Calls != 0 || got.Hesitation.Signals == nil || got.Appraise.ECE != -1 || got.Appraise.AbstentionPrecision != -1 {
		t.Errorf("figures after the last call: %+v; want none (ECE and precision -1, signals an empty map)", got)
	}

	rm, err := s.RoutingMetrics(ctx, base)
	want := regulate.RoutingMetrics{Decisions: 5, Ambiguous: 1,
		ByMode:    map[route.Mode]int{route.Respond: 3, route.Clarify: 1, route.Acknowledge: 1},
		Misroutes: map[route.Misroute]int{route.MissedClarify: 1}}
	if err != nil || !reflect.DeepEqual(rm, want) {
		t.Errorf("routing metrics %+v, %v; want %+v", rm, err, want)
	}
	if rm, err := s.RoutingMetrics(ctx, late); err != nil || rm.Decisions != 0 || rm.ByMode == nil || rm.Misroutes == nil {
		t.Errorf("routing metrics after the last call %+v, %v; want none, maps not nil", rm, err)
	}
	am, err := s.AppraiseMetrics(ctx, base)
	if err != nil || am != (regulate.AppraiseMetrics{Abstentions: 1, Justified: 1}) {
		t.Errorf("appraise metrics %+v, %v; want 1 known abstention, justified", am, err)
	}
	// The review was made a second after the first hesitate call: a window
	// from then counts it, one from later does not.
	hm, err := s.HesitationMetrics(ctx, base)
	if err != nil || hm != (regulate.HesitationMetrics{Confirmed: 1}) {
		t.Errorf("hesitation metrics %+v, %v; want 1 confirmed", hm, err)
	}
	if hm, err := s.HesitationMetrics(ctx, late); err != nil || hm != (regulate.HesitationMetrics{}) {
		t.Errorf("hesitation metrics after the review %+v, %v; want none", hm, err)
	}
}

// contradictionsResolved: Contradictions lists each contradicts link (not
// the supersedes ones), resolved once one of its lessons is archived.
func contradictionsResolved(t *testing.T, s kb.Admin, _ func() kb.Admin) {
	ctx := context.Background()
	a := insert(t, s, newLesson("Tabs for indentation.", ""))
	b := insert(t, s, newLesson("Spaces for indentation.", ""))
	c := insert(t, s, newLesson("Four spaces for indentation.", ""))
	now := time.Now()
	err := s.Update(ctx, func(tx kb.Tx) error {
		if err := tx.LinkLessons(ctx, a.ID, b.ID, "contradicts", "opposite", now); err != nil {
			return err
		}
		return tx.LinkLessons(ctx, c.ID, b.ID, "supersedes", "narrower", now.Add(time.Second))
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Contradictions(ctx)
	if want := []kb.Contradiction{{A: a.ID, B: b.ID}}; err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("contradictions %+v, %v; want %+v", got, err, want)
	}
	err = s.Update(ctx, func(tx kb.Tx) error {
		l, err := tx.Lesson(ctx, b.ID)
		if err != nil {
			return err
		}
		l.State = kb.StateArchived
		return tx.UpdateLesson(ctx, l)
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err = s.Contradictions(ctx)
	if want := []kb.Contradiction{{A: a.ID, B: b.ID, Resolved: true}}; err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("contradictions after archiving one side %+v, %v; want %+v", got, err, want)
	}
}

// regulateStoresAndLogs: Regulate shows the plan the tuned values and the
// log, stores the values its changes set and logs the changes, which
// RegulatorHistory returns as written; a plan without changes writes
// nothing; and two handles regulating at once see each other's log (one
// write transaction each), so only one acts on a due time.
func regulateStoresAndLogs(t *testing.T, s kb.Admin, reopen func() kb.Admin) {
	ctx := context.Background()
	if p, err := s.Params(ctx); err != nil || p == nil || len(p) != 0 {
		t.Fatalf("params before any change %v, %v; want an empty map", p, err)
	}
	at := time.Date(2025, 3, 1, 12, 0, 0, 123456789, time.UTC)
	change := regulate.Change{Kind: regulate.KindChange, Param: "hesitation.hold", Before: 40, After: 45, Metric: "false_hold_rate",
		MetricValue: 0.5, Severity: 0.25, Want: -1, Reason: "too many holds rejected", At: at}
	res, err := s.Regulate(ctx, func(params map[string]float64, hist []regulate.Change) regulate.Result {
		if len(params) != 0 || len(hist) != 0 {
			t.Errorf("first plan saw params %v, history %v; want none", params, hist)
		}
		return regulate.Result{Changes: []regulate.Change{change}}
	})
	if err != nil || len(res.Changes) != 1 {
		t.Fatalf("regulate: %+v, %v", res, err)
	}
	revert := regulate.Change{Kind: regulate.KindRevert, Param: "hesitation.hold", Before: 45, After: 40, Metric: "false_hold_rate",
		MetricValue: 0.75, Reason: "worse", At: at.Add(48 * time.Hour), Ref: at, Degraded: true}
	keep := regulate.Change{Kind: regulate.KindKeep, Param: "route.margin", Before: 0.1, After: 0.1, At: at.Add(48 * time.Hour)}
	_, err = s.Regulate(ctx, func(params map[string]float64, hist []regulate.Change) regulate.Result {
		if !reflect.DeepEqual(params, map[string]float64{"hesitation.hold": 45}) || len(hist) != 1 || !hist[0].At.Equal(at) {
			t.Errorf("second plan saw params %v, history %+v; want the first change", params, hist)
		}
		return regulate.Result{Changes: []regulate.Change{revert, keep}}
	})
	if err != nil {
		t.Fatalf("regulate: %v", err)
	}
	if _, err := s.Regulate(ctx, func(map[string]float64, []regulate.Change) regulate.Result { return regulate.Result{} }); err != nil {
		t.Fatalf("regulate without changes: %v", err)
	}
	p, err := reopen().Params(ctx)
	if want := map[string]float64{"hesitation.hold": 40}; err != nil || !reflect.DeepEqual(p, want) {
		t.Errorf("params %v, %v; want %v (a keep sets nothing)", p, err, want)
	}
	hist, err := s.RegulatorHistory(ctx)
	if err != nil || len(hist) != 3 {
		t.Fatalf("history %+v, %v; want 3 entries", hist, err)
	}
	for i, want := range []regulate.Change{change, revert, keep} {
		got := hist[i]
		if !got.At.Equal(want.At) || !got.Ref.Equal(want.Ref) {
			t.Errorf("history[%d] at %v ref %v, want %v %v", i, got.At, got.Ref, want.At, want.Ref)
		}
		got.At, got.Ref, want.At, want.Ref = time.Time{}, time.Time{}, time.Time{}, time.Time{}
		if got != want {
			t.Errorf("history[%d] %+v, want %+v", i, got, want)
		}
	}

	// Two handles, one due time: each acts only when the log has no entry
	// for it.
	due := at.Add(96 * time.Hour)
	var wg sync.WaitGroup
	var mu sync.Mutex
	acted := 0
	for _, h := range []kb.Admin{s, reopen()} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := h.Regulate(ctx, func(_ map[string]float64, hist []regulate.Change) regulate.Result {
				for _, c := range hist {
					if c.At.Equal(due) {
						return regulate.Result{}
					}
				}
				mu.Lock()
				acted++
				mu.Unlock()
				return regulate.Result{Changes: []regulate.Change{{Kind: regulate.KindChange, Param: "route.margin", Before: 0.1, After: 0.2, At: due}}}
			})
			if err != nil {
				t.Errorf("concurrent regulate: %v", err)
			}
		}()
	}
	wg.Wait()
	if hist, err := s.RegulatorHistory(ctx); err != nil || len(hist) != 4 || acted != 1 {
		t.Errorf("after two concurrent regulations: %d entries (%v), %d plans acted; want 4, 1", len(hist), err, acted)
	}
}

// pruneKeepsAllTimeStats: pruning the traces beyond the retention deletes
// them (Trace: ErrNotFound) with their log rows, yet every all-time
// figure, the calibration points included, is the same before and after,
// and pruning again changes nothing; figures since a time count only the
// calls still held.
func pruneKeepsAllTimeStats(t *testing.T, s kb.Admin, _ func() kb.Admin) {
	ctx := context.Background()
	p, ok := s.(Pruner)
	if !ok {
		t.Fatalf("%T has no Prune", s)
	}
	a := insert(t, s, newLesson("Run the linter before pushing.", ""))
	b := insert(t, s, newLesson("Pin the toolchain version.", ""))
	now := time.Now().UTC()
	oldBase := now.Add(-60 * 24 * time.Hour) // beyond the default 30 days
	newBase := now.Add(-time.Hour)
	old := seedCalls(t, s, "old", oldBase, a.ID, b.ID)
	recent := seedCalls(t, s, "new", newBase, a.ID, b.ID)

	before := readFigures(t, s, time.Time{})
	if want := wantFigures(2, a.ID, a.Content, b.ID, b.Content); before.Recall.Calls != want.Recall.Calls ||
		before.Appraise.Verdicts != want.Appraise.Verdicts || before.Hesitation.Calls != want.Hesitation.Calls || len(before.Calibration) != 4 {
		t.Fatalf("figures before pruning %+v; want two sets of calls", before)
	}
	rep, err := p.Prune(ctx, now, 0)
	if err != nil {
		t.Fatalf("prune: %v", err)
	}
	if rep.Deleted != len(old.traces) || rep.Batches != 1 || rep.More {
		t.Errorf("prune report %+v; want %d traces deleted in one batch, none left", rep, len(old.traces))
	}
	if after := readFigures(t, s, time.Time{}); !reflect.DeepEqual(after, before) {
		t.Errorf("all-time figures changed by pruning:\nbefore %+v\nafter  %+v", before, after)
	}
	err = s.Update(ctx, func(tx kb.Tx) error {
		for _, id := range old.traces {
			if _, err := tx.Trace(ctx, id); !errors.Is(err, kb.ErrNotFound) {
				t.Errorf("pruned trace %s: %v, want ErrNotFound", id, err)
			}
		}
		for _, id := range recent.traces {
			if _, err := tx.Trace(ctx, id); err != nil {
				t.Errorf("trace %s within the retention: %v", id, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	held := readFigures(t, s, oldBase)
	held.Calibration = nil
	if want := wantFigures(1, a.ID, a.Content, b.ID, b.Content); !reflect.DeepEqual(held, want) {
		t.Errorf("figures since before the pruned calls count the calls still held:\n got %+v\nwant %+v", held, want)
	}
	rep, err = p.Prune(ctx, now, 0)
	if err != nil || rep.Deleted != 0 || rep.Batches != 0 {
		t.Errorf("second prune %+v, %v; want nothing deleted", rep, err)
	}
	if after := readFigures(t, s, time.Time{}); !reflect.DeepEqual(after, before) {
		t.Errorf("all-time figures changed by a second prune:\nbefore %+v\nafter  %+v", before, after)
	}
}
