package kb

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/innate-mcp/innate-mcp/confidence"
)

// A lesson stated again is not stored twice. An exact duplicate (the same
// content and trigger up to case and white space, ContentHash) is counted
// on the lesson already held, as it always was. A near-duplicate is a
// lesson that says the same words but for its numbers (ShapeHash), in the
// same project and of the same kind: "Concurrent lesson number 1: keep
// handlers small." and "… number 2: …". It reinforces the lesson already
// held, the oldest such one that is not archived, as one more observation
// (confidence.KindObserved, under the rules against self-confirmation: the
// session that created the lesson, or that already observed it, adds to
// its counter but not to its confidence), and is not stored.
//
// Only numbers may differ, never a word: a word-level similarity would let
// "always X" reinforce "never X", or "before" stand for "after" (stop words
// the lexical terms drop). Numbers are read as the instance details an
// agent's restatements vary in (counters, line numbers, ids). Where the
// number is the point ("at most 3 retries" against "at most 5"), a person
// states it: a user-stated lesson is stored as said whenever it is not an
// exact duplicate, and so is a lesson that brings its own history (a line of
// an export: restoring lessons never merges them).

// foldsNearDuplicates reports whether nl, when it repeats a lesson already
// held but for its numbers, reinforces that lesson rather than being stored.
func foldsNearDuplicates(nl NewLesson) bool {
	restored := nl.Conf != nil || nl.Counters != (Counters{}) || !nl.CreatedAt.IsZero()
	return nl.Origin != OriginUserStated && !restored
}

// nearDuplicate returns the lesson nl repeats but for its numbers, when nl
// folds into one (see foldsNearDuplicates); ok is false when there is none.
func nearDuplicate(ctx context.Context, tx Tx, nl NewLesson) (l Lesson, ok bool, err error) {
	if !foldsNearDuplicates(nl) {
		return Lesson{}, false, nil
	}
	kind := nl.Kind
	if kind == "" {
		kind = KindRule
	}
	l, err = tx.NearDuplicate(ctx, ShapeHash(nl.Content, nl.Trigger), nl.Project, kind)
	switch {
	case errors.Is(err, ErrNotFound):
		return Lesson{}, false, nil
	case err != nil:
		return Lesson{}, false, fmt.Errorf("find near-duplicate: %w", err)
	}
	return l, true, nil
}

// reinforceWhat is how record and import report a near-duplicate.
const reinforceWhat = "reinforced by a near-duplicate (the same lesson but for its numbers), which was not stored"

// reinforce counts a near-duplicate of lesson id as one more observation of
// it, noting the change in res.
func (k *KB) reinforce(ctx context.Context, tx Tx, id string, now time.Time, res *RecordResult) error {
	return k.updateLesson(ctx, tx, id, res, reinforceWhat, now, func(l *Lesson) (string, error) {
		l.Counters.Observed++
		return k.apply(ctx, tx, l, confidence.Event{Kind: confidence.KindObserved, At: now, Session: k.session})
	})
}
