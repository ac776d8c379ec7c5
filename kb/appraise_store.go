package kb

import (
	"context"
	"time"

	"github.com/innate-mcp/innate-mcp/appraise"
	"github.com/innate-mcp/innate-mcp/route"
)

// AppraiseStore is what Appraise reads beyond Store: the session's recent
// raises and routing state, and the verdict log's calibration points.
// storage.DB implements it; a Store without it cannot appraise. It is a
// separate interface so that other Store implementations keep compiling.
// Implementations must be safe for concurrent use.
type AppraiseStore interface {
	// AppraiseState returns what one appraisal reads of its session (at
	// most window recent appraisals) and the verdict log's calibration
	// revision.
	AppraiseState(ctx context.Context, session string, window int) (AppraiseState, error)
	// CalibrationPoints returns the verdict log's calibration points: every
	// verdict that was not abstained, not censored, had an affirm or caution
	// valence and a success or failure outcome.
	CalibrationPoints(ctx context.Context) ([]appraise.Point, error)
}

// AppraiseTx is the write side of the appraise logs, implemented by the Tx
// of a Store that implements AppraiseStore. Its methods see the
// transaction's own writes.
type AppraiseTx interface {
	// InsertVerdict logs one verdict with its raised and skipped points.
	InsertVerdict(ctx context.Context, v VerdictRecord) error
	// InsertRouting logs one routing decision.
	InsertRouting(ctx context.Context, r RoutingRecord) error
	// SetVerdictOutcome back-fills the outcome of the verdict of a trace and,
	// when heeded is not nil, whether the agent heeded it (a heeded verdict
	// is censored: left out of calibration). It returns ErrNotFound when no
	// verdict has that trace id.
	SetVerdictOutcome(ctx context.Context, traceID string, o Outcome, heeded *bool, at time.Time) error
	// SetMisroute records misroute feedback on the routing decision of a
	// trace; ErrNotFound when there is none.
	SetMisroute(ctx context.Context, traceID string, kind route.Misroute, at time.Time) error
}

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
	Tier          appraise.Tier
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
