package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/innate-mcp/innate-mcp/confidence"
	"github.com/innate-mcp/innate-mcp/internal/storerow"
	"github.com/innate-mcp/innate-mcp/kb"
)

func (t *tx) AddHistory(ctx context.Context, lessonID string, changes []confidence.Change) error {
	for _, ch := range changes {
		args, err := storerow.HistoryArgs(lessonID, ch)
		if err != nil {
			return err
		}
		_, err = t.tx.ExecContext(ctx, `INSERT INTO confidence_history (lesson_id, `+storerow.HistoryColumns+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, args...)
		if err != nil {
			return fmt.Errorf("write confidence history of %s: %w", lessonID, err)
		}
	}
	return nil
}

func (t *tx) LinkLessons(ctx context.Context, a, b, kind, reason string, at time.Time) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO lesson_links (a, b, kind, reason, created_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (a, b, kind) DO NOTHING`, a, b, kind, reason, fmtTime(at))
	if err != nil {
		return fmt.Errorf("link lessons %s and %s: %w", a, b, err)
	}
	return nil
}

// HistoryEntry is one row of a lesson's confidence history.
type HistoryEntry struct {
	confidence.Change
}

// History returns a lesson's confidence changes, oldest first.
func (db *DB) History(ctx context.Context, lessonID string) ([]confidence.Change, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT `+storerow.HistoryColumns+` FROM confidence_history WHERE lesson_id = ? ORDER BY id`, lessonID)
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

// Link is a relation between two lessons.
type Link = kb.Link

// Links returns the links that involve a lesson (all when id is empty).
func (db *DB) Links(ctx context.Context, id string) ([]Link, error) {
	return readLinks(ctx, db.sql, id)
}

// Links implements kb.Tx.
func (t *tx) Links(ctx context.Context, id string) ([]kb.Link, error) {
	return readLinks(ctx, t.tx, id)
}

// readLinks returns the links that involve a lesson (all when id is
// empty), oldest first.
func readLinks(ctx context.Context, q queryer, id string) ([]kb.Link, error) {
	query := `SELECT ` + storerow.LinkColumns + ` FROM lesson_links`
	var args []any
	if id != "" {
		query += ` WHERE a = ? OR b = ?`
		args = append(args, id, id)
	}
	rows, err := q.QueryContext(ctx, query+` ORDER BY created_at`, args...)
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

// backfillConfidence is migration 6's data step: a confidence state for
// every lesson, derived from its counters.
func backfillConfidence(ctx context.Context, sqlTx *redactTx) error {
	rows, err := sqlTx.QueryContext(ctx, `SELECT `+baseLessonColumns+` FROM lessons l`)
	if err != nil {
		return err
	}
	var ls []kb.Lesson
	for rows.Next() {
		l, _, err := scanBaseLesson(rows)
		if err != nil {
			rows.Close()
			return err
		}
		ls = append(ls, l)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	cfg := confidence.DefaultConfig()
	now := time.Now().UTC()
	for _, l := range ls {
		s := kb.InitialConfidence(l, now, cfg)
		b, err := json.Marshal(s)
		if err != nil {
			return fmt.Errorf("encode confidence state of %s: %w", l.ID, err)
		}
		if _, err := sqlTx.ExecContext(ctx, `UPDATE lessons SET conf_state = ?, tier = ?, confidence = ? WHERE id = ?`,
			string(b), string(s.Tier), storerow.Confidence(s.Composite), l.ID); err != nil {
			return err
		}
	}
	return nil
}
