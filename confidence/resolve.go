package confidence

import (
	"cmp"
	"fmt"
	"time"
)

// Resolution is the outcome of [Resolve]: which of two contradicting
// lessons keeps its place, the new states, and the history rows of each.
// Plain value, safe for concurrent use.
type Resolution struct {
	// AWins is true when the first argument won.
	AWins         bool
	Winner, Loser State
	// WinnerChanges holds the winner's decay catch-up; LoserChanges the
	// loser's catch-up and its [KindSuperseded] change.
	WinnerChanges, LoserChanges []Change
	// Reason says which piece of evidence decided.
	Reason string
}

// Resolve settles a contradiction between lessons a and b (see [Opposes])
// at time now: both are brought up to date with [AsOf], the one with weaker
// evidence is superseded (archived with reason superseded, never deleted)
// and the other is left as it was. Evidence is weighed in this order, the
// first difference deciding:
//
//  1. a lesson that is not archived beats an archived one;
//  2. the user's explicit verdict: approved beats none beats rejected, and
//     between two approved lessons the later approval wins;
//  3. who stands behind it: user-stated, then imported, then active
//     agent-inferred, then pending (see [Authority]);
//  4. between two user-stated lessons the newer one, which is the user's
//     correction of the older;
//  5. the higher composite;
//  6. more applications (successes plus failures);
//  7. the older lesson, then a.
//
// Resolve returns an error wrapping [ErrNoTime] when now is zero. Safe for
// concurrent use.
func Resolve(a, b State, now time.Time, cfg Config) (Resolution, error) {
	if now.IsZero() {
		return Resolution{}, fmt.Errorf("resolve contradiction: %w", ErrNoTime)
	}
	a, ca := AsOf(a, now, cfg)
	b, cb := AsOf(b, now, cfg)
	aWins, why := stronger(a, b)
	r := Resolution{AWins: aWins, Reason: why}
	winner, loser, wc, lc := a, b, ca, cb
	if !aWins {
		winner, loser, wc, lc = b, a, cb, ca
	}
	loser, sc, err := Apply(loser, Event{Kind: KindSuperseded, At: now, Note: "lost contradiction: " + why}, cfg)
	if err != nil {
		return Resolution{}, fmt.Errorf("resolve contradiction: %w", err)
	}
	r.Winner, r.Loser = winner, loser
	r.WinnerChanges, r.LoserChanges = wc, append(lc, sc...)
	return r, nil
}

// stronger reports whether a has stronger evidence than b, and why.
func stronger(a, b State) (bool, string) {
	archived := func(s State) int {
		if s.Lifecycle == Archived {
			return 1
		}
		return 0
	}
	verdict := func(s State) int {
		switch s.Verdict {
		case VerdictApproved:
			return 0
		case VerdictRejected:
			return 2
		}
		return 1
	}
	if c := cmp.Compare(archived(a), archived(b)); c != 0 {
		return c < 0, "the other lesson is archived"
	}
	if c := cmp.Compare(verdict(a), verdict(b)); c != 0 {
		return c < 0, "explicit user verdict"
	}
	if a.Verdict == VerdictApproved && !a.VerdictAt.Equal(b.VerdictAt) {
		return a.VerdictAt.After(b.VerdictAt), "later explicit user approval"
	}
	if c := cmp.Compare(Authority(a), Authority(b)); c != 0 {
		return c < 0, "origin: user-stated over imported over agent-inferred"
	}
	if a.Origin == OriginUserStated && !a.CreatedAt.Equal(b.CreatedAt) {
		return a.CreatedAt.After(b.CreatedAt), "newer user statement corrects the older"
	}
	if c := cmp.Compare(a.Composite, b.Composite); c != 0 {
		return c > 0, fmt.Sprintf("higher composite (%.3f vs %.3f)", max(a.Composite, b.Composite), min(a.Composite, b.Composite))
	}
	if c := cmp.Compare(a.Successes+a.Failures, b.Successes+b.Failures); c != 0 {
		return c > 0, "more applications"
	}
	if !a.CreatedAt.Equal(b.CreatedAt) {
		return a.CreatedAt.Before(b.CreatedAt), "older lesson, equal evidence"
	}
	return true, "equal evidence, first lesson kept"
}
