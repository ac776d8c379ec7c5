package regulate

import (
	"math"
	"testing"

	"github.com/innate-mcp/innate-mcp/route"
)

func TestPressure_Severity(t *testing.T) {
	band := Pressure{Low: 0.5, High: 0.75, RedLow: 0.4, RedHigh: 0.85}
	cases := []struct {
		value, sev float64
		want       int
	}{
		{0.6, 0, 0}, {0.75, 0, 0}, {0.80, 0.5, -1}, {0.85, 1, -1}, {0.95, 2, -1}, {0.45, 0.5, 1}, {0.4, 1, 1},
	}
	for _, c := range cases {
		p := band
		p.Value = c.value
		if got := p.Severity(); math.Abs(got-c.sev) > 1e-9 {
			t.Errorf("value %v: severity %v, want %v", c.value, got, c.sev)
		}
		if got := p.Want(); got != c.want {
			t.Errorf("value %v: want %d, got %d", c.value, c.want, got)
		}
	}
	// No red flag on a side: DefaultRedSpan scales it.
	p := Pressure{Value: 0.07, Low: 0, High: 0.02, RedLow: 0, RedHigh: 0.02}
	if got, want := p.Severity(), 0.05/DefaultRedSpan; math.Abs(got-want) > 1e-9 {
		t.Errorf("severity without red flag = %v, want %v", got, want)
	}
}

func TestRank(t *testing.T) {
	ps := []Pressure{
		{Metric: "share", Value: 0.95, N: 100, High: 0.75, RedHigh: 0.85, Weight: 0.5}, // severity 2, score 1
		{Metric: "misroute", Value: 0.15, N: 100, High: 0.05, RedHigh: 0.15},           // severity 1, score 1
		{Metric: "worst", Value: 0.25, N: 100, High: 0.05, RedHigh: 0.15},              // severity 2, score 2
		{Metric: "thin", Value: 0.9, N: 3, High: 0.05, RedHigh: 0.15},                  // too few samples
		{Metric: "fine", Value: 0.01, N: 100, High: 0.05, RedHigh: 0.15},
	}
	r := Rank(ps, 30)
	order := []string{"worst", "misroute", "share", "fine", "thin"}
	for i, m := range order {
		if r[i].Metric != m {
			t.Fatalf("rank %d = %s, want %s (all: %+v)", i, r[i].Metric, m, r)
		}
	}
	if r[4].Enough || !r[0].Enough {
		t.Errorf("Enough flags wrong: %+v", r)
	}
}

func TestRoutingPressures(t *testing.T) {
	m := RoutingMetrics{
		Decisions: 200,
		ByMode:    map[route.Mode]int{route.Respond: 180, route.Clarify: 10, route.Gather: 2, route.Acknowledge: 8},
		Misroutes: map[route.Misroute]int{route.MissedClarify: 30},
		Ambiguous: 20,
	}
	byMetric := map[string]Pressure{}
	for _, p := range RoutingPressures(m) {
		byMetric[p.Metric] = p
		if p.N != 200 {
			t.Errorf("%s: N = %d, want 200", p.Metric, p.N)
		}
	}
	mc := byMetric["route.misroute.missed_clarify"]
	if mc.Value != 0.15 || mc.Severity() != 1 || mc.Want() != -1 || mc.Levers[0].Param != "route.clarify.base" {
		t.Errorf("missed_clarify pressure: %+v (severity %v)", mc, mc.Severity())
	}
	if p := byMetric["route.share.respond"]; p.Value != 0.9 || p.Want() != -1 || p.Severity() <= 1 {
		t.Errorf("respond share pressure: %+v", p)
	}
	if p := byMetric["route.share.gather"]; p.Value != 0.01 || p.Want() != 1 {
		t.Errorf("gather share pressure: %+v", p)
	}
	if p := byMetric["route.share.acknowledge"]; len(p.Levers) != 0 {
		t.Errorf("acknowledge share has levers %v; users decide that share", p.Levers)
	}
	if p := byMetric["route.ambiguity"]; p.Value != 0.1 || p.Severity() != 0 {
		t.Errorf("ambiguity pressure: %+v", p)
	}
	// No decisions: every pressure has N 0 and a finite value.
	for _, p := range RoutingPressures(RoutingMetrics{}) {
		if p.N != 0 || math.IsNaN(p.Value) {
			t.Errorf("empty metrics: %+v", p)
		}
	}
}

func TestHesitationAndAppraisePressures(t *testing.T) {
	h := HesitationPressures(HesitationMetrics{Confirmed: 20, Rejected: 30})[0]
	if h.Value != 0.6 || h.Severity() != 1 || h.Want() != -1 || h.Levers[0].Param != ParamHesitationHold || h.Levers[0].Effect != -1 {
		t.Errorf("false-hold pressure: %+v", h)
	}
	a := AppraisePressures(AppraiseMetrics{Abstentions: 40, Justified: 12})[0]
	if a.Value != 0.3 || a.Severity() != 1 || a.Want() != 1 || a.Levers[0].Param != ParamAppraiseResonance {
		t.Errorf("abstention-precision pressure: %+v", a)
	}
}
