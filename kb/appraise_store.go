package kb

import (
	"time"

	"github.com/innate-mcp/innate-mcp/appraise"
	"github.com/innate-mcp/innate-mcp/route"
)

// AppraiseState is what one appraisal reads of its session and the verdict
// log. A plain value, safe to read concurrently.
type AppraiseState struct {
	// SessionTraces counts the traces (tool calls) recorded in the session;
	// a store may cap the count (storage caps it at 100).
	SessionTraces int
	// Recent lists the session's most recent appraisals, newest first.
	Recent []RecentAppraisal
	// Route is the router's state after the session's last decision; nil
	// for none.
	Route *route.SessionState
	// CalibrationRev changes whenever a verdict's outcome or censoring is
	// back-filled: calibration points are re-read only then.
	CalibrationRev int64
}

// RecentAppraisal is one earlier appraisal of a session: the lessons it
// raised. Plain data.
type RecentAppraisal struct {
	TraceID string
	Raised  []string
}

// VerdictRecord is one row of the verdict log, with the hand-raise
// bookkeeping of its flagged points (raised and skipped). Plain data.
type VerdictRecord struct {
	TraceID      string
	Session      string
	CreatedAt    time.Time
	Mode         appraise.Mode
	HasCandidate bool
	Support      float64
	Valence      appraise.Valence
	// Directional is the valence the verdict would have had without an
	// abstention.
	Directional   appraise.Valence
	Strength      float64
	Confidence    float64
	Dispersion    float64
	Band          appraise.Band
	Abstained     bool
	AbstainReason appraise.AbstainReason
	Evidence      float64
	Agreement     float64
	Resonating    int
	TopResonance  float64
	Contributors  []appraise.Contributor
	Raises        []appraise.Raise
}

// RoutingRecord is one row of the routing log: the decision with its
// signals, scores and guards, the warmth and weights it was computed with,
// and the time it took. Plain data.
type RoutingRecord struct {
	TraceID   string
	Session   string
	CreatedAt time.Time
	Warmth    route.Warmth
	Decision  route.Decision
	Weights   map[string]float64
	Elapsed   time.Duration
}
