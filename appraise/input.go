package appraise

import (
	"strings"

	"github.com/innate-mcp/innate-mcp/confidence"
	"github.com/innate-mcp/innate-mcp/directive"
)

// Lesson is one lesson as the knowledge base scored it for the situation
// (candidate folded in): the decomposition of recall's fused score, and what
// the critic needs of the lesson's text and evidence. A plain value, safe to
// copy and to read concurrently.
type Lesson struct {
	ID          string
	Content     string
	Trigger     string
	AntiTrigger string
	// Caution is true for a lesson learned from a failure or a correction
	// (kind caution).
	Caution bool
	// Origin says where the lesson came from; it weighs as evidence.
	Origin confidence.Origin

	// Score is the fused score recall ranks on (resonance plus calibration,
	// times penalties); Resonance is the similarity part alone and
	// Calibration the confidence/history/use part.
	Score, Resonance, Calibration float64
	// Lexical is the lexical channel of Resonance (BM25 over the
	// situation's terms, normalised to [0,1]); HasTrigger is true for a
	// lesson with a trigger.
	Lexical    float64
	HasTrigger bool
	// TriggerCos is the centred cosine of the situation to the trigger
	// (before recall maps it to relevance above the neighbourhood): about 0
	// for unrelated text, 0.3 to 0.55 for a matching trigger with the
	// built-in embedder.
	TriggerCos float64
	// AntiTriggerHit is true when the lesson's anti-trigger matches the
	// situation or the candidate.
	AntiTriggerHit bool
	// Confidence is the lesson's confidence in [0, 1].
	Confidence float64
	// Context is the lesson's outcome balance in situations like this one,
	// in (−1, 1); 0 without history.
	Context float64

	// Successes and Failures count observed outcomes of the lesson's use;
	// Approvals and Rejects count people's judgements.
	Successes, Failures, Approvals, Rejects int

	// Directive is what the lesson requires and forbids (package
	// directive); nil when not derived. A lesson with a directive speaks
	// only through compliance: the candidate breaks it (caution) or does
	// what it asks (affirm); one that describes never cautions or affirms.
	Directive *directive.Directive
	// Own is true for a lesson of the situation's project, or a rule the
	// user stated for every project: the rules that decide come from these
	// before any other project's or an imported global corpus's.
	Own bool
	// NotRule is true for a line a consultant read as no rule (a
	// description, a map, an example, a note not for agents): whatever its
	// words, it asks for nothing, so a candidate that leaves out what it
	// names is not cautioned for it (a candidate that does what it names
	// or breaks what it names outright is read as before; tried on the
	// rules sets, letting such a line decide nothing let worse rules
	// decide). A check a person gave it still decides (Input.Breaches).
	NotRule bool
}

// History is what the session's recent appraisals raised, for novelty and
// over-raising. The zero value is a fresh session. A plain value, safe to
// read concurrently.
type History struct {
	// Calls counts the session's recent appraisals considered (at most
	// HistoryWindow).
	Calls int
	// Raised maps a lesson id to how many calls ago it was raised, one entry
	// per call that raised it (1 = the previous call).
	Raised map[string][]int
}

// Input is everything one appraisal reads. Appraise only reads it, so one
// Input may be appraised from several goroutines.
type Input struct {
	// Lessons are the scored candidates of the situation, in any order.
	Lessons []Lesson
	// Candidate is the (sanitised) draft under judgement; "" for none.
	Candidate string
	// Situation is the text of the situation the candidate answers (its
	// query and files): a rule whose condition names what was changed
	// applies when either names it.
	Situation string
	// Mode is the hand-raise mode; "" is Focus.
	Mode Mode
	// History is the session's recent raises.
	History History
	// Calibration maps strength to confidence; the zero value is identity.
	Calibration Calibration
	// Patterns, when not nil, caches the compiled patterns of rules'
	// objects across appraisals (the knowledge base holds one).
	Patterns *directive.Patterns
	// Breaches maps a lesson's id to what of the candidate breaks one of
	// its checks structurally (a command the plan runs, a commit message it
	// writes), as the hooks judge a tool call (package check): such a
	// lesson, when it applies, decides as a caution before its prose is
	// read.
	Breaches map[string]string
	// Outright are the lessons of Breaches whose check asks (the hooks
	// would interrupt the call) and whose breach holds whatever the session
	// ran before (not a step missing before the plan's command): such a
	// lesson decides however its rule ranks.
	Outright map[string]bool
}

// The reasons a flagged point is skipped (Raise.Reason).
const (
	SkipBelowThreshold = "below_threshold" // will under the mode's threshold
	SkipQuiet          = "quiet"           // quiet mode and no anti-trigger hit
	SkipCap            = "cap"             // more points than Config.RaiseMax
)

// Raise is the hand-raise bookkeeping of one flagged point: its will and
// the will's parts, whether it was raised and, when not, why. Points not
// raised are the skipped points the log keeps. Plain data.
type Raise struct {
	LessonID   string  `json:"lesson_id"`
	Relevance  float64 `json:"relevance"`
	Novelty    float64 `json:"novelty"`
	Confidence float64 `json:"confidence"`
	Damping    float64 `json:"damping"` // factor applied for over-raising (1 = none)
	Will       float64 `json:"will"`
	Raised     bool    `json:"raised"`
	Reason     string  `json:"reason,omitempty"` // why it was skipped
}

// Result is a verdict with what the log records besides it. Plain data,
// safe to read concurrently.
type Result struct {
	Verdict Verdict
	// Directional is the valence the verdict would have had without an
	// abstention (neutral when nothing directional resonated): an
	// abstention's outcome tells whether abstaining was right.
	Directional Valence
	// Support is the candidate's support in [0, 1]; HasCandidate is false
	// when no candidate was given (Support is then 1).
	Support      float64
	HasCandidate bool
	// Evidence is the resonance-weighted evidence of the resonating lessons
	// and Agreement the best signature agreement among them.
	Evidence, Agreement float64
	// Resonating counts lessons whose raw resonance clears the floor;
	// TopResonance is the best raw resonance and MeanConfidence the mean
	// confidence of the resonating lessons (the router's warmth).
	Resonating     int
	TopResonance   float64
	MeanConfidence float64
	// Raises holds every flagged point's will and whether it was raised.
	Raises []Raise
}

// Skipped returns the flagged points that were not raised, with their will
// and reason, for the log. The slice is fresh; it is safe for concurrent use.
func (r Result) Skipped() []Raise {
	var out []Raise
	for _, x := range r.Raises {
		if !x.Raised {
			out = append(out, x)
		}
	}
	return out
}

// cmpTie orders lessons of the same score by their text, then id: ids are
// random, and an answer must not depend on them.
func cmpTie(a, b Lesson) int {
	if c := strings.Compare(a.Content, b.Content); c != 0 {
		return c
	}
	return strings.Compare(a.ID, b.ID)
}
