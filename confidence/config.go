package confidence

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// ErrInvalidConfig is returned (wrapped) by [Config.Validate] when a field is
// out of range. Callers compare with errors.Is.
var ErrInvalidConfig = errors.New("invalid confidence config")

// Dims holds one number per confidence dimension. It is used for weights,
// weekly decay rates, floors, decay debt and recovery amounts. It is a plain
// value, safe to copy and to use concurrently.
type Dims struct {
	Frequency     float64 `json:"frequency"`
	Effectiveness float64 `json:"effectiveness"`
	Human         float64 `json:"human"`
}

// FrequencyStep is one row of the seed's frequency table: up to
// MaxObservations observations score Score. MaxObservations 0 marks the last,
// unbounded row. It is a plain value, safe for concurrent use.
type FrequencyStep struct {
	MaxObservations int     `json:"max_observations"`
	Score           float64 `json:"score"`
}

// Config holds every tunable of the lifecycle. The zero value is not usable:
// start from [DefaultConfig] and change fields. A Config must not be mutated
// while other goroutines use it; read concurrently it is safe.
type Config struct {
	// Weights of the composite; they must sum to 1 (seed: 0.35/0.40/0.25).
	Weights Dims `json:"weights"`
	// LowDimension: when any dimension is below it the composite is
	// multiplied by LowDimensionFactor (seed: < 0.2 → × 0.7).
	LowDimension       float64 `json:"low_dimension"`
	LowDimensionFactor float64 `json:"low_dimension_factor"`

	// Tier cut-offs (seed: core ≥ 0.8, strong ≥ 0.6, moderate ≥ 0.4,
	// tentative ≥ 0.2, deprecated below).
	CoreAt      float64 `json:"core_at"`
	StrongAt    float64 `json:"strong_at"`
	ModerateAt  float64 `json:"moderate_at"`
	TentativeAt float64 `json:"tentative_at"`

	// FrequencySteps is the seed's observation table, ascending.
	FrequencySteps []FrequencyStep `json:"frequency_steps"`
	// SuccessIsObservation counts each credited successful use as an
	// observation of the pattern. The seed keeps the two apart because its
	// observations come from a separate analysis engine; here they come
	// only from the agent re-recording a lesson, so without this a lesson
	// used successfully a hundred times stays at frequency 0.30 and can
	// never reach core (0.35·0.3 + 0.4·1 + 0.25·0.95 = 0.74). Failures are
	// not observations, so they never raise frequency.
	SuccessIsObservation bool `json:"success_is_observation"`
	// ContradictionPenalty is subtracted from frequency per contradiction.
	ContradictionPenalty float64 `json:"contradiction_penalty"`
	// CausalLinkObservations is how many observations a confirmed causal
	// link counts as (seed: +0.10 frequency, two observations' worth).
	CausalLinkObservations int `json:"causal_link_observations"`

	// WilsonZ is the z of the Wilson lower bound (seed: 1.96).
	WilsonZ float64 `json:"wilson_z"`
	// EffectivenessNeutral is the effectiveness without evidence (seed 0.5).
	EffectivenessNeutral float64 `json:"effectiveness_neutral"`
	// NeutralHold is k in the neutral hold Neutral·k/(k+failures) below
	// which effectiveness never falls; see [Effectiveness].
	NeutralHold float64 `json:"neutral_hold"`
	// ApprovalOutcomeWeight: an in-session user approval counts as this many
	// positive applications for effectiveness, a user correction as this many
	// negative ones (seed: user_accepted +0.05 effectiveness, user_corrected
	// −0.10).
	ApprovalOutcomeWeight float64 `json:"approval_outcome_weight"`

	// HumanPrior and HumanRate define the seed's Bayesian update.
	HumanPrior float64 `json:"human_prior"`
	HumanRate  float64 `json:"human_rate"`
	// UserStatedApprovals: a user-stated lesson counts as this many
	// approvals in the human dimension (not in effectiveness). Stating a
	// lesson is not the explicit review that sets human to 0.95; send a
	// [KindStrongApproved] event for that.
	UserStatedApprovals int `json:"user_stated_approvals"`
	// StrongApprovalHuman is the human score after an explicit user
	// approval (seed: /reflect approved → 0.95).
	StrongApprovalHuman float64 `json:"strong_approval_human"`
	// StrongRejectionDrop is subtracted from the Bayesian human score after
	// an explicit user rejection (seed: reflect_rejected −0.30).
	StrongRejectionDrop float64 `json:"strong_rejection_drop"`

	// DecayPeriod is the length of one decay step (seed: a week).
	DecayPeriod time.Duration `json:"decay_period"`
	// DecayRates are subtracted per unused period (seed: 0.02/0.01/0.005).
	DecayRates Dims `json:"decay_rates"`
	// Floors: decay never takes a dimension below these (seed: 0).
	Floors Dims `json:"floors"`
	// Recovery is how much decay debt each kind of fresh positive evidence
	// repays, per dimension: the seed's positive deltas, plus 0.05 of
	// frequency for a credited success (a successful use is a sighting of
	// the pattern, worth an observation, so lessons in regular use do not
	// lose frequency; failures repay nothing, so they never raise).
	Recovery map[Kind]Dims `json:"recovery"`

	// ArchiveAfter: a lesson deprecated this long is archived (seed: 30
	// days, where the seed deleted; this package never deletes).
	ArchiveAfter time.Duration `json:"archive_after"`
	// PromoteAfterSessions: a pending agent-inferred lesson becomes active
	// after this many credited successful uses in distinct sessions.
	PromoteAfterSessions int `json:"promote_after_sessions"`
	// RecentSessions caps the per-lesson list of sessions that confirmed it.
	RecentSessions int `json:"recent_sessions"`

	// TrendWindow is how many of the latest composites [TrendOf] looks at;
	// TrendFlat is the fitted change below which the trend is flat.
	TrendWindow int     `json:"trend_window"`
	TrendFlat   float64 `json:"trend_flat"`

	// MatchBucket is the width of the match-score buckets inside which
	// [Compare] treats matches as equal.
	MatchBucket float64 `json:"match_bucket"`
}

// DefaultConfig returns the seed's numbers and the rules. Each call
// returns a fresh value (its Recovery map is not shared). It is safe for
// concurrent use and never fails.
func DefaultConfig() Config {
	return Config{
		Weights:            Dims{Frequency: 0.35, Effectiveness: 0.40, Human: 0.25},
		LowDimension:       0.2,
		LowDimensionFactor: 0.7,
		CoreAt:             0.8,
		StrongAt:           0.6,
		ModerateAt:         0.4,
		TentativeAt:        0.2,
		FrequencySteps: []FrequencyStep{
			{MaxObservations: 2, Score: 0.30},
			{MaxObservations: 5, Score: 0.50},
			{MaxObservations: 10, Score: 0.70},
			{MaxObservations: 20, Score: 0.85},
			{MaxObservations: 0, Score: 0.95},
		},
		SuccessIsObservation:   true,
		ContradictionPenalty:   0.1,
		CausalLinkObservations: 2,
		WilsonZ:                1.96,
		EffectivenessNeutral:   0.5,
		NeutralHold:            2,
		ApprovalOutcomeWeight:  0.5,
		HumanPrior:             0.5,
		HumanRate:              0.15,
		UserStatedApprovals:    1,
		StrongApprovalHuman:    0.95,
		StrongRejectionDrop:    0.30,
		DecayPeriod:            7 * 24 * time.Hour,
		DecayRates:             Dims{Frequency: 0.02, Effectiveness: 0.01, Human: 0.005},
		Floors:                 Dims{},
		Recovery: map[Kind]Dims{
			KindObserved:       {Frequency: 0.05},
			KindCausalLink:     {Frequency: 0.10},
			KindAppliedSuccess: {Frequency: 0.05, Effectiveness: 0.08},
			KindUserApproved:   {Effectiveness: 0.05, Human: 0.10},
			KindStrongApproved: {Human: 0.30},
		},
		ArchiveAfter:         30 * 24 * time.Hour,
		PromoteAfterSessions: 2,
		RecentSessions:       32,
		TrendWindow:          8,
		TrendFlat:            0.02,
		MatchBucket:          0.05,
	}
}

// Validate reports whether c is usable. It returns an error wrapping
// [ErrInvalidConfig] that names the first bad field. It is safe for
// concurrent use.
func (c Config) Validate() error {
	bad := func(field, format string, args ...any) error {
		return fmt.Errorf("%w: %s %s", ErrInvalidConfig, field, fmt.Sprintf(format, args...))
	}
	unit := func(x float64) bool { return x >= 0 && x <= 1 && !math.IsNaN(x) }
	for _, d := range []struct {
		name string
		v    Dims
	}{{"weights", c.Weights}, {"decay_rates", c.DecayRates}, {"floors", c.Floors}} {
		if !unit(d.v.Frequency) || !unit(d.v.Effectiveness) || !unit(d.v.Human) {
			return bad(d.name, "must be in [0, 1], got %+v", d.v)
		}
	}
	if sum := c.Weights.Frequency + c.Weights.Effectiveness + c.Weights.Human; math.Abs(sum-1) > 1e-9 {
		return bad("weights", "must sum to 1, got %g", sum)
	}
	if !unit(c.LowDimension) || !unit(c.LowDimensionFactor) {
		return bad("low_dimension", "and factor must be in [0, 1]")
	}
	if !(0 < c.TentativeAt && c.TentativeAt < c.ModerateAt && c.ModerateAt < c.StrongAt &&
		c.StrongAt < c.CoreAt && c.CoreAt <= 1) {
		return bad("tiers", "need 0 < tentative < moderate < strong < core ≤ 1")
	}
	if len(c.FrequencySteps) == 0 || c.FrequencySteps[len(c.FrequencySteps)-1].MaxObservations != 0 {
		return bad("frequency_steps", "must end with an unbounded row (max_observations 0)")
	}
	prev := 0
	for i, st := range c.FrequencySteps {
		if !unit(st.Score) {
			return bad("frequency_steps", "row %d score out of [0, 1]", i)
		}
		if i < len(c.FrequencySteps)-1 {
			if st.MaxObservations <= prev {
				return bad("frequency_steps", "row %d not ascending", i)
			}
			prev = st.MaxObservations
		}
	}
	if !unit(c.ContradictionPenalty) || c.CausalLinkObservations < 0 {
		return bad("contradiction_penalty", "or causal_link_observations out of range")
	}
	if !(c.WilsonZ > 0) || !unit(c.EffectivenessNeutral) || !(c.NeutralHold >= 0) || !(c.ApprovalOutcomeWeight >= 0) {
		return bad("effectiveness", "parameters out of range")
	}
	if !unit(c.HumanPrior) || !unit(c.HumanRate) || !unit(c.StrongApprovalHuman) || !unit(c.StrongRejectionDrop) || c.UserStatedApprovals < 0 {
		return bad("human", "parameters must be in [0, 1]")
	}
	if c.DecayPeriod <= 0 || c.ArchiveAfter < 0 {
		return bad("decay_period", "must be positive and archive_after non-negative")
	}
	for k, r := range c.Recovery {
		if !k.Valid() || !unit(r.Frequency) || !unit(r.Effectiveness) || !unit(r.Human) {
			return bad("recovery", "entry %q out of range", k)
		}
	}
	if c.PromoteAfterSessions < 1 || c.RecentSessions < c.PromoteAfterSessions {
		return bad("promote_after_sessions", "must be ≥ 1 and ≤ recent_sessions")
	}
	if c.TrendWindow < 2 || !(c.TrendFlat >= 0) || !(c.MatchBucket >= 0) {
		return bad("trend_window", "must be ≥ 2, trend_flat and match_bucket non-negative")
	}
	return nil
}
