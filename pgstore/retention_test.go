package pgstore

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/kb"
)

// The stats' and Prune's cases on logged calls are in the conformance
// suite (internal/storetest/stats.go). These tests fill the logs with SQL,
// not with kb.Tx, and check what is PostgreSQL's own: pruning in batches,
// the background loop, and Open's check of the retention.

// logCalls writes n calls created a second apart from start, with SQL:
// recalls (every fourth empty, the others returning lesson), and
// appraisals with a verdict and a routing decision, and hesitate calls,
// in turn.
func logCalls(t *testing.T, db *DB, n int, start time.Time, lesson string) {
	t.Helper()
	ctx := context.Background()
	err := db.Update(ctx, func(x kb.Tx) error {
		tx := x.(*Tx).tx
		var wid int64
		if err := tx.QueryRow(ctx, `INSERT INTO routing_weights (params) VALUES ('{}')
			ON CONFLICT (params) DO UPDATE SET params = excluded.params RETURNING id`).Scan(&wid); err != nil {
			return err
		}
		for i := range n {
			id, at := fmt.Sprintf("t%s_%05d", start.Format("150405"), i), start.Add(time.Duration(i)*time.Second)
			tool := []string{"recall", "appraise", "hesitate"}[i%3]
			tr := kb.Trace{ID: id, Tool: tool, CreatedAt: at, Request: []byte(`{}`), Response: []byte(`{"empty":false}`)}
			if tool == "recall" {
				if i%4 == 0 {
					tr.Response = []byte(`{"empty":true}`)
				} else {
					tr.Returned = []kb.ReturnedEntry{{LessonID: lesson, Rank: 1, Score: 0.5}}
				}
			}
			if err := x.InsertTrace(ctx, tr); err != nil {
				return err
			}
			switch tool {
			case "appraise":
				valence, outcome := []string{"affirm", "caution"}[i%2], []string{"success", "failure"}[i%5%2]
				if _, err := tx.Exec(ctx, `INSERT INTO verdict_log (trace_id, created_at, mode, has_candidate, support, valence,
					directional, strength, confidence, dispersion, tier, abstained, evidence, agreement, resonating, top_resonance, outcome)
					VALUES ($1, $2, 'focus', true, 0, $3, $3, 0.5, $4, 0, 'weak', $5, 0, 0, 0, 0, $6)`,
					id, fmtTime(at), valence, float64(i%8)/8, i%7 == 0, outcome); err != nil {
					return err
				}
				if _, err := tx.Exec(ctx, `INSERT INTO routing_log (trace_id, created_at, mode, confidence, margin, effective_margin,
					ambiguous, warmth, warmth_inputs, scores, signals, weights_id, next_state, elapsed_ns)
					VALUES ($1, $2, $3, 0, 0, 0, false, 0, '{}', '{}', '{}', $4, '{}', 0)`,
					id, fmtTime(at), []string{"respond", "clarify", "gather"}[i%3], wid); err != nil {
					return err
				}
			case "hesitate":
				if _, err := tx.Exec(ctx, `INSERT INTO hesitation_log (trace_id, created_at, score, threshold, confident, held,
					signals, actions, plan) VALUES ($1, $2, 50, 40, $3, $4, '[{"type":"no_hedge"}]', '[]', '[]')`,
					id, fmtTime(at), i%2 == 0, i%4 == 0); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("log calls: %v", err)
	}
}

// allTime reads every all-time figure.
func allTime(t *testing.T, db *DB) []any {
	t.Helper()
	ctx := context.Background()
	r, err1 := db.RecallStats(ctx, time.Time{}, 5)
	a, err2 := db.AppraiseStats(ctx, time.Time{})
	m, err3 := db.ModeCounts(ctx, time.Time{})
	h, err4 := db.HesitationStats(ctx, time.Time{})
	for _, err := range []error{err1, err2, err3, err4} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return []any{r, a, m, h}
}

func traceCount(t *testing.T, db *DB) int {
	t.Helper()
	var n int
	if err := db.pool.QueryRow(context.Background(), `SELECT count(*) FROM traces`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestRetention(t *testing.T) {
	newDB := cluster(t)

	// Prune deletes in batches of kb.PruneBatch, stops at maxBatches saying
	// more may be left, and keeps the newest MaxTraces; the all-time
	// figures stay the same throughout.
	t.Run("Batches", func(t *testing.T) {
		db, _ := newDB(t)
		l := insert(t, db, newLesson("Run the linter before pushing.", ""))
		start := time.Now().Add(-time.Hour)
		logCalls(t, db, 2*kb.PruneBatch+50+10, start, l.ID)
		before := allTime(t, db)
		if r := before[0].(kb.RecallStats); r.Calls != 154 || r.Empty != 39 || r.Selections != 115 {
			t.Fatalf("recall stats before pruning %+v; want 154 calls, 39 empty, 115 selections", r)
		}
		ctx := context.Background()
		rep, err := db.prune(ctx, time.Now(), kb.Retention{MaxTraces: 10}, 1)
		if err != nil || rep != (kb.PruneReport{Deleted: kb.PruneBatch, Batches: 1, More: true}) {
			t.Fatalf("prune of one batch: %+v, %v", rep, err)
		}
		if after := allTime(t, db); !reflect.DeepEqual(after, before) {
			t.Fatalf("figures changed by one batch:\nbefore %+v\nafter  %+v", before, after)
		}
		rep, err = db.prune(ctx, time.Now(), kb.Retention{MaxTraces: 10}, 0)
		if err != nil || rep != (kb.PruneReport{Deleted: kb.PruneBatch + 50, Batches: 2}) {
			t.Fatalf("prune of the rest: %+v, %v", rep, err)
		}
		if n := traceCount(t, db); n != 10 {
			t.Fatalf("%d traces left, want 10", n)
		}
		if after := allTime(t, db); !reflect.DeepEqual(after, before) {
			t.Fatalf("figures changed by pruning:\nbefore %+v\nafter  %+v", before, after)
		}
		var logs int
		if err := db.pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM verdict_log) + (SELECT count(*) FROM routing_log)
			+ (SELECT count(*) FROM hesitation_log) + (SELECT count(*) FROM trace_lessons)`).Scan(&logs); err != nil || logs > 20 {
			t.Fatalf("%d log rows left for 10 traces (%v): the pruned traces' rows were not deleted", logs, err)
		}
	})

	// A database opened with PruneInterval prunes in the background until
	// Close.
	t.Run("Background", func(t *testing.T) {
		_, dsn := newDB(t)
		db, err := Open(context.Background(), dsn, Options{Retention: kb.Retention{MaxAge: kb.MinRetentionAge}, PruneInterval: 20 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		l := insert(t, db, newLesson("Pin the toolchain version.", ""))
		logCalls(t, db, 30, time.Now().Add(-3*kb.MinRetentionAge), l.ID)
		logCalls(t, db, 3, time.Now().Add(-time.Minute), l.ID)
		for deadline := time.Now().Add(15 * time.Second); traceCount(t, db) != 3; time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%d traces after 15 s, want the 3 within the retention", traceCount(t, db))
			}
		}
		if r := allTime(t, db)[0].(kb.RecallStats); r.Calls != 11 {
			t.Fatalf("%d recalls counted after pruning, want 11", r.Calls)
		}
	})

	t.Run("OpenRefusesShortRetention", func(t *testing.T) {
		_, dsn := newDB(t)
		if _, err := Open(context.Background(), dsn, Options{Retention: kb.Retention{MaxTraces: 5}}); err == nil {
			t.Fatal("a retention of 5 traces was accepted")
		}
	})
}
