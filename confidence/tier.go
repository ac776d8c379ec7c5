package confidence

// Tier is the behaviour band of a composite confidence (seed: application
// threshold policy). It is a string so it stores and marshals as itself.
// Values are plain data, safe for concurrent use.
//
//	core        ≥ 0.8  recalled whenever it resonates, listed first
//	strong      ≥ 0.6  recalled when relevant to the context
//	moderate    ≥ 0.4  returned only on a clear match
//	tentative   ≥ 0.2  tracked silently, never injected
//	deprecated  < 0.2  never injected; archived after 30 days
type Tier string

// The tiers, best first.
const (
	TierCore       Tier = "core"
	TierStrong     Tier = "strong"
	TierModerate   Tier = "moderate"
	TierTentative  Tier = "tentative"
	TierDeprecated Tier = "deprecated"
)

// tierOrder lists every tier, best first; read-only.
var tierOrder = [...]Tier{TierCore, TierStrong, TierModerate, TierTentative, TierDeprecated}

// AllTiers returns every tier, best first, in a fresh slice (for reports
// that list lessons by tier). Safe for concurrent use.
func AllTiers() []Tier { return append([]Tier(nil), tierOrder[:]...) }

// TierOf returns the tier of a composite score under cfg's cut-offs (a
// score exactly on a cut-off belongs to the higher tier). Safe for
// concurrent use.
func TierOf(score float64, cfg Config) Tier {
	switch {
	case score >= cfg.CoreAt:
		return TierCore
	case score >= cfg.StrongAt:
		return TierStrong
	case score >= cfg.ModerateAt:
		return TierModerate
	case score >= cfg.TentativeAt:
		return TierTentative
	}
	return TierDeprecated
}

// Valid reports whether t is one of the five tiers. Safe for concurrent use.
func (t Tier) Valid() bool { return t.Rank() < len(tierOrder) }

// Rank returns 0 for core up to 4 for deprecated, and 5 for an unknown
// tier; lower ranks come first. Safe for concurrent use.
func (t Tier) Rank() int {
	for i, x := range tierOrder {
		if x == t {
			return i
		}
	}
	return len(tierOrder)
}

// Injectable reports whether a lesson of this tier may be given to the agent
// at all (core, strong, moderate). Safe for concurrent use.
func (t Tier) Injectable() bool {
	return t == TierCore || t == TierStrong || t == TierModerate
}

// AlwaysOnResonance reports whether a lesson of this tier is recalled
// whenever it resonates with the situation, without a clear match, and
// listed first (core only). Safe for concurrent use.
func (t Tier) AlwaysOnResonance() bool { return t == TierCore }

// NeedsClearMatch reports whether a lesson of this tier is returned only on
// a clear match (moderate only; core and strong need ordinary relevance,
// the rest are never returned). Safe for concurrent use.
func (t Tier) NeedsClearMatch() bool { return t == TierModerate }

// Tracked reports whether lessons of this tier are kept and updated but
// never injected (tentative and deprecated). Safe for concurrent use.
func (t Tier) Tracked() bool { return t == TierTentative || t == TierDeprecated }

// Injectable reports whether the lesson may be given to the agent now: not
// archived and of an injectable tier. It reads the cached tier, so call
// [AsOf] first. Safe for concurrent use.
func (s State) Injectable() bool {
	return s.Lifecycle != Archived && s.Tier.Injectable()
}
