package pgstore

import (
	"context"
	"fmt"
	"time"

	"github.com/innate-mcp/innate-mcp/check"
	"github.com/innate-mcp/innate-mcp/internal/storerow"
	"github.com/innate-mcp/innate-mcp/kb"
)

// Checks implements kb.Store.
func (db *DB) Checks(ctx context.Context, f kb.CheckFilter) ([]kb.StoredCheck, error) {
	return queryChecks(ctx, db.pool, f)
}

// queryChecks reads the checks a filter selects.
func queryChecks(ctx context.Context, q querier, f kb.CheckFilter) ([]kb.StoredCheck, error) {
	query := `SELECT ` + storerow.CheckColumns + ` FROM checks c JOIN lessons l ON l.id = c.lesson_id WHERE `
	var arg string
	if f.Lesson != "" {
		query += `c.lesson_id = $1`
		arg = f.Lesson
	} else {
		query += `l.state = 'active' AND (l.project = '' OR l.project = $1)`
		arg = f.Project
	}
	rows, err := q.Query(ctx, query+` ORDER BY c.seq`, arg)
	if err != nil {
		return nil, fmt.Errorf("list checks: %w", err)
	}
	defer rows.Close()
	var out []kb.StoredCheck
	for rows.Next() {
		c, err := storerow.CheckRow(rows.Scan)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list checks: %w", err)
	}
	return out, nil
}

// LessonChecks implements kb.Tx.
func (t *Tx) LessonChecks(ctx context.Context, lessonID string) ([]kb.StoredCheck, error) {
	return queryChecks(ctx, t.tx, kb.CheckFilter{Lesson: lessonID})
}

// Check implements kb.Tx.
func (t *Tx) Check(ctx context.Context, id string) (kb.StoredCheck, error) {
	c, err := storerow.CheckRow(notFound(t.tx.QueryRow(ctx, `SELECT `+storerow.CheckColumns+` FROM checks c WHERE c.id = $1`, id)))
	if err != nil {
		return kb.StoredCheck{}, fmt.Errorf("check %s: %w", id, err)
	}
	return c, nil
}

// PutChecks implements kb.Tx.
func (t *Tx) PutChecks(ctx context.Context, lessonID string, origin check.Origin, cs []check.Check, now time.Time) error {
	have, err := t.LessonChecks(ctx, lessonID)
	if err != nil {
		return err
	}
	plan := storerow.PlanChecks(have, lessonID, origin, cs, now)
	for _, id := range plan.Remove {
		if _, err := t.tx.Exec(ctx, `DELETE FROM checks WHERE id = $1`, id); err != nil {
			return fmt.Errorf("remove check %s: %w", id, err)
		}
	}
	for _, c := range plan.Rewrite {
		spec, err := storerow.CheckSpec(c.Check)
		if err != nil {
			return err
		}
		if _, err := t.tx.Exec(ctx, `UPDATE checks SET spec = $1, updated_at = $2 WHERE id = $3`, spec, storerow.FormatTime(now), c.ID); err != nil {
			return fmt.Errorf("rewrite check %s: %w", c.ID, err)
		}
	}
	for _, c := range plan.Insert {
		spec, err := storerow.CheckSpec(c.Check)
		if err != nil {
			return err
		}
		_, err = t.tx.Exec(ctx, `INSERT INTO checks (id, lesson_id, origin, spec, state, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
			c.ID, lessonID, string(c.Check.From.By), spec, string(c.State), storerow.FormatTime(now), storerow.FormatTime(now))
		if err != nil {
			return fmt.Errorf("insert check of %s: %w", lessonID, err)
		}
	}
	return nil
}

// UpdateCheck implements kb.Tx.
func (t *Tx) UpdateCheck(ctx context.Context, c kb.StoredCheck) error {
	tag, err := t.tx.Exec(ctx, `UPDATE checks SET state = $1, approved = $2, fired = $3, overridden = $4, last_fired = $5, created_at = $6, updated_at = $7 WHERE id = $8`,
		string(c.State), c.Approved, c.Fired, c.Overridden, storerow.LastFired(c.LastFired), storerow.FormatTime(c.CreatedAt), storerow.FormatTime(c.UpdatedAt), c.ID)
	if err != nil {
		return fmt.Errorf("update check %s: %w", c.ID, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("check %s: %w", c.ID, kb.ErrNotFound)
	}
	return nil
}
