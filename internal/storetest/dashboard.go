package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/appraise"
	"github.com/innate-mcp/innate-mcp/hesitation"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/route"
)

// The cases of the dashboard's reads (kb.DashboardReader): the data is
// written through kb.Tx, as kb writes it, and read back whole, in order.

// trace is a trace of a tool at a time returning lessons, in rank order,
// each with a score of its own.
func trace(id, tool string, at time.Time, returned ...string) kb.Trace {
	tr := kb.Trace{ID: id, Tool: tool, Session: "s_dash", CreatedAt: at, Request: []byte(`{}`), Response: []byte(`{}`)}
	for i, l := range returned {
		tr.Returned = append(tr.Returned, kb.ReturnedEntry{LessonID: l, Rank: i + 1, Score: 0.5 + float64(i)/10})
	}
	return tr
}

// sameTimes sets each got's time to the wanted one when they are the same
// instant (a store returns it in UTC), so that reflect.DeepEqual compares
// the rest; it reports whether they all were.
func sameTimes[T any](got, want []T, at func(*T) *time.Time) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		g, w := at(&got[i]), at(&want[i])
		if !g.Equal(*w) {
			return false
		}
		*g = *w
	}
	return true
}

func lessonActivity(t *testing.T, s kb.Admin, _ func() kb.Admin) {
	ctx := context.Background()
	l := insert(t, s, newLesson("Run the migrations before the tests.", ""))
	other := insert(t, s, newLesson("Pin the toolchain version.", ""))
	quiet := insert(t, s, newLesson("A lesson nothing returned.", ""))
	h := time.Hour
	update(t, s, func(ctx context.Context, tx kb.Tx) error {
		for _, tr := range []kb.Trace{
			trace("t_act1", "recall", base, other.ID, l.ID),
			trace("t_act2", "appraise", base.Add(h), l.ID),
			trace("t_act3", "recall", base.Add(5*h), other.ID),
		} {
			if err := tx.InsertTrace(ctx, tr); err != nil {
				return err
			}
		}
		return tx.SetTraceOutcome(ctx, "t_act1", kb.OutcomeSuccess)
	})
	ev := func(trace, lesson string, kind kb.EvidenceKind, signal, reason string, at time.Time) kb.Evidence {
		return kb.Evidence{TraceID: trace, LessonID: lesson, Kind: kind, Signal: signal, Reason: reason, Session: "s_dash", CreatedAt: at}
	}
	update(t, s, func(ctx context.Context, tx kb.Tx) error {
		for _, e := range []kb.Evidence{
			ev("t_act1", l.ID, kb.EvidenceUsed, "used", "", base.Add(2*h)),
			ev("t_act1", l.ID, kb.EvidenceOutcome, "success", "", base.Add(2*h)),
			ev("t_act1", other.ID, kb.EvidenceFeedback, "up", "", base.Add(2*h)),
			ev("t_act2", l.ID, kb.EvidenceFeedback, "down", "stale", base.Add(3*h)),
			// Replaced: the activity shows the current signal, at its time.
			ev("t_act2", l.ID, kb.EvidenceFeedback, "up", "it still holds", base.Add(4*h)),
		} {
			if _, err := tx.PutEvidence(ctx, e); err != nil {
				return err
			}
		}
		return nil
	})
	want := []kb.Activity{
		{At: base.Add(4 * h), Kind: "feedback", TraceID: "t_act2", Tool: "appraise", Rank: 1, Score: 0.5, Signal: "up", Reason: "it still holds"},
		// Of one time and trace: the outcome credit after the use.
		{At: base.Add(2 * h), Kind: "outcome", TraceID: "t_act1", Tool: "recall", Rank: 2, Score: 0.6, Signal: "success", Outcome: kb.OutcomeSuccess},
		{At: base.Add(2 * h), Kind: "used", TraceID: "t_act1", Tool: "recall", Rank: 2, Score: 0.6, Signal: "used", Outcome: kb.OutcomeSuccess},
		{At: base.Add(h), Kind: "returned", TraceID: "t_act2", Tool: "appraise", Rank: 1, Score: 0.5},
		{At: base, Kind: "returned", TraceID: "t_act1", Tool: "recall", Rank: 2, Score: 0.6, Outcome: kb.OutcomeSuccess},
	}
	at := func(a *kb.Activity) *time.Time { return &a.At }
	for _, limit := range []int{10, 3} {
		got, err := s.LessonActivity(ctx, l.ID, limit)
		w := want[:min(limit, len(want))]
		if err != nil || !sameTimes(got, w, at) || !reflect.DeepEqual(got, w) {
			t.Errorf("activity, limit %d:\n got %+v, %v\nwant %+v (newest first)", limit, got, err, w)
		}
	}
	if got, err := s.LessonActivity(ctx, l.ID, 0); err != nil || len(got) != 0 {
		t.Errorf("activity, limit 0: %+v, %v; want none", got, err)
	}
	if got, err := s.LessonActivity(ctx, quiet.ID, 10); err != nil || len(got) != 0 {
		t.Errorf("activity of a lesson nothing happened to: %+v, %v; want none, no error", got, err)
	}
	for _, limit := range []int{10, 0} {
		if _, err := s.LessonActivity(ctx, "L_missing", limit); !errors.Is(err, kb.ErrNotFound) {
			t.Errorf("activity of an unknown lesson, limit %d: %v, want ErrNotFound", limit, err)
		}
	}
}

// hesitateCall is a logged hesitate call: its trace (with the request kb
// logs, the draft first) and its log entry.
type hesitateCall struct {
	id      string
	at      time.Time
	draft   string // "" for a trace with no request body
	score   int
	plan    []hesitation.Step
	signals []hesitation.SignalType
}

func logHesitate(ctx context.Context, tx kb.Tx, c hesitateCall) error {
	req := []byte(`{}`)
	if c.draft != "" {
		var err error
		if req, err = json.Marshal(kb.HesitateRequest{Draft: c.draft, Query: "is it ready?", Files: []string{"main.go"}}); err != nil {
			return err
		}
	}
	if err := tx.InsertTrace(ctx, kb.Trace{ID: c.id, Tool: "hesitate", Session: "s_dash", CreatedAt: c.at, Request: req, Response: []byte(`{}`)}); err != nil {
		return err
	}
	res := hesitation.Result{Score: c.score, Threshold: 30, Confident: c.score < 30, Plan: c.plan, Signals: []hesitation.Signal{}}
	held := false
	for _, st := range c.plan {
		held = held || st.Behaviour == hesitation.Hold || st.Behaviour == hesitation.NeedsReview
	}
	for _, typ := range c.signals {
		res.Signals = append(res.Signals, hesitation.Signal{Type: typ, Detail: "found " + string(typ), Weight: 10})
	}
	actions := make([]hesitation.Action, len(c.plan))
	for i, st := range c.plan {
		actions[i] = st.Action
	}
	return tx.LogHesitation(ctx, kb.HesitationEntry{TraceID: c.id, CreatedAt: c.at, Result: res, Held: held, Actions: actions})
}

func heldDrafts(t *testing.T, s kb.Admin, _ func() kb.Admin) {
	ctx := context.Background()
	step := func(a hesitation.Action, b hesitation.Behaviour) hesitation.Step {
		return hesitation.Step{Action: a, Behaviour: b}
	}
	long := strings.Repeat("The release is ready and every check passed. ", 10)
	m := time.Minute
	calls := []hesitateCall{
		{id: "t_h1", at: base, draft: "All <tests> pass & it's \"safe\".\n\n  Deploying now.", score: 70,
			plan:    []hesitation.Step{step("reply", hesitation.Hold)},
			signals: []hesitation.SignalType{"unverified_success", "absolute_claim", "unverified_success"}},
		{id: "t_h2", at: base.Add(m), draft: long, score: 35,
			plan: []hesitation.Step{step("reply", hesitation.Hedge)}, signals: []hesitation.SignalType{"no_hedge"}},
		// Confident: it held nothing.
		{id: "t_h3", at: base.Add(2 * m), draft: "Maybe.", score: 10, plan: []hesitation.Step{step("reply", hesitation.Proceed)}},
		// Not confident, yet a question proceeds: nothing held.
		{id: "t_h4", at: base.Add(3 * m), draft: "Which one?", score: 40,
			plan: []hesitation.Step{step("question", hesitation.Proceed)}, signals: []hesitation.SignalType{"overconfidence"}},
		{id: "t_h5", at: base.Add(4 * m), score: 80,
			plan:    []hesitation.Step{step("task", hesitation.NeedsReview), step("commit", hesitation.Hold), step("question", hesitation.Proceed)},
			signals: []hesitation.SignalType{"error_pattern"}},
	}
	update(t, s, func(ctx context.Context, tx kb.Tx) error {
		for _, c := range calls {
			if err := logHesitate(ctx, tx, c); err != nil {
				return err
			}
		}
		return nil
	})
	update(t, s, func(ctx context.Context, tx kb.Tx) error {
		if err := tx.ReviewHesitation(ctx, "t_h1", "confirmed", base.Add(time.Hour)); err != nil {
			return err
		}
		return tx.ReviewHesitation(ctx, "t_h5", "rejected", base.Add(time.Hour))
	})
	h1 := kb.HeldDraft{TraceID: "t_h1", At: base, Score: 70, Threshold: 30,
		Signals: []string{"unverified_success", "absolute_claim"}, Actions: []string{"reply"}, Behaviours: []string{"hold"},
		Excerpt: `All <tests> pass & it's "safe". Deploying now.`, Review: "confirmed"}
	h2 := kb.HeldDraft{TraceID: "t_h2", At: base.Add(m), Score: 35, Threshold: 30,
		Signals: []string{"no_hedge"}, Actions: []string{"reply"}, Behaviours: []string{"hedge"},
		Excerpt: strings.TrimRight(long[:200], " ") + "…"} // clipped to 200 bytes
	h5 := kb.HeldDraft{TraceID: "t_h5", At: base.Add(4 * m), Score: 80, Threshold: 30,
		Signals: []string{"error_pattern"}, Actions: []string{"task", "commit", "question"},
		Behaviours: []string{"needs_review", "hold", "proceed"}, Review: "rejected"}
	at := func(d *kb.HeldDraft) *time.Time { return &d.At }
	for _, c := range []struct {
		pending bool
		limit   int
		want    []kb.HeldDraft
	}{
		{false, 10, []kb.HeldDraft{h5, h2, h1}},
		{false, 2, []kb.HeldDraft{h5, h2}},
		{true, 10, []kb.HeldDraft{h2}},
		{false, 0, nil},
	} {
		got, err := s.HeldDrafts(ctx, c.pending, c.limit)
		if err != nil || !sameTimes(got, c.want, at) || !reflect.DeepEqual(got, c.want) {
			t.Errorf("held drafts (pending only %v, limit %d):\n got %+v, %v\nwant %+v", c.pending, c.limit, got, err, c.want)
		}
	}
	for _, c := range []struct {
		since time.Time
		want  []float64
	}{
		{time.Time{}, []float64{70, 35, 10, 40, 80}},
		{base.Add(2 * m), []float64{10, 40, 80}},
		{base.Add(time.Hour), nil},
	} {
		got, err := s.HesitationScores(ctx, c.since)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("hesitation scores since %v: %v, %v; want %v, oldest first", c.since, got, err, c.want)
		}
	}
}

func modeSeries(t *testing.T, s kb.Admin, _ func() kb.Admin) {
	ctx := context.Background()
	day1 := time.Date(2026, 3, 4, 0, 0, 0, 0, time.UTC)
	day2 := day1.AddDate(0, 0, 1)
	east := time.FixedZone("UTC+2", 2*3600)
	decisions := []struct {
		at   time.Time
		mode route.Mode
	}{
		{day2.Add(9 * time.Hour), route.Respond},   // logged first, shown on its day
		{day1.Add(-time.Nanosecond), route.Ignore}, // before since
		{day1, route.Respond},
		{day1.Add(12 * time.Hour), route.Clarify},
		// 2026-03-05 01:00 at UTC+2 is still 4 March in UTC.
		{time.Date(2026, 3, 5, 1, 0, 0, 0, east), route.Respond},
		{day2, route.Gather},
		{day2.Add(time.Hour), route.Acknowledge},
	}
	update(t, s, func(ctx context.Context, tx kb.Tx) error {
		for i, d := range decisions {
			id := "t_m" + string(rune('a'+i))
			if err := tx.InsertTrace(ctx, trace(id, "appraise", d.at)); err != nil {
				return err
			}
			if err := tx.InsertRouting(ctx, kb.RoutingRecord{TraceID: id, Session: "s_dash", CreatedAt: d.at, Elapsed: time.Millisecond,
				Decision: route.Decision{Mode: d.mode, Scores: map[route.Mode]float64{d.mode: 0.8}, Confidence: 0.6, Next: route.SessionState{Mode: d.mode}},
				Weights:  map[string]float64{"w": 1}}); err != nil {
				return err
			}
		}
		return nil
	})
	for _, c := range []struct {
		since time.Time
		want  []kb.DayCount
	}{
		{day1, []kb.DayCount{{Day: "2026-03-04", Mode: "clarify", Count: 1}, {Day: "2026-03-04", Mode: "respond", Count: 2},
			{Day: "2026-03-05", Mode: "acknowledge", Count: 1}, {Day: "2026-03-05", Mode: "gather", Count: 1}, {Day: "2026-03-05", Mode: "respond", Count: 1}}},
		{day2.Add(30 * time.Minute), []kb.DayCount{{Day: "2026-03-05", Mode: "acknowledge", Count: 1}, {Day: "2026-03-05", Mode: "respond", Count: 1}}},
		{day2.AddDate(0, 0, 1), nil},
	} {
		got, err := s.ModeSeries(ctx, c.since)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("modes since %v:\n got %v, %v\nwant %v (oldest day first, modes sorted)", c.since, got, err, c.want)
		}
	}
}

func calibrationSeries(t *testing.T, s kb.Admin, _ func() kb.Admin) {
	ctx := context.Background()
	day1 := time.Date(2026, 3, 4, 0, 0, 0, 0, time.UTC)
	day2 := day1.AddDate(0, 0, 1)
	yes := true
	type logged struct {
		id      string
		at      time.Time
		valence appraise.Valence
		// strength
		st      float64
		outcome kb.Outcome
		heeded  *bool
	}
	verdicts := []logged{
		{"t_c1", day2.Add(time.Hour), appraise.Affirm, 0.4, kb.OutcomeFailure, nil}, // logged first, on the later day
		{"t_c2", day2.Add(2 * time.Hour), appraise.Caution, 0.8, kb.OutcomeFailure, nil},
		{"t_c3", day2.Add(3 * time.Hour), appraise.Affirm, 0.9, kb.OutcomeSuccess, &yes}, // heeded: censored
		{"t_c4", day1.Add(-time.Hour), appraise.Affirm, 0.3, kb.OutcomeSuccess, nil},     // before since
		{"t_c5", day1.Add(5 * time.Hour), appraise.Affirm, 0.9, kb.OutcomeSuccess, nil},
		{"t_c6", day1.Add(time.Hour), appraise.Caution, 0.7, kb.OutcomeSuccess, nil}, // earlier, logged later
		{"t_c7", day1.Add(6 * time.Hour), appraise.Mixed, 0.5, kb.OutcomeSuccess, nil},
		{"t_c8", day1.Add(7 * time.Hour), appraise.Affirm, 0.6, kb.OutcomeUnknown, nil},
		{"t_c9", day1.Add(8 * time.Hour), appraise.Affirm, 0.6, "", nil}, // no outcome yet
	}
	update(t, s, func(ctx context.Context, tx kb.Tx) error {
		for _, v := range verdicts {
			if err := tx.InsertTrace(ctx, trace(v.id, "appraise", v.at)); err != nil {
				return err
			}
			rec := verdict(v.id, "s_dash", v.valence, v.st)
			rec.CreatedAt = v.at
			if err := tx.InsertVerdict(ctx, rec); err != nil {
				return err
			}
		}
		return nil
	})
	update(t, s, func(ctx context.Context, tx kb.Tx) error {
		for _, v := range verdicts {
			if v.outcome == "" {
				continue
			}
			if err := tx.SetVerdictOutcome(ctx, v.id, v.outcome, v.heeded, v.at.Add(time.Minute)); err != nil {
				return err
			}
		}
		return nil
	})
	for _, c := range []struct {
		since time.Time
		want  []kb.DayPoints
	}{
		{day1, []kb.DayPoints{
			{Day: "2026-03-04", Points: []appraise.Point{{Strength: 0.9, Hit: true}, {Strength: 0.7}}},
			{Day: "2026-03-05", Points: []appraise.Point{{Strength: 0.4}, {Strength: 0.8, Hit: true}}},
		}},
		{day2, []kb.DayPoints{{Day: "2026-03-05", Points: []appraise.Point{{Strength: 0.4}, {Strength: 0.8, Hit: true}}}}},
		{day2.AddDate(0, 0, 1), nil},
	} {
		got, err := s.CalibrationSeries(ctx, c.since)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("calibration since %v:\n got %+v, %v\nwant %+v (oldest day first, in the order logged)", c.since, got, err, c.want)
		}
	}
}
