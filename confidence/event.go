package confidence

import (
	"errors"
	"time"
)

// Errors returned (wrapped) by [Apply] for an event it cannot interpret,
// and ErrNoTime by [Resolve] for a zero time. Callers compare with
// errors.Is.
var (
	ErrUnknownKind = errors.New("unknown event kind")
	ErrNoTime      = errors.New("event has no time")
)

// Kind is the kind of an [Event]. Each kind of the seed's update table has
// one (see [Kind.SeedTrigger]); the rest are lifecycle operations. It is a
// string so it stores and marshals as itself. Values are plain data, safe
// for concurrent use.
type Kind string

// The event kinds.
const (
	// KindObserved: the pattern was observed again (seed
	// pattern_observed_again). One observation; once per session.
	KindObserved Kind = "observed"
	// KindCausalLink: a causal link was confirmed (seed
	// causal_link_confirmed). [Config.CausalLinkObservations]
	// observations; once per session.
	KindCausalLink Kind = "causal_link_confirmed"
	// KindAppliedSuccess: the agent reported using the lesson and the outcome
	// was positive (seed applied_successfully). Once per session.
	KindAppliedSuccess Kind = "applied_success"
	// KindAppliedFailure: reported used, outcome negative (seed
	// applied_failed). Never limited.
	KindAppliedFailure Kind = "applied_failure"
	// KindAppliedNeutral: reported used, outcome neutral. Counted, no score
	// change beyond resetting the decay clock.
	KindAppliedNeutral Kind = "applied_neutral"
	// KindUserApproved: the user accepted the result of applying it, as
	// reported with a record (seed user_accepted). Once per session.
	KindUserApproved Kind = "user_approved"
	// KindUserRejected: the user corrected the agent after it applied the
	// lesson (seed user_corrected). Never limited.
	KindUserRejected Kind = "user_rejected"
	// KindStrongApproved: explicit user approval, e.g. `lessons approve`
	// (seed reflect_approved). Counts most.
	KindStrongApproved Kind = "strong_approved"
	// KindStrongRejected: explicit user rejection, e.g. `lessons reject`
	// (seed reflect_rejected).
	KindStrongRejected Kind = "strong_rejected"
	// KindContradicted: evidence against the pattern (seed
	// pattern_contradicted).
	KindContradicted Kind = "contradicted"
	// KindDecay: one decay period (seed weekly_decay). [AsOf] produces these
	// from timestamps; applying one by hand adds a period on top.
	KindDecay Kind = "decay"
	// KindAppraised: appraise used the lesson in a verdict. Recorded in
	// [State.Appraisals]; never changes confidence.
	KindAppraised Kind = "appraised"
	// KindArchived: archive the lesson (by a person, or by [AsOf] after
	// deprecation).
	KindArchived Kind = "archived"
	// KindRestored: bring an archived lesson back to its previous state.
	KindRestored Kind = "restored"
	// KindSuperseded: archive the lesson because another lesson replaces
	// it: a contradicting lesson with stronger evidence won (see
	// [Resolve]), or the rule file it came from changed. The event's Note
	// says which.
	KindSuperseded Kind = "superseded"
)

// kindInfo describes a kind; read-only table.
type kindInfo struct {
	seed     string // the seed's update-rule trigger, if any
	confirms bool   // positive evidence: needs a session, once per session per kind
	uses     bool   // resets the decay clock
}

var kinds = map[Kind]kindInfo{
	KindObserved:       {seed: "pattern_observed_again", confirms: true, uses: true},
	KindCausalLink:     {seed: "causal_link_confirmed", confirms: true, uses: true},
	KindAppliedSuccess: {seed: "applied_successfully", confirms: true, uses: true},
	KindAppliedFailure: {seed: "applied_failed", uses: true},
	KindAppliedNeutral: {uses: true},
	KindUserApproved:   {seed: "user_accepted", confirms: true, uses: true},
	KindUserRejected:   {seed: "user_corrected", uses: true},
	KindStrongApproved: {seed: "reflect_approved", uses: true},
	KindStrongRejected: {seed: "reflect_rejected"},
	KindContradicted:   {seed: "pattern_contradicted"},
	KindDecay:          {seed: "weekly_decay"},
	KindAppraised:      {},
	KindArchived:       {},
	KindRestored:       {},
	KindSuperseded:     {},
}

// Valid reports whether k is a defined kind. Safe for concurrent use.
func (k Kind) Valid() bool { _, ok := kinds[k]; return ok }

// SeedTrigger returns the name of the seed's update rule this kind
// implements, or "" for lifecycle kinds. Safe for concurrent use.
func (k Kind) SeedTrigger() string { return kinds[k].seed }

// Confirms reports whether k is positive evidence reported by the agent:
// such an event needs a session id, counts at most once per lesson, session
// and kind, and is ignored when derived from appraise. Safe for concurrent
// use.
func (k Kind) Confirms() bool { return kinds[k].confirms }

// Uses reports whether an event of kind k means the lesson was used or
// vouched for, which restarts its decay clock. Safe for concurrent use.
func (k Kind) Uses() bool { return kinds[k].uses }

// Event is one piece of evidence or one lifecycle operation for a lesson.
// Plain value, safe for concurrent use.
type Event struct {
	Kind Kind      `json:"kind"`
	At   time.Time `json:"at"`
	// Session identifies the agent session that reported the evidence;
	// required for kinds that [Kind.Confirms].
	Session string `json:"session,omitempty"`
	// FromAppraise marks evidence derived from appraise rather than reported
	// by the agent or the user: it may lower confidence but never raises it.
	FromAppraise bool `json:"from_appraise,omitempty"`
	// Note is appended to the change reason (e.g. the superseding lesson).
	Note string `json:"note,omitempty"`
}

// Change is one history row: what an event or a decay catch-up did to a
// lesson. Plain value, safe for concurrent use.
type Change struct {
	At     time.Time `json:"at"`
	Kind   Kind      `json:"kind"`
	Reason string    `json:"reason"`
	Before Scores    `json:"before"`
	After  Scores    `json:"after"`
	// LifecycleBefore and LifecycleAfter differ on promotion, archive and
	// restore.
	LifecycleBefore Lifecycle `json:"lifecycle_before"`
	LifecycleAfter  Lifecycle `json:"lifecycle_after"`
	// Ignored is true when the rules refused the event (self-confirmation,
	// appraise-only evidence, no session, nothing to do); the reason says
	// why and the state's counters, except Ignored, are unchanged.
	Ignored bool `json:"ignored,omitempty"`
	// Periods is the number of decay periods a decay change covers.
	Periods int `json:"periods,omitempty"`
}
