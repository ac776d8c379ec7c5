package pgstore

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/innate-mcp/innate-mcp/internal/storerow"
	"github.com/innate-mcp/innate-mcp/internal/vecindex"
	"github.com/innate-mcp/innate-mcp/kb"
)

// DB is an open PostgreSQL knowledge base. It is safe for concurrent use,
// and several processes (instances of the team server) may open the same
// database.
type DB struct {
	pool     *pgxpool.Pool
	log      *slog.Logger
	readOnly bool
	index    *vecindex.Index
	// retention bounds the traces Prune keeps.
	retention kb.Retention
	// stopPrune ends the background prune loop and waits for it; nil
	// without one.
	stopPrune func()
	// stopListen ends the change feed (DB.listen), which closes
	// listenDone when it has returned.
	stopListen context.CancelFunc
	listenDone chan struct{}
}

// Options configure Open.
type Options struct {
	// MaxConns bounds the connection pool; pgxpool's default (the larger
	// of 4 and the number of CPUs) when zero.
	MaxConns int32
	// Logger receives diagnostics; slog.Default() when nil.
	Logger *slog.Logger
	// ReadOnly makes every write fail with kb.ErrReadOnly before anything
	// is written (the database is still migrated when it is behind).
	ReadOnly bool
	// Retention bounds the traces Prune keeps; the zero value keeps them
	// all. Open refuses a retention that kb.Retention.Validate refuses.
	Retention kb.Retention
	// PruneInterval, when positive, runs Prune in the background: soon
	// after Open, then every interval until Close. Zero runs no
	// background loop.
	PruneInterval time.Duration
}

// Open connects to the PostgreSQL database of dsn (a postgres:// URL or a
// key=value connection string, as pgx reads them) and migrates it to this
// build's schema. Instances that open the same database at once are safe:
// the migrations run under an advisory lock.
func Open(ctx context.Context, dsn string, opts Options) (*DB, error) {
	if err := opts.Retention.Validate(); err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		// pgx shows the string with its password masked.
		return nil, fmt.Errorf("parse the PostgreSQL connection string: %w: write it as postgres://USER:PASSWORD@HOST:5432/DATABASE, special characters of the password percent-encoded", err)
	}
	if opts.MaxConns > 0 {
		cfg.MaxConns = opts.MaxConns
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect to PostgreSQL: %w", err)
	}
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	db := &DB{pool: pool, log: log.With("component", "pgstore"), retention: opts.Retention, listenDone: make(chan struct{})}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		cc := cfg.ConnConfig
		return nil, fmt.Errorf("connect to the PostgreSQL server at %s (user %s, database %s): %w: check that the server runs and accepts connections there, and the user, password and database of the connection string",
			net.JoinHostPort(cc.Host, strconv.Itoa(int(cc.Port))), cc.User, cc.Database, err)
	}
	if err := db.migrate(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("migrate: %w", err)
	}
	db.readOnly = opts.ReadOnly
	db.index = vecindex.New(vectorSource{db}, db.log)
	lctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	db.stopListen = cancel
	go db.listen(lctx)
	if opts.PruneInterval > 0 && !opts.ReadOnly {
		db.startPruning(opts.PruneInterval)
	}
	return db, nil
}

// Close stops the background pruning, if any, and the change feed, and
// closes the pool, waiting for connections in use to be returned.
func (db *DB) Close() error {
	if db.stopPrune != nil {
		db.stopPrune()
	}
	db.stopListen()
	<-db.listenDone
	db.pool.Close()
	return nil
}

// ReadOnly implements kb.Admin: whether the store was opened read-only.
func (db *DB) ReadOnly() bool { return db.readOnly }

// writeLock is the key of the transaction-scoped advisory lock every write
// transaction takes first: writers are serialised, as SQLite's BEGIN
// IMMEDIATE serialises them, so that a transaction's reads and writes act
// on a state no other writer changes meanwhile and fn runs exactly once
// (a SERIALIZABLE transaction could fail at commit and need fn run again).
// Readers are not blocked.
const writeLock int64 = 0x696e6e61746557 // "innateW"

// update runs fn in a write transaction and commits it, or rolls it back
// and returns fn's error unchanged when fn fails. Every write goes through
// it: the transaction redacts the text its statements bind (see redactTx).
func (db *DB) update(ctx context.Context, fn func(*redactTx) error) error {
	if db.readOnly {
		return fmt.Errorf("write: %w", kb.ErrReadOnly)
	}
	tx, err := db.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	// Rollback after Commit is a no-op; on every early return it ends the
	// transaction (with a fresh context, so a cancelled ctx still rolls
	// back and returns the connection clean).
	defer func() {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		tx.Rollback(rctx)
	}()
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, writeLock); err != nil {
		return fmt.Errorf("take the write lock: %w", err)
	}
	if err := fn(&redactTx{tx: tx}); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// Meta returns the value stored under key in the meta table; ok is false
// when there is none.
func (db *DB) Meta(ctx context.Context, key string) (value string, ok bool, err error) {
	err = db.pool.QueryRow(ctx, `SELECT value FROM meta WHERE key = $1`, key).Scan(&value)
	if errors.Is(err, pgx.ErrNoRows) {
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
	rows, err := db.pool.Query(ctx, `SELECT key, value FROM meta WHERE substr(key, 1, length($1)) = $1`, prefix)
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
		return setMeta(ctx, tx, key, value)
	})
}

func setMeta(ctx context.Context, tx *redactTx, key, value string) error {
	_, err := tx.Exec(ctx, `INSERT INTO meta (key, value) VALUES ($1, $2)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value)
	if err != nil {
		return fmt.Errorf("write meta %s: %w", key, err)
	}
	return nil
}

// SetMetaDefault implements kb.MetaStore: it stores value (its secrets
// redacted) under key unless a value is already there, and returns the
// value in force.
func (db *DB) SetMetaDefault(ctx context.Context, key, value string) (string, error) {
	var v string
	err := db.update(ctx, func(tx *redactTx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING`, key, value); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `SELECT value FROM meta WHERE key = $1`, key).Scan(&v)
	})
	if err != nil {
		return "", fmt.Errorf("write meta %s: %w", key, err)
	}
	return v, nil
}

// EmbedderInfo implements kb.Store (see storerow.EmbedderInfo).
func (db *DB) EmbedderInfo(ctx context.Context) (string, int, bool, error) {
	return storerow.EmbedderInfo(func(key string) (string, bool, error) { return db.Meta(ctx, key) })
}

// SetEmbedderInfo implements kb.Store.
func (db *DB) SetEmbedderInfo(ctx context.Context, model string, dim int) error {
	return db.update(ctx, func(tx *redactTx) error {
		for _, kv := range storerow.EmbedderMeta(model, dim) {
			if err := setMeta(ctx, tx, kv[0], kv[1]); err != nil {
				return err
			}
		}
		return nil
	})
}

// fmtTime and parseTime write and read a stored time (sortable UTC text,
// the same in both stores).
var fmtTime, parseTime = storerow.FormatTime, storerow.ParseTime

// The stores' interfaces, checked at compile time.
var (
	_ kb.Admin = (*DB)(nil)
	_ kb.Tx    = (*Tx)(nil)
)
