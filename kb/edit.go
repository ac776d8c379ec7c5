package kb

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/innate-mcp/innate-mcp/confidence"
)

// LessonEdit is a person's new wording of a lesson (EditLesson): the text
// that replaces the old, and why.
type LessonEdit struct {
	Content     string
	Trigger     string
	AntiTrigger string
	// Reason is kept in the old lesson's history and on the link; "edited
	// by a person" when empty.
	Reason string
}

// EditLesson replaces a lesson by a new wording without overwriting it: a
// new lesson with the edited text (the old one's project, tags and kind;
// user-stated, since a person wrote it; source "edit of ID") is added and
// supersedes the old, which is archived with the reason, never deleted, and
// linked to it (`supersedes`), as a reworded rule on re-import is. Both
// happen in one transaction. It returns the new lesson.
//
// Errors: one wrapping ErrNotFound when the lesson does not exist; an
// InputError when it is archived (restore it first), when the text is
// unchanged, refused by the screen, or already another lesson's; an error
// wrapping ErrReadOnly on a read-only knowledge base.
func (k *KB) EditLesson(ctx context.Context, id string, e LessonEdit) (Lesson, error) {
	if k.readOnly {
		return Lesson{}, k.errReadOnly("edit a lesson")
	}
	old, err := k.store.Lesson(ctx, id)
	if err != nil {
		return Lesson{}, fmt.Errorf("edit lesson %s: %w", id, err)
	}
	if old.State == StateArchived {
		return Lesson{}, inputErrorf("id", "lesson %s is archived: restore it before editing it", id)
	}
	if old.Same(e.Content, e.Trigger, old.Project) && strings.TrimSpace(e.AntiTrigger) == old.AntiTrigger {
		return Lesson{}, inputErrorf("content", "is unchanged: edit the content, trigger or anti-trigger of lesson %s", id)
	}
	reason := strings.TrimSpace(e.Reason)
	if reason == "" {
		reason = "edited by a person"
	}
	if err := k.checkStore(ctx); err != nil {
		return Lesson{}, err
	}
	lessons := []NewLesson{{Content: e.Content, Trigger: e.Trigger, AntiTrigger: e.AntiTrigger, Tags: slices.Clone(old.Tags),
		Project: old.Project, Origin: OriginUserStated, Kind: old.Kind, Source: "edit of " + id}}
	rep := AddReport{Items: make([]AddItem, 1)}
	var p prepared
	if err := k.prepare(ctx, lessons, 0, 1, &rep, &p); err != nil {
		return Lesson{}, fmt.Errorf("edit lesson %s: %w", id, err)
	}
	if it := rep.Items[0]; it.Status == AddRejected {
		return Lesson{}, inputErrorf("content", "refused: %s", it.Reason)
	}
	nl := p.lessons[0]
	// The old wording is superseded whatever the new one says of it: it is
	// not a contradiction to resolve by evidence.
	opposed := slices.DeleteFunc(p.opposed[0], func(o string) bool { return o == id })
	now := k.now().UTC()
	var out Lesson
	err = k.store.Update(ctx, func(tx Tx) error {
		if dup, err := sameLesson(ctx, tx, nl.Content, nl.Trigger, nl.Project); err == nil {
			return inputErrorf("content", "is already lesson %s: edit it to say something else, or archive %s instead", dup.ID, id)
		} else if !errors.Is(err, ErrNotFound) {
			return err
		}
		k.initConfidence(nl, now)
		l, err := tx.InsertLesson(ctx, *nl, now)
		if err != nil {
			return fmt.Errorf("insert the new wording: %w", err)
		}
		var changes []Change
		if err := k.resolveContradictions(ctx, tx, l.ID, opposed, now, &changes); err != nil {
			return err
		}
		if err := k.supersede(ctx, tx, id, l.ID, reason, now); err != nil {
			return err
		}
		out, err = tx.Lesson(ctx, l.ID)
		return err
	})
	if err != nil {
		return Lesson{}, fmt.Errorf("edit lesson %s: %w", id, err)
	}
	return out, nil
}

// supersede archives lesson id as superseded, the reason noted in its
// history, with the confidence event contradictions use; when by is not
// empty, the lesson by replaces it and is linked to it.
func (k *KB) supersede(ctx context.Context, tx Tx, id, by, reason string, now time.Time) error {
	l, err := tx.Lesson(ctx, id)
	if err != nil {
		return fmt.Errorf("lesson %s: %w", id, err)
	}
	if _, err := k.apply(ctx, tx, &l, confidence.Event{Kind: confidence.KindSuperseded, At: now, Session: k.session, Note: reason}); err != nil {
		return err
	}
	if err := tx.UpdateLesson(ctx, l); err != nil {
		return err
	}
	if by == "" {
		return nil
	}
	return tx.LinkLessons(ctx, by, id, linkSupersedes, reason, now)
}
