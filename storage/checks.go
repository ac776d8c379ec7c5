package storage

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
	return queryChecks(ctx, db.sql, f)
}

// queryChecks reads the checks a filter selects.
func queryChecks(ctx context.Context, q queryer, f kb.CheckFilter) ([]kb.StoredCheck, error) {
	// CROSS JOIN makes SQLite read the checks first (a few hundred rows at
	// most) and find each one's lesson by id, rather than walk the
	// project's and the global lessons (thousands) for their checks.
	query := `SELECT ` + storerow.CheckColumns + ` FROM checks c CROSS JOIN lessons l ON l.id = c.lesson_id WHERE `
	var args []any
	if f.Lesson != "" {
		query += `c.lesson_id = ?`
		args = append(args, f.Lesson)
	} else {
		query += `l.state = 'active' AND (l.project = '' OR l.project = ?)`
		args = append(args, f.Project)
	}
	rows, err := q.QueryContext(ctx, query+` ORDER BY c.seq`, args...)
	if err != nil {
		return nil, fmt.Errorf("list checks: %w", err)
	}
	defer rows.Close()
	var out []kb.StoredCheck
	err = storerow.Each(rows, func(scan storerow.Scan) error {
		c, err := storerow.CheckRow(scan)
		if err != nil {
			return err
		}
		out = append(out, c)
		return nil
	})
	return out, err
}

// LessonChecks implements kb.Tx.
func (t *tx) LessonChecks(ctx context.Context, lessonID string) ([]kb.StoredCheck, error) {
	return queryChecks(ctx, t.tx, kb.CheckFilter{Lesson: lessonID})
}

// Check implements kb.Tx.
func (t *tx) Check(ctx context.Context, id string) (kb.StoredCheck, error) {
	c, err := storerow.CheckRow(notFound(t.tx.QueryRowContext(ctx, `SELECT `+storerow.CheckColumns+` FROM checks c WHERE c.id = ?`, id)))
	if err != nil {
		return kb.StoredCheck{}, fmt.Errorf("check %s: %w", id, err)
	}
	return c, nil
}

// PutChecks implements kb.Tx.
func (t *tx) PutChecks(ctx context.Context, lessonID string, origin check.Origin, cs []check.Check, now time.Time) error {
	have, err := t.LessonChecks(ctx, lessonID)
	if err != nil {
		return err
	}
	plan := storerow.PlanChecks(have, lessonID, origin, cs, now)
	for _, id := range plan.Remove {
		if _, err := t.tx.ExecContext(ctx, `DELETE FROM checks WHERE id = ?`, id); err != nil {
			return fmt.Errorf("remove check %s: %w", id, err)
		}
	}
	for _, c := range plan.Rewrite {
		spec, err := storerow.CheckSpec(c.Check)
		if err != nil {
			return err
		}
		if _, err := t.tx.ExecContext(ctx, `UPDATE checks SET spec = ?, updated_at = ? WHERE id = ?`, spec, storerow.FormatTime(now), c.ID); err != nil {
			return fmt.Errorf("rewrite check %s: %w", c.ID, err)
		}
	}
	for _, c := range plan.Insert {
		spec, err := storerow.CheckSpec(c.Check)
		if err != nil {
			return err
		}
		_, err = t.tx.ExecContext(ctx, `INSERT INTO checks (id, lesson_id, origin, spec, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			c.ID, lessonID, string(c.Check.From.By), spec, string(c.State), storerow.FormatTime(now), storerow.FormatTime(now))
		if err != nil {
			return fmt.Errorf("insert check of %s: %w", lessonID, err)
		}
	}
	return nil
}

// UpdateCheck implements kb.Tx.
func (t *tx) UpdateCheck(ctx context.Context, c kb.StoredCheck) error {
	res, err := t.tx.ExecContext(ctx, `UPDATE checks SET state = ?, approved = ?, fired = ?, overridden = ?, last_fired = ?, created_at = ?, updated_at = ? WHERE id = ?`,
		string(c.State), c.Approved, c.Fired, c.Overridden, storerow.LastFired(c.LastFired), storerow.FormatTime(c.CreatedAt), storerow.FormatTime(c.UpdatedAt), c.ID)
	if err != nil {
		return fmt.Errorf("update check %s: %w", c.ID, err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return fmt.Errorf("check %s: %w", c.ID, kb.ErrNotFound)
	}
	return nil
}
