package appraise

import (
	"errors"
	"fmt"
)

// Advisory is the fixed text every verdict carries: the verdict is a
// reference signal, not an answer.
const Advisory = "Reference signal only: this is intuition (footing or caution), not an answer and not verified. " +
	"Weigh it as one input among others; never defer to it or let it override your own analysis. " +
	"flagged_points are things to watch for, never solutions. " +
	"abstained=true means the knowledge base gives no footing here: that is correct behaviour, not a failure."

// Valence is the polarity of a verdict or of one lesson in it. Its string
// form is the wire and log form. A plain value, safe for concurrent use.
type Valence string

// The valences.
const (
	// Affirm: lessons that match by their trigger and are backed by positive
	// evidence give footing here.
	Affirm Valence = "affirm"
	// Caution: an anti-trigger matched, a lesson learned from a failure or a
	// correction resonates, or similar situations went badly.
	Caution Valence = "caution"
	// Mixed: affirming and cautioning lessons of comparable strength.
	Mixed Valence = "mixed"
	// Neutral: nothing directional (or the verdict abstained).
	Neutral Valence = "neutral"
)

// Band is the band of a verdict's strength: weak, medium or strong. It is
// not a lesson's confidence tier (package confidence). Its string form is
// the wire and log form ("tier" in JSON and in the verdict log). A plain
// value, safe for concurrent use.
type Band string

// The bands, from Config.BandMedium and Config.BandStrong.
const (
	Weak   Band = "weak"
	Medium Band = "medium"
	Strong Band = "strong"
)

// AbstainReason names the gate that made a verdict abstain. A plain value,
// safe for concurrent use.
type AbstainReason string

// The abstention gates, in the order they are applied.
const (
	WeakResonance  AbstainReason = "weak_resonance"
	FalseResonance AbstainReason = "false_resonance"
	SparseEvidence AbstainReason = "sparse_evidence"
	Conflicted     AbstainReason = "conflicted"
)

// Mode is the hand-raise mode of an appraisal: how eager flagged points are
// to be raised. A plain value, safe for concurrent use.
type Mode string

// The hand-raise modes.
const (
	// Focus raises points whose will reaches Config.RaiseFocus (the default).
	Focus Mode = "focus"
	// Brainstorm raises points whose will reaches Config.RaiseBrainstorm.
	Brainstorm Mode = "brainstorm"
	// Quiet raises nothing unless the situation matches a lesson's
	// anti-trigger (and then at Config.RaiseQuietAnti).
	Quiet Mode = "quiet"
)

// ErrUnknownMode is returned (wrapped) by ParseMode; compare with errors.Is.
var ErrUnknownMode = errors.New("unknown appraise mode")

// ParseMode returns the Mode named by s; "" is Focus. It returns an error
// wrapping ErrUnknownMode for anything else. It is safe for concurrent use.
func ParseMode(s string) (Mode, error) {
	switch Mode(s) {
	case "", Focus:
		return Focus, nil
	case Brainstorm, Quiet:
		return Mode(s), nil
	}
	return "", fmt.Errorf("parse mode %q: %w", s, ErrUnknownMode)
}

// FlaggedPoint is one thing to watch for: a caution from a lesson's trigger
// or caution text ("watch out for X"), never a prescribed solution. Plain
// data, safe to read concurrently.
type FlaggedPoint struct {
	LessonID string `json:"lesson_id" jsonschema_description:"Id of the lesson the point comes from."`
	// Summary is what to watch for, built from the lesson's trigger or
	// caution text; it never contains the candidate's text.
	Summary     string  `json:"summary" jsonschema_description:"What to watch out for. Never a solution."`
	Resonance   float64 `json:"resonance" jsonschema_description:"The lesson's raw resonance: similarity alone, in [0,1]."`
	Calibration float64 `json:"calibration" jsonschema_description:"The lesson's calibration term: weighted confidence, outcome history and use."`
	Strength    float64 `json:"strength" jsonschema_description:"The lesson's fused score, in [0,1]."`
	Will        float64 `json:"will" jsonschema_description:"Hand-raise will: 0.5·relevance + 0.3·novelty + 0.2·confidence, after damping."`
}

// Contributor is one lesson a verdict rests on. Plain data, safe to read
// concurrently.
type Contributor struct {
	LessonID string  `json:"lesson_id" jsonschema_description:"Id of a resonating lesson."`
	Valence  Valence `json:"valence" jsonschema:"enum=affirm,enum=caution,enum=neutral" jsonschema_description:"What the lesson says of the situation."`
	Strength float64 `json:"strength" jsonschema_description:"The lesson's fused score, in [0,1]."`
}

// Verdict is the critic's judgement. It has no answer-bearing field and must
// never grow one: a test walks this type and its JSON for names like
// answer, fix, solution, corrected or suggestion. Plain data, safe to read
// concurrently.
type Verdict struct {
	Valence  Valence `json:"valence" jsonschema:"enum=affirm,enum=caution,enum=mixed,enum=neutral" jsonschema_description:"affirm: the knowledge base gives footing; caution: be careful here; mixed: both; neutral: nothing directional."`
	Strength float64 `json:"strength" jsonschema_description:"Raw footing in [0,1]: the best fused score among resonating lessons, times the candidate's support when a candidate was given."`
	// Band is named "tier" on the wire, as clients have always read it.
	Band          Band           `json:"tier" jsonschema:"enum=weak,enum=medium,enum=strong" jsonschema_description:"Band of strength."`
	Confidence    float64        `json:"confidence" jsonschema_description:"Strength calibrated against observed outcomes (identity until enough are recorded); 0 when abstained."`
	Dispersion    float64        `json:"dispersion" jsonschema_description:"Spread (max − min) of the contributors' strengths."`
	Abstained     bool           `json:"abstained" jsonschema_description:"true when the knowledge base gives no footing: correct behaviour, not a failure."`
	AbstainReason AbstainReason  `json:"abstain_reason,omitempty" jsonschema:"enum=weak_resonance,enum=false_resonance,enum=sparse_evidence,enum=conflicted" jsonschema_description:"The gate that abstained."`
	FlaggedPoints []FlaggedPoint `json:"flagged_points" jsonschema_description:"Things to watch out for, raised by hand-raise will; never solutions."`
	Contributors  []Contributor  `json:"contributors" jsonschema_description:"The resonating lessons the verdict rests on."`
	TraceID       string         `json:"trace_id" jsonschema_description:"Pass to record with the outcome (and verdict_heeded) so the verdict can be calibrated."`
	Advisory      string         `json:"advisory" jsonschema_description:"How to use this verdict."`
}
