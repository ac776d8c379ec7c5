package pgstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/innate-mcp/innate-mcp/internal/storerow"
	"github.com/innate-mcp/innate-mcp/regulate"
)

// Params implements kb.RegulatorStore: the tuned parameter values stored
// in meta (only those the regulator has set; defaults come from the
// registry).
func (db *DB) Params(ctx context.Context) (map[string]float64, error) {
	return readParams(ctx, db.pool)
}

func readParams(ctx context.Context, q querier) (map[string]float64, error) {
	var v string
	err := q.QueryRow(ctx, `SELECT value FROM meta WHERE key = 'params'`).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
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

// RegulatorHistory implements kb.RegulatorStore: the regulator's log,
// oldest first.
func (db *DB) RegulatorHistory(ctx context.Context) ([]regulate.Change, error) {
	return readRegulatorLog(ctx, db.pool)
}

func readRegulatorLog(ctx context.Context, q querier) ([]regulate.Change, error) {
	rows, err := q.Query(ctx, `SELECT `+storerow.RegulatorLogColumns+` FROM regulator_log ORDER BY id`)
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

// Regulate implements kb.RegulatorStore: it runs plan inside one write
// transaction over the current tuned values and the regulator's history,
// then applies and logs what it returns. The write lock every write
// transaction takes first (see DB.update) keeps two instances from both
// acting on the same due time: the second sees the first's log.
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
			if _, err := tx.Exec(ctx, `INSERT INTO regulator_log (`+storerow.RegulatorLogColumns+`)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`, storerow.RegulatorChangeArgs(c)...); err != nil {
				return fmt.Errorf("write regulator log: %w", err)
			}
		}
		b, err := storerow.AppliedParams(params, res.Changes)
		if err != nil {
			return err
		}
		if err := setMeta(ctx, tx, "params", b); err != nil {
			return fmt.Errorf("write tuned parameters: %w", err)
		}
		return nil
	})
	return res, err
}

// HesitationMetrics implements kb.RegulatorStore: the reviews of held
// hesitate items made since a time.
func (db *DB) HesitationMetrics(ctx context.Context, since time.Time) (regulate.HesitationMetrics, error) {
	var m regulate.HesitationMetrics
	err := db.pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE review = 'confirmed'), count(*) FILTER (WHERE review = 'rejected')
		FROM hesitation_log WHERE reviewed_at >= $1`, fmtTime(since)).Scan(&m.Confirmed, &m.Rejected)
	if err != nil {
		return m, fmt.Errorf("read hesitation reviews: %w", err)
	}
	return m, nil
}

// RoutingMetrics implements kb.RegulatorStore: the routing decisions made
// since a time, by mode, with their ambiguity and the misroute feedback
// they received.
func (db *DB) RoutingMetrics(ctx context.Context, since time.Time) (regulate.RoutingMetrics, error) {
	rows, err := db.pool.Query(ctx, `SELECT mode, ambiguous, coalesce(misroute, '') FROM routing_log WHERE created_at >= $1`, fmtTime(since))
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

// AppraiseMetrics implements kb.RegulatorStore: the abstentions since a
// time whose outcome is known (and not censored), and those that were
// justified: the directional call the verdict held back would have missed.
func (db *DB) AppraiseMetrics(ctx context.Context, since time.Time) (regulate.AppraiseMetrics, error) {
	var m regulate.AppraiseMetrics
	err := db.pool.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE NOT ((directional = 'affirm' AND outcome = 'success')
		OR (directional = 'caution' AND outcome = 'failure')))
		FROM verdict_log WHERE abstained AND outcome IN ('success', 'failure') AND NOT censored AND created_at >= $1`,
		fmtTime(since)).Scan(&m.Abstentions, &m.Justified)
	if err != nil {
		return m, fmt.Errorf("read verdict log: %w", err)
	}
	return m, nil
}
