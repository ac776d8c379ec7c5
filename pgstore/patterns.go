package pgstore

import (
	"context"
	"fmt"
	"time"

	"github.com/innate-mcp/innate-mcp/hesitation"
	"github.com/innate-mcp/innate-mcp/internal/storerow"
	"github.com/innate-mcp/innate-mcp/kb"
)

// The learned error patterns and the hesitation log (storage keeps them in
// hesitation.go).

// queryPatterns reads every error pattern, strongest first, then by id
// (bytewise, as in storage).
func queryPatterns(ctx context.Context, q querier) ([]hesitation.Pattern, error) {
	rows, err := q.Query(ctx, `SELECT id, keywords, description, source, strength, trigger_count, corrections,
		created_at, last_triggered_at FROM error_patterns ORDER BY strength DESC, id COLLATE "C"`)
	if err != nil {
		return nil, fmt.Errorf("read error patterns: %w", err)
	}
	defer rows.Close()
	var out []hesitation.Pattern
	for rows.Next() {
		var p hesitation.Pattern
		var kw, src, created, last string
		if err := rows.Scan(&p.ID, &kw, &p.Description, &src, &p.Strength, &p.TriggerCount, &p.Corrections, &created, &last); err != nil {
			return nil, fmt.Errorf("read error patterns: %w", err)
		}
		if p.Keywords, err = storerow.Keywords(p.ID, kw); err != nil {
			return nil, err
		}
		p.Source, p.CreatedAt, p.LastTriggeredAt = hesitation.Source(src), parseTime(created), parseTime(last)
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read error patterns: %w", err)
	}
	return out, nil
}

// ErrorPatterns implements kb.Store.
func (db *DB) ErrorPatterns(ctx context.Context) ([]hesitation.Pattern, error) {
	return queryPatterns(ctx, db.pool)
}

// ErrorPatterns returns every learned error pattern as the transaction
// sees them.
func (t *Tx) ErrorPatterns(ctx context.Context) ([]hesitation.Pattern, error) {
	return queryPatterns(ctx, t.tx)
}

// DeletePattern implements kb.Admin: it removes an error pattern;
// kb.ErrNotFound when there is none.
func (db *DB) DeletePattern(ctx context.Context, id string) error {
	return db.update(ctx, func(tx *redactTx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM error_patterns WHERE id = $1`, id)
		if err != nil {
			return fmt.Errorf("delete error pattern %s: %w", id, err)
		}
		if tag.RowsAffected() == 0 {
			return kb.ErrNotFound
		}
		return nil
	})
}

// PutPattern inserts or replaces an error pattern by id; its creation time
// is kept from the first insert.
func (t *Tx) PutPattern(ctx context.Context, p hesitation.Pattern) error {
	kw, err := storerow.Strings(p.Keywords)
	if err != nil {
		return fmt.Errorf("encode keywords of error pattern %s: %w", p.ID, err)
	}
	_, err = t.tx.Exec(ctx, `INSERT INTO error_patterns (id, keywords, description, source, strength, trigger_count,
		corrections, created_at, last_triggered_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
		ON CONFLICT (id) DO UPDATE SET keywords = excluded.keywords, description = excluded.description,
		source = excluded.source, strength = excluded.strength, trigger_count = excluded.trigger_count,
		corrections = excluded.corrections, last_triggered_at = excluded.last_triggered_at`,
		p.ID, kw, p.Description, string(p.Source), p.Strength, p.TriggerCount, p.Corrections,
		fmtTime(p.CreatedAt), fmtTime(p.LastTriggeredAt))
	if err != nil {
		return fmt.Errorf("write error pattern %s: %w", p.ID, err)
	}
	return nil
}

// LogHesitation writes a hesitate call to the audit log.
func (t *Tx) LogHesitation(ctx context.Context, e kb.HesitationEntry) error {
	f, err := storerow.HesitationRow(e)
	if err != nil {
		return err
	}
	_, err = t.tx.Exec(ctx, `INSERT INTO hesitation_log (trace_id, created_at, score, threshold, confident, held,
		signals, actions, plan, patterns) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, e.TraceID, fmtTime(e.CreatedAt),
		e.Result.Score, e.Result.Threshold, e.Result.Confident, e.Held, f.Signals, f.Actions, f.Plan, f.Patterns)
	if err != nil {
		return fmt.Errorf("log hesitation: %w", err)
	}
	return nil
}

// ReviewHesitation records the review of a logged hesitate call;
// kb.ErrNotFound when no hesitate call has that trace id.
func (t *Tx) ReviewHesitation(ctx context.Context, traceID, verdict string, at time.Time) error {
	tag, err := t.tx.Exec(ctx, `UPDATE hesitation_log SET review = $1, reviewed_at = $2 WHERE trace_id = $3`,
		verdict, fmtTime(at), traceID)
	if err != nil {
		return fmt.Errorf("review hesitation: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return kb.ErrNotFound
	}
	return nil
}
