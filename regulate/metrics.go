package regulate

import (
	"github.com/innate-mcp/innate-mcp/route"
)

// RoutingMetrics are the router's counts over one metric window (the caller
// queries its routing log; a window of 24 h, no longer than
// Config.EvalWindow, keeps a change's evaluation free of data from before it).
// A plain value, safe to read concurrently.
type RoutingMetrics struct {
	// Decisions counts routing decisions in the window.
	Decisions int `json:"decisions"`
	// ByMode counts decisions per chosen mode.
	ByMode map[route.Mode]int `json:"by_mode"`
	// Misroutes counts misroute feedback on those decisions, per kind.
	Misroutes map[route.Misroute]int `json:"misroutes"`
	// Ambiguous counts decisions reported ambiguous.
	Ambiguous int `json:"ambiguous"`
}

// Metric names of the pressures (constants).
const (
	MetricMisroutePrefix = "route.misroute." // + misroute kind: its rate per decision
	MetricSharePrefix    = "route.share."    // + mode: its share of decisions
	MetricAmbiguity      = "route.ambiguity" // share of decisions reported ambiguous
	MetricFalseHold      = "hesitation.false_hold_rate"
	MetricAbstainPrec    = "appraise.abstention_precision"
)

// Weights of the pressure kinds when ranking: a user's feedback that a route
// was wrong is direct evidence; a mode share outside the seed's range, or a
// high ambiguity rate, is circumstantial (it depends on what users write).
const (
	weightMisroute    = 1.0
	weightShare       = 0.5
	weightAmbiguity   = 0.5
	weightHesitation  = 1.0
	weightAbstainPrec = 1.0
)

// misrouteBands are the healthy band and red flag of each misroute rate.
var misrouteBands = map[route.Misroute][2]float64{
	route.MissedClarify:   {0.05, 0.15},
	route.MissedGather:    {0.05, 0.15},
	route.OverEngagement:  {0.03, 0.10},
	route.UnderEngagement: {0.03, 0.10},
}

// misrouteLevers move each misroute rate; Effect is the sign of the rate's
// response to raising the parameter. The most direct lever comes first.
var misrouteLevers = map[route.Misroute][]Lever{
	route.MissedClarify: {
		{"route.clarify.base", -1}, {"route.clarify.cold", -1}, {"route.respond.base", +1},
	},
	route.MissedGather: {
		{"route.gather.implicit_reference", -1}, {"route.gather.base", -1}, {"route.respond.base", +1},
	},
	route.OverEngagement: {
		{"route.social.penalty", -1}, {"route.acknowledge.greeting", -1},
	},
	route.UnderEngagement: {
		{"route.acknowledge.substance", -1}, {"route.acknowledge.greeting", +1},
	},
}

// shareLevers move the share of a mode that the router controls; the shares
// of acknowledge and ignore follow what users write, so they are reported
// without a lever.
var shareLevers = map[route.Mode][]Lever{
	route.Respond: {{"route.respond.base", +1}},
	route.Clarify: {{"route.clarify.base", +1}},
	route.Gather:  {{"route.gather.base", +1}},
}

// RoutingPressures turns the router's counts into pressures: one per misroute
// kind (rate per decision), one per mode share against the seed's healthy
// range, and the ambiguity rate. N is the decision count for all of them.
// Safe for concurrent use.
func RoutingPressures(m RoutingMetrics) []Pressure {
	var out []Pressure
	for _, k := range route.Misroutes() {
		b := misrouteBands[k]
		out = append(out, Pressure{
			Metric: MetricMisroutePrefix + string(k), Value: rate(m.Misroutes[k], m.Decisions), N: m.Decisions,
			Low: 0, High: b[0], RedLow: 0, RedHigh: b[1], Weight: weightMisroute, Levers: misrouteLevers[k],
		})
	}
	ranges := route.HealthyRanges()
	for _, mode := range route.Modes() {
		r := ranges[mode]
		out = append(out, Pressure{
			Metric: MetricSharePrefix + string(mode), Value: rate(m.ByMode[mode], m.Decisions), N: m.Decisions,
			Low: r.Low, High: r.High, RedLow: r.RedLow, RedHigh: r.RedHigh, Weight: weightShare, Levers: shareLevers[mode],
		})
	}
	out = append(out, Pressure{
		Metric: MetricAmbiguity, Value: rate(m.Ambiguous, m.Decisions), N: m.Decisions,
		Low: 0, High: 0.30, RedLow: 0, RedHigh: 0.50, Weight: weightAmbiguity,
		Levers: []Lever{{"route.margin.base", +1}},
	})
	return out
}

// HesitationMetrics are the reviews of held items over one metric window. A
// plain value.
type HesitationMetrics struct {
	// Confirmed counts held items the reviewer confirmed (the hold was right).
	Confirmed int `json:"confirmed"`
	// Rejected counts held items the reviewer rejected (a false alarm).
	Rejected int `json:"rejected"`
}

// HesitationPressures returns the false-hold rate (rejected / reviewed;
// healthy up to 0.3, red at 0.6): too many rejected holds raise the hold
// threshold. Safe for concurrent use.
func HesitationPressures(m HesitationMetrics) []Pressure {
	n := m.Confirmed + m.Rejected
	return []Pressure{{
		Metric: MetricFalseHold, Value: rate(m.Rejected, n), N: n,
		Low: 0, High: 0.30, RedLow: 0, RedHigh: 0.60, Weight: weightHesitation,
		Levers: []Lever{{ParamHesitationHold, -1}, {ParamHesitationHedge, -1}},
	}}
}

// AppraiseMetrics are appraise's abstentions with a known outcome over one
// metric window. A plain value.
type AppraiseMetrics struct {
	// Abstentions counts abstentions whose outcome is known.
	Abstentions int `json:"abstentions"`
	// Justified counts those whose directional call would have been wrong
	// (abstaining was right).
	Justified int `json:"justified"`
}

// AppraisePressures returns abstention precision (justified / abstentions;
// healthy from 0.5, red below 0.3): abstaining where the call would have been
// right lowers the gate floors. Safe for concurrent use.
func AppraisePressures(m AppraiseMetrics) []Pressure {
	return []Pressure{{
		Metric: MetricAbstainPrec, Value: rate(m.Justified, m.Abstentions), N: m.Abstentions,
		Low: 0.5, High: 1, RedLow: 0.3, RedHigh: 1, Weight: weightAbstainPrec,
		Levers: []Lever{{ParamAppraiseResonance, -1}, {ParamAppraiseEvidence, -1}, {ParamAppraiseSignature, -1}},
	}}
}
