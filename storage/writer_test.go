package storage

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/kb"
)

// openAtPath opens the database at path with opts, closed with the test.
func openAtPath(t *testing.T, path string, opts Options) *DB {
	t.Helper()
	db, err := Open(context.Background(), path, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// holdWriteLock opens a write transaction on db and keeps it open until
// the returned function is called, which commits it.
func holdWriteLock(t *testing.T, db *DB) (release func()) {
	t.Helper()
	locked, unlock, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		done <- db.update(context.Background(), func(tx *redactTx) error {
			if _, err := tx.ExecContext(context.Background(), `INSERT INTO meta (key, value) VALUES ('holder', '1')
				ON CONFLICT (key) DO UPDATE SET value = value + 1`); err != nil {
				return err
			}
			close(locked)
			<-unlock
			return nil
		})
	}()
	select {
	case <-locked:
	case err := <-done:
		t.Fatalf("hold the write lock: %v", err)
	}
	return func() {
		close(unlock)
		if err := <-done; err != nil {
			t.Errorf("commit the held transaction: %v", err)
		}
	}
}

// TestWriter_waitsForAnotherConnection: a write waits while another
// connection (as another process) holds the write lock and goes through
// as soon as it is released; it fails with SQLITE_BUSY only after the busy
// timeout, and at once when its context ends.
func TestWriter_waitsForAnotherConnection(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	a := openAtPath(t, path, Options{})
	b := openAtPath(t, path, Options{BusyTimeout: 5 * time.Second})
	ctx := context.Background()

	release := holdWriteLock(t, a)
	wrote := make(chan error, 1)
	go func() { wrote <- b.SetMeta(ctx, "waiter", "1") }()
	time.Sleep(50 * time.Millisecond)
	select {
	case err := <-wrote:
		t.Fatalf("write went through while another connection held the lock: %v", err)
	default:
	}
	released := time.Now()
	release()
	if err := <-wrote; err != nil {
		t.Fatalf("write after the lock was released: %v", err)
	}
	// Polled every writeRetry: the wait after the release is short (the
	// bound is generous for a loaded machine; the figure is measured by
	// BenchmarkRecordContention).
	if d := time.Since(released); d > time.Second {
		t.Errorf("write went through %v after the lock was released", d)
	}
	if v, _, _ := a.Meta(ctx, "waiter"); v != "1" {
		t.Errorf("the other connection reads waiter = %q, want 1", v)
	}

	short := openAtPath(t, path, Options{BusyTimeout: 30 * time.Millisecond})
	release = holdWriteLock(t, a)
	err := short.SetMeta(ctx, "impatient", "1")
	if !isBusy(err) {
		t.Errorf("write past the busy timeout: err = %v, want SQLITE_BUSY", err)
	}
	cctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	err = b.SetMeta(cctx, "cancelled", "1")
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("write whose context ended: err = %v, want context.DeadlineExceeded", err)
	}
	release()
	if err := short.SetMeta(ctx, "impatient", "2"); err != nil {
		t.Errorf("write after the lock was released: %v", err)
	}
}

// TestWriter_concurrentWritersLoseNothing: writers of several connections
// (as several processes), several goroutines each, all commit.
func TestWriter_concurrentWritersLoseNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	const conns, writers, each = 3, 4, 25
	dbs := make([]*DB, conns)
	for i := range dbs {
		dbs[i] = openAtPath(t, path, Options{CheckpointInterval: 5 * time.Millisecond})
	}
	ctx := context.Background()
	var wg sync.WaitGroup
	for c, db := range dbs {
		for w := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range each {
					err := db.Update(ctx, func(tx kb.Tx) error {
						_, err := tx.InsertLesson(ctx, kb.NewLesson{Content: fmt.Sprintf("Lesson %d-%d-%d.", c, w, i),
							Origin: kb.OriginImported, State: kb.StateActive, Kind: kb.KindRule, ContentVec: vec(i)}, time.Now())
						return err
					})
					if err != nil {
						t.Errorf("connection %d writer %d lesson %d: %v", c, w, i, err)
						return
					}
				}
			}()
		}
	}
	wg.Wait()
	for i, db := range dbs {
		var n int
		if err := db.sql.QueryRow(`SELECT count(*) FROM lessons`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != conns*writers*each {
			t.Errorf("connection %d counts %d lessons, want %d", i, n, conns*writers*each)
		}
	}
}

// TestWriter_statementsPreparedOnce: a statement a transaction ran is
// prepared on the writer's connection afterwards and reused, with the
// same results, and a statement that cannot be prepared is left to fail
// in the transaction as it would without the cache.
func TestWriter_statementsPreparedOnce(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	const q = `SELECT count(*) FROM lessons WHERE state = ?`
	count := func() int {
		var n int
		err := db.Update(ctx, func(ktx kb.Tx) error {
			return ktx.(*tx).tx.QueryRowContext(ctx, q, string(kb.StateActive)).Scan(&n)
		})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := count(); n != 0 {
		t.Fatalf("count = %d, want 0", n)
	}
	if db.w.stmts.m[q] == nil {
		t.Fatalf("statement not prepared after its first transaction")
	}
	insert(t, db, kb.NewLesson{Content: "Prepared statements see new rows."})
	if n := count(); n != 1 {
		t.Fatalf("count with the prepared statement = %d, want 1", n)
	}
	err := db.Update(ctx, func(ktx kb.Tx) error {
		_, err := ktx.(*tx).tx.ExecContext(ctx, `UPDATE no_such_table SET x = 1`)
		return err
	})
	if err == nil {
		t.Fatal("statement on a missing table succeeded")
	}
	if db.w.stmts.m[`UPDATE no_such_table SET x = 1`] != nil {
		t.Error("a statement that cannot be prepared was cached")
	}
}
