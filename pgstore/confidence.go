package pgstore

import (
	"context"
	"fmt"
	"time"

	"github.com/innate-mcp/innate-mcp/confidence"
	"github.com/innate-mcp/innate-mcp/internal/storerow"
	"github.com/innate-mcp/innate-mcp/kb"
)

// AddHistory appends confidence changes of a lesson to its history, in
// order.
func (t *Tx) AddHistory(ctx context.Context, lessonID string, changes []confidence.Change) error {
	for _, ch := range changes {
		args, err := storerow.HistoryArgs(lessonID, ch)
		if err != nil {
			return err
		}
		_, err = t.tx.Exec(ctx, `INSERT INTO confidence_history (lesson_id, `+storerow.HistoryColumns+`)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, args...)
		if err != nil {
			return fmt.Errorf("write confidence history of %s: %w", lessonID, err)
		}
	}
	return nil
}

// History implements kb.Admin: a lesson's confidence changes, oldest
// first.
func (db *DB) History(ctx context.Context, lessonID string) ([]confidence.Change, error) {
	rows, err := db.pool.Query(ctx, `SELECT `+storerow.HistoryColumns+` FROM confidence_history WHERE lesson_id = $1 ORDER BY id`, lessonID)
	if err != nil {
		return nil, fmt.Errorf("read history of %s: %w", lessonID, err)
	}
	defer rows.Close()
	out, err := storerow.Collect(rows, storerow.History)
	if err != nil {
		return nil, fmt.Errorf("read history of %s: %w", lessonID, err)
	}
	return out, nil
}

// LinkLessons records a relation between two lessons (contradicts,
// supersedes); repeating a link changes nothing, its first reason and
// time included.
func (t *Tx) LinkLessons(ctx context.Context, a, b, kind, reason string, at time.Time) error {
	_, err := t.tx.Exec(ctx, `INSERT INTO lesson_links (a, b, kind, reason, created_at) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (a, b, kind) DO NOTHING`, a, b, kind, reason, fmtTime(at))
	if err != nil {
		return fmt.Errorf("link lessons %s and %s: %w", a, b, err)
	}
	return nil
}

// Links implements kb.Admin: the links that involve a lesson (all when id
// is empty), oldest first.
func (db *DB) Links(ctx context.Context, id string) ([]kb.Link, error) {
	return readLinks(ctx, db.pool, id)
}

// Links returns the links that involve a lesson, oldest first, as the
// transaction sees them.
func (t *Tx) Links(ctx context.Context, id string) ([]kb.Link, error) {
	return readLinks(ctx, t.tx, id)
}

// readLinks returns the links that involve a lesson (all when id is
// empty), oldest first; links made in the same instant in the order of
// their lessons' ids (storage leaves that order unspecified).
func readLinks(ctx context.Context, q querier, id string) ([]kb.Link, error) {
	query := `SELECT ` + storerow.LinkColumns + ` FROM lesson_links`
	var args []any
	if id != "" {
		query += ` WHERE a = $1 OR b = $1`
		args = append(args, id)
	}
	rows, err := q.Query(ctx, query+` ORDER BY created_at COLLATE "C", a COLLATE "C", b COLLATE "C", kind`, args...)
	if err != nil {
		return nil, fmt.Errorf("read lesson links: %w", err)
	}
	defer rows.Close()
	out, err := storerow.Collect(rows, storerow.Link)
	if err != nil {
		return nil, fmt.Errorf("read lesson links: %w", err)
	}
	return out, nil
}
