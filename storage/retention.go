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

// Reclaiming gives free pages back to the file system once they exceed
// both reclaimMinPages and a reclaimShare of the file: freed pages that new
// traces will fill again soon are left in place.
const (
	reclaimMinPages = 256
	reclaimShare    = 0.10
	reclaimChunk    = 512 // pages one incremental_vacuum transaction frees
)

// Prune applies the database's retention (Options.Retention) at time now:
// traces beyond it are deleted (see kb.Retention) in transactions of
// kb.PruneBatch traces, at most maxBatches of them (all when maxBatches <= 0),
// then the freed space is handed back to the file system by incremental
// vacuum in small steps. A database created before
// retention existed is switched to incremental auto-vacuum once, by one
// VACUUM, after a Prune that left nothing to prune. Prune is safe for
// concurrent use, also by several processes; on a read-only database it
// returns an error wrapping kb.ErrReadOnly.
func (db *DB) Prune(ctx context.Context, now time.Time, maxBatches int) (kb.PruneReport, error) {
	return db.prune(ctx, now, db.retention, maxBatches)
}

// prune is Prune with a retention of the caller's, not validated (tests
// prune to a handful of traces).
func (db *DB) prune(ctx context.Context, now time.Time, r kb.Retention, maxBatches int) (kb.PruneReport, error) {
	var rep kb.PruneReport
	if db.readOnly {
		return rep, db.errReadOnly()
	}
	if r.KeepsAll() {
		return rep, nil
	}
	cutoff, err := db.pruneCutoff(ctx, now, r)
	if err != nil {
		return rep, err
	}
	rep, err = storerow.PruneBatches(maxBatches, func() (int, error) { return db.pruneOnce(ctx, cutoff) })
	if err != nil {
		return rep, err
	}
	if err := db.reclaim(ctx, !rep.More, &rep); err != nil {
		return rep, err
	}
	return rep, nil
}

// pruneCutoff is storerow.PruneCutoff over this database's traces.
func (db *DB) pruneCutoff(ctx context.Context, now time.Time, r kb.Retention) (string, error) {
	return storerow.PruneCutoff(now, r, func(offset int) (string, error) {
		var nth string
		err := db.sql.QueryRowContext(ctx, `SELECT created_at FROM traces ORDER BY created_at DESC LIMIT 1 OFFSET ?`, offset).Scan(&nth)
		if errors.Is(err, sql.ErrNoRows) {
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
		rows, err := tx.QueryContext(ctx, `SELECT id FROM traces WHERE created_at < ? ORDER BY created_at LIMIT ?`, cutoff, kb.PruneBatch)
		if err != nil {
			return fmt.Errorf("prune traces: %w", err)
		}
		var ids []any
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return fmt.Errorf("prune traces: %w", err)
			}
			ids = append(ids, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
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
		if _, err := tx.ExecContext(ctx, `DELETE FROM traces WHERE id IN (`+placeholders(n)+`)`, ids...); err != nil {
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
func archiveCalibration(ctx context.Context, tx *redactTx, ids []any) (bool, error) {
	res, err := tx.ExecContext(ctx, `INSERT INTO calibration_archive (seq, strength, hit)
		SELECT seq, strength, `+calibrationHit+` FROM verdict_log v WHERE `+calibrationPoint+` AND trace_id IN (`+placeholders(len(ids))+`)`, ids...)
	if err != nil {
		return false, fmt.Errorf("archive calibration points: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("archive calibration points: %w", err)
	}
	return n > 0, nil
}

// trimCalibration drops the archived calibration points the calibration no
// longer reads: those older than the newest maxCalibrationPoints, archived
// or in the verdict log. It runs once the archived verdicts are deleted,
// lest they count twice.
func trimCalibration(ctx context.Context, tx *redactTx) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM calibration_archive WHERE seq < (`+calibrationSeqs+` LIMIT 1 OFFSET ?)`,
		maxCalibrationPoints-1); err != nil {
		return fmt.Errorf("trim calibration archive: %w", err)
	}
	return nil
}

// foldTraces adds what the stats report counts of the traces ids, and of
// their log rows, to the pruned tallies.
func foldTraces(ctx context.Context, tx *redactTx, ids []any) error {
	in := `(` + placeholders(len(ids)) + `)`
	var rt kb.RecallTally
	if err := tx.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(json_extract(response, '$.empty') = 1), 0)
		FROM traces WHERE tool = 'recall' AND id IN `+in, ids...).Scan(&rt.Calls, &rt.Empty); err != nil {
		return fmt.Errorf("tally recall traces: %w", err)
	}
	if rt.Calls > 0 {
		rows, err := tx.QueryContext(ctx, `SELECT tl.lesson_id, count(*) FROM trace_lessons tl JOIN traces t ON t.id = tl.trace_id
			WHERE t.tool = 'recall' AND t.id IN `+in+` GROUP BY tl.lesson_id`, ids...)
		if err != nil {
			return fmt.Errorf("tally recall selections: %w", err)
		}
		lessons, counts, total, err := storerow.Selections(rows)
		rows.Close()
		if err != nil {
			return fmt.Errorf("tally recall selections: %w", err)
		}
		rt.Selections += total
		for i, id := range lessons {
			if _, err := tx.ExecContext(ctx, `INSERT INTO pruned_selections (lesson_id, selections) VALUES (?, ?)
				ON CONFLICT (lesson_id) DO UPDATE SET selections = selections + excluded.selections`, id, counts[i]); err != nil {
				return fmt.Errorf("tally recall selections: %w", err)
			}
		}
		if err := storerow.AddTally(tallyReader(ctx, tx), tallyWriter(ctx, tx), kb.TallyRecall, (*kb.RecallTally).Merge, rt); err != nil {
			return err
		}
	}
	return storerow.FoldLogs(selectWhere(ctx, tx, `trace_id IN `+in, ids...), tallyReader(ctx, tx), tallyWriter(ctx, tx))
}

// reclaim hands free pages back to the file system when they exceed a
// tenth of the file, in incremental_vacuum steps of reclaimChunk pages,
// each its own short transaction. A database without auto-vacuum (created
// before retention) is converted by one VACUUM when convert is set.
func (db *DB) reclaim(ctx context.Context, convert bool, rep *kb.PruneReport) error {
	var mode, pageSize int64
	if err := db.sql.QueryRowContext(ctx, `PRAGMA auto_vacuum`).Scan(&mode); err != nil {
		return fmt.Errorf("reclaim space: %w", err)
	}
	if err := db.sql.QueryRowContext(ctx, `PRAGMA page_size`).Scan(&pageSize); err != nil {
		return fmt.Errorf("reclaim space: %w", err)
	}
	pages := func() (total, free int64, err error) {
		if err := db.sql.QueryRowContext(ctx, `PRAGMA page_count`).Scan(&total); err != nil {
			return 0, 0, fmt.Errorf("reclaim space: %w", err)
		}
		if err := db.sql.QueryRowContext(ctx, `PRAGMA freelist_count`).Scan(&free); err != nil {
			return 0, 0, fmt.Errorf("reclaim space: %w", err)
		}
		return total, free, nil
	}
	total, free, err := pages()
	if err != nil {
		return err
	}
	switch mode {
	case 2: // incremental
	case 0: // none: a database created before retention
		if !convert {
			return nil
		}
		return db.convertAutoVacuum(ctx, total*pageSize, pageSize, rep)
	default: // full: SQLite frees pages at every commit
		return nil
	}
	if free < reclaimMinPages || float64(free) < reclaimShare*float64(total) {
		return nil
	}
	start := total
	for free > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		if _, err := db.sql.ExecContext(ctx, fmt.Sprintf(`PRAGMA incremental_vacuum(%d)`, reclaimChunk)); err != nil {
			if isBusy(err) {
				break // another process holds the write lock: next time
			}
			return fmt.Errorf("reclaim space: %w", err)
		}
		if total, free, err = pages(); err != nil {
			return err
		}
	}
	rep.ReclaimedBytes += (start - total) * pageSize
	// The file shrinks when the WAL is checkpointed into it.
	if _, err := db.sql.ExecContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`); err != nil && !isBusy(err) {
		return fmt.Errorf("reclaim space: checkpoint: %w", err)
	}
	return nil
}

// convertAutoVacuum switches a database without auto-vacuum to incremental
// auto-vacuum, which takes one VACUUM: the whole file is rewritten under the
// write lock, once.
func (db *DB) convertAutoVacuum(ctx context.Context, before, pageSize int64, rep *kb.PruneReport) error {
	conn, err := db.sql.Conn(ctx)
	if err != nil {
		return fmt.Errorf("switch to incremental auto-vacuum: %w", err)
	}
	defer conn.Close()
	start := time.Now()
	if _, err := conn.ExecContext(ctx, `PRAGMA auto_vacuum = INCREMENTAL`); err != nil {
		return fmt.Errorf("switch to incremental auto-vacuum: %w", err)
	}
	if _, err := conn.ExecContext(ctx, `VACUUM`); err != nil {
		if isBusy(err) || strings.Contains(err.Error(), "statements in progress") {
			db.log.Info("switch to incremental auto-vacuum postponed: the database is busy", "err", err)
			return nil
		}
		return fmt.Errorf("switch to incremental auto-vacuum (VACUUM %s): %w", db.path, err)
	}
	var after int64
	if err := conn.QueryRowContext(ctx, `PRAGMA page_count`).Scan(&after); err != nil {
		return fmt.Errorf("switch to incremental auto-vacuum: %w", err)
	}
	after *= pageSize
	rep.Converted = true
	rep.ReclaimedBytes += before - after
	db.log.Info("database switched to incremental auto-vacuum", "path", db.path, "bytes_before", before, "bytes_after", after,
		"seconds", time.Since(start).Seconds())
	if _, err := conn.ExecContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`); err != nil && !isBusy(err) {
		return fmt.Errorf("switch to incremental auto-vacuum: checkpoint: %w", err)
	}
	return nil
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
