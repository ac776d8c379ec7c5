package confidence

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

func TestAsOf_WeeklyRates(t *testing.T) {
	cfg := DefaultConfig()
	s := New(OriginImported, t0, "", cfg)
	b := s.Scores(cfg)
	got, chs := AsOf(s, t0.Add(week-time.Nanosecond), cfg)
	if len(chs) != 0 || !reflect.DeepEqual(got, s) {
		t.Fatalf("decay before a full week: %+v", chs)
	}
	got, chs = AsOf(s, t0.Add(week), cfg)
	a := got.Scores(cfg)
	if !near(b.Frequency-a.Frequency, 0.02) || !near(b.Effectiveness-a.Effectiveness, 0.01) || !near(b.Human-a.Human, 0.005) {
		t.Errorf("one week: F %v→%v E %v→%v H %v→%v, want -0.02/-0.01/-0.005",
			b.Frequency, a.Frequency, b.Effectiveness, a.Effectiveness, b.Human, a.Human)
	}
	if len(chs) != 1 || chs[0].Kind != KindDecay || chs[0].Periods != 1 || !chs[0].At.Equal(t0.Add(week)) {
		t.Errorf("changes = %+v, want one decay change of one period at t0+1w", chs)
	}
	if !got.DecayAnchor.Equal(t0.Add(week)) || got.DecayWeeks != 1 {
		t.Errorf("anchor %v weeks %d, want t0+1w and 1", got.DecayAnchor, got.DecayWeeks)
	}
}

func TestAsOf_Idempotent(t *testing.T) {
	cfg := DefaultConfig()
	rng := rand.New(rand.NewPCG(3, 4))
	for range 500 {
		s := randomState(rng, cfg)
		now := t0.Add(time.Duration(rng.IntN(60*24)) * time.Hour)
		once, _ := AsOf(s, now, cfg)
		twice, chs := AsOf(once, now, cfg)
		if len(chs) != 0 || !reflect.DeepEqual(once, twice) {
			t.Fatalf("second AsOf at the same time changed the state: %+v", chs)
		}
		// A time before the anchor changes nothing either.
		back, chs := AsOf(once, now.Add(-week), cfg)
		if len(chs) != 0 || !reflect.DeepEqual(once, back) {
			t.Fatalf("AsOf in the past changed the state: %+v", chs)
		}
	}
}

// TestAsOf_DowntimeEqualsStepwise: a server off for a month (or a year)
// computes the same state on its first read as one that read the lesson
// every day, and composing AsOf at any two times equals one call.
func TestAsOf_DowntimeEqualsStepwise(t *testing.T) {
	cfg := DefaultConfig()
	rng := rand.New(rand.NewPCG(5, 6))
	for _, span := range []time.Duration{30 * 24 * time.Hour, 365 * 24 * time.Hour} {
		for i := range 300 {
			s := randomState(rng, cfg)
			end := t0.Add(span)
			direct, _ := AsOf(s, end, cfg)
			step := s
			for at := t0; !at.After(end); at = at.Add(24 * time.Hour) {
				step, _ = AsOf(step, at, cfg)
			}
			step, _ = AsOf(step, end, cfg)
			if !reflect.DeepEqual(direct, step) {
				t.Fatalf("span %v state %d: downtime result differs from daily reads\n direct %+v\n step   %+v", span, i, direct, step)
			}
			t1 := t0.Add(time.Duration(rng.Int64N(int64(span))))
			mid, _ := AsOf(s, t1, cfg)
			composed, _ := AsOf(mid, end, cfg)
			if !reflect.DeepEqual(direct, composed) {
				t.Fatalf("AsOf(AsOf(s, %v), %v) differs from AsOf(s, %v)", t1, end, end)
			}
		}
	}
}

func TestAsOf_MonthOfDowntime(t *testing.T) {
	cfg := DefaultConfig()
	s := warmState(cfg)
	b := s.Scores(cfg)
	got, chs := AsOf(s, t0.Add(30*24*time.Hour), cfg)
	a := got.Scores(cfg)
	// 30 days hold four full weeks.
	if got.DecayWeeks-s.DecayWeeks != 4 || !near(b.Frequency-a.Frequency, 0.08) || !near(b.Human-a.Human, 0.02) {
		t.Errorf("30 days: %d periods, F -%v H -%v; want 4, 0.08, 0.02", got.DecayWeeks-s.DecayWeeks, b.Frequency-a.Frequency, b.Human-a.Human)
	}
	total := 0
	for _, ch := range chs {
		total += ch.Periods
	}
	if total != 4 {
		t.Errorf("changes cover %d periods, want 4: %+v", total, chs)
	}
}

func TestAsOf_Floors(t *testing.T) {
	for _, floor := range []float64{0, 0.1, 0.3} {
		cfg := DefaultConfig()
		cfg.Floors = Dims{Frequency: floor, Effectiveness: floor, Human: floor}
		rng := rand.New(rand.NewPCG(9, uint64(floor*10)))
		for range 200 {
			s := randomState(rng, cfg)
			raw := Scores{Frequency: rawFrequency(s, cfg), Effectiveness: rawEffectiveness(s, cfg), Human: rawHuman(s, cfg)}
			got, _ := AsOf(s, t0.Add(10*365*24*time.Hour), cfg)
			sc := got.Scores(cfg)
			for _, d := range [][3]float64{
				{sc.Frequency, raw.Frequency, Frequency(s, cfg)},
				{sc.Effectiveness, raw.Effectiveness, Effectiveness(s, cfg)},
				{sc.Human, raw.Human, Human(s, cfg)},
			} {
				// Never below the floor, unless the evidence itself already was.
				if want := min(floor, d[2]); d[0] < want-1e-12 {
					t.Fatalf("floor %v: dimension decayed to %v (raw %v, before %v)", floor, d[0], d[1], d[2])
				}
			}
		}
	}
}

// TestAsOf_SaturatedJump checks that skipping no-op periods (floors high
// enough that decay stops above deprecation) gives the weekly result.
func TestAsOf_SaturatedJump(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Floors = Dims{Frequency: 0.5, Effectiveness: 0.5, Human: 0.5}
	s := New(OriginUserStated, t0, "", cfg)
	end := t0.Add(3 * 365 * 24 * time.Hour)
	direct, _ := AsOf(s, end, cfg)
	step := s
	for at := t0; !at.After(end); at = at.Add(week) {
		step, _ = AsOf(step, at, cfg)
	}
	step, _ = AsOf(step, end, cfg)
	if !reflect.DeepEqual(direct, step) {
		t.Fatalf("jump differs from weekly steps:\n direct %+v\n step   %+v", direct, step)
	}
	if direct.DecayWeeks != 156 || direct.Lifecycle != Active {
		t.Errorf("weeks %d lifecycle %s, want 156 and active", direct.DecayWeeks, direct.Lifecycle)
	}
}

func TestAsOf_ArchiveAfter30DaysDeprecated(t *testing.T) {
	cfg := DefaultConfig()
	s := New(OriginImported, t0, "", cfg)
	at := t0
	for s.Tier != TierDeprecated {
		at = at.Add(time.Minute)
		s, _ = mustApply(t, s, Event{Kind: KindAppliedFailure, At: at}, cfg)
		s, _ = mustApply(t, s, Event{Kind: KindContradicted, At: at}, cfg)
	}
	deprecated := s.DeprecatedSince
	almost, _ := AsOf(s, deprecated.Add(30*24*time.Hour-time.Second), cfg)
	if almost.Lifecycle == Archived {
		t.Fatalf("archived before 30 days")
	}
	got, chs := AsOf(s, deprecated.Add(45*24*time.Hour), cfg)
	if got.Lifecycle != Archived || got.ArchiveReason != ArchiveDeprecated || got.ArchivedFrom != Active {
		t.Fatalf("after 45 days deprecated: lifecycle %s reason %s", got.Lifecycle, got.ArchiveReason)
	}
	if want := deprecated.Add(30 * 24 * time.Hour); !got.ArchivedAt.Equal(want) {
		t.Errorf("ArchivedAt = %v, want exactly %v", got.ArchivedAt, want)
	}
	ch := last(t, chs)
	if ch.Kind != KindArchived || ch.LifecycleBefore != Active || ch.LifecycleAfter != Archived || ch.Reason == "" {
		t.Errorf("archive change = %+v", ch)
	}
	// Nothing is lost: all evidence is still there.
	if got.Failures != s.Failures || got.Contradictions != s.Contradictions || got.Observations != s.Observations {
		t.Errorf("archiving lost evidence: %+v vs %+v", got, s)
	}
}

// TestAsOf_UnusedLessonLifecycle follows a fresh lesson that is never used:
// it decays, becomes deprecated, and is archived 30 days later, and the
// same happens whether it is read weekly or only once after a year.
func TestAsOf_UnusedLessonLifecycle(t *testing.T) {
	cfg := DefaultConfig()
	for _, origin := range []Origin{OriginUserStated, OriginImported, OriginAgentInferred} {
		s := New(origin, t0, "", cfg)
		got, chs := AsOf(s, t0.Add(365*24*time.Hour), cfg)
		if got.Lifecycle != Archived || got.ArchiveReason != ArchiveDeprecated {
			t.Fatalf("%s unused for a year: lifecycle %s (composite %.3f)", origin, got.Lifecycle, got.Composite)
		}
		if d := got.ArchivedAt.Sub(got.DeprecatedSince); d != cfg.ArchiveAfter {
			t.Errorf("%s archived %v after deprecation, want %v", origin, d, cfg.ArchiveAfter)
		}
		var tiers []Tier
		for _, ch := range chs {
			tiers = append(tiers, ch.After.Tier)
		}
		if tiers[len(tiers)-1] != TierDeprecated {
			t.Errorf("%s: tiers along the way %v, want to end deprecated", origin, tiers)
		}
		t.Logf("%s: deprecated after %v, archived at %v", origin, got.DeprecatedSince.Sub(t0), got.ArchivedAt.Sub(t0))
	}
}

func TestAsOf_UseResetsClockAndRepaysDebt(t *testing.T) {
	cfg := DefaultConfig()
	s := New(OriginImported, t0, "", cfg)
	// Used after six days: the first week restarts from the use.
	s, _ = mustApply(t, s, Event{Kind: KindAppliedNeutral, At: t0.Add(6 * 24 * time.Hour)}, cfg)
	got, chs := AsOf(s, t0.Add(8*24*time.Hour), cfg)
	if len(chs) != 0 || got.DecayWeeks != 0 {
		t.Fatalf("decayed although used two days ago: %+v", chs)
	}
	// Contradictions and appraise evidence are not use.
	s2, _ := mustApply(t, s, Event{Kind: KindContradicted, At: t0.Add(12 * 24 * time.Hour)}, cfg)
	s2, _ = mustApply(t, s2, Event{Kind: KindAppraised, At: t0.Add(12 * 24 * time.Hour), FromAppraise: true}, cfg)
	if !s2.DecayAnchor.Equal(s.DecayAnchor) {
		t.Errorf("non-use events moved the anchor to %v", s2.DecayAnchor)
	}
	// Five weeks unused, then observed again: frequency debt repaid by 0.05.
	decayedState, _ := AsOf(s, s.DecayAnchor.Add(5*week), cfg)
	if !near(decayedState.Debt.Frequency, 0.10) {
		t.Fatalf("debt after 5 weeks = %v, want 0.10", decayedState.Debt.Frequency)
	}
	obs, _ := mustApply(t, decayedState, Event{Kind: KindObserved, At: decayedState.DecayAnchor, Session: "s"}, cfg)
	if !near(obs.Debt.Frequency, 0.05) {
		t.Errorf("debt after observation = %v, want 0.05", obs.Debt.Frequency)
	}
}

func TestAsOf_ZeroAnchor(t *testing.T) {
	cfg := DefaultConfig()
	got, chs := AsOf(State{Observations: 1, Lifecycle: Active}, t0, cfg)
	if len(chs) != 0 || !got.DecayAnchor.Equal(t0) {
		t.Fatalf("zero state: anchor %v changes %+v", got.DecayAnchor, chs)
	}
	if got2, chs := AsOf(got, t0, cfg); len(chs) != 0 || !reflect.DeepEqual(got, got2) {
		t.Fatalf("zero state not idempotent")
	}
}
