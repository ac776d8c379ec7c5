package confidence

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// t0 is an arbitrary fixed start time for tests.
var t0 = time.Date(2025, 3, 3, 9, 0, 0, 0, time.UTC)

const week = 7 * 24 * time.Hour

// mustApply applies e and fails the test on error.
func mustApply(tb testing.TB, s State, e Event, cfg Config) (State, []Change) {
	tb.Helper()
	s, ch, err := Apply(s, e, cfg)
	if err != nil {
		tb.Fatalf("Apply(%+v): %v", e, err)
	}
	return s, ch
}

// last returns the last change, failing if there is none.
func last(tb testing.TB, chs []Change) Change {
	tb.Helper()
	if len(chs) == 0 {
		tb.Fatal("no changes")
	}
	return chs[len(chs)-1]
}

// randomState returns a varied, valid, non-archived state anchored at t0.
func randomState(rng *rand.Rand, cfg Config) State {
	origins := []Origin{OriginUserStated, OriginAgentInferred, OriginImported}
	s := New(origins[rng.IntN(3)], t0.Add(-time.Duration(rng.IntN(1000))*time.Hour), "", cfg)
	s.Observations = 1 + rng.IntN(30)
	s.Contradictions = rng.IntN(4)
	s.Successes = rng.IntN(25)
	s.Failures = rng.IntN(25)
	s.Approvals = rng.IntN(5)
	s.Rejections = rng.IntN(5)
	switch rng.IntN(4) {
	case 0:
		s.Verdict = VerdictApproved
	case 1:
		s.Verdict = VerdictRejected
	default:
		s.Verdict = VerdictNone
	}
	s.Debt = Dims{
		Frequency:     float64(rng.IntN(10)) * 0.02,
		Effectiveness: float64(rng.IntN(10)) * 0.01,
		Human:         float64(rng.IntN(10)) * 0.005,
	}
	s.DecayAnchor = t0
	s.LastUsedAt = t0
	return settle(s, t0, cfg)
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// sign returns -1, 0 or 1 with a tolerance for float noise.
func sign(d float64) int {
	switch {
	case d > 1e-12:
		return 1
	case d < -1e-12:
		return -1
	}
	return 0
}
