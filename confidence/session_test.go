package confidence

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

func TestMayConfirm(t *testing.T) {
	recent := []Confirmation{{Session: "a", Kinds: []Kind{KindAppliedSuccess}}, {Session: "b", Kinds: []Kind{KindObserved}}}
	tests := []struct {
		session string
		kind    Kind
		want    bool
	}{
		{"a", KindAppliedSuccess, false},
		{"a", KindObserved, true},
		{"b", KindObserved, false},
		{"c", KindAppliedSuccess, true},
		{"", KindAppliedSuccess, false},
		{"", KindAppliedFailure, true},
		{"a", KindAppliedFailure, true},
		{"", KindStrongApproved, true},
	}
	for _, tt := range tests {
		if got := MayConfirm(recent, tt.session, tt.kind); got != tt.want {
			t.Errorf("MayConfirm(%q, %s) = %v, want %v", tt.session, tt.kind, got, tt.want)
		}
	}
}

func TestMarkConfirmed_Cap(t *testing.T) {
	var r []Confirmation
	for i := range 10 {
		r = markConfirmed(r, fmt.Sprint(i), KindAppliedSuccess, 4)
	}
	r = markConfirmed(r, "7", KindObserved, 4)
	want := []Confirmation{
		{Session: "6", Kinds: []Kind{KindAppliedSuccess}},
		{Session: "8", Kinds: []Kind{KindAppliedSuccess}},
		{Session: "9", Kinds: []Kind{KindAppliedSuccess}},
		{Session: "7", Kinds: []Kind{KindAppliedSuccess, KindObserved}},
	}
	if !reflect.DeepEqual(r, want) {
		t.Errorf("recent = %+v, want %+v", r, want)
	}
}

func TestAttribute(t *testing.T) {
	at := t0
	got := Attribute(Report{
		Session: "s", At: at, Result: ResultSuccess, Feedback: FeedbackAccepted,
		Used: []string{"L1", "L2", "L1"}, Surfaced: []string{"L3", "L2", "L4"},
	})
	want := []Attribution{
		{"L1", Event{Kind: KindAppliedSuccess, At: at, Session: "s"}},
		{"L1", Event{Kind: KindUserApproved, At: at, Session: "s"}},
		{"L2", Event{Kind: KindAppliedSuccess, At: at, Session: "s"}},
		{"L2", Event{Kind: KindUserApproved, At: at, Session: "s"}},
		{"L3", Event{Kind: KindAppraised, At: at, Session: "s", FromAppraise: true}},
		{"L4", Event{Kind: KindAppraised, At: at, Session: "s", FromAppraise: true}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Attribute = %+v\nwant %+v", got, want)
	}
	got = Attribute(Report{Session: "s", At: at, Result: ResultFailure, Feedback: FeedbackCorrected, Used: []string{"L1"}})
	if len(got) != 2 || got[0].Event.Kind != KindAppliedFailure || got[1].Event.Kind != KindUserRejected {
		t.Errorf("failure with correction: %+v", got)
	}
	if got := Attribute(Report{Result: "weird", Used: []string{"x"}}); got[0].Event.Kind != KindAppliedNeutral {
		t.Errorf("unknown result: %+v", got)
	}
	if got := Attribute(Report{Result: ResultSuccess, Surfaced: []string{"x"}}); len(got) != 1 || got[0].Event.Kind != KindAppraised {
		t.Errorf("nothing used: %+v, want only appraise evidence", got)
	}
}

// TestNoSelfConfirmation: a session that reports the same success, the same
// observation and the same acceptance many times raises a lesson once per
// kind; sessionless positive evidence never counts; failures always count.
func TestNoSelfConfirmation(t *testing.T) {
	cfg := DefaultConfig()
	s := New(OriginImported, t0, "", cfg)
	at := t0
	for range 20 {
		for _, k := range []Kind{KindAppliedSuccess, KindObserved, KindUserApproved, KindCausalLink} {
			at = at.Add(time.Minute)
			s, _ = mustApply(t, s, Event{Kind: k, At: at, Session: "greedy"}, cfg)
		}
	}
	if s.Successes != 1 || s.Observations != 1+1+cfg.CausalLinkObservations || s.Approvals != 1 || s.SuccessSessions != 1 {
		t.Errorf("one session confirmed more than once: %+v", s)
	}
	if want := 20*4 - 4; s.Ignored != want {
		t.Errorf("Ignored = %d, want %d", s.Ignored, want)
	}
	before := s.Composite
	for range 10 {
		at = at.Add(time.Minute)
		var chs []Change
		s, chs = mustApply(t, s, Event{Kind: KindAppliedSuccess, At: at}, cfg)
		if !last(t, chs).Ignored {
			t.Fatalf("sessionless success was credited")
		}
	}
	if s.Composite != before {
		t.Errorf("sessionless successes moved composite %v → %v", before, s.Composite)
	}
	for range 3 {
		at = at.Add(time.Minute)
		s, _ = mustApply(t, s, Event{Kind: KindAppliedFailure, At: at, Session: "greedy"}, cfg)
	}
	if s.Failures != 3 {
		t.Errorf("failures in one session: %d, want 3 (never limited)", s.Failures)
	}
	// A new session may confirm again.
	s, chs := mustApply(t, s, Event{Kind: KindAppliedSuccess, At: at.Add(time.Minute), Session: "next"}, cfg)
	if last(t, chs).Ignored || s.Successes != 2 {
		t.Errorf("a new session could not confirm: %+v", last(t, chs))
	}
}

// TestAppraiseNeverRaises: evidence derived from appraise never raises any
// dimension or the composite, whatever its kind and the state.
func TestAppraiseNeverRaises(t *testing.T) {
	cfg := DefaultConfig()
	rng := rand.New(rand.NewPCG(11, 12))
	all := make([]Kind, 0, len(kinds))
	for k := range kinds {
		all = append(all, k)
	}
	for range 2000 {
		s := randomState(rng, cfg)
		if rng.IntN(4) == 0 {
			s, _ = mustApply(t, s, Event{Kind: KindArchived, At: t0}, cfg)
		}
		k := all[rng.IntN(len(all))]
		got, chs := mustApply(t, s, Event{Kind: k, At: t0, Session: fmt.Sprint(rng.IntN(3)), FromAppraise: true}, cfg)
		ch := last(t, chs)
		b, a := ch.Before, ch.After
		if a.Frequency > b.Frequency+1e-12 || a.Effectiveness > b.Effectiveness+1e-12 || a.Human > b.Human+1e-12 || a.Composite > b.Composite+1e-12 {
			t.Fatalf("appraise-derived %s raised confidence: %+v → %+v", k, b, a)
		}
		if s.Lifecycle == Archived && got.Lifecycle != Archived {
			t.Fatalf("appraise-derived %s restored an archived lesson", k)
		}
		if s.Lifecycle == Pending && got.Lifecycle == Active {
			t.Fatalf("appraise-derived %s promoted a pending lesson", k)
		}
	}
	// The appraised kind itself is recorded but moves nothing.
	s := warmState(cfg)
	got, chs := mustApply(t, s, Event{Kind: KindAppraised, At: t0, Session: "x"}, cfg)
	if got.Appraisals != 1 || last(t, chs).Before != last(t, chs).After {
		t.Errorf("appraised: %+v", last(t, chs))
	}
}
