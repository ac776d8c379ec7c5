package confidence

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// warmState has evidence in every dimension and some decay debt, so that
// each rule can move each dimension in either direction: one more
// observation crosses a step of the frequency table (5 → 6, or 10 → 11 when
// the 6 successes count as observations).
func warmState(cfg Config) State {
	s := New(OriginImported, t0.Add(-10*week), "", cfg)
	s.Observations = 5
	if cfg.SuccessIsObservation {
		s.Observations = 4
	}
	s.Successes, s.Failures = 6, 2
	s.Approvals, s.Rejections = 1, 1
	// No frequency debt: a success repays it (see
	// TestApply_SuccessRepaysFrequencyDecay), which the seed's table does
	// not list.
	s.Debt = Dims{Effectiveness: 0.02, Human: 0.01}
	s.DecayAnchor, s.LastUsedAt = t0, t0
	return settle(s, t0, cfg)
}

// TestApply_SeedRules checks every rule of the seed's UPDATE_RULES table:
// the sign of the change of each dimension, and the exact size where the
// seed's number is kept (contradiction, explicit rejection, weekly decay).
// It runs with the seed's frequency (SuccessIsObservation off); the
// default's one deviation is checked in TestApply_SuccessIsObservation.
func TestApply_SeedRules(t *testing.T) {
	cfg := DefaultConfig()
	cfg.SuccessIsObservation = false
	nan := -1.0 // "sign only"
	tests := []struct {
		trigger string
		kind    Kind
		f, e, h int     // sign of the change per dimension, from the seed table
		df      float64 // exact frequency delta, or nan
		dh      float64 // exact human delta, or nan
	}{
		{"pattern_observed_again", KindObserved, +1, 0, 0, nan, nan},
		{"applied_successfully", KindAppliedSuccess, 0, +1, 0, nan, nan},
		{"user_accepted", KindUserApproved, 0, +1, +1, nan, nan},
		{"reflect_approved", KindStrongApproved, 0, 0, +1, nan, nan},
		{"causal_link_confirmed", KindCausalLink, +1, 0, 0, nan, nan},
		{"pattern_contradicted", KindContradicted, -1, 0, 0, -0.10, nan},
		{"applied_failed", KindAppliedFailure, 0, -1, 0, nan, nan},
		{"user_corrected", KindUserRejected, 0, -1, -1, nan, nan},
		{"reflect_rejected", KindStrongRejected, 0, 0, -1, nan, -0.30},
		{"weekly_decay", KindDecay, -1, -1, -1, -0.02, -0.005},
	}
	seen := map[Kind]bool{}
	for _, tt := range tests {
		t.Run(tt.trigger, func(t *testing.T) {
			if got := tt.kind.SeedTrigger(); got != tt.trigger {
				t.Fatalf("%s.SeedTrigger() = %q, want %q", tt.kind, got, tt.trigger)
			}
			seen[tt.kind] = true
			s := warmState(cfg)
			got, chs := mustApply(t, s, Event{Kind: tt.kind, At: t0.Add(time.Hour), Session: "s1"}, cfg)
			ch := last(t, chs)
			if ch.Ignored {
				t.Fatalf("ignored: %s", ch.Reason)
			}
			b, a := ch.Before, ch.After
			if sign(a.Frequency-b.Frequency) != tt.f || sign(a.Effectiveness-b.Effectiveness) != tt.e || sign(a.Human-b.Human) != tt.h {
				t.Errorf("change F %+.3f E %+.3f H %+.3f, want signs %+d %+d %+d",
					a.Frequency-b.Frequency, a.Effectiveness-b.Effectiveness, a.Human-b.Human, tt.f, tt.e, tt.h)
			}
			if tt.df != nan && !near(a.Frequency-b.Frequency, tt.df) {
				t.Errorf("frequency delta = %v, want %v", a.Frequency-b.Frequency, tt.df)
			}
			if tt.dh != nan && !near(a.Human-b.Human, tt.dh) {
				t.Errorf("human delta = %v, want %v", a.Human-b.Human, tt.dh)
			}
			if tt.kind == KindDecay && !near(a.Effectiveness-b.Effectiveness, -0.01) {
				t.Errorf("decay effectiveness delta = %v, want -0.01", a.Effectiveness-b.Effectiveness)
			}
			if want := Composite(got, cfg); a.Composite != want || got.Composite != want {
				t.Errorf("change composite %v, state %v, want %v", a.Composite, got.Composite, want)
			}
			if ch.Reason == "" || ch.Kind != tt.kind || !ch.At.Equal(t0.Add(time.Hour)) {
				t.Errorf("change = %+v, want kind %s, a reason and the event time", ch, tt.kind)
			}
		})
	}
	for k := range kinds {
		if k.SeedTrigger() != "" && !seen[k] {
			t.Errorf("kind %s implements seed rule %s but has no test row", k, k.SeedTrigger())
		}
	}
}

// TestApply_Directions checks over many random states that positive
// evidence never lowers any dimension and negative evidence never raises
// one.
func TestApply_Directions(t *testing.T) {
	cfg := DefaultConfig()
	rng := rand.New(rand.NewPCG(7, 7))
	positive := []Kind{KindObserved, KindCausalLink, KindAppliedSuccess, KindUserApproved, KindStrongApproved}
	negative := []Kind{KindContradicted, KindAppliedFailure, KindUserRejected, KindStrongRejected, KindDecay}
	for i := range 3000 {
		s := randomState(rng, cfg)
		for _, k := range append(positive, negative...) {
			_, chs := mustApply(t, s, Event{Kind: k, At: t0, Session: "x"}, cfg)
			ch := last(t, chs)
			b, a := ch.Before, ch.After
			d := []float64{a.Frequency - b.Frequency, a.Effectiveness - b.Effectiveness, a.Human - b.Human, a.Composite - b.Composite}
			for j, x := range d {
				pos := k.Confirms() || k == KindStrongApproved
				if (pos && x < -1e-12) || (!pos && x > 1e-12) {
					t.Fatalf("state %d kind %s: dimension %d moved %+v (state %+v)", i, k, j, x, s)
				}
			}
		}
	}
}

func TestApply_Errors(t *testing.T) {
	cfg := DefaultConfig()
	s := New(OriginImported, t0, "", cfg)
	if _, _, err := Apply(s, Event{Kind: "bogus", At: t0}, cfg); !errors.Is(err, ErrUnknownKind) {
		t.Errorf("unknown kind: err = %v, want ErrUnknownKind", err)
	}
	if _, _, err := Apply(s, Event{Kind: KindObserved, Session: "x"}, cfg); !errors.Is(err, ErrNoTime) {
		t.Errorf("zero time: err = %v, want ErrNoTime", err)
	}
}

func TestApply_DoesNotMutateInput(t *testing.T) {
	cfg := DefaultConfig()
	s := New(OriginAgentInferred, t0, "s0", cfg)
	s, _ = mustApply(t, s, Event{Kind: KindAppliedSuccess, At: t0, Session: "s1"}, cfg)
	before := s.clone()
	_, _ = mustApply(t, s, Event{Kind: KindAppliedSuccess, At: t0, Session: "s2"}, cfg)
	if len(s.Recent) != len(before.Recent) || s.Successes != before.Successes {
		t.Fatalf("Apply modified its input: %+v, was %+v", s, before)
	}
	for i := range s.Recent {
		if s.Recent[i].Session != before.Recent[i].Session || len(s.Recent[i].Kinds) != len(before.Recent[i].Kinds) {
			t.Fatalf("Apply modified input's Recent: %+v, was %+v", s.Recent, before.Recent)
		}
	}
}

func TestApply_Promotion(t *testing.T) {
	cfg := DefaultConfig()
	tests := []struct {
		name   string
		events []Event
		want   Lifecycle
	}{
		{"no evidence stays pending", nil, Pending},
		{"success in the creating session does not count", []Event{
			{Kind: KindAppliedSuccess, Session: "create"}}, Pending},
		{"one successful session is not enough", []Event{
			{Kind: KindAppliedSuccess, Session: "a"}}, Pending},
		{"the same session twice is one", []Event{
			{Kind: KindAppliedSuccess, Session: "a"}, {Kind: KindAppliedSuccess, Session: "a"}}, Pending},
		{"two separate sessions promote", []Event{
			{Kind: KindAppliedSuccess, Session: "a"}, {Kind: KindAppliedSuccess, Session: "b"}}, Active},
		{"observations do not promote", []Event{
			{Kind: KindObserved, Session: "a"}, {Kind: KindObserved, Session: "b"}, {Kind: KindObserved, Session: "c"}}, Pending},
		{"one in-session user approval promotes", []Event{
			{Kind: KindUserApproved, Session: "a"}}, Active},
		{"an explicit user approval promotes", []Event{
			{Kind: KindStrongApproved}}, Active},
		{"appraise-derived success does not promote", []Event{
			{Kind: KindAppliedSuccess, Session: "a", FromAppraise: true}, {Kind: KindAppliedSuccess, Session: "b", FromAppraise: true}}, Pending},
		{"failures do not promote", []Event{
			{Kind: KindAppliedFailure, Session: "a"}, {Kind: KindAppliedFailure, Session: "b"}}, Pending},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(OriginAgentInferred, t0, "create", cfg)
			var ch Change
			for i, e := range tt.events {
				e.At = t0.Add(time.Duration(i+1) * time.Hour)
				var chs []Change
				s, chs = mustApply(t, s, e, cfg)
				ch = last(t, chs)
			}
			if s.Lifecycle != tt.want {
				t.Fatalf("lifecycle = %s, want %s", s.Lifecycle, tt.want)
			}
			if tt.want == Active && (s.PromotedAt.IsZero() || !strings.Contains(ch.Reason, "promoted") || ch.LifecycleBefore != Pending) {
				t.Errorf("promotion not recorded: PromotedAt %v, change %+v", s.PromotedAt, ch)
			}
		})
	}
	for _, o := range []Origin{OriginUserStated, OriginImported} {
		if s := New(o, t0, "", cfg); s.Lifecycle != Active {
			t.Errorf("New(%s) lifecycle = %s, want active", o, s.Lifecycle)
		}
	}
}

func TestApply_ArchiveRestoreSupersede(t *testing.T) {
	cfg := DefaultConfig()
	s := New(OriginAgentInferred, t0, "", cfg)
	s, chs := mustApply(t, s, Event{Kind: KindArchived, At: t0.Add(time.Hour)}, cfg)
	if s.Lifecycle != Archived || s.ArchiveReason != ArchiveManual || s.ArchivedFrom != Pending || last(t, chs).LifecycleAfter != Archived {
		t.Fatalf("after archive: %+v", s)
	}
	// Archived lessons are frozen: no decay, whatever the time.
	frozen, dchs := AsOf(s, t0.Add(400*week), cfg)
	if len(dchs) != 0 || frozen.Composite != s.Composite || frozen.DecayWeeks != s.DecayWeeks {
		t.Fatalf("archived lesson decayed: %+v", dchs)
	}
	// Archiving twice is refused, evidence still counts.
	s, chs = mustApply(t, s, Event{Kind: KindArchived, At: t0.Add(2 * time.Hour)}, cfg)
	if !last(t, chs).Ignored {
		t.Errorf("second archive not ignored")
	}
	s, _ = mustApply(t, s, Event{Kind: KindAppliedFailure, At: t0.Add(3 * time.Hour)}, cfg)
	if s.Failures != 1 || s.Lifecycle != Archived {
		t.Errorf("evidence on archived lesson: failures %d lifecycle %s", s.Failures, s.Lifecycle)
	}
	restoreAt := t0.Add(50 * week)
	s, chs = mustApply(t, s, Event{Kind: KindRestored, At: restoreAt}, cfg)
	if s.Lifecycle != Pending || s.ArchiveReason != "" || !s.DecayAnchor.Equal(restoreAt) || last(t, chs).Ignored {
		t.Fatalf("after restore: %+v", s)
	}
	// Restoring a lesson that is not archived is refused.
	s, chs = mustApply(t, s, Event{Kind: KindRestored, At: restoreAt}, cfg)
	if !last(t, chs).Ignored {
		t.Errorf("restore of a live lesson not ignored")
	}
	s, _ = mustApply(t, s, Event{Kind: KindSuperseded, At: restoreAt, Note: "by lesson 7"}, cfg)
	if s.Lifecycle != Archived || s.ArchiveReason != ArchiveSuperseded {
		t.Errorf("after supersede: %+v", s)
	}
}

func TestApply_DeprecatedSince(t *testing.T) {
	cfg := DefaultConfig()
	s := New(OriginImported, t0, "", cfg)
	at := t0
	for s.Tier != TierDeprecated {
		at = at.Add(time.Minute)
		s, _ = mustApply(t, s, Event{Kind: KindAppliedFailure, At: at}, cfg)
		s, _ = mustApply(t, s, Event{Kind: KindContradicted, At: at}, cfg)
	}
	if !s.DeprecatedSince.Equal(at) {
		t.Fatalf("DeprecatedSince = %v, want %v", s.DeprecatedSince, at)
	}
	// Further bad news does not move the start of deprecation.
	s, _ = mustApply(t, s, Event{Kind: KindAppliedFailure, At: at.Add(time.Hour)}, cfg)
	if !s.DeprecatedSince.Equal(at) {
		t.Fatalf("DeprecatedSince moved to %v", s.DeprecatedSince)
	}
	// An explicit approval lifts it out of deprecation and clears the mark.
	s, _ = mustApply(t, s, Event{Kind: KindStrongApproved, At: at.Add(2 * time.Hour)}, cfg)
	for i := 0; s.Tier == TierDeprecated && i < 20; i++ {
		s, _ = mustApply(t, s, Event{Kind: KindAppliedSuccess, At: at.Add(3 * time.Hour), Session: string(rune('a' + i))}, cfg)
	}
	if s.Tier == TierDeprecated || !s.DeprecatedSince.IsZero() {
		t.Fatalf("recovered lesson: tier %s DeprecatedSince %v", s.Tier, s.DeprecatedSince)
	}
}

// TestApply_SuccessRepaysFrequencyDecay pins the one deviation from the
// seed's table: a credited success repays frequency decay like an
// observation, while failures repay nothing.
func TestApply_SuccessRepaysFrequencyDecay(t *testing.T) {
	cfg := DefaultConfig()
	s := New(OriginImported, t0, "", cfg)
	s, _ = AsOf(s, t0.Add(3*week), cfg)
	if !near(s.Debt.Frequency, 0.06) {
		t.Fatalf("debt after 3 weeks = %v, want 0.06", s.Debt.Frequency)
	}
	ok, _ := mustApply(t, s, Event{Kind: KindAppliedSuccess, At: s.DecayAnchor, Session: "a"}, cfg)
	if !near(ok.Debt.Frequency, 0.01) || !near(Frequency(ok, cfg)-Frequency(s, cfg), 0.05) {
		t.Errorf("after success: debt %v, frequency %v → %v", ok.Debt.Frequency, Frequency(s, cfg), Frequency(ok, cfg))
	}
	bad, _ := mustApply(t, s, Event{Kind: KindAppliedFailure, At: s.DecayAnchor, Session: "a"}, cfg)
	if bad.Debt != s.Debt {
		t.Errorf("failure repaid debt: %+v → %+v", s.Debt, bad.Debt)
	}
}

// TestApply_SuccessIsObservation: with the default config a credited
// success also counts as an observation, so it can raise frequency; a
// failure never does.
func TestApply_SuccessIsObservation(t *testing.T) {
	cfg := DefaultConfig()
	s := warmState(cfg)
	ok, chs := mustApply(t, s, Event{Kind: KindAppliedSuccess, At: t0.Add(time.Hour), Session: "a"}, cfg)
	if ch := last(t, chs); ch.After.Frequency <= ch.Before.Frequency || ch.After.Effectiveness <= ch.Before.Effectiveness {
		t.Errorf("success: F %v → %v, E %v → %v; want both up", ch.Before.Frequency, ch.After.Frequency, ch.Before.Effectiveness, ch.After.Effectiveness)
	}
	if ok.Observations != s.Observations {
		t.Errorf("the observation counter itself changed: %d → %d", s.Observations, ok.Observations)
	}
	_, chs = mustApply(t, s, Event{Kind: KindAppliedFailure, At: t0.Add(time.Hour), Session: "a"}, cfg)
	if ch := last(t, chs); ch.After.Frequency != ch.Before.Frequency {
		t.Errorf("failure moved frequency %v → %v", ch.Before.Frequency, ch.After.Frequency)
	}
	// A lesson in steady successful use can reach core, which the seed's
	// frequency forbids.
	core := New(OriginImported, t0, "", cfg)
	for i := range 25 {
		core, _ = mustApply(t, core, Event{Kind: KindAppliedSuccess, At: t0.Add(time.Duration(i+1) * time.Hour), Session: string(rune('A' + i))}, cfg)
	}
	core, _ = mustApply(t, core, Event{Kind: KindStrongApproved, At: t0.Add(30 * time.Hour)}, cfg)
	seed := cfg
	seed.SuccessIsObservation = false
	if core.Tier != TierCore || TierOf(Composite(core, seed), seed) == TierCore {
		t.Errorf("25 successes + approval: tier %s (seed frequency: %.3f), want core only with successes as observations",
			core.Tier, Composite(core, seed))
	}
}
