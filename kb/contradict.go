package kb

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/innate-mcp/innate-mcp/confidence"
)

// contradictionPool is how many similar lessons a new lesson is compared
// with for contradictions.
const contradictionPool = 8

// opposing finds existing lessons of the same project (or both global) that
// say the opposite of a new one ("use X" against "never use X" in the same
// situation): candidates come from the same search recall uses, the
// opposition from package confidence.
func (k *KB) opposing(ctx context.Context, nl *NewLesson) ([]string, error) {
	if len(nl.ContentVec) == 0 {
		return nil, nil
	}
	text := nl.Content + "\n" + nl.Trigger
	qterms := (&Situation{Query: text}).queryTerms()
	// Opposite statements share their words ("use X" / "never use X"), so
	// the full-text index alone finds the candidates.
	cands, err := k.store.Search(ctx, Probe{Vector: nl.ContentVec, Terms: qterms, Pool: contradictionPool, LexicalOnly: true})
	if err != nil {
		return nil, fmt.Errorf("search for contradictions: %w", err)
	}
	var ids []string
	var mine []confidence.Claim
	for _, c := range cands {
		if c.Lesson.State == StateArchived || c.Lesson.Same(nl.Content, nl.Trigger, nl.Project) {
			continue
		}
		if c.Lesson.Project != nl.Project {
			// Another project's rule, or a global one, says what holds
			// there: "never use pnpm" in one repository archives no "use
			// pnpm" of another, and a project's own rule overrides a
			// global one in its scope without archiving it.
			continue
		}
		if mine == nil {
			if mine = confidence.Claims(nl.Content); len(mine) == 0 {
				return nil, nil // no directive, nothing to contradict
			}
		}
		if opposite(mine, confidence.Claims(c.Lesson.Content)) {
			ids = append(ids, c.Lesson.ID)
		}
	}
	return ids, nil
}

// resolveContradictions links a new lesson to the lessons it contradicts and
// supersedes the one of each pair with the weaker evidence: it is archived
// with the reason, never deleted.
func (k *KB) resolveContradictions(ctx context.Context, tx Tx, newID string, opposed []string, now time.Time, changes *[]Change) error {
	for _, oldID := range opposed {
		nw, err := tx.Lesson(ctx, newID)
		if err != nil {
			return err
		}
		old, err := tx.Lesson(ctx, oldID)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return err
		}
		if old.State == StateArchived {
			continue
		}
		if err := tx.LinkLessons(ctx, newID, oldID, linkContradicts, "says the opposite in the same situation", now); err != nil {
			return err
		}
		r, err := confidence.Resolve(nw.Conf, old.Conf, now, k.conf)
		if err != nil {
			return fmt.Errorf("resolve %s against %s: %w", newID, oldID, err)
		}
		winner, loser := &nw, &old
		if !r.AWins {
			winner, loser = &old, &nw
		}
		winner.Conf, loser.Conf = r.Winner, r.Loser
		syncConfidence(winner)
		syncConfidence(loser)
		for _, l := range []*Lesson{winner, loser} {
			if err := tx.UpdateLesson(ctx, *l); err != nil {
				return err
			}
		}
		if err := tx.AddHistory(ctx, winner.ID, r.WinnerChanges); err != nil {
			return err
		}
		if err := tx.AddHistory(ctx, loser.ID, r.LoserChanges); err != nil {
			return err
		}
		if err := tx.LinkLessons(ctx, winner.ID, loser.ID, linkSupersedes, r.Reason, now); err != nil {
			return err
		}
		*changes = append(*changes, Change{LessonID: loser.ID,
			What: fmt.Sprintf("contradicts %s; superseded by it and archived (%s)", winner.ID, r.Reason)})
	}
	return nil
}

// opposite reports whether two lessons' directives (package confidence's
// Claims) contradict: a pair of opposite polarity in the same situation
// whose actions are equal, or one is the other followed by a qualifier
// ("indent Go code with tabs" and "indent Go code with tabs, as gofmt does").
func opposite(a, b []confidence.Claim) bool {
	for _, ca := range a {
		for _, cb := range b {
			if ca.Polarity == cb.Polarity || ca.Polarity == 0 || cb.Polarity == 0 {
				continue
			}
			if ca.Situation != "" && cb.Situation != "" && ca.Situation != cb.Situation {
				continue
			}
			if ca.Action == cb.Action || extends(ca.Action, cb.Action) || extends(cb.Action, ca.Action) {
				return true
			}
		}
	}
	return false
}

// extends reports whether action long is action short (of at least three
// words) followed by more words.
func extends(long, short string) bool {
	sw := strings.Fields(short)
	lw := strings.Fields(long)
	if len(sw) < 3 || len(lw) <= len(sw) {
		return false
	}
	for i, w := range sw {
		if lw[i] != w {
			return false
		}
	}
	return true
}
