package route

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// Weights holds every tunable number of the router: the seed's score table
// (base, boosters, penalties per mode), the warmth blend, the band edges, the
// tie margin and the guards. Each field has a parameter name ("route.…", see
// WeightSpecs) under which the regulator tunes it and the meta table stores it.
// A Weights value is plain data: copy it freely; concurrent reads are safe.
type Weights struct {
	// Context warmth = Lessons·min(1, lessons/LessonSaturation)
	// + Resonance·top resonance + Confidence·mean confidence (when any lesson
	// resonates) + Session·min(1, traces/SessionSaturation), clamped to [0, 1].
	WarmthLessons, WarmthResonance, WarmthConfidence, WarmthSession float64
	LessonSaturation, SessionSaturation                             float64

	// Band edges on warmth. Coldness ramps from 0 at ColdBelow to 1 at zero
	// warmth; very-coldness likewise from VeryColdBelow; warm excess from 0 at
	// WarmAbove to 1 at full warmth; very-warm excess from VeryWarmAbove;
	// moderateness is a triangle centred on ModerateCenter, ModerateWidth wide
	// on each side.
	ColdBelow, VeryColdBelow, WarmAbove, VeryWarmAbove float64
	ModerateCenter, ModerateWidth                      float64

	// RESPOND: base, boosters (warmth, fact density, session, question × warmth),
	// cold-start penalty, and the anti-oscillation bonus after a clarify.
	RespondBase, RespondWarmth, RespondFacts, RespondSession, RespondQuestionContext float64
	RespondColdStart, RespondAfterClarify                                            float64

	// CLARIFY: base, boosters (coldness, question without facts, new topic with
	// question, vague request on a cool KB, negative feedback), penalties
	// (specific message, warm context above WarmAbove).
	ClarifyBase, ClarifyCold, ClarifyQuestionNoFacts, ClarifyNewTopicQuestion  float64
	ClarifyVague, ClarifyNegative, ClarifySpecific, ClarifyDetail, ClarifyWarm float64

	// GATHER (the seed's ACT): base, boosters (question at moderate warmth,
	// interrogative with a gap in facts, implicit reference, specific message on
	// a cool KB, request on a cool KB), penalties (very cold, very warm with
	// facts), and the anti-oscillation penalty after a gather that raised
	// warmth by less than GatherProgress.
	GatherBase, GatherQuestionModerate, GatherInterrogativeGap, GatherImplicitRef       float64
	GatherSpecific, GatherDetail, GatherImperativeCold, GatherVeryCold, GatherWarmFacts float64
	GatherUnproductive, GatherProgress                                                  float64

	// ACKNOWLEDGE: base, greeting and positive-feedback boosters, question and
	// substance penalties.
	AckBase, AckGreeting, AckPositive, AckQuestion, AckSubstance float64

	// IGNORE: base and the empty-input booster; EmptyPenalty is taken from
	// every other mode on empty input.
	IgnoreBase, IgnoreEmpty, EmptyPenalty float64

	// A social message (greeting or thanks, no question, request, reference or
	// specifics, at most SocialMaxExtra content words) costs RESPOND, CLARIFY
	// and GATHER SocialPenalty. A request or question is vague when it has no
	// specifics and at most VagueMaxTokens content words. Specificity saturates
	// at SpecificSaturation specifics.
	SocialPenalty, SocialMaxExtra, VagueMaxTokens, SpecificSaturation float64
	// Detail ramps from 0 at VagueMaxTokens content words to 1 at
	// DetailSaturation: a detailed request needs less clarifying and can be
	// looked into.
	DetailSaturation float64

	// Effective tie margin = MarginBase − (MarginBase − MarginMin)·warmth
	// + semantic uncertainty (MarginImplicitRef, MarginLowDensity when density
	// < LowDensityBelow over at least LowDensityMinTokens tokens,
	// MarginInterrogativeNoMark) + MarginHysteresis after HysteresisStreak
	// decisions in a row with confidence below HysteresisBelow.
	MarginBase, MarginMin, MarginImplicitRef, MarginLowDensity, MarginInterrogativeNoMark     float64
	MarginHysteresis, LowDensityBelow, LowDensityMinTokens, HysteresisBelow, HysteresisStreak float64
}

// ParamPrefix starts the name of every router parameter (a constant).
const ParamPrefix = "route."

// Errors returned (wrapped) when parameters do not fit the router; compare
// with errors.Is. ErrUnknownWeight: a "route." name the router lacks.
// ErrOutOfBounds: a value outside its hard bounds, not finite, or bands out of
// order.
var (
	ErrUnknownWeight = errors.New("unknown router parameter")
	ErrOutOfBounds   = errors.New("router parameter out of bounds")
)

// WeightSpec describes one router parameter: its name, default, hard bounds
// and regulation scale (the regulator moves a parameter by at most its daily
// step × Scale; Scale is 1 for weights on the score scale and larger for
// counts). A plain value, safe to copy and to read concurrently.
type WeightSpec struct {
	Name              string
	Default, Min, Max float64
	Scale             float64
	Doc               string
	field             func(*Weights) *float64
}

// weightTable is the single source of names, defaults and bounds.
// Read-only literal data.
var weightTable = []WeightSpec{
	{"route.warmth.lessons", 0.30, 0, 1, 1, "warmth share of the resonating-lesson count", func(w *Weights) *float64 { return &w.WarmthLessons }},
	{"route.warmth.resonance", 0.30, 0, 1, 1, "warmth share of the top resonance", func(w *Weights) *float64 { return &w.WarmthResonance }},
	{"route.warmth.confidence", 0.20, 0, 1, 1, "warmth share of the mean lesson confidence", func(w *Weights) *float64 { return &w.WarmthConfidence }},
	{"route.warmth.session", 0.20, 0, 1, 1, "warmth share of earlier traces in the session", func(w *Weights) *float64 { return &w.WarmthSession }},
	{"route.warmth.lesson_saturation", 3, 1, 10, 10, "resonating lessons at which their warmth share is full", func(w *Weights) *float64 { return &w.LessonSaturation }},
	{"route.warmth.session_saturation", 4, 1, 20, 10, "session traces at which their warmth share is full", func(w *Weights) *float64 { return &w.SessionSaturation }},

	{"route.band.cold", 0.35, 0.05, 0.5, 1, "warmth below which coldness ramps up", func(w *Weights) *float64 { return &w.ColdBelow }},
	{"route.band.very_cold", 0.10, 0.01, 0.3, 1, "warmth below which very-coldness ramps up", func(w *Weights) *float64 { return &w.VeryColdBelow }},
	{"route.band.warm", 0.60, 0.4, 0.9, 1, "warmth above which context counts as warm (seed: 0.6)", func(w *Weights) *float64 { return &w.WarmAbove }},
	{"route.band.very_warm", 0.80, 0.6, 0.95, 1, "warmth above which context counts as very warm", func(w *Weights) *float64 { return &w.VeryWarmAbove }},
	{"route.band.moderate_center", 0.40, 0.2, 0.6, 1, "warmth at which moderateness peaks", func(w *Weights) *float64 { return &w.ModerateCenter }},
	{"route.band.moderate_width", 0.30, 0.1, 0.5, 1, "half-width of the moderateness triangle", func(w *Weights) *float64 { return &w.ModerateWidth }},

	{"route.respond.base", 0.50, 0.3, 0.7, 1, "RESPOND base (seed: 0.50)", func(w *Weights) *float64 { return &w.RespondBase }},
	{"route.respond.warmth", 0.30, 0, 0.6, 1, "RESPOND booster per unit of warmth", func(w *Weights) *float64 { return &w.RespondWarmth }},
	{"route.respond.facts", 0.10, 0, 0.3, 1, "RESPOND booster per unit of fact density", func(w *Weights) *float64 { return &w.RespondFacts }},
	{"route.respond.session", 0.05, 0, 0.2, 1, "RESPOND booster per unit of session depth", func(w *Weights) *float64 { return &w.RespondSession }},
	{"route.respond.question_context", 0.15, 0, 0.4, 1, "RESPOND booster for a question × warmth", func(w *Weights) *float64 { return &w.RespondQuestionContext }},
	{"route.respond.cold_start", 0.25, 0, 0.5, 1, "RESPOND penalty per unit of coldness", func(w *Weights) *float64 { return &w.RespondColdStart }},
	{"route.respond.after_clarify", 0.05, 0, 0.15, 1, "RESPOND bonus right after a clarify (seed: +0.05)", func(w *Weights) *float64 { return &w.RespondAfterClarify }},

	{"route.clarify.base", 0.30, 0.1, 0.5, 1, "CLARIFY base (seed: 0.30)", func(w *Weights) *float64 { return &w.ClarifyBase }},
	{"route.clarify.cold", 0.30, 0, 0.6, 1, "CLARIFY booster per unit of coldness", func(w *Weights) *float64 { return &w.ClarifyCold }},
	{"route.clarify.question_no_facts", 0.15, 0, 0.4, 1, "CLARIFY booster for a question without facts", func(w *Weights) *float64 { return &w.ClarifyQuestionNoFacts }},
	{"route.clarify.new_topic_question", 0.10, 0, 0.3, 1, "CLARIFY booster for a question on a topic no lesson covers", func(w *Weights) *float64 { return &w.ClarifyNewTopicQuestion }},
	{"route.clarify.vague", 0.15, 0, 0.4, 1, "CLARIFY booster for a vague request × (1 − warmth)", func(w *Weights) *float64 { return &w.ClarifyVague }},
	{"route.clarify.negative", 0.10, 0, 0.3, 1, "CLARIFY booster for negative feedback", func(w *Weights) *float64 { return &w.ClarifyNegative }},
	{"route.clarify.specific", 0.30, 0, 0.6, 1, "CLARIFY penalty per unit of specificity", func(w *Weights) *float64 { return &w.ClarifySpecific }},
	{"route.clarify.detail", 0.30, 0, 0.6, 1, "CLARIFY penalty per unit of detail", func(w *Weights) *float64 { return &w.ClarifyDetail }},
	{"route.clarify.warm", 0.40, 0, 0.8, 1, "CLARIFY penalty per unit of warm excess (seed: warm > 0.6)", func(w *Weights) *float64 { return &w.ClarifyWarm }},

	{"route.gather.base", 0.20, 0.05, 0.4, 1, "GATHER base (seed ACT: 0.20)", func(w *Weights) *float64 { return &w.GatherBase }},
	{"route.gather.question_moderate", 0.20, 0, 0.4, 1, "GATHER booster for a question × moderateness", func(w *Weights) *float64 { return &w.GatherQuestionModerate }},
	{"route.gather.interrogative_gap", 0.15, 0, 0.4, 1, "GATHER booster for an interrogative × (1 − fact density)", func(w *Weights) *float64 { return &w.GatherInterrogativeGap }},
	{"route.gather.implicit_reference", 0.50, 0, 0.8, 1, "GATHER booster for an implicit reference to earlier work", func(w *Weights) *float64 { return &w.GatherImplicitRef }},
	{"route.gather.specific", 0.30, 0, 0.6, 1, "GATHER booster for specificity × (1 − warmth)", func(w *Weights) *float64 { return &w.GatherSpecific }},
	{"route.gather.detail", 0.30, 0, 0.6, 1, "GATHER booster for detail × (1 − warmth)", func(w *Weights) *float64 { return &w.GatherDetail }},
	{"route.gather.imperative_cold", 0.10, 0, 0.3, 1, "GATHER booster for a request × (1 − warmth)", func(w *Weights) *float64 { return &w.GatherImperativeCold }},
	{"route.gather.very_cold", 0.15, 0, 0.4, 1, "GATHER penalty per unit of very-coldness", func(w *Weights) *float64 { return &w.GatherVeryCold }},
	{"route.gather.warm_facts", 0.30, 0, 0.6, 1, "GATHER penalty for very-warm excess × fact density", func(w *Weights) *float64 { return &w.GatherWarmFacts }},
	{"route.gather.unproductive", 0.15, 0, 0.4, 1, "GATHER penalty after an unproductive gather (seed: −0.15)", func(w *Weights) *float64 { return &w.GatherUnproductive }},
	{"route.gather.progress", 0.05, 0, 0.3, 1, "warmth gain that makes a gather productive", func(w *Weights) *float64 { return &w.GatherProgress }},

	{"route.acknowledge.base", 0.10, 0, 0.3, 1, "ACKNOWLEDGE base (seed: 0.10)", func(w *Weights) *float64 { return &w.AckBase }},
	{"route.acknowledge.greeting", 0.60, 0.3, 0.9, 1, "ACKNOWLEDGE booster for a greeting (seed: +0.60)", func(w *Weights) *float64 { return &w.AckGreeting }},
	{"route.acknowledge.positive", 0.40, 0.1, 0.7, 1, "ACKNOWLEDGE booster for positive feedback (seed: +0.40)", func(w *Weights) *float64 { return &w.AckPositive }},
	{"route.acknowledge.question", 0.30, 0, 0.6, 1, "ACKNOWLEDGE penalty for a question (seed: −0.30)", func(w *Weights) *float64 { return &w.AckQuestion }},
	{"route.acknowledge.substance", 0.40, 0, 0.8, 1, "ACKNOWLEDGE penalty for a message with substance", func(w *Weights) *float64 { return &w.AckSubstance }},

	{"route.ignore.base", -0.50, -1, 0, 1, "IGNORE base (seed: −0.50)", func(w *Weights) *float64 { return &w.IgnoreBase }},
	{"route.ignore.empty", 1.00, 0.5, 1.5, 1, "IGNORE booster for empty input (seed: +1.0)", func(w *Weights) *float64 { return &w.IgnoreEmpty }},
	{"route.empty_penalty", 1.00, 0.5, 1.5, 1, "penalty on every other mode for empty input", func(w *Weights) *float64 { return &w.EmptyPenalty }},

	{"route.social.penalty", 0.60, 0.2, 0.8, 1, "RESPOND/CLARIFY/GATHER penalty on a social-only message", func(w *Weights) *float64 { return &w.SocialPenalty }},
	{"route.social.max_extra", 3, 0, 8, 10, "content words a social message may carry", func(w *Weights) *float64 { return &w.SocialMaxExtra }},
	{"route.vague.max_tokens", 4, 1, 10, 10, "content words up to which a request without specifics is vague", func(w *Weights) *float64 { return &w.VagueMaxTokens }},
	{"route.detail.saturation", 20, 8, 60, 10, "content words at which detail is full", func(w *Weights) *float64 { return &w.DetailSaturation }},
	{"route.specific.saturation", 3, 1, 10, 10, "specifics at which specificity is full", func(w *Weights) *float64 { return &w.SpecificSaturation }},

	{"route.margin.base", 0.20, 0.05, 0.35, 1, "effective tie margin at zero warmth (seed: 0.20)", func(w *Weights) *float64 { return &w.MarginBase }},
	{"route.margin.min", 0.08, 0, 0.2, 1, "effective tie margin at full warmth (seed: 0.08)", func(w *Weights) *float64 { return &w.MarginMin }},
	{"route.margin.implicit_reference", 0.05, 0, 0.15, 1, "margin widening for an implicit reference (seed: +0.05)", func(w *Weights) *float64 { return &w.MarginImplicitRef }},
	{"route.margin.low_density", 0.03, 0, 0.1, 1, "margin widening for low information density (seed: +0.03)", func(w *Weights) *float64 { return &w.MarginLowDensity }},
	{"route.margin.interrogative_no_mark", 0.03, 0, 0.1, 1, "margin widening for interrogatives without a question mark (seed: +0.03)", func(w *Weights) *float64 { return &w.MarginInterrogativeNoMark }},
	{"route.margin.hysteresis", 0.05, 0, 0.15, 1, "margin widening after a low-confidence streak (seed: +0.05)", func(w *Weights) *float64 { return &w.MarginHysteresis }},
	{"route.density.low_below", 0.50, 0.2, 0.8, 1, "information density below which a message is low-density", func(w *Weights) *float64 { return &w.LowDensityBelow }},
	{"route.density.min_tokens", 8, 2, 40, 10, "tokens a message needs before its density counts", func(w *Weights) *float64 { return &w.LowDensityMinTokens }},
	{"route.hysteresis.below", 0.15, 0.05, 0.4, 1, "router confidence below which a decision is low-confidence (seed: 0.15)", func(w *Weights) *float64 { return &w.HysteresisBelow }},
	{"route.hysteresis.streak", 3, 2, 6, 10, "low-confidence decisions in a row that widen the margin (seed: 3)", func(w *Weights) *float64 { return &w.HysteresisStreak }},
}

// DefaultWeights returns the router's default weights: the seed's table
// where the seed gives a number, and documented choices elsewhere (see
// WeightSpecs). It is safe for concurrent use.
func DefaultWeights() Weights {
	var w Weights
	for _, s := range weightTable {
		*s.field(&w) = s.Default
	}
	return w
}

// WeightSpecs returns the name, default, hard bounds, regulation scale and
// meaning of every router parameter, in a fixed order. The slice is fresh;
// it is safe for concurrent use.
func WeightSpecs() []WeightSpec {
	out := make([]WeightSpec, len(weightTable))
	copy(out, weightTable)
	for i := range out {
		out[i].field = nil
	}
	return out
}

// Params returns w as parameter name → value, for the meta table and the
// regulator. The map is fresh. It is safe for concurrent use.
func (w Weights) Params() map[string]float64 {
	out := make(map[string]float64, len(weightTable))
	for _, s := range weightTable {
		out[s.Name] = *s.field(&w)
	}
	return out
}

// WithParams returns w with every router parameter in p applied. Names
// without ParamPrefix belong to other components and are skipped. It returns
// an error wrapping ErrUnknownWeight for a "route." name the router does not
// have, and ErrOutOfBounds for a value outside the parameter's hard bounds or
// not finite; w is returned unchanged on error. It checks each value alone:
// call Validate on the result for the band order. It is safe for concurrent
// use.
func (w Weights) WithParams(p map[string]float64) (Weights, error) {
	out := w
	for name, v := range p {
		if !strings.HasPrefix(name, ParamPrefix) {
			continue
		}
		s, ok := specByName(name)
		if !ok {
			return w, fmt.Errorf("apply %s: %w", name, ErrUnknownWeight)
		}
		if err := s.check(v); err != nil {
			return w, err
		}
		*s.field(&out) = v
	}
	return out, nil
}

// Validate checks every weight against its hard bounds and the band order
// (VeryColdBelow ≤ ColdBelow, WarmAbove ≤ VeryWarmAbove, MarginMin ≤
// MarginBase). It returns an error wrapping ErrOutOfBounds naming the first
// offending parameter, or nil. It is safe for concurrent use.
func (w Weights) Validate() error {
	for _, s := range weightTable {
		if err := s.check(*s.field(&w)); err != nil {
			return err
		}
	}
	switch {
	case w.VeryColdBelow > w.ColdBelow:
		return fmt.Errorf("route.band.very_cold %v above route.band.cold %v: %w", w.VeryColdBelow, w.ColdBelow, ErrOutOfBounds)
	case w.WarmAbove > w.VeryWarmAbove:
		return fmt.Errorf("route.band.warm %v above route.band.very_warm %v: %w", w.WarmAbove, w.VeryWarmAbove, ErrOutOfBounds)
	case w.MarginMin > w.MarginBase:
		return fmt.Errorf("route.margin.min %v above route.margin.base %v: %w", w.MarginMin, w.MarginBase, ErrOutOfBounds)
	}
	return nil
}

func (s WeightSpec) check(v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < s.Min || v > s.Max {
		return fmt.Errorf("%s = %v outside [%v, %v]: %w", s.Name, v, s.Min, s.Max, ErrOutOfBounds)
	}
	return nil
}

func specByName(name string) (WeightSpec, bool) {
	for _, s := range weightTable {
		if s.Name == name {
			return s, true
		}
	}
	return WeightSpec{}, false
}
