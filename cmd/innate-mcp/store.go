package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/innate-mcp/innate-mcp/embed"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/mcpserver"
	"github.com/innate-mcp/innate-mcp/storage"
	"github.com/innate-mcp/innate-mcp/tuning"
)

// This file is the one place the program opens its store, the SQLite
// database of package storage, and configures what is particular to it
// (retention, checkpoints, pruning). Everything else uses the store as a
// kb.Admin.

var _ kb.Admin = (*storage.DB)(nil)

// checkpointInterval is how often a process copies the database's
// write-ahead log back into it (storage.Options.CheckpointInterval).
const checkpointInterval = time.Second

// app is an opened knowledge base with everything a command needs.
type app struct {
	store kb.Admin
	kb    *kb.KB
	emb   *embed.Embedder
	log   *slog.Logger
	path  string // the database file
	db    *storage.DB
	close func()
}

// access is what a command needs of the database.
type access int

const (
	// writeAccess: the command writes; a database it cannot write is an
	// error that says whether the file or the directory is read-only.
	writeAccess access = iota
	// readAccess: the command only reads, and opens the database
	// read-only (writable only to create or migrate it).
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
	path, err := m.dbPath(g)
	if err != nil {
		closeLog()
		return nil, err
	}
	ret, err := m.retention(g)
	if err != nil {
		closeLog()
		return nil, err
	}
	// Checkpoints run in the background, so that no call waits for one.
	db, roWhy, err := openDB(ctx, path, acc, storage.Options{Logger: log, Retention: ret, CheckpointInterval: checkpointInterval})
	if err != nil {
		closeLog()
		return nil, err
	}
	if roWhy != "" {
		log.Warn("the database cannot be written: recall, appraise and hesitate answer without logging, record fails", "reason", roWhy)
	}
	closeDB := func() {
		if acc != serveAccess && !db.ReadOnly() {
			pruneStep(db, log)
		}
		db.Close()
		closeLog()
	}
	k, err := m.newKB(ctx, db, emb, session, log, roWhy)
	if err != nil {
		db.Close()
		closeLog()
		return nil, err
	}
	a := &app{store: db, db: db, kb: k, emb: emb, log: log, path: db.Path(), close: closeDB}
	// Tuned parameters (the regulator's) override the stored defaults.
	r, err := tuning.New()
	if err == nil {
		err = r.Retune(ctx, db, k)
	}
	if err != nil {
		a.close()
		return nil, err
	}
	return a, nil
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
func pruneStep(db *storage.DB, log *slog.Logger) {
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
	before := dbBytes(a.path)
	start := time.Now()
	rep, err := a.db.Prune(ctx, time.Now(), 0)
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
	}{rep, int(ret.MaxAge.Hours() / 24), ret.MaxTraces, before, dbBytes(a.path), time.Since(start).Seconds()})
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
	if path == "" {
		dir, err := os.MkdirTemp("", "innate-eval-*")
		if err != nil {
			closeAll()
			return nil, err
		}
		cleanup = append(cleanup, func() { os.RemoveAll(dir) })
		path = filepath.Join(dir, "eval.db")
	}
	db, err := storage.Open(ctx, path, storage.Options{Logger: log})
	if err != nil {
		closeAll()
		return nil, err
	}
	cleanup = append(cleanup, func() { db.Close() })
	k, err := kb.New(kb.Config{Store: db, Embedder: emb, Session: "eval", Logger: log, Weights: &w, Appraise: &ac})
	if err != nil {
		closeAll()
		return nil, err
	}
	return &evalKB{kb: k, store: db, emb: emb, log: log, close: closeAll}, nil
}
