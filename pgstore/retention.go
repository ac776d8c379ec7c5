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

// Prune applies the database's retention (Options.Retention) at time now,
// as storage's Prune does: traces beyond it are deleted (see kb.Retention),
// their figures folded first into the tallies the stats read, in write
// transactions of kb.PruneBatch traces, at most maxBatches of them (all
// when maxBatches <= 0). PostgreSQL's autovacuum reclaims the space, so
// the report's ReclaimedBytes is 0 and Converted false. Prune is safe for
// concurrent use, also by several instances (the write lock serialises
// their batches).
func (db *DB) Prune(ctx context.Context, now time.Time, maxBatches int) (kb.PruneReport, error) {
	return db.prune(ctx, now, db.retention, maxBatches)
}

// prune is Prune with a retention of the caller's, not validated (tests
// prune to a handful of traces).
func (db *DB) prune(ctx context.Context, now time.Time, r kb.Retention, maxBatches int) (kb.PruneReport, error) {
	var rep kb.PruneReport
	if r.KeepsAll() {
		return rep, nil
	}
	cutoff, err := db.pruneCutoff(ctx, now, r)
	if err != nil {
		return rep, err
	}
	return storerow.PruneBatches(maxBatches, func() (int, error) { return db.pruneOnce(ctx, cutoff) })
}

// pruneCutoff is storerow.PruneCutoff over this database's traces.
func (db *DB) pruneCutoff(ctx context.Context, now time.Time, r kb.Retention) (string, error) {
	return storerow.PruneCutoff(now, r, func(offset int) (string, error) {
		var nth string
		err := db.pool.QueryRow(ctx, `SELECT created_at FROM traces ORDER BY created_at DESC LIMIT 1 OFFSET $1`, offset).Scan(&nth)
		if errors.Is(err, pgx.ErrNoRows) {
			return "", nil
		}
		return nth, err
	})
}

// pruneOnce deletes, in one transaction, up to kb.PruneBatch of the oldest
// traces created before cutoff, with their log rows, once their figures
// are folded into the tallies; it returns how many it deleted.
func (db *DB) pruneOnce(ctx context.Context, cutoff string) (int, error) {
	if cutoff == "" {
		return 0, nil
	}
	var n int
	err := db.update(ctx, func(tx *redactTx) error {
		rows, err := tx.Query(ctx, `SELECT id FROM traces WHERE created_at < $1 ORDER BY created_at LIMIT $2`, cutoff, kb.PruneBatch)
		if err != nil {
			return fmt.Errorf("prune traces: %w", err)
		}
		ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return fmt.Errorf("prune traces: %w", err)
		}
		n = len(ids)
		if n == 0 {
			return nil
		}
		if err := foldTraces(ctx, tx, ids); err != nil {
			return fmt.Errorf("prune traces: %w", err)
		}
		archived, err := archiveCalibration(ctx, tx, ids)
		if err != nil {
			return fmt.Errorf("prune traces: %w", err)
		}
		// The evidence, returned lessons and log rows go with their trace
		// (ON DELETE CASCADE).
		if _, err := tx.Exec(ctx, `DELETE FROM traces WHERE id = ANY($1)`, ids); err != nil {
			return fmt.Errorf("prune traces: delete: %w", err)
		}
		if archived {
			return trimCalibration(ctx, tx)
		}
		return nil
	})
	return n, err
}

// archiveCalibration keeps the strength and hit of the calibration points
// among the verdicts of traces ids in calibration_archive, and reports
// whether there were any.
func archiveCalibration(ctx context.Context, tx *redactTx, ids []string) (bool, error) {
	tag, err := tx.Exec(ctx, `INSERT INTO calibration_archive (seq, strength, hit)
		SELECT seq, strength, `+storerow.CalibrationHit+` FROM verdict_log v WHERE `+calibrationPoint+` AND trace_id = ANY($1)`, ids)
	if err != nil {
		return false, fmt.Errorf("archive calibration points: %w", err)
	}
	return tag.RowsAffected() > 0, nil
}

// trimCalibration drops the archived calibration points the calibration no
// longer reads: those older than the newest storerow.MaxCalibrationPoints, archived
// or in the verdict log. It runs once the archived verdicts are deleted,
// lest they count twice.
func trimCalibration(ctx context.Context, tx *redactTx) error {
	if _, err := tx.Exec(ctx, `DELETE FROM calibration_archive WHERE seq < (`+calibrationSeqs+` LIMIT 1 OFFSET $1)`,
		storerow.MaxCalibrationPoints-1); err != nil {
		return fmt.Errorf("trim calibration archive: %w", err)
	}
	return nil
}

// foldTraces adds what the stats report counts of the traces ids, and of
// their log rows, to the pruned tallies.
func foldTraces(ctx context.Context, tx *redactTx, ids []string) error {
	var rt kb.RecallTally
	if err := tx.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE `+recallEmpty+`)
		FROM traces WHERE tool = 'recall' AND id = ANY($1)`, ids).Scan(&rt.Calls, &rt.Empty); err != nil {
		return fmt.Errorf("tally recall traces: %w", err)
	}
	if rt.Calls > 0 {
		rows, err := tx.Query(ctx, `SELECT tl.lesson_id, count(*) FROM trace_lessons tl JOIN traces t ON t.id = tl.trace_id
			WHERE t.tool = 'recall' AND t.id = ANY($1) GROUP BY tl.lesson_id`, ids)
		if err != nil {
			return fmt.Errorf("tally recall selections: %w", err)
		}
		lessons, counts, total, err := storerow.Selections(rows)
		rows.Close()
		if err != nil {
			return fmt.Errorf("tally recall selections: %w", err)
		}
		rt.Selections += total
		if _, err := tx.Exec(ctx, `INSERT INTO pruned_selections (lesson_id, selections)
			SELECT * FROM unnest($1::text[], $2::bigint[])
			ON CONFLICT (lesson_id) DO UPDATE SET selections = pruned_selections.selections + excluded.selections`,
			lessons, counts); err != nil {
			return fmt.Errorf("tally recall selections: %w", err)
		}
		if err := storerow.AddTally(tallyReader(ctx, tx), tallyWriter(ctx, tx), kb.TallyRecall, (*kb.RecallTally).Merge, rt); err != nil {
			return err
		}
	}
	return storerow.FoldLogs(selectWhere(ctx, tx, `trace_id = ANY($1)`, ids), tallyReader(ctx, tx), tallyWriter(ctx, tx))
}

// startPruning runs Prune in the background, soon after Open and then every
// interval, until Close; errors are logged.
func (db *DB) startPruning(every time.Duration) {
	if db.retention.KeepsAll() {
		return
	}
	db.stopPrune = storerow.PruneEvery(every, db.log, func(ctx context.Context, now time.Time) (kb.PruneReport, error) {
		return db.Prune(ctx, now, 0)
	})
}
