package regulate

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/innate-mcp/innate-mcp/route"
)

// exchange is one simulated user turn: a message, the KB's warmth, and the
// mode the user needed (what the default router chooses: in this world the
// defaults are right).
type exchange struct {
	in   route.Input
	need route.Mode
}

// traffic builds one day's traffic: requests and questions over a spread of
// warmth, the same every day so the metric moves only with the weights.
func traffic(n int, seed uint64) []exchange {
	msgs := []string{
		"fix it", "add retries", "make it faster", "clean this up", "why does it fail?",
		"how do I configure the retry policy?", "update the docs", "is this thread-safe?",
		"修一下", "怎么配置重试？", "直して", "これはスレッドセーフですか",
	}
	rng := rand.New(rand.NewPCG(seed, 11))
	out := make([]exchange, n)
	for i := range out {
		w := route.Warmth{
			ResonatingLessons: rng.IntN(3), TopResonance: rng.Float64() * 0.7,
			MeanConfidence: rng.Float64(), SessionTraces: rng.IntN(4),
		}
		in := route.Input{Message: msgs[rng.IntN(len(msgs))], Warmth: w}
		out[i] = exchange{in: in, need: route.Route(in, route.DefaultWeights()).Mode}
	}
	return out
}

// misroute is what the simulated user reports when the router chose got
// but they needed need.
func misroute(got, need route.Mode) (route.Misroute, bool) {
	switch {
	case got == need:
		return "", false
	case need == route.Clarify && got == route.Respond:
		return route.MissedClarify, true
	case need == route.Gather && (got == route.Respond || got == route.Clarify):
		return route.MissedGather, true
	case need == route.Acknowledge && got == route.Respond:
		return route.OverEngagement, true
	case need == route.Respond && got == route.Acknowledge:
		return route.UnderEngagement, true
	}
	return "", false
}

func TestPlan_RouterMonth(t *testing.T) {
	reg, err := DefaultRegistry()
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig(reg)
	day := traffic(600, 3)
	params := reg.Defaults()
	params["route.clarify.base"] = 0.10 // mis-set: the router answers where users needed a question

	rate := func(p map[string]float64) (RoutingMetrics, float64) {
		w, err := route.DefaultWeights().WithParams(p)
		if err != nil {
			t.Fatalf("weights from params: %v", err)
		}
		m := RoutingMetrics{Decisions: len(day), ByMode: map[route.Mode]int{}, Misroutes: map[route.Misroute]int{}}
		bad := 0
		for _, x := range day {
			d := route.Route(x.in, w)
			m.ByMode[d.Mode]++
			if d.Ambiguous {
				m.Ambiguous++
			}
			if k, ok := misroute(d.Mode, x.need); ok {
				m.Misroutes[k]++
				bad++
			}
		}
		return m, float64(bad) / float64(len(day))
	}
	_, before := rate(params)
	if before < 0.05 {
		t.Fatalf("setup: misroute rate %v with the mis-set weight; the test needs a visible problem", before)
	}

	// Only the misroute pressures: this synthetic traffic has no greetings
	// and no realistic mode mix, so share pressures would chase the sample.
	w := func(_ int, p map[string]float64, _ *rand.Rand) []Pressure {
		m, _ := rate(p)
		var out []Pressure
		for _, ps := range RoutingPressures(m) {
			if strings.HasPrefix(ps.Metric, MetricMisroutePrefix) {
				out = append(out, ps)
			}
		}
		return out
	}
	final, hist, log := simulate(t, 30, params, cfg, w, 1)
	t.Log("change log:\n" + strings.Join(log, "\n"))
	checkInvariants(t, hist, cfg)
	_, after := rate(final)
	t.Logf("misroute rate %.3f → %.3f; route.clarify.base %.2f → %.2f", before, after, params["route.clarify.base"], final["route.clarify.base"])
	if after > before/2 {
		t.Errorf("misroute rate %.3f → %.3f, want at least halved", before, after)
	}
	if final["route.clarify.base"] <= params["route.clarify.base"] {
		t.Errorf("route.clarify.base did not move toward the better value: %v", final["route.clarify.base"])
	}
}
