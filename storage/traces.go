package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/innate-mcp/innate-mcp/internal/storerow"
	"github.com/innate-mcp/innate-mcp/kb"
)

func (t *tx) InsertTrace(ctx context.Context, tr kb.Trace) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO traces (id, tool, session, project, situation_key, created_at, request, response, outcome)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, tr.ID, tr.Tool, tr.Session, tr.Project, tr.SituationKey,
		fmtTime(tr.CreatedAt), string(tr.Request), string(tr.Response), nullOutcome(tr.Outcome))
	if err != nil {
		return fmt.Errorf("insert trace: %w", err)
	}
	if len(tr.Returned) == 0 {
		return nil
	}
	args := make([]any, 0, 4*len(tr.Returned))
	for _, r := range tr.Returned {
		args = append(args, tr.ID, r.LessonID, r.Rank, r.Score)
	}
	values := strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?),", len(tr.Returned)), ",")
	if _, err := t.tx.ExecContext(ctx, `INSERT INTO trace_lessons (trace_id, lesson_id, rank, score) VALUES `+values, args...); err != nil {
		return fmt.Errorf("insert trace lessons: %w", err)
	}
	return nil
}

func (t *tx) Trace(ctx context.Context, id string) (kb.Trace, error) {
	return readTrace(ctx, t.tx, id)
}

// queryer is *sql.DB, *sql.Tx or *redactTx.
type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// readTrace reads a trace and the lessons it returned.
func readTrace(ctx context.Context, q queryer, id string) (kb.Trace, error) {
	var tr kb.Trace
	var created, req, res string
	var outcome sql.NullString
	err := q.QueryRowContext(ctx, `SELECT id, tool, session, project, situation_key, created_at, request, response, outcome
		FROM traces WHERE id = ?`, id).Scan(&tr.ID, &tr.Tool, &tr.Session, &tr.Project, &tr.SituationKey, &created, &req, &res, &outcome)
	if errors.Is(err, sql.ErrNoRows) {
		return kb.Trace{}, kb.ErrNotFound
	}
	if err != nil {
		return kb.Trace{}, fmt.Errorf("read trace %s: %w", id, err)
	}
	tr.CreatedAt, tr.Request, tr.Response, tr.Outcome = parseTime(created), []byte(req), []byte(res), kb.Outcome(outcome.String)
	rows, err := q.QueryContext(ctx, `SELECT lesson_id, rank, score FROM trace_lessons WHERE trace_id = ? ORDER BY rank`, id)
	if err != nil {
		return kb.Trace{}, fmt.Errorf("read trace lessons: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var r kb.ReturnedEntry
		if err := rows.Scan(&r.LessonID, &r.Rank, &r.Score); err != nil {
			return kb.Trace{}, fmt.Errorf("read trace lessons: %w", err)
		}
		tr.Returned = append(tr.Returned, r)
	}
	return tr, rows.Err()
}

// Trace returns a stored trace; kb.ErrNotFound when there is none.
func (db *DB) Trace(ctx context.Context, id string) (kb.Trace, error) {
	return readTrace(ctx, db.sql, id)
}

func (t *tx) SetTraceOutcome(ctx context.Context, id string, o kb.Outcome) error {
	if _, err := t.tx.ExecContext(ctx, `UPDATE traces SET outcome = ? WHERE id = ?`, nullOutcome(o), id); err != nil {
		return fmt.Errorf("set trace outcome: %w", err)
	}
	return nil
}

func (t *tx) Evidence(ctx context.Context, traceID string) ([]kb.Evidence, error) {
	rows, err := t.tx.QueryContext(ctx, `SELECT trace_id, lesson_id, kind, signal, reason, session, created_at
		FROM evidence WHERE trace_id = ? ORDER BY lesson_id, kind`, traceID)
	if err != nil {
		return nil, fmt.Errorf("read evidence: %w", err)
	}
	defer rows.Close()
	out, err := storerow.Collect(rows, storerow.EvidenceRow)
	if err != nil {
		return nil, fmt.Errorf("read evidence: %w", err)
	}
	return out, nil
}

func (t *tx) PutEvidence(ctx context.Context, e kb.Evidence) (string, error) {
	var prev string
	err := t.tx.QueryRowContext(ctx, `SELECT signal FROM evidence WHERE trace_id = ? AND lesson_id = ? AND kind = ?`,
		e.TraceID, e.LessonID, string(e.Kind)).Scan(&prev)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("read evidence: %w", err)
	}
	now := fmtTime(e.CreatedAt)
	_, err = t.tx.ExecContext(ctx, `INSERT INTO evidence (trace_id, lesson_id, kind, signal, reason, session, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (trace_id, lesson_id, kind) DO UPDATE SET signal = excluded.signal, reason = excluded.reason,
		updated_at = excluded.updated_at`, e.TraceID, e.LessonID, string(e.Kind), e.Signal, e.Reason, e.Session, now, now)
	if err != nil {
		return "", fmt.Errorf("write evidence: %w", err)
	}
	return prev, nil
}

func (t *tx) AddContextOutcome(ctx context.Context, lessonID, key string, successes, failures int) error {
	if successes == 0 && failures == 0 {
		return nil
	}
	_, err := t.tx.ExecContext(ctx, `INSERT INTO lesson_context (lesson_id, key, successes, failures) VALUES (?, ?, max(?, 0), max(?, 0))
		ON CONFLICT (lesson_id, key) DO UPDATE SET successes = max(successes + ?, 0), failures = max(failures + ?, 0)`,
		lessonID, key, successes, failures, successes, failures)
	if err != nil {
		return fmt.Errorf("write context outcome: %w", err)
	}
	return nil
}

func (t *tx) InsertCorrection(ctx context.Context, c kb.Correction) error {
	kw, err := storerow.Strings(c.Keywords)
	if err != nil {
		return fmt.Errorf("encode correction keywords: %w", err)
	}
	_, err = t.tx.ExecContext(ctx, `INSERT INTO corrections (trace_id, project, text, keywords, session, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
		c.TraceID, c.Project, c.Text, kw, c.Session, fmtTime(c.CreatedAt))
	if err != nil {
		return fmt.Errorf("insert correction: %w", err)
	}
	return nil
}

func nullOutcome(o kb.Outcome) any {
	if o == "" {
		return nil
	}
	return string(o)
}

func (t *tx) CountRecalls(ctx context.Context, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	if _, err := t.tx.ExecContext(ctx, `UPDATE lessons SET recalls = recalls + 1 WHERE id IN (`+placeholders(len(ids))+`)`, args...); err != nil {
		return fmt.Errorf("count recalls: %w", err)
	}
	return nil
}

// Corrections implements kb.Store.
func (db *DB) Corrections(ctx context.Context, project string, since time.Time, limit int) ([]kb.Correction, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT trace_id, project, text, keywords, session, created_at FROM corrections
		WHERE created_at >= ? AND project IN (?, '') ORDER BY created_at DESC, rowid DESC LIMIT ?`, fmtTime(since), project, limit)
	if err != nil {
		return nil, fmt.Errorf("read corrections: %w", err)
	}
	defer rows.Close()
	out, err := storerow.Collect(rows, storerow.CorrectionRow)
	if err != nil {
		return nil, fmt.Errorf("read corrections: %w", err)
	}
	return out, nil
}
