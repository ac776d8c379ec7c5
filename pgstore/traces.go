package pgstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/innate-mcp/innate-mcp/kb"
)

// InsertTrace stores a new trace with the lessons it returned; a trace id
// already stored is an error.
func (t *Tx) InsertTrace(ctx context.Context, tr kb.Trace) error {
	_, err := t.tx.Exec(ctx, `INSERT INTO traces (id, tool, session, project, situation_key, created_at, request, response, outcome)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, tr.ID, tr.Tool, tr.Session, tr.Project, tr.SituationKey,
		fmtTime(tr.CreatedAt), string(tr.Request), string(tr.Response), nullOutcome(tr.Outcome))
	if err != nil {
		return fmt.Errorf("insert trace: %w", err)
	}
	if len(tr.Returned) == 0 {
		return nil
	}
	ids := make([]string, len(tr.Returned))
	ranks := make([]int64, len(tr.Returned))
	scores := make([]float64, len(tr.Returned))
	for i, r := range tr.Returned {
		ids[i], ranks[i], scores[i] = r.LessonID, int64(r.Rank), r.Score
	}
	if _, err := t.tx.Exec(ctx, `INSERT INTO trace_lessons (trace_id, lesson_id, rank, score)
		SELECT $1, u.lesson_id, u.rank, u.score FROM unnest($2::text[], $3::bigint[], $4::float8[]) AS u(lesson_id, rank, score)`,
		tr.ID, ids, ranks, scores); err != nil {
		return fmt.Errorf("insert trace lessons: %w", err)
	}
	return nil
}

// Trace returns a trace and the lessons it returned (in rank order) as the
// transaction sees it; kb.ErrNotFound when there is none.
func (t *Tx) Trace(ctx context.Context, id string) (kb.Trace, error) {
	return readTrace(ctx, t.tx, id)
}

// Trace returns a stored trace; kb.ErrNotFound when there is none.
func (db *DB) Trace(ctx context.Context, id string) (kb.Trace, error) {
	return readTrace(ctx, db.pool, id)
}

// readTrace reads a trace and the lessons it returned.
func readTrace(ctx context.Context, q querier, id string) (kb.Trace, error) {
	var tr kb.Trace
	var created, req, res string
	var outcome *string
	err := q.QueryRow(ctx, `SELECT id, tool, session, project, situation_key, created_at, request, response, outcome
		FROM traces WHERE id = $1`, id).Scan(&tr.ID, &tr.Tool, &tr.Session, &tr.Project, &tr.SituationKey, &created, &req, &res, &outcome)
	if errors.Is(err, pgx.ErrNoRows) {
		return kb.Trace{}, kb.ErrNotFound
	}
	if err != nil {
		return kb.Trace{}, fmt.Errorf("read trace %s: %w", id, err)
	}
	tr.CreatedAt, tr.Request, tr.Response = parseTime(created), []byte(req), []byte(res)
	if outcome != nil {
		tr.Outcome = kb.Outcome(*outcome)
	}
	rows, err := q.Query(ctx, `SELECT lesson_id, rank, score FROM trace_lessons WHERE trace_id = $1 ORDER BY rank`, id)
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
	if err := rows.Err(); err != nil {
		return kb.Trace{}, fmt.Errorf("read trace lessons: %w", err)
	}
	return tr, nil
}

// SetTraceOutcome records what came of a trace ("" clears it).
func (t *Tx) SetTraceOutcome(ctx context.Context, id string, o kb.Outcome) error {
	if _, err := t.tx.Exec(ctx, `UPDATE traces SET outcome = $1 WHERE id = $2`, nullOutcome(o), id); err != nil {
		return fmt.Errorf("set trace outcome: %w", err)
	}
	return nil
}

func nullOutcome(o kb.Outcome) *string {
	if o == "" {
		return nil
	}
	s := string(o)
	return &s
}

// InsertCorrection keeps a user's correction.
func (t *Tx) InsertCorrection(ctx context.Context, c kb.Correction) error {
	kw, err := json.Marshal(nonNil(c.Keywords))
	if err != nil {
		return fmt.Errorf("encode correction keywords: %w", err)
	}
	_, err = t.tx.Exec(ctx, `INSERT INTO corrections (trace_id, project, text, keywords, session, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
		c.TraceID, c.Project, c.Text, string(kw), c.Session, fmtTime(c.CreatedAt))
	if err != nil {
		return fmt.Errorf("insert correction: %w", err)
	}
	return nil
}

// Corrections implements kb.Store: the corrections made since a time in
// project or with no project, newest first, at most limit of them.
func (db *DB) Corrections(ctx context.Context, project string, since time.Time, limit int) ([]kb.Correction, error) {
	rows, err := db.pool.Query(ctx, `SELECT COALESCE(trace_id, ''), project, text, keywords, session, created_at FROM corrections
		WHERE created_at >= $1 AND project IN ($2, '') ORDER BY created_at DESC, id DESC LIMIT $3`, fmtTime(since), project, limit)
	if err != nil {
		return nil, fmt.Errorf("read corrections: %w", err)
	}
	defer rows.Close()
	var out []kb.Correction
	for rows.Next() {
		var c kb.Correction
		var kw, created string
		if err := rows.Scan(&c.TraceID, &c.Project, &c.Text, &kw, &c.Session, &created); err != nil {
			return nil, fmt.Errorf("read corrections: %w", err)
		}
		if err := json.Unmarshal([]byte(kw), &c.Keywords); err != nil {
			return nil, fmt.Errorf("read correction keywords: %w", err)
		}
		c.CreatedAt = parseTime(created)
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read corrections: %w", err)
	}
	return out, nil
}
