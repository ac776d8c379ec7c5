package confidence

import "math"

// Scores is a snapshot of a lesson's three dimensions, composite and tier.
// It is what a history row stores. Plain value, safe for concurrent use.
type Scores struct {
	Frequency     float64 `json:"frequency"`
	Effectiveness float64 `json:"effectiveness"`
	Human         float64 `json:"human"`
	Composite     float64 `json:"composite"`
	Tier          Tier    `json:"tier"`
}

// Frequency returns the frequency dimension of s: the seed's step table over
// observations (plus credited successes when
// [Config.SuccessIsObservation]), minus [Config.ContradictionPenalty] per
// contradiction, minus unrepaid decay, in [0, 1]. Safe for concurrent use.
func Frequency(s State, cfg Config) float64 {
	return decayed(rawFrequency(s, cfg), s.Debt.Frequency, cfg.Floors.Frequency)
}

// Effectiveness returns the effectiveness dimension of s, in [0, 1].
//
// Positive applications are Successes plus [Config.ApprovalOutcomeWeight]
// per in-session approval; negative ones are Failures plus the same weight
// per correction. With no evidence it is the neutral 0.5. Otherwise it is
// the larger of the seed's Wilson lower bound over those counts and a
// neutral hold 0.5·k/(k+negatives) with k = [Config.NeutralHold]. The seed's
// bare bound would drop a lesson from 0.5 to 0.21 on its first success; the
// hold keeps a success from ever lowering effectiveness while every failure
// still lowers it, and once evidence accumulates the bound dominates (from
// four successes without failure). Unrepaid decay is then subtracted. Safe
// for concurrent use.
func Effectiveness(s State, cfg Config) float64 {
	return decayed(rawEffectiveness(s, cfg), s.Debt.Effectiveness, cfg.Floors.Effectiveness)
}

// Human returns the human dimension of s, in [0, 1]: the seed's Bayesian
// update from [Config.HumanPrior] by [Config.HumanRate] per in-session
// approval (a user-stated lesson adds [Config.UserStatedApprovals]), then
// per correction; after an explicit user approval at least
// [Config.StrongApprovalHuman], after an explicit rejection
// [Config.StrongRejectionDrop] lower; minus unrepaid decay. Safe for
// concurrent use.
func Human(s State, cfg Config) float64 {
	return decayed(rawHuman(s, cfg), s.Debt.Human, cfg.Floors.Human)
}

// Composite returns the weighted composite of the three dimensions of s
// with the seed's low-dimension penalty, in [0, 1]. It is the confidence
// recall and appraise use. Safe for concurrent use.
func Composite(s State, cfg Config) float64 {
	return composite(Frequency(s, cfg), Effectiveness(s, cfg), Human(s, cfg), cfg)
}

// Wilson returns the lower bound of the Wilson score interval for pos
// positive outcomes out of n at the given z, in [0, 1]; 0 when n ≤ 0. Counts
// may be fractional. Safe for concurrent use.
func Wilson(pos, n, z float64) float64 {
	if n <= 0 {
		return 0
	}
	p := pos / n
	z2 := z * z
	den := 1 + z2/n
	center := (p + z2/(2*n)) / den
	margin := z * math.Sqrt((p*(1-p)+z2/(4*n))/n) / den
	return clamp01(center - margin)
}

func composite(f, e, h float64, cfg Config) float64 {
	c := f*cfg.Weights.Frequency + e*cfg.Weights.Effectiveness + h*cfg.Weights.Human
	if math.Min(f, math.Min(e, h)) < cfg.LowDimension {
		c *= cfg.LowDimensionFactor
	}
	return clamp01(c)
}

func scoresOf(s State, cfg Config) Scores {
	f, e, h := Frequency(s, cfg), Effectiveness(s, cfg), Human(s, cfg)
	c := composite(f, e, h, cfg)
	return Scores{Frequency: f, Effectiveness: e, Human: h, Composite: c, Tier: TierOf(c, cfg)}
}

func rawFrequency(s State, cfg Config) float64 {
	base := 0.0
	obs := s.Observations
	if cfg.SuccessIsObservation {
		obs += s.Successes
	}
	if obs > 0 {
		for _, st := range cfg.FrequencySteps {
			base = st.Score
			if st.MaxObservations == 0 || obs <= st.MaxObservations {
				break
			}
		}
	}
	return clamp01(base - float64(s.Contradictions)*cfg.ContradictionPenalty)
}

func rawEffectiveness(s State, cfg Config) float64 {
	pos := float64(s.Successes) + cfg.ApprovalOutcomeWeight*float64(s.Approvals)
	neg := float64(s.Failures) + cfg.ApprovalOutcomeWeight*float64(s.Rejections)
	if pos+neg <= 0 {
		return cfg.EffectivenessNeutral
	}
	hold := cfg.EffectivenessNeutral
	if neg > 0 {
		hold *= cfg.NeutralHold / (cfg.NeutralHold + neg)
	}
	return clamp01(math.Max(Wilson(pos, pos+neg, cfg.WilsonZ), hold))
}

func rawHuman(s State, cfg Config) float64 {
	keep := 1 - cfg.HumanRate
	approvals := s.Approvals
	if s.Origin == OriginUserStated {
		approvals += cfg.UserStatedApprovals
	}
	h := 1 - (1-cfg.HumanPrior)*math.Pow(keep, float64(approvals))
	h *= math.Pow(keep, float64(s.Rejections))
	switch s.Verdict {
	case VerdictApproved:
		h = math.Max(h, cfg.StrongApprovalHuman)
	case VerdictRejected:
		h -= cfg.StrongRejectionDrop
	}
	return clamp01(h)
}

// decayed subtracts debt from raw without crossing the floor; a raw score
// already below the floor stays where it is.
func decayed(raw, debt, floor float64) float64 {
	d := raw - debt
	if d < floor {
		d = math.Min(raw, floor)
	}
	return clamp01(d)
}

func clamp01(x float64) float64 {
	switch {
	case math.IsNaN(x) || x < 0:
		return 0
	case x > 1:
		return 1
	}
	return x
}
