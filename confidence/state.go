package confidence

import (
	"time"
)

// Origin says where a lesson came from. It is a string so it stores and
// marshals as itself. Values are plain data, safe for concurrent use.
type Origin string

// The origins of a lesson.
const (
	// OriginUserStated: the user said it. Starts active, counts as
	// [Config.UserStatedApprovals] approvals in the human dimension, and
	// outranks the others at equal match (see [Compare], [Resolve]).
	OriginUserStated Origin = "user_stated"
	// OriginAgentInferred: the agent inferred it. Starts pending until
	// confirmed (see [Config.PromoteAfterSessions]).
	OriginAgentInferred Origin = "agent_inferred"
	// OriginImported: loaded from a rule file or another store. Starts
	// active with neutral human score.
	OriginImported Origin = "imported"
)

// Valid reports whether o is one of the defined origins. Safe for
// concurrent use.
func (o Origin) Valid() bool {
	return o == OriginUserStated || o == OriginAgentInferred || o == OriginImported
}

// Lifecycle is a lesson's state. Deprecation is not a lifecycle state but a
// tier (see [TierDeprecated]) with a start time in [State.DeprecatedSince].
// Values are plain data, safe for concurrent use.
type Lifecycle string

// The lifecycle states.
const (
	// Pending: agent-inferred and not yet confirmed.
	Pending Lifecycle = "pending"
	// Active: confirmed, user-stated or imported.
	Active Lifecycle = "active"
	// Archived: kept for history and restore, never recalled, frozen.
	Archived Lifecycle = "archived"
)

// ArchiveReason says why a lesson was archived. Values are plain data, safe
// for concurrent use.
type ArchiveReason string

// The archive reasons.
const (
	// ArchiveDeprecated: deprecated for [Config.ArchiveAfter].
	ArchiveDeprecated ArchiveReason = "deprecated"
	// ArchiveSuperseded: replaced by another lesson (a better-evidenced one
	// it contradicted, or a new wording of its rule) or removed from its
	// rule file.
	ArchiveSuperseded ArchiveReason = "superseded"
	// ArchiveManual: a person archived it.
	ArchiveManual ArchiveReason = "manual"
)

// Verdict is the latest explicit user judgement of a lesson (the seed's
// /reflect review), which dominates the human dimension. Values are plain
// data, safe for concurrent use.
type Verdict string

// The verdicts.
const (
	// VerdictNone: no explicit judgement yet.
	VerdictNone Verdict = ""
	// VerdictApproved: the user explicitly approved it.
	VerdictApproved Verdict = "approved"
	// VerdictRejected: the user explicitly rejected it.
	VerdictRejected Verdict = "rejected"
)

// Confirmation records which kinds of positive evidence one session has
// already given a lesson, so that a session confirms each lesson at most once
// per kind. See [MayConfirm]. Plain data; safe for concurrent reads.
type Confirmation struct {
	Session string `json:"session"`
	Kinds   []Kind `json:"kinds"`
}

// State is everything the lifecycle knows about one lesson: counters,
// timestamps and the cached scores. It is a plain value meant to be stored
// as JSON or as columns; functions in this package take it by value and
// return a new one, so a State is safe to share between goroutines as long
// as nobody mutates it in place (the Recent slice included).
//
// Zero timestamps mean "never".
type State struct {
	Origin        Origin        `json:"origin"`
	Lifecycle     Lifecycle     `json:"lifecycle"`
	ArchiveReason ArchiveReason `json:"archive_reason,omitempty"`
	// ArchivedFrom is the lifecycle to go back to on restore.
	ArchivedFrom Lifecycle `json:"archived_from,omitempty"`

	// Frequency evidence.
	Observations   int `json:"observations"`
	Contradictions int `json:"contradictions"`
	// Effectiveness evidence: applications by outcome. Neutral ones are
	// counted but do not enter the Wilson bound.
	Successes int `json:"successes"`
	Failures  int `json:"failures"`
	Neutrals  int `json:"neutrals"`
	// Human evidence: in-session approvals and corrections reported with a
	// record, and explicit user verdicts.
	Approvals        int       `json:"approvals"`
	Rejections       int       `json:"rejections"`
	StrongApprovals  int       `json:"strong_approvals"`
	StrongRejections int       `json:"strong_rejections"`
	Verdict          Verdict   `json:"verdict,omitempty"`
	VerdictAt        time.Time `json:"verdict_at"`
	// Appraisals counts appraise-derived evidence, which is recorded but
	// never moves confidence.
	Appraisals int `json:"appraisals"`
	// Ignored counts events refused by the no-self-confirmation rules.
	Ignored int `json:"ignored"`

	// SuccessSessions counts credited successful uses; each comes from a
	// distinct session because a session confirms a lesson once.
	SuccessSessions int `json:"success_sessions"`
	// Recent lists the latest sessions that confirmed the lesson, oldest
	// first, capped at [Config.RecentSessions].
	Recent []Confirmation `json:"recent,omitempty"`

	// Debt is the decay not yet repaid, per dimension.
	Debt Dims `json:"debt"`
	// DecayWeeks counts decay periods applied over the lesson's life.
	DecayWeeks int `json:"decay_weeks"`

	CreatedAt  time.Time `json:"created_at"`
	LastUsedAt time.Time `json:"last_used_at"`
	// DecayAnchor is where the next decay period starts counting: the last
	// use or the end of the last decay period, whichever is later.
	DecayAnchor time.Time `json:"decay_anchor"`
	// DeprecatedSince is when the composite last fell below the tentative
	// cut-off; zero while it is above.
	DeprecatedSince time.Time `json:"deprecated_since"`
	ArchivedAt      time.Time `json:"archived_at"`
	PromotedAt      time.Time `json:"promoted_at"`

	// Composite and Tier cache [Composite] and [TierOf] as of the last
	// Apply or AsOf, for queries and indexes.
	Composite float64 `json:"composite"`
	Tier      Tier    `json:"tier"`
}

// New returns the State of a lesson created at `at` by session (empty when
// not created in a session, e.g. imported). It counts as the first
// observation. User-stated and imported lessons start active,
// agent-inferred ones pending; the creating session
// may not also confirm the lesson by observation, successful use or its
// own approval (so an agent cannot promote the pending lesson it just
// recorded). Unknown origins are treated as agent-inferred. Safe for
// concurrent use.
func New(origin Origin, at time.Time, session string, cfg Config) State {
	if !origin.Valid() {
		origin = OriginAgentInferred
	}
	s := State{
		Origin:       origin,
		Lifecycle:    Active,
		Observations: 1,
		CreatedAt:    at,
		LastUsedAt:   at,
		DecayAnchor:  at,
	}
	switch origin {
	case OriginAgentInferred:
		s.Lifecycle = Pending
	}
	if session != "" {
		s.Recent = []Confirmation{{Session: session, Kinds: []Kind{KindObserved, KindCausalLink, KindAppliedSuccess, KindUserApproved}}}
	}
	return settle(s, at, cfg)
}

// Scores returns the three dimensions, the composite and the tier of s as
// stored (without catching up decay; call [AsOf] first for "now"). Safe for
// concurrent use.
func (s State) Scores(cfg Config) Scores {
	return scoresOf(s, cfg)
}

// settle recomputes the cached composite and tier and tracks the start of
// deprecation at time at. Archived lessons keep their deprecation mark.
func settle(s State, at time.Time, cfg Config) State {
	s, _ = settleScores(s, at, cfg)
	return s
}

// settleScores is settle that also returns the scores it computed.
func settleScores(s State, at time.Time, cfg Config) (State, Scores) {
	sc := scoresOf(s, cfg)
	s.Composite, s.Tier = sc.Composite, sc.Tier
	if s.Lifecycle == Archived {
		return s, sc
	}
	if sc.Tier == TierDeprecated {
		if s.DeprecatedSince.IsZero() {
			s.DeprecatedSince = at
		}
	} else {
		s.DeprecatedSince = time.Time{}
	}
	return s, sc
}

// clone returns s with its Recent list copied, so that appending to the
// result never writes into the caller's backing array.
func (s State) clone() State {
	if s.Recent != nil {
		r := make([]Confirmation, len(s.Recent))
		for i, c := range s.Recent {
			r[i] = Confirmation{Session: c.Session, Kinds: append([]Kind(nil), c.Kinds...)}
		}
		s.Recent = r
	}
	return s
}
