package confidence

import (
	"fmt"
	"time"
)

// Apply applies event e to lesson state s and returns the new state and its
// history rows: first the decay catch-up to e.At (see [AsOf]), then one
// [Change] for e itself. It is pure and deterministic: the same inputs give
// the same outputs, and s is not modified.
//
// The rules against self-confirmation are enforced here: positive
// agent-reported evidence ([Kind.Confirms]) needs a session and counts at
// most once per lesson, session and kind ([MayConfirm]); evidence marked
// FromAppraise never raises confidence. A refused event still yields a
// Change, with Ignored set and the reason, and increments [State.Ignored].
//
// A pending lesson is promoted to active once it has
// [Config.PromoteAfterSessions] credited successes (each from a distinct
// session) or any user approval. Events on an archived lesson update its
// counters but leave it archived and frozen until [KindRestored].
//
// Apply returns an error wrapping [ErrUnknownKind] or [ErrNoTime] for an
// event it cannot interpret, with s unchanged. Safe for concurrent use.
func Apply(s State, e Event, cfg Config) (State, []Change, error) {
	if !e.Kind.Valid() {
		return s, nil, fmt.Errorf("apply event %q: %w", e.Kind, ErrUnknownKind)
	}
	if e.At.IsZero() {
		return s, nil, fmt.Errorf("apply event %s: %w", e.Kind, ErrNoTime)
	}
	s = s.clone()
	s, changes := AsOf(s, e.At, cfg)
	ch := Change{At: e.At, Kind: e.Kind, Before: scoresOf(s, cfg), LifecycleBefore: s.Lifecycle}

	var reason string
	switch {
	case e.FromAppraise && raises(e.Kind):
		reason = "ignored: appraise-derived evidence never raises confidence on its own"
	case e.Kind.Confirms() && e.Session == "":
		reason = "ignored: positive evidence needs the session that reported it"
	case !MayConfirm(s.Recent, e.Session, e.Kind):
		reason = fmt.Sprintf("ignored: session %s already gave %s to this lesson", e.Session, e.Kind)
	case s.Lifecycle == Archived && (e.Kind == KindArchived || e.Kind == KindSuperseded):
		reason = "ignored: already archived"
	case s.Lifecycle != Archived && e.Kind == KindRestored:
		reason = "ignored: not archived"
	}
	if reason != "" {
		s.Ignored++
		ch.Ignored = true
	} else {
		s, reason = effect(s, e, cfg)
		if e.Kind.Confirms() {
			s.Recent = markConfirmed(s.Recent, e.Session, e.Kind, cfg.RecentSessions)
		}
		if e.Kind.Uses() && s.Lifecycle != Archived {
			s.LastUsedAt = later(s.LastUsedAt, e.At)
			s.DecayAnchor = later(s.DecayAnchor, e.At)
		}
		if s.Lifecycle == Pending && raises(e.Kind) {
			if why := promotion(s, cfg); why != "" {
				s.Lifecycle = Active
				s.PromotedAt = e.At
				reason += "; promoted pending → active (" + why + ")"
			}
		}
	}
	s, ch.After = settleScores(s, e.At, cfg)
	ch.LifecycleAfter = s.Lifecycle
	if ch.Before.Tier != ch.After.Tier {
		reason += fmt.Sprintf("; tier %s → %s", ch.Before.Tier, ch.After.Tier)
	}
	if e.Note != "" {
		reason += "; " + e.Note
	}
	ch.Reason = reason
	return s, append(changes, ch), nil
}

// raises reports whether an event of kind k can raise confidence.
func raises(k Kind) bool {
	return k.Confirms() || k == KindStrongApproved || k == KindRestored
}

// effect applies the counters of e to s and says what it did.
func effect(s State, e Event, cfg Config) (State, string) {
	switch e.Kind {
	case KindObserved:
		s.Observations++
		return repay(s, e.Kind, cfg), fmt.Sprintf("observed again: observations %d", s.Observations)
	case KindCausalLink:
		s.Observations += cfg.CausalLinkObservations
		return repay(s, e.Kind, cfg), fmt.Sprintf("causal link confirmed: observations %d", s.Observations)
	case KindAppliedSuccess:
		s.Successes++
		s.SuccessSessions++
		return repay(s, e.Kind, cfg), fmt.Sprintf("applied with success: %d+ %d−", s.Successes, s.Failures)
	case KindAppliedFailure:
		s.Failures++
		return s, fmt.Sprintf("applied and failed: %d+ %d−", s.Successes, s.Failures)
	case KindAppliedNeutral:
		s.Neutrals++
		return s, fmt.Sprintf("applied, neutral outcome: %d neutral", s.Neutrals)
	case KindUserApproved:
		s.Approvals++
		return repay(s, e.Kind, cfg), fmt.Sprintf("user accepted: %d approvals %d corrections", s.Approvals, s.Rejections)
	case KindUserRejected:
		s.Rejections++
		return s, fmt.Sprintf("user corrected: %d approvals %d corrections", s.Approvals, s.Rejections)
	case KindStrongApproved:
		s.StrongApprovals++
		s.Verdict, s.VerdictAt = VerdictApproved, e.At
		return repay(s, e.Kind, cfg), "explicit user approval"
	case KindStrongRejected:
		s.StrongRejections++
		s.Verdict, s.VerdictAt = VerdictRejected, e.At
		return s, "explicit user rejection"
	case KindContradicted:
		s.Contradictions++
		return s, fmt.Sprintf("contradicted: %d contradictions", s.Contradictions)
	case KindDecay:
		return decayOnce(s, cfg), "decay: one period applied by hand"
	case KindAppraised:
		s.Appraisals++
		return s, "appraise evidence recorded; it never changes confidence"
	case KindArchived:
		s, _ = archive(s, e.At, e.Kind, ArchiveManual, cfg)
		return s, "archived by hand"
	case KindSuperseded:
		s, _ = archive(s, e.At, e.Kind, ArchiveSuperseded, cfg)
		return s, "superseded by another lesson"
	case KindRestored:
		to := s.ArchivedFrom
		if to == "" || to == Archived {
			to = Active
		}
		s.Lifecycle, s.ArchivedFrom, s.ArchiveReason = to, "", ""
		s.ArchivedAt, s.DeprecatedSince = time.Time{}, time.Time{}
		s.DecayAnchor = later(s.DecayAnchor, e.At)
		return s, "restored to " + string(to)
	}
	return s, "no effect"
}

// promotion returns why a pending lesson qualifies for active, or "".
func promotion(s State, cfg Config) string {
	switch {
	case s.Verdict == VerdictApproved:
		return "explicit user approval"
	case s.Approvals > 0:
		return "user accepted it"
	case s.SuccessSessions >= cfg.PromoteAfterSessions:
		return fmt.Sprintf("%d successful uses in separate sessions", s.SuccessSessions)
	}
	return ""
}
