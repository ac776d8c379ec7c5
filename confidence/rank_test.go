package confidence

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

func TestCompare(t *testing.T) {
	cfg := DefaultConfig()
	user := New(OriginUserStated, t0, "", cfg)
	imported := New(OriginImported, t0, "", cfg)
	pending := New(OriginAgentInferred, t0, "c", cfg)
	// A strong agent lesson: promoted, core tier.
	agent := New(OriginAgentInferred, t0, "c", cfg)
	for i := range 25 {
		at := t0.Add(time.Duration(i+1) * time.Hour)
		agent, _ = mustApply(t, agent, Event{Kind: KindAppliedSuccess, At: at, Session: fmt.Sprint(i)}, cfg)
		agent, _ = mustApply(t, agent, Event{Kind: KindObserved, At: at, Session: fmt.Sprint(i)}, cfg)
	}
	agent, _ = mustApply(t, agent, Event{Kind: KindStrongApproved, At: t0.Add(30 * time.Hour)}, cfg)
	if agent.Tier != TierCore || agent.Lifecycle != Active || user.Tier == TierCore {
		t.Fatalf("setup: agent %s %s, user %s", agent.Tier, agent.Lifecycle, user.Tier)
	}
	archived, _ := mustApply(t, user, Event{Kind: KindArchived, At: t0}, cfg)

	cands := []Candidate{
		{ID: "pending", Match: 0.71, State: pending},
		{ID: "agent-core", Match: 0.72, State: agent},
		{ID: "archived", Match: 0.73, State: archived},
		{ID: "imported", Match: 0.70, State: imported},
		{ID: "user", Match: 0.70, State: user},
		{ID: "far-better-match", Match: 0.91, State: pending},
	}
	slices.SortFunc(cands, func(a, b Candidate) int { return Compare(a, b, cfg) })
	var got []string
	for _, c := range cands {
		got = append(got, c.ID)
	}
	want := []string{"far-better-match", "user", "imported", "agent-core", "pending", "archived"}
	if !slices.Equal(got, want) {
		t.Errorf("order = %v, want %v", got, want)
	}
}

// TestCompare_UserNeverOutranked: at equal match, no agent-inferred or
// pending lesson ever sorts before a user-stated one, whatever the scores.
func TestCompare_UserNeverOutranked(t *testing.T) {
	cfg := DefaultConfig()
	rng := rand.New(rand.NewPCG(21, 22))
	for range 3000 {
		a, b := randomState(rng, cfg), randomState(rng, cfg)
		a.Origin, b.Origin = OriginUserStated, OriginAgentInferred
		if rng.IntN(2) == 0 {
			b.Lifecycle = Pending
		}
		m := rng.Float64()
		ca, cb := Candidate{ID: "z", Match: m, State: a}, Candidate{ID: "a", Match: m, State: b}
		if Compare(cb, ca, cfg) < 0 {
			t.Fatalf("agent lesson (%s, %.3f) outranked user lesson (%.3f) at equal match", b.Tier, b.Composite, a.Composite)
		}
		if Compare(ca, cb, cfg) >= 0 {
			t.Fatalf("Compare not antisymmetric")
		}
	}
}

func TestCompare_TotalOrder(t *testing.T) {
	cfg := DefaultConfig()
	rng := rand.New(rand.NewPCG(31, 32))
	var cs []Candidate
	for i := range 60 {
		cs = append(cs, Candidate{ID: fmt.Sprint(i), Match: float64(rng.IntN(20)) / 20, State: randomState(rng, cfg)})
	}
	for _, a := range cs {
		for _, b := range cs {
			if Compare(a, b, cfg) != -Compare(b, a, cfg) {
				t.Fatalf("Compare not antisymmetric for %s %s", a.ID, b.ID)
			}
			for _, c := range cs {
				if Compare(a, b, cfg) < 0 && Compare(b, c, cfg) < 0 && Compare(a, c, cfg) >= 0 {
					t.Fatalf("Compare not transitive for %s %s %s", a.ID, b.ID, c.ID)
				}
			}
		}
	}
}
