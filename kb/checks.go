package kb

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/innate-mcp/innate-mcp/check"
	"github.com/innate-mcp/innate-mcp/directive"
)

// CheckState is whether a check asks, only reminds, or is off. Plain
// string.
type CheckState string

// The states of a check.
const (
	// CheckActive: an action that breaks it is asked about.
	CheckActive CheckState = "active"
	// CheckRemind: the user let its asks run (overridden twice): it only
	// reminds, until a person approves it.
	CheckRemind CheckState = "remind"
	// CheckDisabled: a person turned it off.
	CheckDisabled CheckState = "disabled"
)

// Valid reports whether s is a known state.
func (s CheckState) Valid() bool {
	return s == CheckActive || s == CheckRemind || s == CheckDisabled
}

// StoredCheck is a check as the knowledge base keeps it: the check, the
// lesson it enforces, its state and its record.
type StoredCheck struct {
	ID       string      `json:"id"`
	LessonID string      `json:"lesson_id"`
	Check    check.Check `json:"check"`
	State    CheckState  `json:"state"`
	// Approved: a person approved it; overrides no longer demote it.
	Approved   bool       `json:"approved,omitempty"`
	Fired      int        `json:"fired"`
	Overridden int        `json:"overridden"`
	LastFired  *time.Time `json:"last_fired,omitempty"`
	CreatedAt  time.Time  `json:"created_at"`
	UpdatedAt  time.Time  `json:"updated_at"`
}

// CheckFilter selects checks: a lesson's (in any state of the lesson), or
// else those of the active lessons of Project and the global ones (only
// the global ones when Project is "").
type CheckFilter struct {
	Lesson  string
	Project string
}

// CheckID is the identity of a check of a lesson: the same check of the
// same lesson keeps it when the rule is read again.
func CheckID(lessonID string, c check.Check) string {
	h := sha256.Sum256([]byte(lessonID + "\x00" + check.Key(c)))
	return "k" + hex.EncodeToString(h[:6])
}

// overridesToDemote is how many times the user lets a check's asks run
// before it only reminds.
const overridesToDemote = 2

// deriveChecks compiles a rule lesson's checks with the built-in reader
// (package directive); a caution learned from a failure has none of its
// own.
//
// A lesson tagged TagCorrection was learned from a user's correction: its
// checks escalate (check.Check.Escalate), reminding once before they ask.
func (nl *NewLesson) deriveChecks() {
	nl.Checks = nil
	if nl.Kind == KindCaution {
		return
	}
	nl.Checks = directive.Compile(nl.Content, nl.Trigger)
	if slices.Contains(nl.Tags, TagCorrection) {
		for i := range nl.Checks {
			nl.Checks[i].Escalate = true
		}
	}
}

// CompileChecks returns the checks the built-in reader compiles of a new
// lesson, as they would be stored.
func CompileChecks(nl NewLesson) []check.Check {
	nl.deriveChecks()
	return nl.Checks
}

// TagCorrection marks a lesson learned from a user's correction of the
// agent (the hooks' capture): what the correction told the agent to do or
// avoid, in the user's words.
const TagCorrection = "correction"

// Checks returns the checks filter selects.
func (k *KB) Checks(ctx context.Context, f CheckFilter) ([]StoredCheck, error) {
	if err := k.checkDirectives(ctx); err != nil {
		return nil, err
	}
	cs, err := k.store.Checks(ctx, f)
	if err != nil {
		return nil, fmt.Errorf("read checks: %w", err)
	}
	return cs, nil
}

// Enforced returns, of a set of checks, those that speak for their rule: a
// person's checks of a lesson replace the reader's and a consultant's
// (a person's word wins), and disabled ones are left out.
func Enforced(cs []StoredCheck) []StoredCheck {
	byPerson := map[string]bool{}
	for _, c := range cs {
		if c.Check.From.By == check.ByPerson {
			byPerson[c.LessonID] = true
		}
	}
	var out []StoredCheck
	for _, c := range cs {
		if c.State == CheckDisabled || byPerson[c.LessonID] && c.Check.From.By != check.ByPerson {
			continue
		}
		out = append(out, c)
	}
	return out
}

// AddCheck stores a check of a lesson made by a person or a consultant
// (c.From says which); it is validated first, and nothing is written when
// it is not valid. Adding a check the lesson already has is not an error:
// it returns the one stored.
func (k *KB) AddCheck(ctx context.Context, lessonID string, c check.Check) (StoredCheck, error) {
	if k.readOnly {
		return StoredCheck{}, k.errReadOnly("add check")
	}
	if c.From.By == check.ByReader {
		return StoredCheck{}, inputErrorf("check.from.by", "is reader: the built-in reader's checks are compiled, not added; say person or consultant")
	}
	c.Rule = lessonID
	if err := check.Validate(c); err != nil {
		return StoredCheck{}, inputErrorf("check", "%v", err)
	}
	if err := k.checkDirectives(ctx); err != nil {
		return StoredCheck{}, err
	}
	var out StoredCheck
	err := k.store.Update(ctx, func(tx Tx) error {
		l, err := tx.Lesson(ctx, lessonID)
		if err != nil {
			return inputErrorf("lesson", "%s: %v", lessonID, err)
		}
		if c.Quote == "" {
			c.Quote = l.Content
		}
		have, err := tx.LessonChecks(ctx, lessonID)
		if err != nil {
			return err
		}
		var keep []check.Check
		for _, h := range have {
			if h.Check.From.By == c.From.By {
				keep = append(keep, h.Check)
			}
		}
		id := CheckID(lessonID, c)
		if !slices.ContainsFunc(have, func(h StoredCheck) bool { return h.ID == id }) {
			keep = append(keep, c)
		}
		if err := tx.PutChecks(ctx, lessonID, c.From.By, keep, k.now().UTC()); err != nil {
			return err
		}
		out, err = tx.Check(ctx, id)
		return err
	})
	if err != nil {
		return StoredCheck{}, fmt.Errorf("add check to %s: %w", lessonID, err)
	}
	return out, nil
}

// SetCheckState sets a check's state as a person decides it: active
// (approved, so that overrides no longer demote it), remind, or disabled.
func (k *KB) SetCheckState(ctx context.Context, id string, state CheckState) (StoredCheck, error) {
	if !state.Valid() {
		return StoredCheck{}, inputErrorf("state", "%q is not one of active, remind, disabled", state)
	}
	return k.updateCheck(ctx, id, func(c *StoredCheck) {
		c.State = state
		c.Approved = state == CheckActive
	})
}

// CheckFired records that a check asked (or reminded) about an action.
func (k *KB) CheckFired(ctx context.Context, id string) (StoredCheck, error) {
	return k.updateCheck(ctx, id, func(c *StoredCheck) {
		now := k.now().UTC()
		c.Fired++
		c.LastFired = &now
	})
}

// CheckOverridden records that the user let an action a check asked about
// run; a check overridden overridesToDemote times that no person approved
// only reminds from then on.
func (k *KB) CheckOverridden(ctx context.Context, id string) (StoredCheck, error) {
	return k.updateCheck(ctx, id, func(c *StoredCheck) {
		c.Overridden++
		if c.Overridden >= overridesToDemote && !c.Approved && c.State == CheckActive {
			c.State = CheckRemind
		}
	})
}

// updateCheck changes a stored check in one transaction.
func (k *KB) updateCheck(ctx context.Context, id string, fn func(*StoredCheck)) (StoredCheck, error) {
	if k.readOnly {
		return StoredCheck{}, k.errReadOnly("update check")
	}
	id = strings.TrimSpace(id)
	var out StoredCheck
	err := k.store.Update(ctx, func(tx Tx) error {
		c, err := tx.Check(ctx, id)
		if errors.Is(err, ErrNotFound) {
			return inputErrorf("id", "no check %q: `innate-mcp rules` lists them", id)
		}
		if err != nil {
			return err
		}
		fn(&c)
		c.UpdatedAt = k.now().UTC()
		if err := tx.UpdateCheck(ctx, c); err != nil {
			return err
		}
		out = c
		return nil
	})
	if err != nil {
		return StoredCheck{}, fmt.Errorf("check %s: %w", id, err)
	}
	return out, nil
}

// restoreChecks stores again the checks an export held for a lesson: a
// person's and a consultant's checks, and the state and record of every
// check the lesson has again (the reader's, as this version compiles them).
func restoreChecks(ctx context.Context, tx Tx, lessonID string, cs []StoredCheck, now time.Time) error {
	if len(cs) == 0 {
		return nil
	}
	byOrigin := map[check.Origin][]check.Check{}
	for _, c := range cs {
		if by := c.Check.From.By; by == check.ByPerson || by == check.ByConsultant {
			if err := check.Validate(c.Check); err != nil {
				return inputErrorf("checks", "lesson %s: %v", lessonID, err)
			}
			byOrigin[by] = append(byOrigin[by], c.Check)
		}
	}
	for _, by := range []check.Origin{check.ByPerson, check.ByConsultant} {
		if len(byOrigin[by]) > 0 {
			if err := tx.PutChecks(ctx, lessonID, by, byOrigin[by], now); err != nil {
				return err
			}
		}
	}
	for _, c := range cs {
		have, err := tx.Check(ctx, CheckID(lessonID, c.Check))
		if errors.Is(err, ErrNotFound) {
			continue // the reader no longer compiles it
		}
		if err != nil {
			return err
		}
		if !c.State.Valid() {
			return inputErrorf("checks", "lesson %s: state %q is not one of active, remind, disabled", lessonID, c.State)
		}
		have.State, have.Approved, have.Fired, have.Overridden, have.LastFired = c.State, c.Approved, c.Fired, c.Overridden, c.LastFired
		if !c.CreatedAt.IsZero() && !c.UpdatedAt.IsZero() {
			have.CreatedAt, have.UpdatedAt = c.CreatedAt, c.UpdatedAt
		}
		if err := tx.UpdateCheck(ctx, have); err != nil {
			return err
		}
	}
	return nil
}
