package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"modernc.org/sqlite" // the "sqlite" database/sql driver
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/innate-mcp/innate-mcp/internal/storerow"
	"github.com/innate-mcp/innate-mcp/internal/vecindex"
	"github.com/innate-mcp/innate-mcp/kb"
)

// Compile-time check that DB implements the knowledge base's Store.
var _ kb.Store = (*DB)(nil)

// DB is an open innate-mcp database. It is safe for concurrent use.
type DB struct {
	// sql is the pool of reading connections.
	sql *sql.DB
	// w runs the write transactions, on a connection of its own.
	w        *writer
	path     string
	log      *slog.Logger
	index    *vecindex.Index
	readOnly bool
	// retention bounds the traces Prune keeps.
	retention kb.Retention
	// ftsMatch is the full-text lookup of one term, prepared once: the
	// lexical search runs it for every query term.
	ftsMatch *lazyStmt
	// stopPrune ends the background prune loop and waits for it; nil
	// when there is none.
	stopPrune func()
	// stopCheckpoints ends the checkpoint loop and waits for it; nil when
	// there is none.
	stopCheckpoints func()
}

// Options configure Open.
type Options struct {
	// BusyTimeout is how long a write waits for another process's lock;
	// 10 s when zero.
	BusyTimeout time.Duration
	// CheckpointInterval is how often a background goroutine copies the
	// write-ahead log back into the database (a passive checkpoint, which
	// waits for no one). Zero leaves checkpoints to SQLite, which runs one
	// inside the commit that grows the log past 1,000 pages and so makes
	// that write wait for it.
	CheckpointInterval time.Duration
	// Logger receives diagnostics; slog.Default() when nil.
	Logger *slog.Logger
	// ReadOnly opens the database read-only: it is neither migrated nor
	// written, and every write fails with an error wrapping kb.ErrReadOnly.
	// The database must exist (an error wrapping fs.ErrNotExist otherwise)
	// and be of this build's schema (ErrSchemaOutdated otherwise). A file
	// without its -shm file that this process cannot write, or in a
	// directory it cannot write, is read as immutable, creating no -wal or
	// -shm file: what another process writes to it meanwhile is not seen,
	// and may fail a read until it is opened again.
	ReadOnly bool
	// Retention bounds the traces Prune keeps; the zero value keeps them
	// all. Open refuses a retention that kb.Retention.Validate refuses.
	Retention kb.Retention
	// PruneInterval, when positive and the database is writable, runs
	// Prune in the background: once right after Open, then every interval
	// until Close. Zero runs no background loop.
	PruneInterval time.Duration
}

// ErrSchemaOutdated is returned by a read-only Open of a database whose
// schema is older than this build's: a writable Open migrates it.
var ErrSchemaOutdated = errors.New("database schema is older than this build's")

// Open opens (creating when needed) the database at path and migrates it to
// the current schema. A new database is created with mode 0600 (its -wal
// and -shm files follow) in a directory created with mode 0700 when
// missing. A database that cannot be written (the file, its -wal or -shm
// file, or its directory) is refused with an error wrapping kb.ErrReadOnly
// that says which and what to do; Options.ReadOnly opens it for reading.
func Open(ctx context.Context, path string, opts Options) (*DB, error) {
	return openTo(ctx, path, opts, -1)
}

// openTo opens the database migrated up to schema version target (-1: the
// latest); tests use it to build databases of an older schema.
func openTo(ctx context.Context, path string, opts Options, target int) (*DB, error) {
	if path == "" {
		return nil, errors.New("open database: empty path")
	}
	if err := opts.Retention.Validate(); err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	if opts.BusyTimeout == 0 {
		opts.BusyTimeout = 10 * time.Second
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	immutable := false
	if opts.ReadOnly {
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("open %s read-only: %w", path, err)
		}
		// A reader of a WAL database needs the -shm file, which SQLite
		// creates when it is missing: it cannot in a read-only directory,
		// and beside a read-only file it would create one with the file's
		// mode, read-only, which no writer could use later.
		if _, err := os.Stat(path + "-shm"); errors.Is(err, fs.ErrNotExist) &&
			(writable(path) != nil || writable(filepath.Dir(path)) != nil) {
			immutable = true
		}
	} else if err := prepareWritable(path); err != nil {
		return nil, err
	}
	sdb, err := sql.Open("sqlite", dsn(path, opts.ReadOnly, immutable, opts.BusyTimeout, true))
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	sdb.SetMaxOpenConns(8)
	sdb.SetMaxIdleConns(8)
	sdb.SetConnMaxIdleTime(5 * time.Minute)
	db := &DB{sql: sdb, path: path, log: opts.Logger.With("component", "storage"), readOnly: opts.ReadOnly, retention: opts.Retention}
	if opts.ReadOnly {
		db.w = readOnlyWriter(sdb, opts.BusyTimeout)
	} else {
		// The writer's connection has no busy handler: update polls for
		// the lock itself (see writer.begin).
		wdb, err := sql.Open("sqlite", dsn(path, false, false, 0, opts.CheckpointInterval == 0))
		if err != nil {
			sdb.Close()
			return nil, fmt.Errorf("open %s: %w", path, err)
		}
		wdb.SetMaxOpenConns(1)
		wdb.SetMaxIdleConns(1)
		db.w = newWriter(wdb, opts.BusyTimeout)
	}
	db.index = vecindex.New(vectorSource{db}, db.log)
	db.ftsMatch = &lazyStmt{db: sdb, query: `SELECT rowid FROM lessons_fts WHERE lessons_fts MATCH ?`}
	if opts.ReadOnly {
		if err := db.checkSchema(ctx); err != nil {
			sdb.Close()
			return nil, err
		}
		return db, nil
	}
	// Two processes opening a new database race to switch it to WAL
	// mode, which SQLite refuses with SQLITE_BUSY without waiting on the
	// busy timeout: the loser retries.
	for wait := 20 * time.Millisecond; ; wait *= 2 {
		if err = db.migrateTo(ctx, target); err == nil || !isBusy(err) || wait > 2*time.Second {
			break
		}
		select {
		case <-ctx.Done():
			err = ctx.Err()
		case <-time.After(wait):
			continue
		}
		break
	}
	if err != nil {
		db.w.close()
		sdb.Close()
		if isReadOnlyErr(err) {
			// The checks of prepareWritable passed, yet SQLite could not
			// write: say what the file system refuses now.
			if perr := prepareWritable(path); perr != nil {
				return nil, perr
			}
			return nil, fmt.Errorf("%w: migrate %s: %v: make the database file, its -wal and -shm files and its directory writable for this user",
				kb.ErrReadOnly, path, err)
		}
		return nil, fmt.Errorf("migrate %s: %w", path, err)
	}
	if opts.CheckpointInterval > 0 {
		db.stopCheckpoints = db.checkpointEvery(opts.CheckpointInterval)
	}
	if opts.PruneInterval > 0 {
		db.startPruning(opts.PruneInterval)
	}
	return db, nil
}

// checkSchema verifies that a read-only database is of this build's
// schema version.
func (db *DB) checkSchema(ctx context.Context) error {
	var v int
	if err := db.sql.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&v); err != nil {
		return fmt.Errorf("open %s read-only: %w", db.path, err)
	}
	want := SchemaVersion()
	switch {
	case v > want:
		return fmt.Errorf("database %s: schema version %d is newer than this build's %d: upgrade innate-mcp", db.path, v, want)
	case v < want:
		return fmt.Errorf("database %s: %w (version %d, this build %d): open it once writable to migrate it", db.path, ErrSchemaOutdated, v, want)
	}
	return nil
}

// isReadOnlyErr reports whether err is SQLite's SQLITE_READONLY (any of its
// extended codes) or SQLITE_CANTOPEN.
func isReadOnlyErr(err error) bool {
	var ce interface{ Code() int }
	if errors.As(err, &ce) {
		switch ce.Code() & 0xff {
		case 8, 14: // SQLITE_READONLY, SQLITE_CANTOPEN
			return true
		}
	}
	return err != nil && strings.Contains(err.Error(), "readonly database")
}

// ReadOnly reports whether the database was opened read-only.
func (db *DB) ReadOnly() bool { return db.readOnly }

// errReadOnly is what a write to a read-only database returns.
func (db *DB) errReadOnly() error {
	return fmt.Errorf("%w: %s was opened read-only: nothing was written", kb.ErrReadOnly, db.path)
}

// isBusy reports whether err is SQLite's "database is locked" (SQLITE_BUSY).
func isBusy(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code()&0xff == sqlite3.SQLITE_BUSY
	}
	return err != nil && (strings.Contains(err.Error(), "database is locked") || strings.Contains(err.Error(), "SQLITE_BUSY"))
}

// dsn builds the connection string: every pragma is applied by the driver
// to each new pooled connection, and transactions begin IMMEDIATE so that a
// writer takes the lock up front instead of failing on upgrade. With a zero
// busy timeout a locked database answers SQLITE_BUSY at once; without
// autoCheckpoint the connection's commits never checkpoint the log.
//
// synchronous(NORMAL) in WAL mode: a commit appends to the log without
// waiting for the disk, and the log is synced when it is checkpointed. A
// committed write survives the crash or kill of any process; the last
// commits before a power loss or operating-system crash may be rolled
// back, and the database stays consistent either way.
//
// A new database is made incrementally vacuumable (auto_vacuum must be set
// before the first table exists) so that Prune can hand freed pages back
// to the file system; a read-only one is opened with mode=ro, and with
// immutable=1 when immutable is set.
func dsn(path string, readOnly, immutable bool, busyTimeout time.Duration, autoCheckpoint bool) string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	if !readOnly {
		q.Add("_pragma", "auto_vacuum(INCREMENTAL)")
		q.Add("_pragma", "journal_mode(WAL)")
	}
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "synchronous(NORMAL)")
	if !autoCheckpoint {
		q.Add("_pragma", "wal_autocheckpoint(0)")
	}
	// Reads of lesson vectors and statistics go through a shared memory
	// map instead of a read system call per page.
	q.Add("_pragma", "mmap_size(1073741824)")
	q.Add("_pragma", "cache_size(-16384)")
	q.Set("_txlock", "immediate")
	if readOnly {
		q.Set("mode", "ro")
	}
	if immutable {
		q.Set("immutable", "1")
	}
	return "file:" + path + "?" + q.Encode()
}

// Path returns the database file path.
func (db *DB) Path() string { return db.path }

// Close stops the background prune loop, waiting for a batch under way,
// and closes the database.
func (db *DB) Close() error {
	if db.stopPrune != nil {
		db.stopPrune()
	}
	if db.stopCheckpoints != nil {
		db.stopCheckpoints()
	}
	db.ftsMatch.close()
	werr := db.w.close()
	if err := db.sql.Close(); err != nil {
		return err
	}
	return werr
}

// lazyStmt is a statement prepared on first use (after migrations have
// created its tables) and kept; a failed preparation is retried on the next
// use rather than remembered. Safe for concurrent use.
type lazyStmt struct {
	db    *sql.DB
	query string
	mu    sync.Mutex
	stmt  *sql.Stmt
}

// get returns the prepared statement, preparing it when needed.
func (l *lazyStmt) get(ctx context.Context) (*sql.Stmt, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stmt == nil {
		st, err := l.db.PrepareContext(ctx, l.query)
		if err != nil {
			return nil, fmt.Errorf("prepare statement: %w", err)
		}
		l.stmt = st
	}
	return l.stmt, nil
}

// close releases the statement if it was prepared.
func (l *lazyStmt) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stmt != nil {
		l.stmt.Close()
		l.stmt = nil
	}
}

// SQL returns the underlying *sql.DB, for the log and statistics readers of
// other packages in this module. It is for reading only: a write through it
// would bypass the redaction of secrets.
func (db *DB) SQL() *sql.DB { return db.sql }

// Meta returns the value stored under key in the meta table; ok is false
// when there is none.
func (db *DB) Meta(ctx context.Context, key string) (value string, ok bool, err error) {
	err = db.sql.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, key).Scan(&value)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("read meta %s: %w", key, err)
	}
	return value, true, nil
}

// MetaPrefixed implements kb.MetaStore: every key beginning with prefix,
// with its value.
func (db *DB) MetaPrefixed(ctx context.Context, prefix string) (map[string]string, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT key, value FROM meta WHERE substr(key, 1, length(?)) = ?`, prefix, prefix)
	if err != nil {
		return nil, fmt.Errorf("read meta %s*: %w", prefix, err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, fmt.Errorf("read meta %s*: %w", prefix, err)
		}
		out[k] = v
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read meta %s*: %w", prefix, err)
	}
	return out, nil
}

// SetMeta stores value, its secrets redacted, under key in the meta table.
func (db *DB) SetMeta(ctx context.Context, key, value string) error {
	return db.update(ctx, func(tx *redactTx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES (?, ?)
			ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value)
		if err != nil {
			return fmt.Errorf("write meta %s: %w", key, err)
		}
		return nil
	})
}

// SetMetaDefault stores value (its secrets redacted) under key unless a
// value is already there, and returns the value in force. On a read-only
// database it stores nothing and returns the stored value, or value when
// there is none.
func (db *DB) SetMetaDefault(ctx context.Context, key, value string) (string, error) {
	if db.readOnly {
		v, ok, err := db.Meta(ctx, key)
		if !ok && err == nil {
			v = value
		}
		return v, err
	}
	err := db.update(ctx, func(tx *redactTx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING`, key, value)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("write meta %s: %w", key, err)
	}
	v, _, err := db.Meta(ctx, key)
	return v, err
}

// EmbedderInfo implements kb.Store (see storerow.EmbedderInfo).
func (db *DB) EmbedderInfo(ctx context.Context) (string, int, bool, error) {
	model, dim, ok, err := storerow.EmbedderInfo(func(key string) (string, bool, error) { return db.Meta(ctx, key) })
	if err != nil {
		return "", 0, false, fmt.Errorf("database %s: %w", db.path, err)
	}
	return model, dim, ok, nil
}

// SetEmbedderInfo implements kb.Store.
func (db *DB) SetEmbedderInfo(ctx context.Context, model string, dim int) error {
	return db.update(ctx, func(tx *redactTx) error {
		for _, kv := range storerow.EmbedderMeta(model, dim) {
			if _, err := tx.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES (?, ?)
				ON CONFLICT (key) DO UPDATE SET value = excluded.value`, kv[0], kv[1]); err != nil {
				return fmt.Errorf("write meta %s: %w", kv[0], err)
			}
		}
		return nil
	})
}

// update runs fn in a BEGIN IMMEDIATE transaction on the writer connection
// and commits it, or rolls it back when fn fails. Every write goes through
// it: the transaction redacts the text its statements bind (see redactTx),
// and runs them prepared once (see cachedTx). On a read-only database it
// returns an error wrapping kb.ErrReadOnly without calling fn.
func (db *DB) update(ctx context.Context, fn func(*redactTx) error) error {
	if db.readOnly {
		return db.errReadOnly()
	}
	tx, done, err := db.w.begin(ctx)
	if err != nil {
		return err
	}
	defer done()
	if err := fn(&redactTx{tx: &cachedTx{Tx: tx, cache: db.w.stmts}}); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// fmtTime and parseTime write and read a stored time (sortable UTC text,
// the same in both stores).
var fmtTime, parseTime = storerow.FormatTime, storerow.ParseTime
