package kb

import (
	"fmt"
	"time"
)

// Retention bounds the traces a store keeps: every tool call writes one
// (with its request and response) and appraise, hesitate and recall write
// log rows beside it, so without a bound the store grows with every call.
// A store's Prune deletes the traces older than MaxAge and those beyond
// the newest MaxTraces, with their log rows, after folding what the stats
// report counts of them into tallies (see TallyRecall: stats keeps
// counting every call ever made) and keeping the strength and hit of each
// verdict the calibration is fitted on (the calibration does not change).
// A pruned trace is gone: Trace returns ErrNotFound, and record refuses
// its id as unknown. A zero field sets no bound of its kind. Retention is
// a plain value.
type Retention struct {
	// MaxAge is how long a trace is kept; at least MinRetentionAge.
	MaxAge time.Duration
	// MaxTraces is how many traces are kept, the newest; at least
	// MinRetentionTraces.
	MaxTraces int
}

// The smallest bounds Retention.Validate accepts: the regulator reads the
// logs of the last 24 hours and judges a change 48 hours after it, and it
// needs samples to judge on.
const (
	MinRetentionAge    = 48 * time.Hour
	MinRetentionTraces = 1000
)

// DefaultRetention is the retention a server and the CLI prune by unless
// configured otherwise: 30 days and 5,000 traces.
func DefaultRetention() Retention {
	return Retention{MaxAge: 30 * 24 * time.Hour, MaxTraces: 5_000}
}

// Validate refuses a bound below the minimum (and a negative one), saying
// why.
func (r Retention) Validate() error {
	switch {
	case r.MaxAge < 0 || (r.MaxAge > 0 && r.MaxAge < MinRetentionAge):
		return fmt.Errorf("a trace retention of %v is too short: the regulator reads the logs of the last 24 hours and judges a change after 48; "+
			"keep traces at least %d days, or set no age limit (0)", r.MaxAge, int(MinRetentionAge.Hours()/24))
	case r.MaxTraces < 0 || (r.MaxTraces > 0 && r.MaxTraces < MinRetentionTraces):
		return fmt.Errorf("a trace retention of %d traces is too small: the regulator needs a day of logs to judge on; "+
			"keep at least %d, or set no count limit (0)", r.MaxTraces, MinRetentionTraces)
	}
	return nil
}

// KeepsAll reports whether r sets no bound.
func (r Retention) KeepsAll() bool { return r.MaxAge <= 0 && r.MaxTraces <= 0 }

// PruneReport says what one Prune of a store did. A plain value.
type PruneReport struct {
	// Deleted counts the traces deleted, their figures folded into the
	// tallies the stats read.
	Deleted int `json:"deleted"`
	// Batches counts the write transactions pruning took.
	Batches int `json:"batches"`
	// More is true when Prune stopped at its batch limit: traces may be
	// left to prune.
	More bool `json:"more"`
	// ReclaimedBytes is what the file gave back to the file system (the
	// SQLite store; PostgreSQL's autovacuum reclaims space on its own, and
	// its store reports 0).
	ReclaimedBytes int64 `json:"reclaimed_bytes"`
	// Converted is true when this Prune switched a SQLite database created
	// before retention to incremental auto-vacuum (one VACUUM).
	Converted bool `json:"converted"`
}

// PruneBatch is how many traces one prune transaction deletes: a few
// milliseconds of write lock.
const PruneBatch = 200
