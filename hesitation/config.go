package hesitation

import (
	"errors"
	"fmt"
	"time"
)

// ErrInvalidConfig is returned (wrapped) by Config.Validate and by Check for
// a configuration that cannot be used.
var ErrInvalidConfig = errors.New("invalid hesitation config")

// Weights are the score contributions of the signals, in points of the
// 0–100 score. A weight of zero switches a signal off.
type Weights struct {
	// AbsoluteClaim: absolute wording ("clearly", "一定", "絶対に") with no
	// source in the draft or the situation.
	AbsoluteClaim float64 `json:"absolute_claim"`
	// UnsupportedSpecific: numbers, versions, dates, API or flag names that
	// appear neither in the situation (query, tool output, sources, files)
	// nor next to a citation. Reached in full at SpecificSaturation items.
	UnsupportedSpecific float64 `json:"unsupported_specific"`
	// NoHedge: a long reply with no hedging at all.
	NoHedge float64 `json:"no_hedge"`
	// Overconfidence: conclusions outnumbering reasoning.
	Overconfidence float64 `json:"overconfidence"`
	// UnverifiedSuccess: "all tests pass", "fixed", "works now" with no test
	// run in the situation, or with test output that reports failures.
	UnverifiedSuccess float64 `json:"unverified_success"`
	// ErrorPattern: the draft matches a learned error pattern; scaled by
	// the pattern's decayed strength.
	ErrorPattern float64 `json:"error_pattern"`
	// CapabilityGap: the draft says it could not access, run or verify
	// something ("I couldn't run the tests", "as an AI I cannot").
	CapabilityGap float64 `json:"capability_gap"`
	// UnseenReference: the query points at material (a URL, "the attached
	// screenshot", "this article") that the situation does not contain.
	UnseenReference float64 `json:"unseen_reference"`
}

// MaxScore is the highest hesitation score; thresholds and weights are
// points out of it.
const MaxScore = 100

// Config holds thresholds, weights and limits of Check. The zero value is
// not useful; start from DefaultConfig. A Config is a plain value, safe to
// copy and to share between goroutines.
type Config struct {
	// Enabled switches hesitation on. When false, Check returns score 0
	// and proceed for every action without looking at the draft.
	Enabled bool `json:"enabled"`
	// HedgeThreshold is the score from which a reply is hedged, a task
	// needs review, and memory writes and world-changing actions hold (the
	// lower threshold; its key is "lower").
	HedgeThreshold int `json:"lower"`
	// HoldThreshold is the score from which a reply or task is held (the
	// upper threshold; its key is "upper").
	HoldThreshold int `json:"upper"`
	// Weights of the signals.
	Weights Weights `json:"weights"`
	// MaxDraftBytes is the largest draft Check accepts; larger drafts get
	// ErrDraftTooLarge.
	MaxDraftBytes int `json:"max_draft_bytes"`
	// LongReplyRunes is the length in characters from which a reply with
	// no hedging raises the no_hedge signal.
	LongReplyRunes int `json:"long_reply_runes"`
	// MinConclusions is the number of conclusion markers from which the
	// overconfidence signal compares conclusions with reasoning.
	MinConclusions int `json:"min_conclusions"`
	// SpecificSaturation is the number of unsupported specifics at which
	// that signal reaches its full weight; fewer give a proportional share.
	SpecificSaturation int `json:"specific_saturation"`
	// PatternHalfLife is the time after which an error pattern that has not
	// triggered keeps half its strength.
	PatternHalfLife time.Duration `json:"pattern_half_life"`
	// PatternCoverage is the share of a pattern's keyword weight a draft
	// must contain to match it; the i-th keyword weighs 1/(i+1).
	PatternCoverage float64 `json:"pattern_coverage"`
	// PatternFloor is the decayed strength under which a pattern no longer
	// matches; see Expired.
	PatternFloor float64 `json:"pattern_floor"`
}

// DefaultConfig returns the defaults: thresholds 30 and 50 and the signal
// weights of the seed design, with the error-pattern weight raised to the
// upper threshold so that repeating a fresh user correction holds even a
// reply. It is safe for concurrent use.
func DefaultConfig() Config {
	return Config{
		Enabled:        true,
		HedgeThreshold: 30,
		HoldThreshold:  50,
		Weights: Weights{
			AbsoluteClaim:       20,
			UnsupportedSpecific: 20,
			NoHedge:             15,
			Overconfidence:      15,
			UnverifiedSuccess:   30,
			ErrorPattern:        50,
			CapabilityGap:       20,
			UnseenReference:     25,
		},
		MaxDraftBytes:      256 << 10,
		LongReplyRunes:     200,
		MinConclusions:     3,
		SpecificSaturation: 4,
		PatternHalfLife:    30 * 24 * time.Hour,
		PatternCoverage:    0.34,
		PatternFloor:       0.05,
	}
}

// Validate reports whether c can be used: thresholds within 0–100 with
// HedgeThreshold <= HoldThreshold, non-negative weights, positive limits. It returns an
// error wrapping ErrInvalidConfig that names the first bad field.
func (c Config) Validate() error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalidConfig, fmt.Sprintf(format, a...))
	}
	switch {
	case c.HedgeThreshold < 0 || c.HedgeThreshold > MaxScore:
		return bad("lower=%d, want 0..100", c.HedgeThreshold)
	case c.HoldThreshold < c.HedgeThreshold || c.HoldThreshold > MaxScore:
		return bad("upper=%d, want lower..100", c.HoldThreshold)
	case c.MaxDraftBytes <= 0:
		return bad("max_draft_bytes=%d, want > 0", c.MaxDraftBytes)
	case c.LongReplyRunes <= 0:
		return bad("long_reply_runes=%d, want > 0", c.LongReplyRunes)
	case c.MinConclusions <= 0:
		return bad("min_conclusions=%d, want > 0", c.MinConclusions)
	case c.SpecificSaturation <= 0:
		return bad("specific_saturation=%d, want > 0", c.SpecificSaturation)
	case c.PatternHalfLife <= 0:
		return bad("pattern_half_life=%v, want > 0", c.PatternHalfLife)
	case !(c.PatternCoverage > 0 && c.PatternCoverage <= 1):
		return bad("pattern_coverage=%v, want (0, 1]", c.PatternCoverage)
	case c.PatternFloor < 0 || c.PatternFloor >= 1:
		return bad("pattern_floor=%v, want 0..1", c.PatternFloor)
	}
	w := c.Weights
	for _, v := range []float64{w.AbsoluteClaim, w.UnsupportedSpecific, w.NoHedge, w.Overconfidence, w.UnverifiedSuccess, w.ErrorPattern, w.CapabilityGap, w.UnseenReference} {
		if v < 0 || v > MaxScore || v != v {
			return bad("weights must be within 0..100")
		}
	}
	return nil
}
