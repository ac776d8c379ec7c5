package confidence

import (
	"fmt"
	"math"
	"time"
)

// AsOf brings s up to time now: every full [Config.DecayPeriod] since
// [State.DecayAnchor] applies one period of decay (the seed's weekly rates,
// never below [Config.Floors]), and a lesson deprecated for
// [Config.ArchiveAfter] is archived at the exact moment the period ran out.
// It returns the new State and the history rows: consecutive decay periods
// are merged into one [Change] until the tier changes, then the archive
// change if any.
//
// AsOf is idempotent (a second call with the same now changes nothing),
// composable (AsOf to t1 then to t2 equals AsOf to t2 for t1 ≤ t2, so a
// month of downtime ends where weekly catch-ups would have), ignores a now
// before the anchor, and leaves archived lessons untouched. A State without
// any timestamp gets its anchor set to now. It never fails and is safe for
// concurrent use.
func AsOf(s State, now time.Time, cfg Config) (State, []Change) {
	if s.Lifecycle == Archived || now.IsZero() {
		return s, nil
	}
	if s.DecayAnchor.IsZero() {
		s.DecayAnchor = later(s.CreatedAt, s.LastUsedAt)
		if s.DecayAnchor.IsZero() {
			s.DecayAnchor = now
			return settle(s, now, cfg), nil
		}
	}
	var changes []Change
	var run *Change
	flush := func() {
		if run != nil {
			run.Reason = decayReason(*run)
			changes = append(changes, *run)
			run = nil
		}
	}
	cur := Scores{}
	scored := false
	for {
		next := s.DecayAnchor.Add(cfg.DecayPeriod)
		if !s.DeprecatedSince.IsZero() {
			at := s.DeprecatedSince.Add(cfg.ArchiveAfter)
			if !at.After(now) && !at.After(next) {
				flush()
				var ch Change
				s, ch = archive(s, at, KindArchived, ArchiveDeprecated, cfg)
				ch.Reason = fmt.Sprintf("archived: deprecated since %s (%s)",
					s.DeprecatedSince.UTC().Format(time.RFC3339), cfg.ArchiveAfter)
				return s, append(changes, ch)
			}
		}
		if next.After(now) {
			break
		}
		if !scored {
			cur, scored = scoresOf(s, cfg), true
		}
		before := cur
		debt := s.Debt
		s = decayOnce(s, cfg)
		s.DecayAnchor = next
		s, cur = settleScores(s, next, cfg)
		after := cur
		if run == nil {
			run = &Change{Kind: KindDecay, Before: before, LifecycleBefore: s.Lifecycle, LifecycleAfter: s.Lifecycle}
		}
		run.At, run.After = next, after
		run.Periods++
		if after.Tier != before.Tier {
			flush()
			continue
		}
		if s.Debt == debt && s.DeprecatedSince.IsZero() {
			// Saturated and not deprecated: every later period is a no-op,
			// so jump the anchor over them in one step.
			k := int64(now.Sub(s.DecayAnchor) / cfg.DecayPeriod)
			if k > 0 {
				s.DecayAnchor = s.DecayAnchor.Add(time.Duration(k) * cfg.DecayPeriod)
				s.DecayWeeks += int(k)
				run.At = s.DecayAnchor
				run.Periods += int(k)
			}
		}
	}
	flush()
	return s, changes
}

// decayOnce applies one period of decay: each dimension loses its rate, but
// never goes below its floor, by growing that dimension's debt.
func decayOnce(s State, cfg Config) State {
	grow := func(raw, debt, floor, rate float64) float64 {
		room := decayed(raw, debt, floor) - floor
		if room <= 0 {
			return debt
		}
		return debt + math.Min(rate, room)
	}
	s.Debt.Frequency = grow(rawFrequency(s, cfg), s.Debt.Frequency, cfg.Floors.Frequency, cfg.DecayRates.Frequency)
	s.Debt.Effectiveness = grow(rawEffectiveness(s, cfg), s.Debt.Effectiveness, cfg.Floors.Effectiveness, cfg.DecayRates.Effectiveness)
	s.Debt.Human = grow(rawHuman(s, cfg), s.Debt.Human, cfg.Floors.Human, cfg.DecayRates.Human)
	s.DecayWeeks++
	return s
}

// repay reduces decay debt by the recovery amounts of kind k.
func repay(s State, k Kind, cfg Config) State {
	r := cfg.Recovery[k]
	s.Debt.Frequency = math.Max(0, s.Debt.Frequency-r.Frequency)
	s.Debt.Effectiveness = math.Max(0, s.Debt.Effectiveness-r.Effectiveness)
	s.Debt.Human = math.Max(0, s.Debt.Human-r.Human)
	return s
}

// archive moves s to Archived at time at, remembering where it came from.
// The returned change has no reason; the caller sets it.
func archive(s State, at time.Time, k Kind, why ArchiveReason, cfg Config) (State, Change) {
	ch := Change{At: at, Kind: k, Before: scoresOf(s, cfg), LifecycleBefore: s.Lifecycle}
	s.ArchivedFrom = s.Lifecycle
	s.Lifecycle = Archived
	s.ArchiveReason = why
	s.ArchivedAt = at
	s = settle(s, at, cfg)
	ch.After, ch.LifecycleAfter = scoresOf(s, cfg), s.Lifecycle
	return s, ch
}

func decayReason(ch Change) string {
	unit := "periods"
	if ch.Periods == 1 {
		unit = "period"
	}
	r := fmt.Sprintf("decay: %d %s unused, composite %.3f → %.3f", ch.Periods, unit, ch.Before.Composite, ch.After.Composite)
	if ch.Before.Tier != ch.After.Tier {
		r += fmt.Sprintf(", tier %s → %s", ch.Before.Tier, ch.After.Tier)
	}
	return r
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
