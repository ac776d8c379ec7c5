package kb

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/innate-mcp/innate-mcp/confidence"
	"github.com/innate-mcp/innate-mcp/terms"
)

// Weights are the named constants of the fused score that recall ranks on
// and appraise re-reads. They are stored in the database's meta table (so
// that a tuned value survives restarts and is shared by every process);
// DefaultWeights gives the documented starting values.
//
// The fused score of a lesson for a situation is
//
//	resonance   = saturate((Content·c + Trigger·t + Lexical·l) / (sum of the weights of the channels present))
//	calibration = Confidence·confidence + Context·context + Activation·activation
//	fused       = (resonance + calibration) · penalties
//
// where c and t are the dense cosines mapped to relevance by
// relevance(cos) = clamp((cos − DenseBaseline) / (1 − DenseBaseline), 0, 1)^DenseSharpness,
// l is BM25 over the situation's terms divided by the score of a
// typical-length document holding every query term once (an absolute scale:
// 1 means "all the query's terms, as usually used", independent of what
// else the query found, and unbounded above), saturate maps the weighted
// sum to [0, 1) without changing its order, context is the lesson's outcome balance in the same
// kind of situation in (−1, 1) and activation its recency and frequency of
// use in [0, 1]. The penalties multiply: a pending lesson, a lesson whose
// anti-trigger matches the situation, a lesson from another project.
type Weights struct {
	Content    float64 `json:"content"`    // dense similarity to the lesson's content
	Trigger    float64 `json:"trigger"`    // dense similarity to the lesson's trigger
	Lexical    float64 `json:"lexical"`    // BM25 over content and trigger terms
	Confidence float64 `json:"confidence"` // the lesson's confidence
	Context    float64 `json:"context"`    // success history in similar situations
	Activation float64 `json:"activation"` // recency and frequency of use
	// Directs is added to the calibration of a lesson the user stated (or
	// wrote in a rule file) that directs (its directive requires, forbids
	// or prefers something) over one that only describes: before acting,
	// what the user said to do or not do matters more than a description
	// of the project. Imported corpora (code, documents) are not read
	// for it.
	Directs float64 `json:"directs"`

	DenseBaseline  float64 `json:"dense_baseline"`  // cosine of unrelated texts: relevance 0
	DenseSharpness float64 `json:"dense_sharpness"` // >1 lets only clear dense matches count

	PendingPenalty      float64 `json:"pending_penalty"`       // factor for a pending lesson
	AntiTriggerPenalty  float64 `json:"anti_trigger_penalty"`  // factor when the anti-trigger matches
	OtherProjectPenalty float64 `json:"other_project_penalty"` // factor for another project's lesson

	RelevanceFloor float64 `json:"relevance_floor"` // resonance a strong-tier lesson needs to be returned
	CoreFloor      float64 `json:"core_floor"`      // resonance a core lesson needs ("whenever it resonates")
	ClearMatch     float64 `json:"clear_match"`     // resonance a moderate lesson needs (a clear match)
	StrongMatch    float64 `json:"strong_match"`    // resonance at which other projects' lessons appear
	// UserRuleFloor is the resonance a lesson the user stated (or wrote in
	// a rule file) needs, for the situation's project or every project:
	// the user wrote it for exactly this purpose, so an applicable rule is
	// let through even when the situation words it differently.
	UserRuleFloor float64 `json:"user_rule_floor"`
	// UserDirectiveFloor is UserRuleFloor for such a lesson that directs
	// (its directive requires, forbids or prefers something): lower, as
	// the user wrote it to be followed, while a line that describes the
	// project keeps UserRuleFloor.
	UserDirectiveFloor float64 `json:"user_directive_floor"`
	AntiTriggerHit     float64 `json:"anti_trigger_hit"` // share of anti-trigger terms that makes a hit
}

// DefaultWeights returns the documented defaults. The resonance weights sum
// to one; calibration adds at most 0.25, so it reorders lessons of similar
// resonance but cannot lift an unrelated lesson over the floor, which is
// applied to resonance alone.
func DefaultWeights() Weights {
	return Weights{
		Content: 0.25, Trigger: 0.30, Lexical: 0.45,
		Confidence: 0.10, Context: 0.10, Activation: 0.05, Directs: 0.04,
		DenseBaseline: 0, DenseSharpness: 1,
		PendingPenalty: 0.85, AntiTriggerPenalty: 0.4, OtherProjectPenalty: 0.85,
		RelevanceFloor: 0.22, CoreFloor: 0.18, ClearMatch: 0.25, StrongMatch: 0.45, AntiTriggerHit: 0.6,
		UserRuleFloor: 0.12, UserDirectiveFloor: 0.10,
	}
}

// Validate reports weights outside their sane ranges.
func (w Weights) Validate() error {
	for name, v := range map[string]float64{
		"content": w.Content, "trigger": w.Trigger, "lexical": w.Lexical,
		"confidence": w.Confidence, "context": w.Context, "activation": w.Activation, "directs": w.Directs,
		"pending_penalty": w.PendingPenalty, "anti_trigger_penalty": w.AntiTriggerPenalty,
		"other_project_penalty": w.OtherProjectPenalty, "relevance_floor": w.RelevanceFloor,
		"strong_match": w.StrongMatch, "anti_trigger_hit": w.AntiTriggerHit,
		"core_floor": w.CoreFloor, "clear_match": w.ClearMatch, "user_rule_floor": w.UserRuleFloor,
		"user_directive_floor": w.UserDirectiveFloor,
	} {
		if math.IsNaN(v) || v < 0 || v > 1 {
			return fmt.Errorf("weight %s = %v: want a value in [0, 1]", name, v)
		}
	}
	if w.DenseBaseline < -1 || w.DenseBaseline >= 1 {
		return fmt.Errorf("weight dense_baseline = %v: want a value in [-1, 1)", w.DenseBaseline)
	}
	if w.DenseSharpness < 0.25 || w.DenseSharpness > 4 {
		return fmt.Errorf("weight dense_sharpness = %v: want a value in [0.25, 4]", w.DenseSharpness)
	}
	if w.Content+w.Trigger+w.Lexical == 0 {
		return fmt.Errorf("weights content, trigger and lexical are all zero")
	}
	return nil
}

// floorOf is the resonance a scored lesson needs to be returned: its
// tier's floor, or UserRuleFloor (UserDirectiveFloor for one that directs)
// when lower for a lesson the user stated that is not another project's; ok is false for tiers that are tracked but
// never injected.
func (w Weights) floorOf(s Scored) (float64, bool) {
	floor, ok := w.floorFor(s.Lesson.Tier)
	if ok && s.Lesson.Origin == OriginUserStated && !s.OtherProject {
		user := w.UserRuleFloor
		if s.Lesson.Directive != nil && s.Lesson.Directive.Directs() {
			user = w.UserDirectiveFloor
		}
		floor = min(floor, user)
	}
	return floor, ok
}

// floorFor is the resonance a lesson of the given tier needs to be
// returned; ok is false for tiers that are tracked but never injected.
func (w Weights) floorFor(t confidence.Tier) (float64, bool) {
	switch t {
	case confidence.TierCore:
		return w.CoreFloor, true
	case confidence.TierStrong:
		return w.RelevanceFloor, true
	case confidence.TierTentative, confidence.TierDeprecated:
		return 0, false
	}
	return w.ClearMatch, true // moderate, or a lesson without a tier yet
}

// Breakdown is the per-channel decomposition of a lesson's fused score.
type Breakdown struct {
	Content     float64 `json:"content"`                // dense relevance to the content, [0,1]
	Trigger     float64 `json:"trigger"`                // dense relevance to the trigger, [0,1]
	Lexical     float64 `json:"lexical"`                // absolute BM25 relevance, [0,1]
	Resonance   float64 `json:"resonance"`              // weighted similarity alone
	Confidence  float64 `json:"confidence"`             // the lesson's confidence
	Context     float64 `json:"context"`                // outcome balance in similar situations, (-1,1)
	Activation  float64 `json:"activation"`             // recency and frequency of use
	Calibration float64 `json:"calibration"`            // weighted confidence, context and activation
	Penalty     float64 `json:"penalty"`                // product of the penalties applied (1 = none)
	AntiTrigger bool    `json:"anti_trigger,omitempty"` // the lesson's anti-trigger matched
	ContentCos  float64 `json:"content_cos"`            // centred cosine before mapping
	TriggerCos  float64 `json:"trigger_cos"`            // centred cosine before mapping (0 without trigger)
}

// Scored is a candidate with its fused score.
type Scored struct {
	Candidate
	Score        float64
	Breakdown    Breakdown
	OtherProject bool
}

// relevance maps a cosine to [0,1] relevance under w, given the typical
// cosine of the situation to its neighbourhood.
func (w Weights) relevance(cos, neighbourhood float64) float64 {
	off := max(w.DenseBaseline, neighbourhood)
	r := (cos - off) / (1 - off)
	if r <= 0 || math.IsNaN(r) {
		return 0
	}
	if r > 1 {
		r = 1
	}
	return math.Pow(r, w.DenseSharpness)
}

// score fuses one candidate's channels for a situation.
func (w Weights) score(c Candidate, sit *situationInfo, now time.Time) Scored {
	b := Breakdown{ContentCos: c.Content, Penalty: 1}
	b.Content = w.relevance(c.Content, sit.hoodContent)
	num := w.Content * b.Content
	den := w.Content
	if c.HasTrigger {
		b.TriggerCos = c.Trigger
		b.Trigger = w.relevance(c.Trigger, sit.hoodTrigger)
		num += w.Trigger * b.Trigger
		den += w.Trigger
	}
	if sit.hasTerms {
		b.Lexical = saturate(c.Lexical)
		// The weighted sum takes the absolute lexical score as is and
		// saturates as a whole: saturating the channel first would shrink
		// the differences between lessons that match the query more than
		// fully, until dense noise reorders them.
		num += w.Lexical * max(c.Lexical, 0)
		den += w.Lexical
	}
	if den > 0 {
		b.Resonance = saturate(num / den)
	}
	l := c.Lesson
	b.Confidence = l.Confidence
	b.Context = contextBalance(c.SituationTally)
	b.Activation = activation(l, now)
	b.Calibration = w.Confidence*b.Confidence + w.Context*b.Context + w.Activation*b.Activation
	if l.Origin == OriginUserStated && l.Directive != nil && l.Directive.Directs() {
		b.Calibration += w.Directs
	}

	if l.State == StatePending {
		b.Penalty *= w.PendingPenalty
	}
	if l.AntiTrigger != "" && sit.antiTriggerHit(l.AntiTrigger, w.AntiTriggerHit) {
		b.AntiTrigger = true
		b.Penalty *= w.AntiTriggerPenalty
	}
	other := l.Project != "" && sit.project != "" && l.Project != sit.project
	if other {
		b.Penalty *= w.OtherProjectPenalty
	}
	return Scored{Candidate: c, Score: (b.Resonance + b.Calibration) * b.Penalty, Breakdown: b, OtherProject: other}
}

// contextBalance is the outcome balance of a tally with one pseudo-count of
// each outcome: 0 without history, towards ±1 with consistent history.
func contextBalance(t Tally) float64 {
	return float64(t.Successes-t.Failures) / float64(t.Successes+t.Failures+2)
}

// activation is recency times frequency of use, in [0,1]: it saturates
// after a handful of uses and halves every activationHalfLifeDays days
// without use.
func activation(l Lesson, now time.Time) float64 {
	if l.Counters.Uses == 0 || l.LastUsedAt == nil {
		return 0
	}
	freq := 1 - math.Exp(-float64(l.Counters.Uses)/activationUses)
	days := now.Sub(*l.LastUsedAt).Hours() / 24
	if days < 0 {
		days = 0
	}
	return freq * math.Exp2(-days/activationHalfLifeDays)
}

// activationUses is the scale of activation's frequency part: after this
// many uses it reaches 63% (1 − 1/e), after three times as many 95%: the
// first few uses count, further ones add less and less.
const activationUses = 5

// activationHalfLifeDays is how many days without use halve a lesson's
// activation: about a month, so that what was used last sprint still
// counts and what was used last year hardly does.
const activationHalfLifeDays = 30

// lexicalKnee is where resonance (and the lexical channel as reported in a
// breakdown) starts to saturate: up to the knee it counts as is, and above
// it approaches 1 smoothly, so that lessons matching the query more than
// fully still rank among themselves instead of tying at 1.
const lexicalKnee = 0.8

// saturate maps a score in [0, ∞) to [0, 1): the identity
// up to lexicalKnee, then 1 − (1−knee)·exp(−(x−knee)/(1−knee)), which
// continues it with the same slope and is strictly increasing.
func saturate(x float64) float64 {
	switch {
	case math.IsNaN(x) || x <= 0:
		return 0
	case x <= lexicalKnee:
		return x
	}
	const span = 1 - lexicalKnee
	return 1 - span*math.Exp(-(x-lexicalKnee)/span)
}

// situationInfo is what scoring needs to know of the situation, computed
// once per call.
type situationInfo struct {
	settled  []string // lessons whose decay moved on this read
	project  string
	terms    map[string]struct{}
	hasTerms bool
	// hoodContent and hoodTrigger are the mean cosines of the situation to
	// its nearest lessons (padded with zeros in a small knowledge base):
	// a dense match counts by how far it stands above the situation's
	// neighbourhood, the query-side term of CSLS hubness correction.
	hoodContent, hoodTrigger float64
	// repairs are the unknown query terms read as vocabulary terms.
	repairs []Repair
	// phrased are the lessons one of whose phrasings (a consultant's) the
	// situation covers.
	phrased map[string]bool
}

// neighbourhoodSize is how many nearest lessons define a situation's
// neighbourhood.
const neighbourhoodSize = 10

// neighbourhood returns the mean of the k largest values, counting missing
// values as zero.
func neighbourhood(vals []float64) float64 {
	slices.SortFunc(vals, func(a, b float64) int {
		switch {
		case a > b:
			return -1
		case a < b:
			return 1
		}
		return 0
	})
	var s float64
	for i := 0; i < len(vals) && i < neighbourhoodSize; i++ {
		s += max(vals[i], 0)
	}
	return s / neighbourhoodSize
}

// antiTriggerHit reports whether at least share of the anti-trigger's
// distinctive terms occur in the situation.
// termsIn returns the situation's terms that text holds, one entry per
// occurrence.
func (s *situationInfo) termsIn(text string) []string {
	var out []string
	for _, t := range terms.Tokens(text) {
		if _, ok := s.terms[t]; ok {
			out = append(out, t)
		}
	}
	return out
}

func (s *situationInfo) antiTriggerHit(anti string, share float64) bool {
	at := distinctTerms(anti)
	if len(at) == 0 {
		return false
	}
	n := 0
	for t := range at {
		if _, ok := s.terms[t]; ok {
			n++
		}
	}
	return float64(n)/float64(len(at)) >= share
}

// why explains a scored lesson in one line for the agent.
func (s Scored) why(sit *situationInfo) string {
	var parts []string
	b := s.Breakdown
	if s.HasTrigger && b.Trigger >= b.Content && b.Trigger > 0 {
		parts = append(parts, fmt.Sprintf("situation matches its trigger (%.2f)", b.Trigger))
	} else if b.Content > 0 {
		parts = append(parts, fmt.Sprintf("similar to its content (%.2f)", b.Content))
	}
	if shared := sharedTerms(sit.terms, s.Lesson); len(shared) > 0 {
		parts = append(parts, "shares terms "+strings.Join(shared, ", "))
	}
	if s.Lesson.Counters.Successes+s.Lesson.Counters.Failures > 0 {
		parts = append(parts, fmt.Sprintf("%d successes, %d failures when used", s.Lesson.Counters.Successes, s.Lesson.Counters.Failures))
	}
	if b.AntiTrigger {
		parts = append(parts, "but its anti-trigger matches: it may not apply")
	}
	if s.Lesson.State == StatePending {
		parts = append(parts, "pending: not yet confirmed")
	}
	if s.OtherProject {
		parts = append(parts, "from project "+s.Lesson.Project)
	}
	if len(parts) == 0 {
		return "weak match"
	}
	return strings.Join(parts, "; ")
}

// sharedTerms lists up to five situation terms that occur in the lesson.
func sharedTerms(situation map[string]struct{}, l Lesson) []string {
	lt := distinctTerms(l.Content + "\n" + l.Trigger)
	var out []string
	for t := range situation {
		if _, ok := lt[t]; ok {
			out = append(out, t)
		}
	}
	sortStrings(out)
	if len(out) > 5 {
		out = out[:5]
	}
	return out
}
