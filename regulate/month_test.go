package regulate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// checkInvariants asserts the regulator's promises over a change log: no move
// larger than MaxStep × Scale, at most one move per Interval, no parameter
// moved twice within Cooldown, every value inside its hard bounds.
func checkInvariants(t *testing.T, hist []Change, cfg Config) {
	t.Helper()
	var lastMove time.Time
	lastByParam := map[string]time.Time{}
	for _, c := range hist {
		if c.Kind == KindKeep {
			if c.Before != c.After {
				t.Errorf("keep moved %s: %+v", c.Param, c)
			}
			continue
		}
		p, ok := cfg.Registry.Lookup(c.Param)
		if !ok {
			t.Fatalf("unregistered parameter changed: %+v", c)
		}
		if d := math.Abs(c.After - c.Before); d > cfg.MaxStep*p.Scale+1e-9 {
			t.Errorf("%s moved %v at %s, more than the daily bound %v", c.Param, d, c.At, cfg.MaxStep*p.Scale)
		}
		if c.After < p.Min || c.After > p.Max {
			t.Errorf("%s set to %v outside [%v, %v]", c.Param, c.After, p.Min, p.Max)
		}
		if !lastMove.IsZero() && c.At.Sub(lastMove) < cfg.Interval {
			t.Errorf("two moves %v apart (at %s)", c.At.Sub(lastMove), c.At)
		}
		if prev, ok := lastByParam[c.Param]; ok && c.At.Sub(prev) < cfg.Cooldown {
			t.Errorf("%s moved twice %v apart (at %s), inside the cooldown", c.Param, c.At.Sub(prev), c.At)
		}
		lastMove, lastByParam[c.Param] = c.At, c.At
	}
}

// world is a simulated deployment: given the parameters, it returns the
// pressures the logs would show that day.
type world func(day int, params map[string]float64, rng *rand.Rand) []Pressure

// simulate runs the regulator once a day for days days, applying its changes.
func simulate(t *testing.T, days int, params map[string]float64, cfg Config, w world, seed uint64) (map[string]float64, []Change, []string) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	var hist []Change
	var log []string
	for day := 0; day < days; day++ {
		now := t0.Add(time.Duration(day) * 24 * time.Hour)
		res := Plan(now, params, w(day, params, rng), hist, cfg)
		params = Apply(params, res.Changes)
		hist = append(hist, res.Changes...)
		for _, c := range res.Changes {
			log = append(log, fmt.Sprintf("day %2d %-6s %s", day, c.Kind, c.Reason))
		}
	}
	return params, hist, log
}

// observe draws n observations of a rate (binomial), or returns it exactly
// when rng is nil.
func observe(p float64, n int, rng *rand.Rand) float64 {
	p = math.Max(0, math.Min(1, p))
	if rng == nil {
		return p
	}
	k := 0
	for i := 0; i < n; i++ {
		if rng.Float64() < p {
			k++
		}
	}
	return float64(k) / float64(n)
}

// analyticWorld: route.clarify.base is mis-set low, so users must often
// repeat themselves (missed_clarify = 0.03 + 0.8 × shortfall below 0.30).
// The ambiguity pressure declares that raising route.margin.base raises
// ambiguity, but in this world lowering it raises ambiguity: the regulator's
// move there is harmful and must be reverted.
func analyticWorld(n int, noisy bool) world {
	return func(day int, params map[string]float64, rng *rand.Rand) []Pressure {
		if !noisy {
			rng = nil
		}
		clarify, margin := params["route.clarify.base"], params["route.margin.base"]
		missed := 0.03 + 0.8*math.Max(0, 0.30-clarify)
		amb := 0.42 + 5*(0.20-margin)
		return []Pressure{
			{Metric: "route.misroute.missed_clarify", Value: observe(missed, n, rng), N: n, High: 0.05, RedHigh: 0.15,
				Levers: []Lever{{"route.clarify.base", -1}}},
			{Metric: "route.ambiguity", Value: observe(amb, n, rng), N: n, High: 0.30, RedHigh: 0.50, Weight: 0.5,
				Levers: []Lever{{"route.margin.base", +1}}},
		}
	}
}

func TestPlan_SimulatedMonth(t *testing.T) {
	reg, err := DefaultRegistry()
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig(reg)
	start := reg.Defaults()
	start["route.clarify.base"] = 0.14 // mis-set; 0.30 is right in this world

	final, hist, log := simulate(t, 30, clone(start), cfg, analyticWorld(400, false), 1)
	t.Log("change log:\n" + strings.Join(log, "\n"))
	checkInvariants(t, hist, cfg)

	// The mis-set weight moved up to the better value and stopped there.
	got := final["route.clarify.base"]
	if got < 0.28-1e-9 || got > 0.32+1e-9 {
		t.Errorf("route.clarify.base ended at %v, want within one step of 0.30", got)
	}
	prev := start["route.clarify.base"]
	for _, c := range hist {
		if c.Param == "route.clarify.base" && c.Kind != KindKeep {
			if c.After < prev {
				t.Errorf("route.clarify.base moved away from the better value: %+v", c)
			}
			prev = c.After
		}
	}
	// The harmful margin change was made and reverted as degrading; a retry
	// waits out the (doubling) block, and is reverted again.
	var changes, reverts []Change
	for _, c := range hist {
		if c.Param != "route.margin.base" {
			continue
		}
		switch c.Kind {
		case KindChange:
			changes = append(changes, c)
		case KindRevert:
			reverts = append(reverts, c)
		}
	}
	if len(changes) == 0 || len(reverts) != len(changes) {
		t.Fatalf("margin changes %d, reverts %d; want every harmful change reverted", len(changes), len(reverts))
	}
	for i, r := range reverts {
		c := changes[i]
		if !r.Ref.Equal(c.At) || r.At.Sub(c.At) < cfg.EvalWindow || !r.Degraded || r.After != c.Before {
			t.Errorf("revert %+v does not undo the change at %s as degrading", r, c.At)
		}
		if i+1 < len(changes) {
			if gap, block := changes[i+1].At.Sub(r.At), cfg.RevertBlock<<i; gap < block {
				t.Errorf("harmful move retried %v after revert %d, inside the block of %v", gap, i+1, block)
			}
		}
	}
	if final["route.margin.base"] != start["route.margin.base"] {
		t.Errorf("route.margin.base ended at %v, want the original %v", final["route.margin.base"], start["route.margin.base"])
	}
}

func TestPlan_SimulatedMonthNoisy(t *testing.T) {
	// Same world, each day's rates drawn from 400 observations. Noise can make
	// a good step look useless (and reverted), but the invariants hold and
	// the weight still ends far closer to the better value.
	reg, err := DefaultRegistry()
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig(reg)
	for seed := uint64(1); seed <= 5; seed++ {
		start := reg.Defaults()
		start["route.clarify.base"] = 0.14
		final, hist, log := simulate(t, 30, start, cfg, analyticWorld(400, true), seed)
		checkInvariants(t, hist, cfg)
		if got := final["route.clarify.base"]; got < 0.22 || got > 0.34 {
			t.Errorf("seed %d: route.clarify.base ended at %v, want in [0.22, 0.34]\n%s", seed, got, strings.Join(log, "\n"))
		}
	}
}
