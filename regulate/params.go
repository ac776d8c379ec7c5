package regulate

import "github.com/innate-mcp/innate-mcp/route"

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
// PROVISIONAL: the hesitation and appraise packages own these knobs; their
// final names and defaults replace these when they land (change them here
// and in OtherParams, nowhere else).
const (
	ParamHesitationHold    = "hesitation.threshold.hold"  // score at or above which a reply is held (0–100)
	ParamHesitationHedge   = "hesitation.threshold.hedge" // score at or above which a reply is hedged (0–100)
	ParamAppraiseResonance = "appraise.floor.resonance"   // weak_resonance gate: raw resonance floor
	ParamAppraiseSignature = "appraise.floor.signature"   // false_resonance gate: signature agreement floor
	ParamAppraiseEvidence  = "appraise.floor.evidence"    // sparse_evidence gate: evidence floor
)

// OtherParams returns the hesitation and appraise parameters the
// regulator tunes (PROVISIONAL names and defaults, see ParamHesitationHold).
// It is safe for concurrent use.
func OtherParams() []Param {
	return []Param{
		{Name: ParamHesitationHold, Default: 50, Min: 35, Max: 85, Scale: 100, Doc: "hesitation score at which a reply is held (seed 000: 0–100 scale)"},
		{Name: ParamHesitationHedge, Default: 30, Min: 15, Max: 55, Scale: 100, Doc: "hesitation score at which a reply is hedged (seed 000: fixed threshold 30)"},
		{Name: ParamAppraiseResonance, Default: 0.35, Min: 0.15, Max: 0.6, Scale: 1, Doc: "raw resonance a lesson needs to count (weak_resonance gate)"},
		{Name: ParamAppraiseSignature, Default: 0.2, Min: 0.05, Max: 0.5, Scale: 1, Doc: "signature agreement under which dense resonance is false (false_resonance gate)"},
		{Name: ParamAppraiseEvidence, Default: 0.3, Min: 0.05, Max: 0.8, Scale: 1, Doc: "evidence the resonating lessons need (sparse_evidence gate)"},
	}
}

// DefaultRegistry returns the registry of every tuned parameter: the router's
// and the provisional hesitation and appraise ones. It returns an error only
// if the built-in definitions are inconsistent (a test guards against that).
func DefaultRegistry() (*Registry, error) {
	return NewRegistry(append(RouterParams(), OtherParams()...)...)
}
