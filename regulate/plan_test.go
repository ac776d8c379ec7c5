package regulate

import (
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2026, 3, 1, 3, 0, 0, 0, time.UTC)

func testRegistry(tb testing.TB) *Registry {
	tb.Helper()
	reg, err := NewRegistry(
		Param{Name: "a", Default: 0.30, Min: 0.10, Max: 0.50, Scale: 1},
		Param{Name: "b", Default: 0.50, Min: 0.30, Max: 0.70, Scale: 1},
		Param{Name: "t", Default: 30, Min: 10, Max: 90, Scale: 100},
	)
	if err != nil {
		tb.Fatal(err)
	}
	return reg
}

// tooHigh is a metric 0.2 above a 0.05 ceiling (severity 1.5) moved by levers.
func tooHigh(metric string, value float64, levers ...Lever) Pressure {
	return Pressure{Metric: metric, Value: value, N: 100, Low: 0, High: 0.05, RedLow: 0, RedHigh: 0.15, Levers: levers}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestPlan_ChangesWorstPressureOneStep(t *testing.T) {
	cfg := DefaultConfig(testRegistry(t))
	ps := []Pressure{
		tooHigh("mild", 0.08, Lever{"b", -1}),
		tooHigh("worst", 0.20, Lever{"a", -1}), // raising a lowers the metric
	}
	res := Plan(t0, nil, ps, nil, cfg)
	if len(res.Changes) != 1 {
		t.Fatalf("changes %+v, want one", res.Changes)
	}
	c := res.Changes[0]
	if c.Kind != KindChange || c.Param != "a" || !near(c.Before, 0.30) || !near(c.After, 0.32) || c.Want != -1 || c.Metric != "worst" {
		t.Errorf("change %+v, want a 0.30→0.32 for worst", c)
	}
	if !strings.Contains(c.Reason, "worst") || !strings.Contains(c.Reason, "a 0.3→0.32") {
		t.Errorf("reason %q does not say what and why", c.Reason)
	}
	if res.Pressures[0].Metric != "worst" {
		t.Errorf("pressures not ranked worst first: %+v", res.Pressures)
	}
	// The step is MaxStep × Scale: 2 points on a 0–100 threshold.
	res = Plan(t0, nil, []Pressure{tooHigh("x", 0.2, Lever{"t", +1})}, nil, cfg)
	if c := res.Changes[0]; !near(c.After, 28) {
		t.Errorf("threshold step: %+v, want 30→28", c)
	}
}

func TestPlan_DoesNotMutateInputs(t *testing.T) {
	cfg := DefaultConfig(testRegistry(t))
	params := map[string]float64{"a": 0.3}
	ps := []Pressure{tooHigh("m", 0.2, Lever{"a", -1})}
	hist := []Change{{Kind: KindChange, Param: "b", Before: 0.5, After: 0.52, Metric: "m2", MetricValue: 0.3, Want: -1, At: t0.Add(-72 * time.Hour)}}
	pc, hc, psc := clone(params), append([]Change(nil), hist...), append([]Pressure(nil), ps...)
	Plan(t0, params, ps, hist, cfg)
	if !reflect.DeepEqual(params, pc) || !reflect.DeepEqual(hist, hc) || !reflect.DeepEqual(ps, psc) {
		t.Error("Plan modified its arguments (a dry run must not)")
	}
}

func clone(m map[string]float64) map[string]float64 {
	out := map[string]float64{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

func TestPlan_Bounds(t *testing.T) {
	cfg := DefaultConfig(testRegistry(t))
	ps := []Pressure{tooHigh("m", 0.2, Lever{"a", -1}, Lever{"b", +1})}
	// a is 0.01 below its max: the step is cut at the bound.
	res := Plan(t0, map[string]float64{"a": 0.49}, ps, nil, cfg)
	if c := res.Changes[0]; c.Param != "a" || !near(c.After, 0.50) {
		t.Errorf("change %+v, want a 0.49→0.50 (bound)", c)
	}
	// a at its max: the next lever moves instead.
	res = Plan(t0, map[string]float64{"a": 0.50}, ps, nil, cfg)
	if c := res.Changes[0]; c.Param != "b" || !near(c.After, 0.48) {
		t.Errorf("change %+v, want b 0.50→0.48", c)
	}
	// Out-of-bounds stored value: not moved, reported.
	res = Plan(t0, map[string]float64{"a": 0.9, "b": 0.3}, ps, nil, cfg)
	if len(res.Changes) != 0 || !strings.Contains(strings.Join(res.Notes, "\n"), "outside its bounds") {
		t.Errorf("changes %+v notes %v", res.Changes, res.Notes)
	}
}

func TestPlan_IntervalAndCooldown(t *testing.T) {
	cfg := DefaultConfig(testRegistry(t))
	ps := []Pressure{tooHigh("m", 0.2, Lever{"a", -1}, Lever{"b", +1})}
	first := Change{Kind: KindChange, Param: "a", Before: 0.30, After: 0.32, Metric: "m", MetricValue: 0.2, Want: -1, At: t0}
	params := map[string]float64{"a": 0.32}
	// 12 h later: not due.
	res := Plan(t0.Add(12*time.Hour), params, ps, []Change{first}, cfg)
	if res.Moved() || !strings.Contains(strings.Join(res.Notes, "\n"), "not due") {
		t.Errorf("12 h after a move: %+v", res)
	}
	// 24 h later: due, but a is in cooldown: b moves.
	res = Plan(t0.Add(24*time.Hour), params, ps, []Change{first}, cfg)
	if len(res.Changes) != 1 || res.Changes[0].Param != "b" {
		t.Errorf("24 h after moving a: %+v, want b to move", res.Changes)
	}
	if !strings.Contains(strings.Join(res.Notes, "\n"), "a in cooldown") {
		t.Errorf("notes %v do not mention a's cooldown", res.Notes)
	}
}

func TestPlan_KeepOrRevert(t *testing.T) {
	cfg := DefaultConfig(testRegistry(t))
	change := Change{Kind: KindChange, Param: "a", Before: 0.30, After: 0.32, Metric: "m", MetricValue: 0.20, Severity: 1.5, Want: -1, At: t0}
	params := map[string]float64{"a": 0.32}
	at := t0.Add(48 * time.Hour)

	t.Run("improved is kept", func(t *testing.T) {
		res := Plan(at, params, []Pressure{tooHigh("m", 0.12, Lever{"a", -1})}, []Change{change}, cfg)
		if len(res.Changes) < 1 || res.Changes[0].Kind != KindKeep || !res.Changes[0].Ref.Equal(t0) {
			t.Fatalf("changes %+v, want a keep of the change", res.Changes)
		}
		// The pressure persists and a is out of cooldown: a moves again.
		if len(res.Changes) != 2 || res.Changes[1].Param != "a" || !near(res.Changes[1].After, 0.34) {
			t.Errorf("after the keep: %+v, want a 0.32→0.34", res.Changes)
		}
	})
	t.Run("not improved is reverted", func(t *testing.T) {
		res := Plan(at, params, []Pressure{tooHigh("m", 0.21, Lever{"a", -1}, Lever{"b", +1})}, []Change{change}, cfg)
		if len(res.Changes) != 1 {
			t.Fatalf("changes %+v, want only the revert (one move a run)", res.Changes)
		}
		r := res.Changes[0]
		if r.Kind != KindRevert || r.Param != "a" || !near(r.Before, 0.32) || !near(r.After, 0.30) || !r.Ref.Equal(t0) {
			t.Errorf("revert %+v, want a 0.32→0.30 referencing the change", r)
		}
		// Next day: a's move up is blocked; a is in cooldown anyway; b moves.
		hist := []Change{change, r}
		res = Plan(at.Add(24*time.Hour), Apply(params, res.Changes), []Pressure{tooHigh("m", 0.21, Lever{"a", -1}, Lever{"b", +1})}, hist, cfg)
		if len(res.Changes) != 1 || res.Changes[0].Param != "b" {
			t.Errorf("day after the revert: %+v", res.Changes)
		}
		// A revert for no improvement does not block: after the cooldown a
		// may be tried again (under noise a good step can look useless).
		if r.Degraded {
			t.Fatalf("0.20 → 0.21 over n=100 marked degraded: %+v", r)
		}
		res = Plan(at.Add(72*time.Hour), map[string]float64{"a": 0.30}, []Pressure{tooHigh("m", 0.21, Lever{"a", -1})}, hist, cfg)
		if !res.Moved() {
			t.Errorf("a blocked after a revert for no improvement: %+v", res)
		}
	})
	t.Run("degraded is reverted and blocked", func(t *testing.T) {
		res := Plan(at, params, []Pressure{tooHigh("m", 0.35, Lever{"a", -1})}, []Change{change}, cfg)
		r := res.Changes[0]
		if r.Kind != KindRevert || !r.Degraded || !strings.Contains(r.Reason, "got worse") {
			t.Fatalf("revert %+v, want a degrading revert", r)
		}
		hist := []Change{change, r}
		later := map[string]float64{"a": 0.30}
		ps := []Pressure{tooHigh("m", 0.21, Lever{"a", -1})}
		res = Plan(at.Add(72*time.Hour), later, ps, hist, cfg)
		if res.Moved() || !strings.Contains(strings.Join(res.Notes, "\n"), "blocked") {
			t.Errorf("a moved the degrading way within RevertBlock: %+v", res)
		}
		// The other direction is not blocked.
		up := []Pressure{{Metric: "m", Value: 0.01, N: 100, Low: 0.05, High: 0.2, RedLow: 0, Levers: []Lever{{"a", -1}}}}
		if res := Plan(at.Add(72*time.Hour), later, up, hist, cfg); !res.Moved() || res.Changes[0].After >= 0.30 {
			t.Errorf("a blocked in the other direction: %+v", res)
		}
		if res := Plan(at.Add(cfg.RevertBlock+time.Hour), later, ps, hist, cfg); !res.Moved() {
			t.Errorf("a still blocked after RevertBlock: %+v", res)
		}
		// A second degrading revert doubles the block.
		c2 := Change{Kind: KindChange, Param: "a", Before: 0.30, After: 0.32, Metric: "m", MetricValue: 0.2, Want: -1, At: at.Add(8 * 24 * time.Hour)}
		r2 := Change{Kind: KindRevert, Param: "a", Before: 0.32, After: 0.30, Metric: "m", Degraded: true, At: at.Add(10 * 24 * time.Hour), Ref: c2.At}
		hist = append(hist, c2, r2)
		if res := Plan(r2.At.Add(cfg.RevertBlock+time.Hour), later, ps, hist, cfg); res.Moved() {
			t.Errorf("second block not doubled: %+v", res)
		}
		if res := Plan(r2.At.Add(2*cfg.RevertBlock+time.Hour), later, ps, hist, cfg); !res.Moved() {
			t.Errorf("still blocked after the doubled block: %+v", res)
		}
	})
	t.Run("back in band is kept", func(t *testing.T) {
		res := Plan(at, params, []Pressure{tooHigh("m", 0.04)}, []Change{change}, cfg)
		if len(res.Changes) != 1 || res.Changes[0].Kind != KindKeep {
			t.Errorf("changes %+v, want a keep", res.Changes)
		}
	})
	t.Run("too early to evaluate", func(t *testing.T) {
		res := Plan(t0.Add(30*time.Hour), params, []Pressure{tooHigh("m", 0.3)}, []Change{change}, cfg)
		for _, c := range res.Changes {
			if c.Param == "a" {
				t.Errorf("acted on a before its evaluation window: %+v", c)
			}
		}
	})
	t.Run("no data waits", func(t *testing.T) {
		thin := tooHigh("m", 0.3, Lever{"a", -1})
		thin.N = 2
		res := Plan(at, params, []Pressure{thin}, []Change{change}, cfg)
		if len(res.Changes) != 0 || !strings.Contains(strings.Join(res.Notes, "\n"), "waits for m data") {
			t.Errorf("%+v", res)
		}
	})
	t.Run("changed since is not reverted", func(t *testing.T) {
		res := Plan(at, map[string]float64{"a": 0.40}, []Pressure{tooHigh("m", 0.25)}, []Change{change}, cfg)
		if len(res.Changes) != 1 || res.Changes[0].Kind != KindKeep || !strings.Contains(res.Changes[0].Reason, "cannot revert") {
			t.Errorf("%+v", res.Changes)
		}
	})
	t.Run("closed changes are not evaluated again", func(t *testing.T) {
		keep := Change{Kind: KindKeep, Param: "a", Before: 0.32, After: 0.32, Metric: "m", At: at, Ref: t0}
		res := Plan(at.Add(24*time.Hour), params, []Pressure{tooHigh("m", 0.5)}, []Change{change, keep}, cfg)
		for _, c := range res.Changes {
			if c.Kind != KindChange {
				t.Errorf("evaluated a closed change again: %+v", c)
			}
		}
	})
}

func TestPlan_Quiet(t *testing.T) {
	cfg := DefaultConfig(testRegistry(t))
	res := Plan(t0, nil, []Pressure{tooHigh("m", 0.01, Lever{"a", -1})}, nil, cfg)
	if len(res.Changes) != 0 || len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "inside its band") {
		t.Errorf("%+v", res)
	}
	res = Plan(t0, nil, []Pressure{tooHigh("m", 0.5, Lever{"nope", -1})}, nil, cfg)
	if len(res.Changes) != 0 || !strings.Contains(strings.Join(res.Notes, "\n"), "not a registered parameter") {
		t.Errorf("%+v", res)
	}
	if res := Plan(t0, nil, nil, nil, Config{}); len(res.Notes) != 1 || res.Moved() {
		t.Errorf("no registry: %+v", res)
	}
}

func TestApply(t *testing.T) {
	params := map[string]float64{"a": 0.3}
	got := Apply(params, []Change{
		{Kind: KindChange, Param: "a", Before: 0.3, After: 0.32},
		{Kind: KindKeep, Param: "b", Before: 9, After: 9},
		{Kind: KindRevert, Param: "c", Before: 0.5, After: 0.48},
	})
	if got["a"] != 0.32 || got["c"] != 0.48 || len(got) != 2 || params["a"] != 0.3 {
		t.Errorf("Apply = %v (params %v)", got, params)
	}
}

func TestNextDue(t *testing.T) {
	cfg := DefaultConfig(testRegistry(t))
	if got := NextDue(nil, cfg); !got.IsZero() {
		t.Errorf("NextDue(nil) = %v, want zero", got)
	}
	hist := []Change{
		{Kind: KindChange, Param: "a", At: t0},
		{Kind: KindRevert, Param: "b", At: t0.Add(30 * time.Hour)},
		{Kind: KindKeep, Param: "a", At: t0.Add(50 * time.Hour)},
	}
	if got, want := NextDue(hist, cfg), t0.Add(54*time.Hour); !got.Equal(want) {
		t.Errorf("NextDue = %v, want %v (last move + interval; keeps do not count)", got, want)
	}
}
