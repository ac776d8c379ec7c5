package regulate

import (
	"github.com/innate-mcp/innate-mcp/appraise"
	"github.com/innate-mcp/innate-mcp/route"
)

// RouterParams returns every router weight (route.WeightSpecs) as a
// regulated parameter. It is safe for concurrent use.
func RouterParams() []Param {
	specs := route.WeightSpecs()
	out := make([]Param, 0, len(specs))
	for _, s := range specs {
		out = append(out, Param{Name: s.Name, Default: s.Default, Min: s.Min, Max: s.Max, Scale: s.Scale, Doc: s.Doc})
	}
	return out
}

// Names of the hesitation and appraise parameters the pressures below steer.
// The appraise ones are appraise.ParamSpecs' names; the hesitation ones map
// to hesitation.Config's HedgeThreshold and HoldThreshold.
const (
	ParamHesitationHold    = "hesitation.threshold.hold"  // score at or above which a reply is held (0–100)
	ParamHesitationHedge   = "hesitation.threshold.hedge" // score at or above which a reply is hedged (0–100)
	ParamAppraiseResonance = "appraise.floor.resonance"   // weak_resonance gate: raw resonance floor
	ParamAppraiseSignature = "appraise.floor.signature"   // false_resonance gate: signature agreement floor
	ParamAppraiseEvidence  = "appraise.floor.evidence"    // sparse_evidence gate: evidence floor
)

// OtherParams returns the hesitation thresholds and every appraise
// parameter (appraise.ParamSpecs) as regulated parameters. It is safe for
// concurrent use.
func OtherParams() []Param {
	out := []Param{
		{Name: ParamHesitationHold, Default: 50, Min: 35, Max: 85, Scale: 100, Doc: "hesitation score from which a reply is held (hesitation.Config.HoldThreshold)"},
		{Name: ParamHesitationHedge, Default: 30, Min: 15, Max: 55, Scale: 100, Doc: "hesitation score from which a reply is hedged and world-changing actions hold (hesitation.Config.HedgeThreshold)"},
	}
	for _, s := range appraise.ParamSpecs() {
		out = append(out, Param{Name: s.Name, Default: s.Default, Min: s.Min, Max: s.Max, Scale: s.Scale, Doc: s.Doc})
	}
	return out
}

// DefaultRegistry returns the registry of every tuned parameter: the
// router's, the hesitation thresholds and the appraise ones. It returns an error only
// if the built-in definitions are inconsistent (a test guards against that).
func DefaultRegistry() (*Registry, error) {
	return NewRegistry(append(RouterParams(), OtherParams()...)...)
}
