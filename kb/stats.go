package kb

import (
	"context"
	"time"
)

// StatsReader is the part of a store that summarises its logs for the
// health report (package stats). Implementations must be safe for
// concurrent use. With a zero since, each summary covers everything ever
// logged, pruned rows included (from their tallies); with another it
// covers the rows still held.
type StatsReader interface {
	// RecallStats summarises the recall traces since a time, with the top
	// lessons by share of selections.
	RecallStats(ctx context.Context, since time.Time, top int) (RecallStats, error)
	// AppraiseStats summarises the verdict log since a time.
	AppraiseStats(ctx context.Context, since time.Time) (AppraiseStats, error)
	// ModeCounts counts the routing decisions by mode since a time.
	ModeCounts(ctx context.Context, since time.Time) (map[string]int, error)
	// HesitationStats summarises the hesitation audit log since a time.
	HesitationStats(ctx context.Context, since time.Time) (HesitationStats, error)
	// Contradictions lists every contradicts link and whether it is
	// resolved.
	Contradictions(ctx context.Context) ([]Contradiction, error)
}

// Usage is the share of recall selections one lesson takes.
type Usage struct {
	LessonID string  `json:"lesson_id"`
	Content  string  `json:"content"`
	Count    int     `json:"count"`
	Share    float64 `json:"share"`
}

// RecallStats summarises the recall traces.
type RecallStats struct {
	Calls      int     `json:"calls"`
	Empty      int     `json:"empty"`
	EmptyRate  float64 `json:"empty_rate"`
	Selections int     `json:"selections"` // lessons returned, all calls together
	Top        []Usage `json:"top"`        // lessons with the largest share of selections
}

// Contradiction is a pair of lessons that say opposite things.
type Contradiction struct {
	A, B     string
	Resolved bool // one of them is archived
}

// AppraiseStats summarises the verdict log.
type AppraiseStats struct {
	Verdicts    int     `json:"verdicts"`
	Abstained   int     `json:"abstained"`
	AbstainRate float64 `json:"abstain_rate"`
	// KnownAbstentions have an uncensored outcome; Justified ones would
	// have missed had the verdict spoken (its directional call was wrong).
	KnownAbstentions    int     `json:"known_abstentions"`
	Justified           int     `json:"justified"`
	AbstentionPrecision float64 `json:"abstention_precision"` // -1 without data
	// Calibrated are directional verdicts with an uncensored outcome; ECE
	// and Brier compare their confidence with whether they hit.
	Calibrated int     `json:"calibrated"`
	ECE        float64 `json:"ece"`   // -1 without data
	Brier      float64 `json:"brier"` // -1 without data
}

// HesitationStats summarises the hesitation audit log.
type HesitationStats struct {
	Calls       int            `json:"calls"`
	Triggered   int            `json:"triggered"`    // score at or above the threshold
	TriggerRate float64        `json:"trigger_rate"` // triggered / calls
	Held        int            `json:"held"`         // some action held or marked for review
	Confirmed   int            `json:"confirmed"`    // held items reviewed as rightly held
	Rejected    int            `json:"rejected"`     // held items reviewed as wrongly held
	Signals     map[string]int `json:"signals"`      // calls in which each signal fired
	Patterns    int            `json:"patterns"`     // error patterns learned
}
