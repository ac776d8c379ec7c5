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
	for {
		if maxBatches > 0 && rep.Batches >= maxBatches {
			rep.More = true
			break
		}
		n, err := db.pruneOnce(ctx, cutoff)
		if err != nil {
			return rep, err
		}
		if n > 0 {
			rep.Batches++
			rep.Deleted += n
		}
		if n < kb.PruneBatch {
			break // that was the last batch
		}
	}
	return rep, nil
}

// pruneCutoff is the creation time before which traces are pruned: the
// later of now - MaxAge and the creation time of the MaxTraces-th newest
// trace ("" when nothing is to be pruned). Traces written after it is
// computed are newer, so it errs on the side of keeping. Times are
// compared as storage's fixed-width text, in byte order.
func (db *DB) pruneCutoff(ctx context.Context, now time.Time, r kb.Retention) (string, error) {
	cutoff := ""
	if r.MaxAge > 0 {
		cutoff = fmtTime(now.Add(-r.MaxAge))
	}
	if r.MaxTraces > 0 {
		var nth string
		err := db.pool.QueryRow(ctx, `SELECT created_at FROM traces ORDER BY created_at DESC LIMIT 1 OFFSET $1`,
			r.MaxTraces-1).Scan(&nth)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
		case err != nil:
			return "", fmt.Errorf("prune traces: find the %d-th newest: %w", r.MaxTraces, err)
		case nth > cutoff:
			cutoff = nth
		}
	}
	return cutoff, nil
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
		var lessons []string
		var counts []int64
		for rows.Next() {
			var id string
			var n int64
			if err := rows.Scan(&id, &n); err != nil {
				rows.Close()
				return fmt.Errorf("tally recall selections: %w", err)
			}
			lessons, counts = append(lessons, id), append(counts, n)
			rt.Selections += int(n)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("tally recall selections: %w", err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO pruned_selections (lesson_id, selections)
			SELECT * FROM unnest($1::text[], $2::bigint[])
			ON CONFLICT (lesson_id) DO UPDATE SET selections = pruned_selections.selections + excluded.selections`,
			lessons, counts); err != nil {
			return fmt.Errorf("tally recall selections: %w", err)
		}
		if err := addTally(ctx, tx, kb.TallyRecall, (*kb.RecallTally).Merge, rt); err != nil {
			return err
		}
	}
	var vt kb.VerdictTally
	if err := addVerdicts(ctx, tx, &vt, `trace_id = ANY($1)`, ids); err != nil {
		return err
	}
	if vt.Verdicts > 0 {
		if err := addTally(ctx, tx, kb.TallyVerdicts, (*kb.VerdictTally).Merge, vt); err != nil {
			return err
		}
	}
	mt := kb.RoutingTally{}
	if err := addModes(ctx, tx, mt, `trace_id = ANY($1)`, ids); err != nil {
		return err
	}
	if len(mt) > 0 {
		if err := addTally(ctx, tx, kb.TallyRouting, (*kb.RoutingTally).Merge, mt); err != nil {
			return err
		}
	}
	var ht kb.HesitationTally
	if err := addHesitations(ctx, tx, &ht, `trace_id = ANY($1)`, ids); err != nil {
		return err
	}
	if ht.Calls > 0 {
		if err := addTally(ctx, tx, kb.TallyHesitation, (*kb.HesitationTally).Merge, ht); err != nil {
			return err
		}
	}
	return nil
}

// firstPrune is how soon after Open the background loop prunes first (or
// the interval, when shorter): long enough for a server to have answered
// its handshake.
const firstPrune = 10 * time.Second

// startPruning runs Prune in the background, soon after Open and then every
// interval, until Close; errors are logged.
func (db *DB) startPruning(every time.Duration) {
	if db.retention.KeepsAll() {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		timer := time.NewTimer(min(every, firstPrune))
		defer timer.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-timer.C:
			}
			rep, err := db.Prune(ctx, time.Now(), 0)
			switch {
			case err != nil && ctx.Err() == nil:
				db.log.Warn("prune traces", "err", err)
			case rep.Deleted > 0:
				db.log.Info("pruned traces", "deleted", rep.Deleted, "batches", rep.Batches)
			}
			timer.Reset(every)
		}
	}()
	db.stopPrune = func() {
		cancel()
		<-done
	}
}
