package dashboard

// STAND-IN: DELETE AT INTEGRATION. The types below are the contract's kb
// types (kb/dashboard.go, written by the "store" helper on another branch),
// declared here with the same names and shapes so that this package
// compiles before the merge. At integration: delete the types of this
// file, replace each use with kb's (kb.Activity, kb.HeldDraft, kb.DayCount,
// kb.DayPoints), and keep activityReader (its methods then name kb's types).

import (
	"context"
	"time"

	"github.com/innate-mcp/innate-mcp/appraise"
	"github.com/innate-mcp/innate-mcp/kb"
)

// Activity is one thing that happened to a lesson (stand-in for
// kb.Activity): returned by a recall, used, an outcome, a feedback.
type Activity struct {
	At      time.Time
	Kind    string // "returned", "used", "outcome", "feedback"
	TraceID string
	Tool    string
	Rank    int
	Signal  string
	Reason  string
	Outcome kb.Outcome
}

// HeldDraft is a hesitate call that held or hedged a draft (stand-in for
// kb.HeldDraft).
type HeldDraft struct {
	TraceID    string
	At         time.Time
	Score      float64
	Signals    []string
	Behaviours []string
	Excerpt    string
	Review     string // "", "confirmed", "rejected"
}

// DayCount is the number of routing decisions of one mode on one day
// (stand-in for kb.DayCount).
type DayCount struct {
	Day   string // 2006-01-02
	Mode  string
	Count int
}

// DayPoints are the calibration points of the verdicts of one day
// (stand-in for kb.DayPoints).
type DayPoints struct {
	Day    string
	Points []appraise.Point
}

// activityReader is what the dashboard reads beyond kb.Admin: the
// contract's new store methods. The store is type-asserted to it; a store
// that does not implement it shows "not available" where these are used.
// (Keep this interface at integration.)
type activityReader interface {
	LessonActivity(ctx context.Context, lessonID string, limit int) ([]Activity, error)
	HeldDrafts(ctx context.Context, pendingOnly bool, limit int) ([]HeldDraft, error)
	HesitationScores(ctx context.Context, since time.Time) ([]float64, error)
	ModeSeries(ctx context.Context, since time.Time) ([]DayCount, error)
	CalibrationSeries(ctx context.Context, since time.Time) ([]DayPoints, error)
}
