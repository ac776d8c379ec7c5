package kb

import (
	"context"
	"errors"
	"fmt"

	"github.com/innate-mcp/innate-mcp/confidence"
)

// LessonAction is what a person does to a lesson from the command line.
type LessonAction string

// The lesson actions of `innate-mcp lessons`.
const (
	ActionApprove LessonAction = "approve" // explicit approval: human confidence to 0.95
	ActionReject  LessonAction = "reject"  // explicit rejection
	ActionArchive LessonAction = "archive" // stop recalling it; kept and restorable
	ActionRestore LessonAction = "restore" // bring an archived lesson back
)

// ApplyAction applies a person's action (approve, reject, archive,
// restore) to a lesson in one transaction, with its confidence event and
// history, and returns the lesson as it now stands and what changed. A
// lesson the hooks read out of a user's message (a captured correction's
// directive) is archived when rejected: the person says the reading was
// wrong. ErrNotFound when the lesson does not exist; an InputError for an
// unknown action.
func (k *KB) ApplyAction(ctx context.Context, id string, action LessonAction, reason string) (Lesson, string, error) {
	kinds := map[LessonAction]confidence.Kind{
		ActionApprove: confidence.KindStrongApproved, ActionReject: confidence.KindStrongRejected,
		ActionArchive: confidence.KindArchived, ActionRestore: confidence.KindRestored,
	}
	kind, ok := kinds[action]
	if !ok {
		return Lesson{}, "", inputErrorf("action", "%q: use approve, reject, archive or restore", action)
	}
	now := k.now().UTC()
	var out Lesson
	var note string
	err := k.store.Update(ctx, func(tx Tx) error {
		l, err := tx.Lesson(ctx, id)
		if err != nil {
			return err
		}
		if err := tx.AddHistory(ctx, id, k.settle(&l, now)); err != nil {
			return err
		}
		if action == ActionRestore && l.State != StateArchived {
			return inputErrorf("id", "lesson %s is %s, not archived", id, l.State)
		}
		before := l.State
		n, err := k.apply(ctx, tx, &l, confidence.Event{Kind: kind, At: now, Session: k.session, Note: reason})
		if err != nil {
			return err
		}
		if action == ActionReject && l.Source == SourceRecordHook && l.State != StateArchived {
			// The hooks read this lesson out of a message; a person who
			// rejects it says the reading was wrong: it is undone.
			if n, err = k.apply(ctx, tx, &l, confidence.Event{Kind: confidence.KindArchived, At: now, Session: k.session,
				Note: "a captured lesson the user rejected"}); err != nil {
				return err
			}
		}
		if err := tx.UpdateLesson(ctx, l); err != nil {
			return err
		}
		out, note = l, n
		if before != l.State {
			note = fmt.Sprintf("%s → %s; %s", before, l.State, note)
		}
		return nil
	})
	if errors.Is(err, ErrNotFound) {
		return Lesson{}, "", fmt.Errorf("lesson %s: %w", id, ErrNotFound)
	}
	return out, note, err
}

// DecayedToNow returns a lesson with its confidence decay brought up to
// now, without writing it: what `lessons show` and `lessons list` display.
func (k *KB) DecayedToNow(l Lesson) Lesson {
	k.settle(&l, k.now().UTC())
	return l
}

// Lesson returns one lesson by id, whole: its decay brought up to now (not
// written) and its directive as the current parser reads it (deriving the
// directives of every lesson first when the stored ones are of another
// parser version). An error wrapping ErrNotFound when there is none.
func (k *KB) Lesson(ctx context.Context, id string) (Lesson, error) {
	if err := k.checkDirectives(ctx); err != nil {
		return Lesson{}, err
	}
	l, err := k.store.Lesson(ctx, id)
	if err != nil {
		return Lesson{}, fmt.Errorf("lesson %s: %w", id, err)
	}
	if err := l.decodeConf(); err != nil {
		return Lesson{}, err
	}
	return k.DecayedToNow(l), nil
}

// Lessons calls fn with every lesson filter selects, in the order they
// were stored, as stored (call DecayedToNow for its decay as of now).
func (k *KB) Lessons(ctx context.Context, filter LessonFilter, fn func(Lesson) error) error {
	return k.store.Lessons(ctx, filter, fn)
}
