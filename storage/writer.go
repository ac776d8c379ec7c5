package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"
)

// writeRetry is how long a writer sleeps between two attempts at the
// database's write lock while another process holds it; after
// writeRetrySlowAfter of waiting (a long transaction such as an import's
// batch holds it), it sleeps writeRetrySlow, which costs less.
const (
	writeRetry          = time.Millisecond
	writeRetrySlowAfter = 100 * time.Millisecond
	writeRetrySlow      = 5 * time.Millisecond
)

// writer runs a process's write transactions on one connection. The
// process's writers take it in turn (a Go queue, so that they never compete
// with each other for SQLite's lock), and the one whose turn it is polls
// for the write lock every writeRetry while another process holds it
// (every writeRetrySlow once it has waited writeRetrySlowAfter).
//
// The connection has no busy handler. SQLite's own sleeps in growing steps
// (1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, then 100 ms at a time), so a
// writer that has waited a while sleeps through many releases of the lock
// while others take it, and the slowest writes under contention waited for
// the lock far longer than it was ever held (README, measured figures).
type writer struct {
	db *sql.DB
	// turn is held by the writer whose transaction is open or opening.
	turn chan struct{}
	// timeout bounds how long begin polls for the lock.
	timeout time.Duration
	stmts   *stmtCache // nil for a read-only database
}

// newWriter returns the writer of a database opened for writing, which
// owns db: one connection without a busy handler.
func newWriter(db *sql.DB, timeout time.Duration) *writer {
	return &writer{db: db, turn: make(chan struct{}, 1), timeout: timeout,
		stmts: &stmtCache{db: db, m: map[string]*sql.Stmt{}, want: map[string]bool{}}}
}

// readOnlyWriter returns the writer of a read-only database: its
// transactions run on the reading pool, and fail when they write.
func readOnlyWriter(db *sql.DB, timeout time.Duration) *writer {
	return &writer{db: db, turn: make(chan struct{}, 1), timeout: timeout}
}

// begin waits for the process's turn to write and then for the database's
// write lock, and returns the open BEGIN IMMEDIATE transaction with the
// function that ends the turn, to call once the transaction is over. It
// fails when ctx ends or another process has held the lock for the whole
// busy timeout (an error satisfying isBusy).
func (w *writer) begin(ctx context.Context) (*sql.Tx, func(), error) {
	select {
	case w.turn <- struct{}{}:
	case <-ctx.Done():
		return nil, nil, fmt.Errorf("begin: %w", ctx.Err())
	}
	done := func() {
		w.stmts.prepareWanted(context.WithoutCancel(ctx))
		<-w.turn
	}
	start := time.Now()
	deadline := start.Add(w.timeout)
	var timer *time.Timer
	for {
		tx, err := w.db.BeginTx(ctx, nil)
		if err == nil {
			return tx, done, nil
		}
		now := time.Now()
		if !isBusy(err) || now.After(deadline) {
			done()
			return nil, nil, fmt.Errorf("begin: %w", err)
		}
		wait := writeRetry
		if now.Sub(start) > writeRetrySlowAfter {
			wait = writeRetrySlow
		}
		if timer == nil {
			timer = time.NewTimer(wait)
		} else {
			timer.Reset(wait)
		}
		select {
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
			done()
			return nil, nil, fmt.Errorf("begin: %w", ctx.Err())
		}
	}
}

// close closes the writer's statements and connection (not the reading
// pool of a read-only database).
func (w *writer) close() error {
	if w.stmts == nil {
		return nil
	}
	w.stmts.close()
	return w.db.Close()
}

// checkpointEvery starts a goroutine that runs a passive checkpoint every
// interval, so that no write waits for one (see
// Options.CheckpointInterval), and returns the function that stops it and
// waits for it to end. Several processes may each run one: a checkpoint
// that finds another under way returns at once.
func (db *DB) checkpointEvery(interval time.Duration) func() {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			if err := db.checkpoint(ctx); err != nil && !errors.Is(err, context.Canceled) {
				db.log.Warn("checkpoint", "err", err)
			}
		}
	}()
	return func() {
		cancel()
		<-done
	}
}

// checkpoint copies what it can of the write-ahead log into the database
// without waiting for readers or writers.
func (db *DB) checkpoint(ctx context.Context) error {
	var busy, logFrames, done int
	if err := db.sql.QueryRowContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &logFrames, &done); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	return nil
}

// maxCachedStmts bounds the statements a writer keeps prepared: queries
// built for a number of values (IN lists, multi-row inserts) are each a
// statement of their own.
const maxCachedStmts = 128

// stmtCache keeps the write path's statements prepared on the writer's
// connection. Parsing them again in every transaction took a quarter of the
// time a record held the write lock. A statement is prepared after the
// first transaction that runs it, while the writer's one connection is
// free. Safe for concurrent use.
type stmtCache struct {
	db   *sql.DB
	mu   sync.Mutex
	m    map[string]*sql.Stmt
	want map[string]bool // run since the last prepareWanted, not prepared yet
}

// lookup returns the prepared statement of query, or nil when there is none
// yet (and notes query to be prepared).
func (c *stmtCache) lookup(query string) *sql.Stmt {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if st := c.m[query]; st != nil {
		return st
	}
	if len(c.m)+len(c.want) < maxCachedStmts {
		c.want[query] = true
	}
	return nil
}

// prepareWanted prepares the statements noted since it last ran. The caller
// has the writer's turn and no transaction open. A statement that fails to
// prepare is left out: its transactions prepare it each time, as they do
// without a cache.
func (c *stmtCache) prepareWanted(ctx context.Context) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for q := range c.want {
		delete(c.want, q)
		if st, err := c.db.PrepareContext(ctx, q); err == nil {
			c.m[q] = st
		}
	}
}

// close closes the prepared statements.
func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for q, st := range c.m {
		st.Close()
		delete(c.m, q)
	}
}

// cachedTx is a transaction whose statements come from a statement cache
// when it holds them. A nil cache caches nothing.
type cachedTx struct {
	*sql.Tx
	cache *stmtCache
}

// ExecContext runs query in the transaction, prepared once when it can be.
func (t *cachedTx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if st := t.cache.lookup(query); st != nil {
		return t.Tx.StmtContext(ctx, st).ExecContext(ctx, args...)
	}
	return t.Tx.ExecContext(ctx, query, args...)
}

// QueryContext runs query in the transaction, prepared once when it can be.
func (t *cachedTx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := t.cache.lookup(query); st != nil {
		return t.Tx.StmtContext(ctx, st).QueryContext(ctx, args...)
	}
	return t.Tx.QueryContext(ctx, query, args...)
}

// QueryRowContext runs query in the transaction, prepared once when it can
// be.
func (t *cachedTx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if st := t.cache.lookup(query); st != nil {
		return t.Tx.StmtContext(ctx, st).QueryRowContext(ctx, args...)
	}
	return t.Tx.QueryRowContext(ctx, query, args...)
}

// PrepareContext returns query prepared in the transaction.
func (t *cachedTx) PrepareContext(ctx context.Context, query string) (*sql.Stmt, error) {
	if st := t.cache.lookup(query); st != nil {
		return t.Tx.StmtContext(ctx, st), nil
	}
	return t.Tx.PrepareContext(ctx, query)
}
