package storerow

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/innate-mcp/innate-mcp/check"
	"github.com/innate-mcp/innate-mcp/kb"
)

// CheckColumns are the columns CheckRow reads, of the checks table c.
const CheckColumns = `c.id, c.lesson_id, c.spec, c.state, c.approved, c.fired, c.overridden, COALESCE(c.last_fired, ''), c.created_at, c.updated_at`

// CheckRow decodes a row of CheckColumns.
func CheckRow(scan Scan) (kb.StoredCheck, error) {
	var c kb.StoredCheck
	var spec, state, last, created, updated string
	var approved bool
	if err := scan(&c.ID, &c.LessonID, &spec, &state, &approved, &c.Fired, &c.Overridden, &last, &created, &updated); err != nil {
		return kb.StoredCheck{}, err
	}
	if err := json.Unmarshal([]byte(spec), &c.Check); err != nil {
		return kb.StoredCheck{}, fmt.Errorf("check %s: bad spec: %w", c.ID, err)
	}
	c.State, c.Approved = kb.CheckState(state), approved
	if last != "" {
		t := ParseTime(last)
		c.LastFired = &t
	}
	c.CreatedAt, c.UpdatedAt = ParseTime(created), ParseTime(updated)
	return c, nil
}

// CheckSpec is the stored form of a check.
func CheckSpec(c check.Check) (string, error) {
	s, err := encode(c)
	if err != nil {
		return "", fmt.Errorf("encode check: %w", err)
	}
	return s, nil
}

// LastFired is the stored form of a check's last firing: nil for never.
func LastFired(t *time.Time) any {
	if t == nil {
		return nil
	}
	return FormatTime(*t)
}

// CheckChanges is what PutChecks writes: the checks to insert, those whose
// spec to rewrite (by id), and the ids to remove.
type CheckChanges struct {
	Insert  []kb.StoredCheck
	Rewrite []kb.StoredCheck
	Remove  []string
}

// PlanChecks computes what makes cs the checks of origin of a lesson that
// has the checks have: both stores apply the same plan.
func PlanChecks(have []kb.StoredCheck, lessonID string, origin check.Origin, cs []check.Check, now time.Time) CheckChanges {
	var ch CheckChanges
	keep := map[string]bool{}
	byID := map[string]kb.StoredCheck{}
	for _, h := range have {
		byID[h.ID] = h
	}
	for _, c := range cs {
		c.Rule = lessonID
		c.From.By = origin // the origin put is the check's
		id := kb.CheckID(lessonID, c)
		if keep[id] {
			continue
		}
		keep[id] = true
		if h, ok := byID[id]; ok {
			h.Check, h.UpdatedAt = c, now
			ch.Rewrite = append(ch.Rewrite, h)
			continue
		}
		ch.Insert = append(ch.Insert, kb.StoredCheck{ID: id, LessonID: lessonID, Check: c, State: kb.CheckActive, CreatedAt: now, UpdatedAt: now})
	}
	for _, h := range have {
		if h.Check.From.By == origin && !keep[h.ID] {
			ch.Remove = append(ch.Remove, h.ID)
		}
	}
	return ch
}
