package confidence

import (
	"cmp"
	"math"
)

// Authority orders lessons by who stands behind them, most authoritative
// first: 0 user-stated, 1 imported, 2 active agent-inferred, 3 pending
// agent-inferred (and anything unknown). Archived lessons rank after all of
// these (4). Safe for concurrent use.
func Authority(s State) int {
	switch {
	case s.Lifecycle == Archived:
		return 4
	case s.Origin == OriginUserStated:
		return 0
	case s.Origin == OriginImported:
		return 1
	case s.Origin == OriginAgentInferred && s.Lifecycle == Active:
		return 2
	}
	return 3
}

// Candidate is a lesson competing for a place in a recall or appraise
// result: its match score for the current situation (higher is better) and
// its State (after [AsOf]). ID only breaks exact ties. Plain value, safe for
// concurrent use.
type Candidate struct {
	ID    string
	Match float64
	State State
}

// Compare orders candidates for listing, for use with slices.SortFunc: it
// returns a negative number when a comes before b. Matches are compared in
// buckets of [Config.MatchBucket] (so "equal match" is transitive); within a
// bucket a more authoritative lesson comes first (see [Authority]), so a
// pending or agent-inferred lesson never outranks a user-stated one at
// equal match; then the better tier (core first), the higher composite, the
// higher raw match, and finally the smaller ID. Safe for concurrent use.
func Compare(a, b Candidate, cfg Config) int {
	if c := cmp.Compare(bucket(b.Match, cfg), bucket(a.Match, cfg)); c != 0 {
		return c
	}
	if c := cmp.Compare(Authority(a.State), Authority(b.State)); c != 0 {
		return c
	}
	if c := cmp.Compare(a.State.Tier.Rank(), b.State.Tier.Rank()); c != 0 {
		return c
	}
	if c := cmp.Compare(b.State.Composite, a.State.Composite); c != 0 {
		return c
	}
	if c := cmp.Compare(b.Match, a.Match); c != 0 {
		return c
	}
	return cmp.Compare(a.ID, b.ID)
}

func bucket(match float64, cfg Config) float64 {
	if math.IsNaN(match) {
		return math.Inf(-1)
	}
	if cfg.MatchBucket <= 0 {
		return match
	}
	// The epsilon keeps 0.70/0.05 (13.999…) in bucket 14.
	return math.Floor(match/cfg.MatchBucket + 1e-9)
}
