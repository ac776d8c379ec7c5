package pgstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/innate-mcp/innate-mcp/internal/storerow"
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
	kw, err := storerow.Strings(c.Keywords)
	if err != nil {
		return fmt.Errorf("encode correction keywords: %w", err)
	}
	_, err = t.tx.Exec(ctx, `INSERT INTO corrections (trace_id, project, text, keywords, session, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
		c.TraceID, c.Project, c.Text, kw, c.Session, fmtTime(c.CreatedAt))
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
	out, err := storerow.Collect(rows, storerow.CorrectionRow)
	if err != nil {
		return nil, fmt.Errorf("read corrections: %w", err)
	}
	return out, nil
}

// Evidence returns the evidence recorded against a trace, ordered by lesson
// id and kind (bytewise, as in storage).
func (t *Tx) Evidence(ctx context.Context, traceID string) ([]kb.Evidence, error) {
	rows, err := t.tx.Query(ctx, `SELECT trace_id, lesson_id, kind, signal, reason, session, created_at
		FROM evidence WHERE trace_id = $1 ORDER BY lesson_id COLLATE "C", kind COLLATE "C"`, traceID)
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

// PutEvidence stores e keyed by (trace, lesson, kind), replacing the signal
// and reason stored under that key (its session and creation time stay);
// it reports the signal stored before ("" when there was none).
func (t *Tx) PutEvidence(ctx context.Context, e kb.Evidence) (string, error) {
	var prev string
	err := t.tx.QueryRow(ctx, `SELECT signal FROM evidence WHERE trace_id = $1 AND lesson_id = $2 AND kind = $3`,
		e.TraceID, e.LessonID, string(e.Kind)).Scan(&prev)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return "", fmt.Errorf("read evidence: %w", err)
	}
	now := fmtTime(e.CreatedAt)
	_, err = t.tx.Exec(ctx, `INSERT INTO evidence (trace_id, lesson_id, kind, signal, reason, session, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
		ON CONFLICT (trace_id, lesson_id, kind) DO UPDATE SET signal = excluded.signal, reason = excluded.reason,
		updated_at = excluded.updated_at`, e.TraceID, e.LessonID, string(e.Kind), e.Signal, e.Reason, e.Session, now)
	if err != nil {
		return "", fmt.Errorf("write evidence: %w", err)
	}
	return prev, nil
}

// AddContextOutcome moves the per-situation outcome tally of a lesson by
// the given (possibly negative) amounts; a count never falls below zero.
func (t *Tx) AddContextOutcome(ctx context.Context, lessonID, key string, successes, failures int) error {
	if successes == 0 && failures == 0 {
		return nil
	}
	_, err := t.tx.Exec(ctx, `INSERT INTO lesson_context (lesson_id, key, successes, failures)
		VALUES ($1, $2, greatest($3::bigint, 0), greatest($4::bigint, 0))
		ON CONFLICT (lesson_id, key) DO UPDATE SET successes = greatest(lesson_context.successes + $3::bigint, 0),
		failures = greatest(lesson_context.failures + $4::bigint, 0)`, lessonID, key, successes, failures)
	if err != nil {
		return fmt.Errorf("write context outcome: %w", err)
	}
	return nil
}

// CountRecalls adds one to the recall counter of each lesson (once for an
// id given twice, as in storage).
func (t *Tx) CountRecalls(ctx context.Context, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	if _, err := t.tx.Exec(ctx, `UPDATE lessons SET recalls = recalls + 1 WHERE id = ANY($1::text[])`, ids); err != nil {
		return fmt.Errorf("count recalls: %w", err)
	}
	return nil
}
