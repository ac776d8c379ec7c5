package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/innate-mcp/innate-mcp/embed"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/mcpserver"
	"github.com/innate-mcp/innate-mcp/pgstore"
	"github.com/innate-mcp/innate-mcp/storage"
	"github.com/innate-mcp/innate-mcp/tuning"
)

// This file is the one place the program opens its store: the SQLite
// database of package storage (the default), or the PostgreSQL database of
// package pgstore when the database is a postgres:// URL; and it
// configures what is particular to each (retention, checkpoints, pruning).
// Everything else uses the store as a kb.Admin. (migrate.go, which copies
// one into the other, is the only other file that names them.)

var (
	_ kb.Admin = (*storage.DB)(nil)
	_ kb.Admin = (*pgstore.DB)(nil)
)

// checkpointInterval is how often a process copies the database's
// write-ahead log back into it (storage.Options.CheckpointInterval).
const checkpointInterval = time.Second

// app is an opened knowledge base with everything a command needs.
type app struct {
	store kb.Admin
	kb    *kb.KB
	emb   *embed.Embedder
	log   *slog.Logger
	// where is the store for messages and logs: the SQLite file, or the
	// PostgreSQL URL without its password.
	where string
	// file is the SQLite database file; "" for PostgreSQL.
	file string
	// prune prunes traces by the retention; nil for a store that cannot
	// be written.
	prune pruner
	close func()
}

// pruner is a store that prunes traces by its retention (storage.DB,
// pgstore.DB).
type pruner interface {
	Prune(ctx context.Context, now time.Time, maxBatches int) (kb.PruneReport, error)
}

// opened is a store as the command opened it, without a knowledge base
// over it: what commands that need only the store (tokens) use.
type opened struct {
	kb.Admin
	// Close closes the store.
	Close func() error
	where string
	file  string
	prune pruner
	// roWhy says why a store opened read-only for logAccess or
	// serveAccess could not be written; "" otherwise.
	roWhy string
}

// isPostgres reports whether the database named is a PostgreSQL URL
// (postgres:// or postgresql://) rather than a SQLite file.
func isPostgres(db string) bool {
	scheme, _, ok := strings.Cut(db, "://")
	return ok && (strings.EqualFold(scheme, "postgres") || strings.EqualFold(scheme, "postgresql"))
}

// pgLocation is a PostgreSQL URL as it may be shown: the password removed
// from the user information and from the query (password=...), nothing of
// it shown when the URL does not parse.
func pgLocation(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		return "postgres://(a URL that does not parse)"
	}
	if u.User != nil {
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
		}
	}
	q := u.Query()
	for k := range q {
		if strings.EqualFold(k, "password") {
			q.Set(k, "xxxxx")
		}
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// access is what a command needs of the database.
type access int

const (
	// writeAccess: the command writes; a database it cannot write is an
	// error that says whether the file or the directory is read-only.
	writeAccess access = iota
	// readAccess: the command only reads, and opens the database
	// read-only (writable only to create or migrate it). PostgreSQL has
	// no read-only file: its database is opened as for writing, and the
	// server's permissions decide.
	readAccess
	// logAccess: the command reads and logs its call (recall, appraise,
	// hesitate); on a database it cannot write it answers without the
	// log, and record fails saying why.
	logAccess
	// serveAccess: logAccess for a server, which also prunes traces in
	// the background.
	serveAccess
)

// pruneInterval is how often a server prunes traces by the retention.
const pruneInterval = 10 * time.Minute

// openStore opens the configured store (--db, INNATE_DB or the default
// SQLite file) as acc needs.
func (m *Main) openStore(ctx context.Context, g *globals, log *slog.Logger, acc access) (*opened, error) {
	path, err := m.dbPath(g)
	if err != nil {
		return nil, err
	}
	ret, err := m.retention(g)
	if err != nil {
		return nil, err
	}
	if isPostgres(path) {
		opts := pgstore.Options{Logger: log, Retention: ret}
		if acc == serveAccess {
			opts.PruneInterval = pruneInterval
		}
		return openPostgres(ctx, path, opts)
	}
	// Checkpoints run in the background, so that no call waits for one.
	db, roWhy, err := openDB(ctx, path, acc, storage.Options{Logger: log, Retention: ret, CheckpointInterval: checkpointInterval})
	if err != nil {
		return nil, err
	}
	o := &opened{Admin: db, Close: db.Close, where: db.Path(), file: db.Path(), roWhy: roWhy}
	if !db.ReadOnly() {
		o.prune = db
	}
	return o, nil
}

// pgConnectTimeout bounds how long opening a PostgreSQL store waits for
// the server.
const pgConnectTimeout = 15 * time.Second

// openPostgres opens the PostgreSQL store of dsn, migrating its schema.
// Its errors name the server (host:port, never the password) and what to
// check.
func openPostgres(ctx context.Context, dsn string, opts pgstore.Options) (*opened, error) {
	where := pgLocation(dsn)
	if _, err := url.Parse(dsn); err != nil {
		return nil, fmt.Errorf("--db / INNATE_DB: not a PostgreSQL URL: write it as postgres://USER:PASSWORD@HOST:5432/DATABASE (percent-encode special characters in the password)")
	}
	db, err := openPostgresDB(ctx, dsn, opts)
	if err != nil {
		return nil, err
	}
	return &opened{Admin: db, Close: db.Close, where: where, prune: db}, nil
}

// openPostgresDB opens (and migrates) the PostgreSQL database of dsn,
// waiting at most pgConnectTimeout for the server.
func openPostgresDB(ctx context.Context, dsn string, opts pgstore.Options) (*pgstore.DB, error) {
	cctx, cancel := context.WithTimeout(ctx, pgConnectTimeout)
	defer cancel()
	db, err := pgstore.Open(cctx, dsn, opts)
	if err != nil {
		return nil, fmt.Errorf("open the PostgreSQL knowledge base %s: %w", pgLocation(dsn), err)
	}
	return db, nil
}

// open opens the database and the knowledge base over it, as acc needs.
// A writable CLI command prunes one batch of traces when it closes, so
// that the CLI alone keeps the database within its retention.
func (m *Main) open(ctx context.Context, g *globals, stderr io.Writer, session string, acc access) (*app, error) {
	log, closeLog, err := m.logger(g, stderr)
	if err != nil {
		return nil, err
	}
	emb, err := embed.New(embed.ConfigFromEnv(m.Getenv))
	if err != nil {
		closeLog()
		return nil, fmt.Errorf("configure embedder: %w", err)
	}
	st, err := m.openStore(ctx, g, log, acc)
	if err != nil {
		closeLog()
		return nil, err
	}
	if st.roWhy != "" {
		log.Warn("the database cannot be written: recall, appraise and hesitate answer without logging, record fails", "reason", st.roWhy)
	}
	closeDB := func() {
		if acc != serveAccess && st.prune != nil {
			pruneStep(st.prune, log)
		}
		st.Close()
		closeLog()
	}
	k, err := m.newKB(ctx, st.Admin, emb, session, log, st.roWhy)
	if err != nil {
		st.Close()
		closeLog()
		return nil, err
	}
	a := &app{store: st.Admin, kb: k, emb: emb, log: log, where: st.where, file: st.file, prune: st.prune, close: closeDB}
	// Tuned parameters (the regulator's) override the stored defaults.
	r, err := tuning.New()
	if err == nil {
		err = r.Retune(ctx, st.Admin, k)
	}
	if err != nil {
		a.close()
		return nil, err
	}
	return a, nil
}

// openAdmin opens the store alone, for a command that needs no knowledge
// base over it (tokens): the embedder, the settings and the regulator's
// parameters are not read. close closes the store and the log.
func (m *Main) openAdmin(ctx context.Context, g *globals, stderr io.Writer, acc access) (st *opened, close func(), err error) {
	log, closeLog, err := m.logger(g, stderr)
	if err != nil {
		return nil, nil, err
	}
	st, err = m.openStore(ctx, g, log, acc)
	if err != nil {
		closeLog()
		return nil, nil, err
	}
	return st, func() { st.Close(); closeLog() }, nil
}

// newKB opens the knowledge base over s with the settings s holds.
func (m *Main) newKB(ctx context.Context, s kb.Admin, emb kb.Embedder, session string, log *slog.Logger, roWhy string) (*kb.KB, error) {
	set, err := kb.LoadSettings(ctx, s, hesitationOverride(m.Getenv))
	if err != nil {
		return nil, err
	}
	return kb.New(kb.Config{Store: s, Embedder: emb, Weights: &set.Weights, Hesitation: &set.Hesitation, Session: session,
		Logger: log.With("component", "kb"), Appraise: &set.Appraise, Route: &set.Route, ReadOnly: s.ReadOnly(), ReadOnlyReason: roWhy})
}

// openDB opens the database at path as acc needs. For logAccess and
// serveAccess a database that cannot be written is opened read-only, and
// roWhy says why (the writable open's error); readAccess opens read-only
// unless the database is yet to be created or migrated.
func openDB(ctx context.Context, path string, acc access, opts storage.Options) (db *storage.DB, roWhy string, err error) {
	switch acc {
	case readAccess:
		ro := opts
		ro.ReadOnly = true
		db, err := storage.Open(ctx, path, ro)
		if err == nil || !(errors.Is(err, fs.ErrNotExist) || errors.Is(err, storage.ErrSchemaOutdated)) {
			return db, "", err
		}
		// A database to create, or to migrate: once writable, as before.
		db, werr := storage.Open(ctx, path, opts)
		if werr != nil && errors.Is(err, storage.ErrSchemaOutdated) {
			return nil, "", fmt.Errorf("%v; migrating it needs to write: %w", err, werr)
		}
		return db, "", werr
	case serveAccess:
		opts.PruneInterval = pruneInterval
	}
	db, err = storage.Open(ctx, path, opts)
	if acc == writeAccess || !errors.Is(err, kb.ErrReadOnly) {
		return db, "", err
	}
	roWhy = strings.TrimPrefix(err.Error(), kb.ErrReadOnly.Error()+": ")
	if acc == serveAccess {
		roWhy += "; then restart the server"
	}
	ro := opts
	ro.ReadOnly, ro.PruneInterval = true, 0
	db, err = storage.Open(ctx, path, ro)
	if err != nil {
		return nil, "", fmt.Errorf("%s; opening it read-only failed too: %w", roWhy, err)
	}
	return db, roWhy, nil
}

// pruneStep prunes one batch of traces by the retention, and reports a
// failure in the log only: the command has done its work.
func pruneStep(db pruner, log *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := db.Prune(ctx, time.Now(), 1); err != nil {
		log.Warn("prune traces", "err", err)
	}
}

// defaultRetention is the trace retention when none is given: days and
// traces kept.
func defaultRetention() (days, traces int) {
	def := kb.DefaultRetention()
	return int(def.MaxAge.Hours() / 24), def.MaxTraces
}

// retention reads the trace retention from the flags, the environment
// (INNATE_RETAIN_DAYS, INNATE_RETAIN_TRACES) or the defaults.
func (m *Main) retention(g *globals) (kb.Retention, error) {
	r := kb.DefaultRetention()
	read := func(flag, env, val string, set func(int)) error {
		name := "--" + flag
		if val == "" {
			val, name = m.Getenv(env), env
		}
		if val == "" {
			return nil
		}
		n, err := strconv.Atoi(strings.TrimSpace(val))
		if err != nil || n < 0 {
			return fmt.Errorf("%w: %s %q: use a whole number, 0 for no limit", errUsage, name, val)
		}
		set(n)
		return nil
	}
	if err := read("retain-days", "INNATE_RETAIN_DAYS", g.retainDays, func(n int) { r.MaxAge = time.Duration(n) * 24 * time.Hour }); err != nil {
		return r, err
	}
	if err := read("retain-traces", "INNATE_RETAIN_TRACES", g.retainTraces, func(n int) { r.MaxTraces = n }); err != nil {
		return r, err
	}
	if err := r.Validate(); err != nil {
		return r, fmt.Errorf("%w: %v (--retain-days, --retain-traces)", errUsage, err)
	}
	return r, nil
}

// runPrune prunes the traces beyond the retention (--retain-days,
// --retain-traces) now, as a server does every ten minutes, and reports
// what it deleted and the size of the database before and after.
func (m *Main) runPrune(ctx context.Context, g *globals, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("prune", g, stderr, "[--retain-days N] [--retain-traces N]")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: prune takes no arguments", errUsage)
	}
	ret, err := m.retention(g)
	if err != nil {
		return err
	}
	a, err := m.open(ctx, g, stderr, m.cliSession(), writeAccess)
	if err != nil {
		return err
	}
	defer a.close()
	if a.prune == nil {
		return fmt.Errorf("prune: %s cannot be written", a.where)
	}
	before := dbBytes(a.file)
	start := time.Now()
	rep, err := a.prune.Prune(ctx, time.Now(), 0)
	if err != nil {
		return err
	}
	return writeJSON(stdout, struct {
		kb.PruneReport
		RetainDays   int     `json:"retain_days"`
		RetainTraces int     `json:"retain_traces"`
		BytesBefore  int64   `json:"bytes_before"`
		BytesAfter   int64   `json:"bytes_after"`
		Seconds      float64 `json:"seconds"`
	}{rep, int(ret.MaxAge.Hours() / 24), ret.MaxTraces, before, dbBytes(a.file), time.Since(start).Seconds()})
}

// dbBytes is the size of a database file and its WAL.
func dbBytes(path string) int64 {
	var n int64
	for _, p := range []string{path, path + "-wal"} {
		if st, err := os.Stat(p); err == nil {
			n += st.Size()
		}
	}
	return n
}

// errStopIteration ends a Lessons iteration early.
var errStopIteration = errors.New("stop")

// evalKB is a knowledge base built for an evaluation run, with what it
// needs; close releases all of it (and removes a temporary database).
type evalKB struct {
	kb    *kb.KB
	store kb.Admin
	emb   *embed.Embedder
	log   *slog.Logger
	close func()
}

// openEvalKB opens the knowledge base an `eval` command measures on: the
// configured embedder, the weights and appraise parameters given on the
// command line, in a temporary database unless a path is given.
func (m *Main) openEvalKB(ctx context.Context, g *globals, stderr io.Writer, o evalKBOptions) (*evalKB, error) {
	w := kb.DefaultWeights()
	if o.weights != "" {
		if err := mcpserver.DecodeStrict(strings.NewReader(o.weights), &w); err != nil {
			return nil, fmt.Errorf("--weights: %w", err)
		}
	}
	ac, err := appraiseParams(o.params)
	if err != nil {
		return nil, err
	}
	emb, err := embed.New(embed.ConfigFromEnv(m.Getenv))
	if err != nil {
		return nil, err
	}
	log, closeLog, err := m.logger(g, stderr)
	if err != nil {
		return nil, err
	}
	cleanup := []func(){closeLog}
	closeAll := func() {
		for i := len(cleanup) - 1; i >= 0; i-- {
			cleanup[i]()
		}
	}
	path := o.path
	var db kb.Admin
	if isPostgres(path) {
		// An empty PostgreSQL database: the same evaluation on the team
		// store, whose figures must match SQLite's.
		pdb, err := openPostgresDB(ctx, path, pgstore.Options{Logger: log})
		if err != nil {
			closeAll()
			return nil, err
		}
		cleanup = append(cleanup, func() { pdb.Close() })
		empty := true
		if err := pdb.Lessons(ctx, kb.LessonFilter{}, func(kb.Lesson) error { empty = false; return errStopIteration }); err != nil && !errors.Is(err, errStopIteration) {
			closeAll()
			return nil, err
		}
		if !empty {
			closeAll()
			return nil, fmt.Errorf("%w: eval needs an empty PostgreSQL database: %s holds lessons (create a new one: createdb NAME)", errUsage, pgLocation(path))
		}
		db = pdb
	}
	if db == nil && path == "" {
		dir, err := os.MkdirTemp("", "innate-eval-*")
		if err != nil {
			closeAll()
			return nil, err
		}
		cleanup = append(cleanup, func() { os.RemoveAll(dir) })
		path = filepath.Join(dir, "eval.db")
	}
	if db == nil {
		sdb, err := storage.Open(ctx, path, storage.Options{Logger: log})
		if err != nil {
			closeAll()
			return nil, err
		}
		cleanup = append(cleanup, func() { sdb.Close() })
		db = sdb
	}
	k, err := kb.New(kb.Config{Store: db, Embedder: emb, Session: "eval", Logger: log, Weights: &w, Appraise: &ac})
	if err != nil {
		closeAll()
		return nil, err
	}
	return &evalKB{kb: k, store: db, emb: emb, log: log, close: closeAll}, nil
}
