package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/innate-mcp/innate-mcp/hesitation"
	"github.com/innate-mcp/innate-mcp/internal/storerow"
	"github.com/innate-mcp/innate-mcp/kb"
)

// queryPatterns reads every error pattern, strongest first.
func queryPatterns(ctx context.Context, q queryer) ([]hesitation.Pattern, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, keywords, description, source, strength, trigger_count, corrections,
		created_at, last_triggered_at FROM error_patterns ORDER BY strength DESC, id`)
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
		var err error
		if p.Keywords, err = storerow.Keywords(p.ID, kw); err != nil {
			return nil, err
		}
		p.Source, p.CreatedAt, p.LastTriggeredAt = hesitation.Source(src), parseTime(created), parseTime(last)
		out = append(out, p)
	}
	return out, rows.Err()
}

// ErrorPatterns implements kb.Store.
func (db *DB) ErrorPatterns(ctx context.Context) ([]hesitation.Pattern, error) {
	return queryPatterns(ctx, db.sql)
}

// DeletePattern removes an error pattern; kb.ErrNotFound when there is none.
func (db *DB) DeletePattern(ctx context.Context, id string) error {
	return db.update(ctx, func(tx *redactTx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM error_patterns WHERE id = ?`, id)
		if err != nil {
			return fmt.Errorf("delete error pattern %s: %w", id, err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("delete error pattern %s: %w", id, err)
		}
		if n == 0 {
			return kb.ErrNotFound
		}
		return nil
	})
}

func (t *tx) ErrorPatterns(ctx context.Context) ([]hesitation.Pattern, error) {
	return queryPatterns(ctx, t.tx)
}

func (t *tx) PutPattern(ctx context.Context, p hesitation.Pattern) error {
	kw, err := storerow.Strings(p.Keywords)
	if err != nil {
		return fmt.Errorf("encode keywords of error pattern %s: %w", p.ID, err)
	}
	_, err = t.tx.ExecContext(ctx, `INSERT INTO error_patterns (id, keywords, description, source, strength, trigger_count,
		corrections, created_at, last_triggered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
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

func (t *tx) LogHesitation(ctx context.Context, e kb.HesitationEntry) error {
	f, err := storerow.HesitationRow(e)
	if err != nil {
		return err
	}
	_, err = t.tx.ExecContext(ctx, `INSERT INTO hesitation_log (trace_id, created_at, score, threshold, confident, held,
		signals, actions, plan, patterns) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, e.TraceID, fmtTime(e.CreatedAt),
		e.Result.Score, e.Result.Threshold, e.Result.Confident, e.Held, f.Signals, f.Actions, f.Plan, f.Patterns)
	if err != nil {
		return fmt.Errorf("log hesitation: %w", err)
	}
	return nil
}

func (t *tx) ReviewHesitation(ctx context.Context, traceID, verdict string, at time.Time) error {
	var held bool
	err := t.tx.QueryRowContext(ctx, `SELECT held FROM hesitation_log WHERE trace_id = ?`, traceID).Scan(&held)
	if errors.Is(err, sql.ErrNoRows) {
		return kb.ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("review hesitation: %w", err)
	}
	if _, err := t.tx.ExecContext(ctx, `UPDATE hesitation_log SET review = ?, reviewed_at = ? WHERE trace_id = ?`,
		verdict, fmtTime(at), traceID); err != nil {
		return fmt.Errorf("review hesitation: %w", err)
	}
	return nil
}

// HesitationStats is kb's (kb.StatsReader).
type HesitationStats = kb.HesitationStats

// HesitationStats reads the audit log since a time. With a zero since it
// covers every hesitate call ever made, the pruned ones included (from
// their tally); with another it covers the calls still held.
func (db *DB) HesitationStats(ctx context.Context, since time.Time) (HesitationStats, error) {
	t := kb.HesitationTally{Signals: map[string]int{}}
	if since.IsZero() {
		if err := readTally(ctx, db.sql, kb.TallyHesitation, &t); err != nil {
			return HesitationStats{Signals: map[string]int{}}, err
		}
	}
	if err := storerow.AddHesitations(selectWhere(ctx, db.sql, `created_at >= ?`, fmtTime(since)), &t); err != nil {
		return HesitationStats{Signals: map[string]int{}}, err
	}
	var patterns int
	if err := db.sql.QueryRowContext(ctx, `SELECT count(*) FROM error_patterns`).Scan(&patterns); err != nil {
		return t.Stats(0), fmt.Errorf("count error patterns: %w", err)
	}
	return t.Stats(patterns), nil
}
