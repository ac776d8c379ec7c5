package route

import (
	"math"
	"slices"
)

// Warmth is what the knowledge base and the session know about the current
// situation, measured by the caller's KB lookup before routing. A plain value,
// safe to copy and to read concurrently.
type Warmth struct {
	// ResonatingLessons counts lessons whose raw resonance clears the floor.
	ResonatingLessons int `json:"resonating_lessons"`
	// TopResonance is the best raw resonance, in [0, 1].
	TopResonance float64 `json:"top_resonance"`
	// MeanConfidence is the mean confidence of the resonating lessons, in [0, 1].
	MeanConfidence float64 `json:"mean_confidence"`
	// SessionTraces counts earlier traces (tool calls) in this session.
	SessionTraces int `json:"session_traces"`
}

// SessionState is what the router remembers between two decisions of one
// session: the previous decision's mode, warmth and confidence, and how many
// decisions in a row had low confidence. The zero value means no history. A
// plain value, safe to copy and to read concurrently.
type SessionState struct {
	Mode                Mode    `json:"mode"`
	Warmth              float64 `json:"warmth"`
	Confidence          float64 `json:"confidence"`
	LowConfidenceStreak int     `json:"low_confidence_streak"`
}

// Input is everything one routing decision reads. Route only reads it, so one
// Input may be routed from several goroutines.
type Input struct {
	// Message is the user's latest message; it may be empty.
	Message string
	// Warmth is the knowledge base's and the session's context.
	Warmth Warmth
	// Prev is the session's state after its previous decision (Decision.Next),
	// or nil for the first decision of a session.
	Prev *SessionState
	// Exclude lists modes not to choose, e.g. Gather when re-routing after the
	// agent has gathered (the seed's re-route excluding ACT). Excluding every
	// mode excludes none.
	Exclude []Mode
}

// Decision is the router's answer and everything the routing log records.
// Route builds fresh maps for every Decision; a Decision is safe to read
// concurrently once returned.
type Decision struct {
	// Mode is the chosen mode: the highest score among the modes not excluded.
	Mode Mode `json:"mode"`
	// Scores holds every mode's score, excluded modes included.
	Scores map[Mode]float64 `json:"scores"`
	// Confidence is the seed's router confidence,
	// (top − second) / max(|top|, 0.001), clamped to [0, 1].
	Confidence float64 `json:"confidence"`
	// Margin is top − second.
	Margin float64 `json:"margin"`
	// EffectiveMargin is the tie margin this decision was held to.
	EffectiveMargin float64 `json:"effective_margin"`
	// Ambiguous is true when Margin < EffectiveMargin: the router cannot tell
	// Mode from RunnerUp apart, and the agent decides (there is no LLM
	// tie-breaker).
	Ambiguous bool `json:"ambiguous"`
	// RunnerUp is the second-best mode ("" when only one mode was allowed).
	RunnerUp Mode `json:"runner_up,omitempty"`
	// Warmth is the context warmth in [0, 1] the scores were computed with.
	Warmth float64 `json:"warmth"`
	// Signals holds every signal by name, for the routing log.
	Signals map[string]float64 `json:"signals"`
	// Guards names the per-request adjustments applied: "after_clarify",
	// "unproductive_gather", "hysteresis".
	Guards []string `json:"guards,omitempty"`
	// Next is the session state to pass as Input.Prev to the next decision.
	Next SessionState `json:"next"`
}

// The guard names that appear in Decision.Guards (constants).
const (
	GuardAfterClarify       = "after_clarify"
	GuardUnproductiveGather = "unproductive_gather"
	GuardHysteresis         = "hysteresis"
)

// context is the warmth-derived part of the signals, each in [0, 1].
type context struct {
	warmth, facts, session                   float64
	coldness, veryCold, warmExcess, veryWarm float64
	moderate                                 float64
	newTopic                                 bool
}

func clamp01(x float64) float64 {
	if !(x > 0) { // also maps NaN to 0
		return 0
	}
	return min(x, 1)
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// ramp returns how far x lies below edge, scaled so 0 → 1 and edge → 0.
func rampBelow(x, edge float64) float64 {
	if edge <= 0 {
		return 0
	}
	return clamp01((edge - x) / edge)
}

// rampAbove returns how far x lies above edge, scaled so edge → 0 and 1 → 1.
func rampAbove(x, edge float64) float64 {
	if edge >= 1 {
		return 0
	}
	return clamp01((x - edge) / (1 - edge))
}

// warmContext computes context warmth and its bands from the KB and session.
func warmContext(in Warmth, w Weights) context {
	lessons := float64(max(in.ResonatingLessons, 0))
	facts := clamp01(lessons / math.Max(w.LessonSaturation, 1))
	session := clamp01(float64(max(in.SessionTraces, 0)) / math.Max(w.SessionSaturation, 1))
	conf := 0.0
	if lessons > 0 {
		conf = clamp01(in.MeanConfidence)
	}
	warmth := clamp01(w.WarmthLessons*facts + w.WarmthResonance*clamp01(in.TopResonance) +
		w.WarmthConfidence*conf + w.WarmthSession*session)
	return context{
		warmth: warmth, facts: facts, session: session,
		coldness:   rampBelow(warmth, w.ColdBelow),
		veryCold:   rampBelow(warmth, w.VeryColdBelow),
		warmExcess: rampAbove(warmth, w.WarmAbove),
		veryWarm:   rampAbove(warmth, w.VeryWarmAbove),
		moderate:   clamp01(1 - math.Abs(warmth-w.ModerateCenter)/math.Max(w.ModerateWidth, 1e-9)),
		newTopic:   in.ResonatingLessons <= 0,
	}
}

// confidenceFloor keeps the seed's router confidence,
// (top − second) / max(|top|, confidenceFloor), finite when the top score is
// near zero.
const confidenceFloor = 0.001

// Route chooses the engagement mode for one message. It is deterministic,
// allocation-light (microseconds) and never fails; w should satisfy
// w.Validate() (weights outside their bounds route, but not sensibly). Route
// is safe for concurrent use.
func Route(in Input, w Weights) Decision {
	sig := Extract(in.Message)
	ctx := warmContext(in.Warmth, w)
	f := deriveFeatures(sig, w)
	scores := scoreModes(sig, f, ctx, w)
	guards := applyGuards(scores, sig, ctx, in.Prev, w)

	top, second := pickTop2(scores, in.Exclude)
	d := Decision{
		Mode:    top,
		Scores:  scores,
		Warmth:  ctx.warmth,
		Signals: signalMap(sig, ctx, f.socialOnly, f.vague, f.specific, f.detail),
	}
	d.Confidence = 1
	if second != "" {
		d.RunnerUp = second
		d.Margin = scores[top] - scores[second]
		d.Confidence = clamp01(d.Margin / math.Max(math.Abs(scores[top]), confidenceFloor))
	}

	var hysteresis bool
	d.EffectiveMargin, hysteresis = effectiveMargin(sig, ctx, in.Prev, w)
	if hysteresis {
		guards = append(guards, GuardHysteresis)
	}
	d.Ambiguous = second != "" && d.Margin < d.EffectiveMargin
	d.Guards = guards

	streak := 0
	if in.Prev != nil {
		streak = in.Prev.LowConfidenceStreak
	}
	if d.Confidence < w.HysteresisBelow {
		streak++
	} else {
		streak = 0
	}
	d.Next = SessionState{Mode: d.Mode, Warmth: ctx.warmth, Confidence: d.Confidence, LowConfidenceStreak: streak}
	return d
}

// features are what the mode scores read of a message beyond its raw
// signals.
type features struct {
	asks        bool    // a question mark or an interrogative
	socialOnly  bool    // only a greeting or feedback, nothing to act on
	substantive bool    // not empty and not social only
	vague       bool    // a question or request with no specifics and few words
	specific    float64 // specifics, saturating at w.SpecificSaturation, in [0, 1]
	detail      float64 // content words beyond the vague bound, in [0, 1]
}

// deriveFeatures computes the features of a message's signals.
func deriveFeatures(sig Signals, w Weights) features {
	f := features{asks: sig.Question || sig.Interrogatives > 0}
	f.socialOnly = !sig.Empty && (sig.Greeting || sig.Feedback > 0) && !f.asks && !sig.Imperative &&
		!sig.ImplicitReference && sig.Specifics == 0 && float64(sig.ContentTokens) <= w.SocialMaxExtra
	f.substantive = !sig.Empty && !f.socialOnly
	f.vague = (f.asks || sig.Imperative) && sig.Specifics == 0 && !sig.ImplicitReference &&
		float64(sig.ContentTokens) <= w.VagueMaxTokens
	f.specific = clamp01(float64(sig.Specifics) / math.Max(w.SpecificSaturation, 1))
	f.detail = clamp01((float64(sig.ContentTokens) - w.VagueMaxTokens) / math.Max(w.DetailSaturation-w.VagueMaxTokens, 1))
	return f
}

// scoreModes returns every mode's score before the session guards.
func scoreModes(sig Signals, f features, ctx context, w Weights) map[Mode]float64 {
	empty, social, asks := b2f(sig.Empty), b2f(f.socialOnly), b2f(f.asks)
	return map[Mode]float64{
		Respond: w.RespondBase + w.RespondWarmth*ctx.warmth + w.RespondFacts*ctx.facts +
			w.RespondSession*ctx.session + w.RespondQuestionContext*asks*ctx.warmth -
			w.RespondColdStart*ctx.coldness - w.SocialPenalty*social - w.EmptyPenalty*empty,
		Clarify: w.ClarifyBase + w.ClarifyCold*ctx.coldness + w.ClarifyQuestionNoFacts*asks*(1-ctx.facts) +
			w.ClarifyNewTopicQuestion*asks*b2f(ctx.newTopic) + w.ClarifyVague*b2f(f.vague)*(1-ctx.warmth) +
			w.ClarifyNegative*b2f(sig.Feedback < 0) - w.ClarifySpecific*f.specific - w.ClarifyDetail*f.detail -
			w.ClarifyWarm*ctx.warmExcess - w.SocialPenalty*social - w.EmptyPenalty*empty,
		Gather: w.GatherBase + w.GatherQuestionModerate*asks*ctx.moderate +
			w.GatherInterrogativeGap*b2f(sig.Interrogatives > 0)*(1-ctx.facts) +
			w.GatherImplicitRef*b2f(sig.ImplicitReference) + w.GatherSpecific*f.specific*(1-ctx.warmth) +
			w.GatherDetail*f.detail*(1-ctx.warmth) +
			w.GatherImperativeCold*b2f(sig.Imperative)*(1-ctx.warmth) - w.GatherVeryCold*ctx.veryCold -
			w.GatherWarmFacts*ctx.veryWarm*ctx.facts - w.SocialPenalty*social - w.EmptyPenalty*empty,
		Acknowledge: w.AckBase + w.AckGreeting*b2f(sig.Greeting) + w.AckPositive*b2f(sig.Feedback > 0) -
			w.AckQuestion*asks - w.AckSubstance*b2f(f.substantive) - w.EmptyPenalty*empty,
		Ignore: w.IgnoreBase + w.IgnoreEmpty*empty,
	}
}

// applyGuards adjusts scores for what the session's previous decision
// prev (nil for none) did, and names the guards applied: a message after a
// clarifying question leans to Respond, and a Gather that did not warm the
// context up is not repeated.
func applyGuards(scores map[Mode]float64, sig Signals, ctx context, prev *SessionState, w Weights) []string {
	if prev == nil {
		return nil
	}
	var guards []string
	if prev.Mode == Clarify && !sig.Empty {
		scores[Respond] += w.RespondAfterClarify
		guards = append(guards, GuardAfterClarify)
	}
	if prev.Mode == Gather && ctx.warmth < prev.Warmth+w.GatherProgress {
		scores[Gather] -= w.GatherUnproductive
		guards = append(guards, GuardUnproductiveGather)
	}
	return guards
}

// effectiveMargin returns the tie margin a decision is held to: narrower in
// a warm context, wider for implicit references, sparse messages and
// interrogatives without a question mark, and wider again (hysteresis true)
// when the session's previous decisions prev (nil for none) had low
// confidence w.HysteresisStreak times in a row.
func effectiveMargin(sig Signals, ctx context, prev *SessionState, w Weights) (margin float64, hysteresis bool) {
	margin = w.MarginBase - (w.MarginBase-w.MarginMin)*ctx.warmth
	if sig.ImplicitReference {
		margin += w.MarginImplicitRef
	}
	if sig.Density < w.LowDensityBelow && float64(sig.Tokens) >= w.LowDensityMinTokens {
		margin += w.MarginLowDensity
	}
	if sig.Interrogatives > 0 && !sig.Question {
		margin += w.MarginInterrogativeNoMark
	}
	if prev != nil && float64(prev.LowConfidenceStreak) >= w.HysteresisStreak {
		margin += w.MarginHysteresis
		hysteresis = true
	}
	return margin, hysteresis
}

// pickTop2 returns the best and second-best modes not excluded (second is ""
// when only one is allowed); ties go to the earlier mode of modes. Excluding
// every mode excludes none.
func pickTop2(scores map[Mode]float64, exclude []Mode) (top, second Mode) {
	allowed := func(m Mode) bool { return !slices.Contains(exclude, m) }
	if !slices.ContainsFunc(modes[:], allowed) {
		allowed = func(Mode) bool { return true }
	}
	for _, m := range modes {
		if !allowed(m) {
			continue
		}
		switch {
		case top == "" || scores[m] > scores[top]:
			top, second = m, top
		case second == "" || scores[m] > scores[second]:
			second = m
		}
	}
	return top, second
}

// signalMap flattens the signals for the routing log.
func signalMap(s Signals, c context, socialOnly, vague bool, specific, detail float64) map[string]float64 {
	return map[string]float64{
		"empty":              b2f(s.Empty),
		"tokens":             float64(s.Tokens),
		"content_tokens":     float64(s.ContentTokens),
		"question":           b2f(s.Question),
		"interrogatives":     float64(s.Interrogatives),
		"greeting":           b2f(s.Greeting),
		"feedback":           float64(s.Feedback),
		"density":            s.Density,
		"implicit_reference": b2f(s.ImplicitReference),
		"imperative":         b2f(s.Imperative),
		"specifics":          float64(s.Specifics),
		"clarification":      b2f(s.Clarification),
		"social_only":        b2f(socialOnly),
		"vague":              b2f(vague),
		"specificity":        specific,
		"detail":             detail,
		"warmth":             c.warmth,
		"facts":              c.facts,
		"session":            c.session,
		"coldness":           c.coldness,
		"moderate":           c.moderate,
		"new_topic":          b2f(c.newTopic),
	}
}
