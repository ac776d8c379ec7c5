package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/innate-mcp/innate-mcp/internal/storerow"
	"github.com/innate-mcp/innate-mcp/regulate"
)

// Params returns the tuned parameter values stored in meta (only those the
// regulator has set; defaults come from the registry).
func (db *DB) Params(ctx context.Context) (map[string]float64, error) {
	return readParams(ctx, db.sql)
}

func readParams(ctx context.Context, q queryer) (map[string]float64, error) {
	var v string
	err := q.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'params'`).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return map[string]float64{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read tuned parameters: %w", err)
	}
	m, err := storerow.Params(v)
	if err != nil {
		return nil, fmt.Errorf("read tuned parameters: %w", err)
	}
	return m, nil
}

// RegulatorHistory returns the regulator's log, oldest first.
func (db *DB) RegulatorHistory(ctx context.Context) ([]regulate.Change, error) {
	return readRegulatorLog(ctx, db.sql)
}

func readRegulatorLog(ctx context.Context, q queryer) ([]regulate.Change, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+storerow.RegulatorLogColumns+` FROM regulator_log ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("read regulator log: %w", err)
	}
	defer rows.Close()
	out, err := storerow.Collect(rows, storerow.RegulatorChange)
	if err != nil {
		return nil, fmt.Errorf("read regulator log: %w", err)
	}
	return out, nil
}

// Regulate runs plan inside one write transaction over the current tuned
// values and the regulator's history, then applies and logs what it
// returns. Running it in one transaction keeps two server processes from
// both acting on the same due time: the second sees the first's log.
func (db *DB) Regulate(ctx context.Context, plan func(params map[string]float64, history []regulate.Change) regulate.Result) (regulate.Result, error) {
	var res regulate.Result
	err := db.update(ctx, func(tx *redactTx) error {
		params, err := readParams(ctx, tx)
		if err != nil {
			return err
		}
		hist, err := readRegulatorLog(ctx, tx)
		if err != nil {
			return err
		}
		res = plan(params, hist)
		if len(res.Changes) == 0 {
			return nil
		}
		for _, c := range res.Changes {
			if _, err := tx.ExecContext(ctx, `INSERT INTO regulator_log (`+storerow.RegulatorLogColumns+`)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, storerow.RegulatorChangeArgs(c)...); err != nil {
				return fmt.Errorf("write regulator log: %w", err)
			}
		}
		b, err := storerow.AppliedParams(params, res.Changes)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES ('params', ?)
			ON CONFLICT (key) DO UPDATE SET value = excluded.value`, b); err != nil {
			return fmt.Errorf("write tuned parameters: %w", err)
		}
		return nil
	})
	return res, err
}

// HesitationMetrics counts reviews of held hesitate items made in a window.
func (db *DB) HesitationMetrics(ctx context.Context, since time.Time) (regulate.HesitationMetrics, error) {
	var m regulate.HesitationMetrics
	err := db.sql.QueryRowContext(ctx, `SELECT coalesce(sum(review = 'confirmed'), 0), coalesce(sum(review = 'rejected'), 0)
		FROM hesitation_log WHERE reviewed_at >= ?`, fmtTime(since)).Scan(&m.Confirmed, &m.Rejected)
	if err != nil {
		return m, fmt.Errorf("read hesitation reviews: %w", err)
	}
	return m, nil
}

// RoutingMetrics counts the routing decisions made in a window, by mode,
// with their ambiguity and the misroute feedback they received.
func (db *DB) RoutingMetrics(ctx context.Context, since time.Time) (regulate.RoutingMetrics, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT mode, ambiguous, coalesce(misroute, '') FROM routing_log WHERE created_at >= ?`, fmtTime(since))
	if err != nil {
		return regulate.RoutingMetrics{}, fmt.Errorf("read routing log: %w", err)
	}
	defer rows.Close()
	m, err := storerow.RoutingMetrics(rows)
	if err != nil {
		return m, fmt.Errorf("read routing log: %w", err)
	}
	return m, nil
}

// AppraiseMetrics counts the abstentions of a window whose outcome is known
// (and not censored), and those that were justified: the directional call
// the verdict held back would have missed.
func (db *DB) AppraiseMetrics(ctx context.Context, since time.Time) (regulate.AppraiseMetrics, error) {
	var m regulate.AppraiseMetrics
	err := db.sql.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(NOT ((directional = 'affirm' AND outcome = 'success')
		OR (directional = 'caution' AND outcome = 'failure'))), 0)
		FROM verdict_log WHERE abstained = 1 AND outcome IN ('success', 'failure') AND censored = 0 AND created_at >= ?`,
		fmtTime(since)).Scan(&m.Abstentions, &m.Justified)
	if err != nil {
		return m, fmt.Errorf("read verdict log: %w", err)
	}
	return m, nil
}
