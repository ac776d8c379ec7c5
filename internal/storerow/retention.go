package storerow

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/innate-mcp/innate-mcp/kb"
)

// PruneCutoff is the creation time before which traces are pruned under r
// at now: the later of now - MaxAge and the creation time of the
// MaxTraces-th newest trace, which nth returns ("" when there are fewer);
// "" when nothing is to be pruned. Traces written after it is computed are
// newer, so it errs on the side of keeping. Times compare as their stored
// fixed-width text, in byte order.
func PruneCutoff(now time.Time, r kb.Retention, nth func(offset int) (string, error)) (string, error) {
	cutoff := ""
	if r.MaxAge > 0 {
		cutoff = FormatTime(now.Add(-r.MaxAge))
	}
	if r.MaxTraces > 0 {
		t, err := nth(r.MaxTraces - 1)
		if err != nil {
			return "", fmt.Errorf("prune traces: find the %d-th newest: %w", r.MaxTraces, err)
		}
		if t > cutoff {
			cutoff = t
		}
	}
	return cutoff, nil
}

// PruneBatches calls once, which deletes one batch of at most
// kb.PruneBatch traces and returns how many it deleted, until a batch
// comes short or maxBatches batches ran (maxBatches <= 0: no bound), and
// reports what they deleted.
func PruneBatches(maxBatches int, once func() (int, error)) (kb.PruneReport, error) {
	var rep kb.PruneReport
	for {
		if maxBatches > 0 && rep.Batches >= maxBatches {
			rep.More = true
			break
		}
		n, err := once()
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

// firstPrune is how soon after Open the background loop prunes first (or
// the interval, when shorter): long enough for a server to have answered
// its handshake.
const firstPrune = 10 * time.Second

// PruneEvery runs prune in the background, soon (the shorter of every and
// ten seconds) and then every interval, logging its errors and what it
// pruned to log, until the returned stop is called; stop waits for a
// prune under way.
func PruneEvery(every time.Duration, log *slog.Logger, prune func(ctx context.Context, now time.Time) (kb.PruneReport, error)) (stop func()) {
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
			rep, err := prune(ctx, time.Now())
			switch {
			case err != nil && ctx.Err() == nil:
				log.Warn("prune traces", "err", err)
			case rep.Deleted > 0 || rep.Converted:
				log.Info("pruned traces", "deleted", rep.Deleted, "batches", rep.Batches, "reclaimed_bytes", rep.ReclaimedBytes)
			}
			timer.Reset(every)
		}
	}()
	return func() {
		cancel()
		<-done
	}
}

// Selections reads rows of (lesson id, times selected) into two lists, in
// order, and their total.
func Selections(rows Rows) (ids []string, counts []int64, total int, err error) {
	err = Each(rows, func(scan Scan) error {
		var id string
		var n int64
		if err := scan(&id, &n); err != nil {
			return err
		}
		ids, counts, total = append(ids, id), append(counts, n), total+int(n)
		return nil
	})
	return ids, counts, total, err
}
