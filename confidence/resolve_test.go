package confidence

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestResolve(t *testing.T) {
	cfg := DefaultConfig()
	now := t0.Add(48 * time.Hour)
	withSuccesses := func(s State, n int) State {
		for i := range n {
			s, _ = mustApply(t, s, Event{Kind: KindAppliedSuccess, At: t0.Add(time.Duration(i+1) * time.Minute), Session: fmt.Sprint(i)}, cfg)
		}
		return s
	}
	approved := func(s State, at time.Time) State {
		s, _ = mustApply(t, s, Event{Kind: KindStrongApproved, At: at}, cfg)
		return s
	}
	agent := withSuccesses(New(OriginAgentInferred, t0, "", cfg), 2)
	strongAgent := withSuccesses(New(OriginAgentInferred, t0, "", cfg), 20)
	oldUser := New(OriginUserStated, t0, "", cfg)
	newUser := New(OriginUserStated, t0.Add(24*time.Hour), "", cfg)
	archived, _ := mustApply(t, strongAgent, Event{Kind: KindArchived, At: t0.Add(time.Hour)}, cfg)
	rejected, _ := mustApply(t, strongAgent, Event{Kind: KindStrongRejected, At: t0.Add(time.Hour)}, cfg)

	tests := []struct {
		name  string
		a, b  State
		aWins bool
		why   string
	}{
		{"user-stated beats a well-used agent lesson", oldUser, strongAgent, true, "origin"},
		{"imported beats a well-used agent lesson", New(OriginImported, t0, "", cfg), strongAgent, true, "origin"},
		{"newer user statement corrects the older", oldUser, newUser, false, "newer user statement"},
		{"more evidence wins between agent lessons", agent, strongAgent, false, "composite"},
		{"explicitly approved agent lesson beats user-stated", approved(strongAgent, t0.Add(2*time.Hour)), oldUser, true, "verdict"},
		{"the later of two explicit approvals wins", approved(strongAgent, t0.Add(2*time.Hour)), approved(oldUser, t0.Add(3*time.Hour)), false, "later explicit user approval"},
		{"explicit verdict beats none", approved(agent, t0.Add(time.Hour)), strongAgent, true, "verdict"},
		{"rejected loses to unjudged", rejected, agent, false, "verdict"},
		{"archived loses", archived, agent, false, "archived"},
		{"equal evidence keeps the older", New(OriginImported, t0, "", cfg), New(OriginImported, t0.Add(time.Hour), "", cfg), true, "older"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, swap := range []bool{false, true} {
				a, b, want := tt.a, tt.b, tt.aWins
				if swap {
					a, b, want = b, a, !want
				}
				r, err := Resolve(a, b, now, cfg)
				if err != nil {
					t.Fatal(err)
				}
				if r.AWins != want || !strings.Contains(r.Reason, tt.why) {
					t.Fatalf("swap=%v: AWins %v (%s), want %v (%s)", swap, r.AWins, r.Reason, want, tt.why)
				}
				if r.Loser.Lifecycle != Archived || (r.Loser.ArchiveReason != ArchiveSuperseded && r.Loser.ArchiveReason != ArchiveManual) {
					t.Fatalf("loser not superseded: %s %s", r.Loser.Lifecycle, r.Loser.ArchiveReason)
				}
				loserIn := b
				if !want {
					loserIn = a
				}
				if r.Loser.Successes != loserIn.Successes || r.Loser.Observations != loserIn.Observations {
					t.Fatalf("loser lost evidence")
				}
				if loserIn.Lifecycle != Archived && last(t, r.LoserChanges).Kind != KindSuperseded {
					t.Fatalf("loser changes = %+v, want a superseded change", r.LoserChanges)
				}
				if r.Winner.Lifecycle == Archived && tt.name != "archived loses" {
					t.Fatalf("winner archived")
				}
			}
		})
	}
	if _, err := Resolve(agent, oldUser, time.Time{}, cfg); !errors.Is(err, ErrNoTime) {
		t.Errorf("zero time: err = %v, want ErrNoTime", err)
	}
}

// TestResolve_OpposingLessons runs the whole contradiction path: a new
// user correction opposes an old agent lesson, is detected by text, and
// wins.
func TestResolve_OpposingLessons(t *testing.T) {
	cfg := DefaultConfig()
	old := "When writing unit tests, mock the database."
	correction := "When writing unit tests, never mock the database; use a real SQLite file instead."
	if _, ok := Opposes(old, correction); !ok {
		t.Fatalf("Opposes(%q, %q) = false", old, correction)
	}
	oldState := New(OriginAgentInferred, t0, "", cfg)
	for i := range 6 {
		oldState, _ = mustApply(t, oldState, Event{Kind: KindAppliedSuccess, At: t0.Add(time.Duration(i+1) * time.Hour), Session: fmt.Sprint(i)}, cfg)
	}
	newState := New(OriginUserStated, t0.Add(24*time.Hour), "", cfg)
	r, err := Resolve(newState, oldState, t0.Add(24*time.Hour), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !r.AWins || r.Loser.ArchiveReason != ArchiveSuperseded || r.Loser.Successes != 6 {
		t.Errorf("resolution = %+v", r)
	}
}
