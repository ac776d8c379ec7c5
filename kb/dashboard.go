package kb

import (
	"context"
	"time"

	"github.com/innate-mcp/innate-mcp/appraise"
)

// DashboardReader is what the local dashboard (innate-mcp ui) reads of a
// store beyond Store and StatsReader: a lesson's activity, the hesitate
// calls awaiting review, and the logs' figures over time. Times are UTC;
// a day is a UTC calendar day written 2006-01-02. Where text is sorted it
// is sorted by its bytes, so that every store gives the same order.
type DashboardReader interface {
	// LessonActivity returns what happened to a lesson, newest first, at
	// most limit (none when limit <= 0): the traces that returned it
	// (recall, appraise), with its rank and score there and the trace's
	// outcome, and the evidence recorded about it (used, outcome credit,
	// feedback up or down with its reason), each at the time its current
	// signal was written. ErrNotFound when there is no such lesson.
	LessonActivity(ctx context.Context, lessonID string, limit int) ([]Activity, error)
	// HeldDrafts returns the hesitate calls that held, hedged or flagged
	// for review some action, newest first, at most limit (none when
	// limit <= 0), with their review ("" when not reviewed); only the
	// unreviewed ones when pendingOnly.
	HeldDrafts(ctx context.Context, pendingOnly bool, limit int) ([]HeldDraft, error)
	// HesitationScores returns the scores of the hesitate calls logged
	// since a time, oldest first (for a histogram).
	HesitationScores(ctx context.Context, since time.Time) ([]float64, error)
	// ModeSeries counts the routing decisions per UTC day and mode since a
	// time, oldest day first, modes sorted within a day; a day or a mode
	// with no decision has no entry.
	ModeSeries(ctx context.Context, since time.Time) ([]DayCount, error)
	// CalibrationSeries returns, per UTC day since a time, the calibration
	// points (see Store.CalibrationPoints) of the verdicts logged that
	// day, oldest day first and in the order logged within a day; a day
	// with none has no entry. Points archived by pruning carry no day and
	// are left out.
	CalibrationSeries(ctx context.Context, since time.Time) ([]DayPoints, error)
}

// The kinds of Activity.
const (
	// ActivityReturned: a trace (recall, appraise) returned the lesson.
	ActivityReturned = "returned"
	// ActivityUsed, ActivityOutcome and ActivityFeedback are the
	// evidence kinds (EvidenceUsed, EvidenceOutcome, EvidenceFeedback).
	ActivityUsed     = string(EvidenceUsed)
	ActivityOutcome  = string(EvidenceOutcome)
	ActivityFeedback = string(EvidenceFeedback)
)

// Activity is one thing that happened to a lesson. Plain data.
type Activity struct {
	// At is when it happened: the trace's time for "returned", the time
	// the evidence's current signal was written otherwise.
	At time.Time `json:"at"`
	// Kind is ActivityReturned, ActivityUsed, ActivityOutcome or
	// ActivityFeedback.
	Kind string `json:"kind"`
	// TraceID and Tool are the trace it happened in and its tool.
	TraceID string `json:"trace_id"`
	Tool    string `json:"tool"`
	// Rank and Score are the lesson's place and score among those the
	// trace returned (0 when the trace did not return it).
	Rank  int     `json:"rank"`
	Score float64 `json:"score"`
	// Signal and Reason are the evidence's ("used"; the outcome credited;
	// "up" or "down" with the user's reason); empty for "returned".
	Signal string `json:"signal,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Outcome is the trace's outcome, "" while none is recorded.
	Outcome Outcome `json:"outcome,omitempty"`
}

// HeldDraft is a hesitate call that held, hedged or flagged some action.
// Plain data.
type HeldDraft struct {
	TraceID string    `json:"trace_id"`
	At      time.Time `json:"at"`
	// Score is the hesitation score (0 to 100), Threshold the score from
	// which an action stops simply proceeding.
	Score     float64 `json:"score"`
	Threshold int     `json:"threshold"`
	// Signals are the types of the signals that fired, heaviest first,
	// each once.
	Signals []string `json:"signals"`
	// Actions and Behaviours are the plan: per intended action, what to do
	// with it ("proceed", "hedge", "hold", "needs_review").
	Actions    []string `json:"actions"`
	Behaviours []string `json:"behaviours"`
	// Excerpt is the start of the draft as its trace logged it (redacted),
	// on one line; "" when the trace holds no draft.
	Excerpt string `json:"excerpt"`
	// Review is "", "confirmed" or "rejected".
	Review string `json:"review"`
}

// DayCount is the count of one mode's routing decisions on a UTC day.
type DayCount struct {
	Day   string `json:"day"` // 2006-01-02
	Mode  string `json:"mode"`
	Count int    `json:"count"`
}

// DayPoints are the calibration points of the verdicts of a UTC day.
type DayPoints struct {
	Day    string           `json:"day"` // 2006-01-02
	Points []appraise.Point `json:"points"`
}
