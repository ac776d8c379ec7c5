package kb

import (
	"context"
	"fmt"
	"time"

	"github.com/innate-mcp/innate-mcp/confidence"
)

// A lesson's confidence is the composite of package confidence:
// frequency, effectiveness (Wilson lower bound) and human approval,
// weighted by confidence.Config with a penalty when one dimension is very
// low. Record turns evidence into confidence events; decay is computed from
// timestamps whenever a lesson is read or written; every change goes to the
// history table with its reason.

// confOrigin is the origin package confidence starts a lesson's state
// from: an unknown or empty origin counts as agent-inferred.
func confOrigin(o Origin) Origin {
	if o == OriginUserStated || o == OriginImported {
		return o
	}
	return OriginAgentInferred
}

// stateOf maps a confidence lifecycle to a lesson state.
func stateOf(l confidence.Lifecycle) State {
	switch l {
	case confidence.Pending:
		return StatePending
	case confidence.Archived:
		return StateArchived
	}
	return StateActive
}

// InitialConfidence derives a confidence state for a lesson from its
// origin, creation time and evidence counters: the state of a new lesson
// with those counts of evidence, as of now. Migrations use it for lessons
// recorded before confidence states existed.
func InitialConfidence(l Lesson, now time.Time, cfg confidence.Config) confidence.State {
	s := confidence.New(confOrigin(l.Origin), l.CreatedAt, "", cfg)
	c := l.Counters
	s.Observations += c.Observed
	s.Successes, s.Failures = c.Successes, c.Failures
	s.SuccessSessions = c.Successes
	s.Approvals, s.Rejections = s.Approvals+c.Approvals, c.Rejects
	if l.LastUsedAt != nil {
		s.LastUsedAt, s.DecayAnchor = *l.LastUsedAt, *l.LastUsedAt
	}
	if l.State == StateActive && s.Lifecycle == confidence.Pending {
		s.Lifecycle = confidence.Active
	}
	s, _ = confidence.AsOf(s, now, cfg)
	if l.State == StateArchived && s.Lifecycle != confidence.Archived {
		s.ArchivedFrom, s.Lifecycle, s.ArchivedAt = s.Lifecycle, confidence.Archived, now
	}
	return s
}

// syncConfidence copies the confidence state's composite, tier and
// lifecycle into the lesson's own fields.
func syncConfidence(l *Lesson) {
	l.Confidence = l.Conf.Composite
	l.Tier = l.Conf.Tier
	l.State = stateOf(l.Conf.Lifecycle)
}

// settle brings a lesson's decay up to now (idempotent) and reports the
// changes, which the caller persists when it writes.
func (k *KB) settle(l *Lesson, now time.Time) []confidence.Change {
	s, changes := confidence.AsOf(l.Conf, now, k.conf)
	l.Conf = s
	syncConfidence(l)
	return changes
}

// apply applies one confidence event to a lesson in a transaction, writing
// the history, and returns a short description of what it did to the
// confidence: the rule that refused the event, the move, or, when the
// evidence was counted without moving the composite (a first success is
// inside both the frequency step and the neutral hold of effectiveness),
// the three dimensions that explain why.
func (k *KB) apply(ctx context.Context, tx Tx, l *Lesson, e confidence.Event) (string, error) {
	before := l.Conf.Composite
	s, changes, err := confidence.Apply(l.Conf, e, k.conf)
	if err != nil {
		return "", fmt.Errorf("confidence of %s: %w", l.ID, err)
	}
	l.Conf = s
	syncConfidence(l)
	if err := tx.AddHistory(ctx, l.ID, changes); err != nil {
		return "", err
	}
	for _, ch := range changes {
		if ch.Kind == e.Kind && ch.Ignored {
			return ch.Reason, nil
		}
	}
	if s.Composite == before {
		sc := s.Scores(k.conf)
		return fmt.Sprintf("confidence %.3f unchanged (frequency %.3f, effectiveness %.3f, human %.3f)",
			s.Composite, sc.Frequency, sc.Effectiveness, sc.Human), nil
	}
	return fmt.Sprintf("confidence %.3f → %.3f (%s)", before, s.Composite, s.Tier), nil
}

// revise moves evidence already counted from one outcome or vote to
// another (a record that changes its mind): the counters move and the
// scores are recomputed; the history notes the revision.
func (k *KB) revise(ctx context.Context, tx Tx, l *Lesson, from, to string, at time.Time) error {
	before := l.Conf.Scores(k.conf)
	lifeBefore := l.Conf.Lifecycle
	s := l.Conf
	dec := func(n *int) {
		if *n > 0 {
			*n--
		}
	}
	switch from {
	case string(OutcomeSuccess):
		dec(&s.Successes)
		dec(&s.SuccessSessions)
	case string(OutcomeFailure):
		dec(&s.Failures)
	case string(OutcomeUnknown):
		dec(&s.Neutrals)
	case "up":
		dec(&s.Approvals)
	case "down":
		dec(&s.Rejections)
	}
	s, _ = confidence.AsOf(s, at, k.conf)
	l.Conf = s
	syncConfidence(l)
	return tx.AddHistory(ctx, l.ID, []confidence.Change{{At: at, Kind: "revised",
		Reason: fmt.Sprintf("evidence revised from %s to %s", from, to), Before: before, After: s.Scores(k.conf),
		LifecycleBefore: lifeBefore, LifecycleAfter: s.Lifecycle}})
}

// outcomeKind is the confidence event of an outcome.
func outcomeKind(o Outcome) confidence.Kind {
	switch o {
	case OutcomeSuccess:
		return confidence.KindAppliedSuccess
	case OutcomeFailure:
		return confidence.KindAppliedFailure
	}
	return confidence.KindAppliedNeutral
}

// ConfidenceConfig returns the confidence configuration of the KB.
func (k *KB) ConfidenceConfig() confidence.Config { return k.conf }

// initConfidence gives a new lesson its confidence state: a fresh one
// created in this session, or one derived from the evidence counters a
// lossless import brings (a state it brings itself is kept); the lesson's
// confidence and state then follow from it.
func (k *KB) initConfidence(nl *NewLesson, now time.Time) {
	if nl.Conf == nil {
		var s confidence.State
		if nl.Counters == (Counters{}) && nl.CreatedAt.IsZero() {
			s = confidence.New(confOrigin(nl.Origin), now, k.session, k.conf)
		} else {
			created := nl.CreatedAt
			if created.IsZero() {
				created = now
			}
			s = InitialConfidence(Lesson{Origin: nl.Origin, State: nl.State, Counters: nl.Counters,
				CreatedAt: created, LastUsedAt: nl.LastUsedAt}, now, k.conf)
		}
		nl.Conf = &s
	}
	nl.Confidence = nl.Conf.Composite
	nl.State = stateOf(nl.Conf.Lifecycle)
}
