package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/innate-mcp/innate-mcp/embed"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/sanitize"
	"github.com/innate-mcp/innate-mcp/storage"
)

// version is the program version reported by `innate-mcp version` and in the
// MCP handshake.
const version = "0.1.0"

// errUsage marks a command-line usage error (exit status 2).
var errUsage = errors.New("usage")

// exitCode maps an error to the process exit status.
func exitCode(err error) int {
	if errors.Is(err, errUsage) || errors.Is(err, flag.ErrHelp) {
		return 2
	}
	return 1
}

// Main is the program: its environment and I/O are fields so that tests run
// the whole program in-process.
type Main struct {
	// Getenv reads the environment; os.Getenv by default.
	Getenv func(string) string
	// Getwd returns the working directory; os.Getwd by default.
	Getwd func() (string, error)
	// IsTerminal reports whether w is a terminal, where long commands show
	// their progress; a nil IsTerminal means never. By default it is true
	// for a character device.
	IsTerminal func(w io.Writer) bool
}

// NewMain returns a Main wired to the real process environment.
func NewMain() *Main {
	return &Main{Getenv: os.Getenv, Getwd: os.Getwd, IsTerminal: func(w io.Writer) bool { return isTerminal(w) }}
}

// isTerminal reports whether a standard stream (stdin, stdout, stderr) is
// a character device: a terminal, or /dev/null, where progress output is
// harmless and reading gives nothing.
func isTerminal(stream any) bool {
	f, ok := stream.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// command is one subcommand.
type command struct {
	name, summary string
	run           func(m *Main, ctx context.Context, g *globals, args []string, stdin io.Reader, stdout, stderr io.Writer) error
}

// commands returns the subcommand table.
func commands() []command {
	return []command{
		{"serve", "serve MCP over stdio (the default)", (*Main).runServe},
		{"recall", "recall lessons for a situation (JSON on stdin, or flags)", (*Main).runRecall},
		{"record", "record an outcome, feedback, a lesson or a correction", (*Main).runRecord},
		{"appraise", "appraise a situation and a candidate: verdict and route (JSON on stdin, or flags)", (*Main).runAppraise},
		{"import", "import lessons from JSONL or rule files (CLAUDE.md, AGENTS.md, .cursorrules, .mdc)", (*Main).runImport},
		{"export", "export every lesson as JSONL (lossless)", (*Main).runExport},
		{"hesitate", "check a draft before acting on it (draft on stdin)", (*Main).runHesitate},
		{"patterns", "list or remove learned error patterns", (*Main).runPatterns},
		{"lessons", "list, show, approve, reject, archive or restore lessons", (*Main).runLessons},
		{"regulate", "let the regulator tune one parameter if due (--dry-run: only show)", (*Main).runRegulate},
		{"stats", "the system's health: lessons, recall, hesitation, contradictions", (*Main).runStats},
		{"prune", "prune traces beyond the retention now and reclaim the space", (*Main).runPrune},
		{"eval", "measure quality on a dataset: eval retrieval|appraise|hedging|hesitation", (*Main).runEval},
		{"embed", "print embeddings of texts as JSON", (*Main).runEmbed},
		{"reembed", "re-embed every lesson with the configured embedder", (*Main).runReembed},
		{"version", "print the version", (*Main).runVersion},
	}
}

// Run runs the program with args (without the program name).
func (m *Main) Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	g := &globals{}
	fs := flag.NewFlagSet("innate-mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	g.register(fs)
	fs.Usage = func() {} // printed below: to stdout when asked for
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			m.usage(stdout)
			return nil
		}
		m.usage(stderr)
		return err
	}
	args = fs.Args()
	name := "serve"
	if len(args) > 0 {
		name, args = args[0], args[1:]
	}
	if name == "help" || name == "-h" || name == "--help" {
		m.usage(stdout)
		return nil
	}
	for _, c := range commands() {
		if c.name == name {
			err := c.run(m, ctx, g, args, stdin, stdout, stderr)
			if g.usage.Len() > 0 {
				// The command's flag set printed its usage: asked for with
				// -h, it is the output and not an error.
				if errors.Is(err, flag.ErrHelp) {
					_, err = stdout.Write(g.usage.Bytes())
					return err
				}
				stderr.Write(g.usage.Bytes())
			}
			return err
		}
	}
	m.usage(stderr)
	return fmt.Errorf("%w: unknown command %q", errUsage, name)
}

func (m *Main) usage(w io.Writer) {
	fmt.Fprintf(w, "innate-mcp %s: fast, deterministic intuition, hesitation and memory for coding agents.\n\n", version)
	fmt.Fprintln(w, "Usage: innate-mcp [--db PATH] [command] [flags]")
	fmt.Fprintln(w, "\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nGlobal flags (also accepted after the command):")
	fmt.Fprintln(w, "  --db PATH          database file (env INNATE_DB; default "+defaultDBHint()+")")
	fmt.Fprintln(w, "  --log-level LEVEL  debug, info, warn or error (env INNATE_LOG_LEVEL; default info)")
	fmt.Fprintln(w, "  --log-file PATH    append logs to a file instead of stderr (env INNATE_LOG_FILE)")
	def := storage.DefaultRetention()
	fmt.Fprintf(w, "  --retain-days N    keep traces of tool calls N days, 0: no age limit (env INNATE_RETAIN_DAYS; default %d)\n", int(def.MaxAge.Hours()/24))
	fmt.Fprintf(w, "  --retain-traces N  keep the newest N traces, 0: no count limit (env INNATE_RETAIN_TRACES; default %d)\n", def.MaxTraces)
	fmt.Fprintln(w, "\nEmbedder (environment): INNATE_EMBEDDER=builtin|ollama|openai, INNATE_EMBED_MODEL, INNATE_EMBED_URL, INNATE_EMBED_API_KEY")
	fmt.Fprintln(w, "Run `innate-mcp COMMAND -h` for a command's flags.")
}

// globals are the flags every command accepts, and the usage text the
// command's flag set printed.
type globals struct {
	db           string
	logLevel     string
	logFile      string
	retainDays   string
	retainTraces string
	// usage holds the command's usage when its flags asked for it (-h) or
	// failed to parse; Run prints it to stdout or stderr accordingly.
	usage bytes.Buffer
}

// register adds the global flags to fs. Values already set (by flags
// before the command) are kept as defaults.
func (g *globals) register(fs *flag.FlagSet) {
	fs.StringVar(&g.db, "db", g.db, "database file (env INNATE_DB)")
	fs.StringVar(&g.logLevel, "log-level", g.logLevel, "log level: debug, info, warn, error (env INNATE_LOG_LEVEL)")
	fs.StringVar(&g.logFile, "log-file", g.logFile, "append logs to this file instead of stderr (env INNATE_LOG_FILE)")
	def := storage.DefaultRetention()
	fs.StringVar(&g.retainDays, "retain-days", g.retainDays,
		fmt.Sprintf("keep traces of tool calls this many days, 0: no age limit (env INNATE_RETAIN_DAYS; default %d)", int(def.MaxAge.Hours()/24)))
	fs.StringVar(&g.retainTraces, "retain-traces", g.retainTraces,
		fmt.Sprintf("keep this many traces, the newest, 0: no count limit (env INNATE_RETAIN_TRACES; default %d)", def.MaxTraces))
}

// newFlagSet returns a subcommand's flag set with the global flags on it.
// Parse errors go to stderr; the usage text goes to g.usage, for Run to
// print (to stdout when -h asked for it).
func newFlagSet(name string, g *globals, stderr io.Writer, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet("innate-mcp "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	g.register(fs)
	fs.Usage = func() {
		g.usage.Reset()
		fmt.Fprintf(&g.usage, "Usage: innate-mcp %s %s\n\nFlags:\n", name, usage)
		fs.SetOutput(&g.usage)
		fs.PrintDefaults()
		fs.SetOutput(stderr)
	}
	return fs
}

// dbPath resolves the database path: flag, INNATE_DB, or the default in the
// user's data directory.
func (m *Main) dbPath(g *globals) (string, error) {
	if g.db != "" {
		return g.db, nil
	}
	if p := m.Getenv("INNATE_DB"); p != "" {
		return p, nil
	}
	dir, err := dataDir(m.Getenv)
	if err != nil {
		return "", fmt.Errorf("find data directory (set --db or INNATE_DB): %w", err)
	}
	return filepath.Join(dir, "innate-mcp", "innate.db"), nil
}

// dataDir is the user's data directory: $XDG_DATA_HOME or ~/.local/share on
// Unix, Application Support on macOS, %LocalAppData% on Windows.
func dataDir(getenv func(string) string) (string, error) {
	if d := getenv("XDG_DATA_HOME"); d != "" {
		return d, nil
	}
	switch runtime.GOOS {
	case "windows":
		if d := getenv("LocalAppData"); d != "" {
			return d, nil
		}
		return os.UserConfigDir()
	case "darwin":
		return os.UserConfigDir()
	}
	home := getenv("HOME")
	if home == "" {
		var err error
		if home, err = os.UserHomeDir(); err != nil {
			return "", err
		}
	}
	return filepath.Join(home, ".local", "share"), nil
}

func defaultDBHint() string {
	switch runtime.GOOS {
	case "windows":
		return `%LocalAppData%\innate-mcp\innate.db`
	case "darwin":
		return "~/Library/Application Support/innate-mcp/innate.db"
	}
	return "$XDG_DATA_HOME/innate-mcp/innate.db or ~/.local/share/innate-mcp/innate.db"
}

// logger builds the program's logger: text to stderr, or to the log file,
// with secrets redacted from every record. Standard output is never used
// for logs: it belongs to the MCP protocol.
func (m *Main) logger(g *globals, stderr io.Writer) (*slog.Logger, func(), error) {
	level := g.logLevel
	if level == "" {
		level = m.Getenv("INNATE_LOG_LEVEL")
	}
	var lv slog.Level
	if level != "" {
		if err := lv.UnmarshalText([]byte(level)); err != nil {
			return nil, nil, fmt.Errorf("%w: log level %q: use debug, info, warn or error", errUsage, level)
		}
	}
	file := g.logFile
	if file == "" {
		file = m.Getenv("INNATE_LOG_FILE")
	}
	w, closeFn := stderr, func() {}
	if file != "" {
		f, err := os.OpenFile(file, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			return nil, nil, fmt.Errorf("open log file: %w", err)
		}
		w, closeFn = f, func() { f.Close() }
	}
	return slog.New(sanitize.NewRedactHandler(slog.NewTextHandler(w, &slog.HandlerOptions{Level: lv}))), closeFn, nil
}

// checkpointInterval is how often a process copies the database's
// write-ahead log back into it (storage.Options.CheckpointInterval).
const checkpointInterval = time.Second

// app is an opened knowledge base with everything a command needs.
type app struct {
	db    *storage.DB
	kb    *kb.KB
	emb   *embed.Embedder
	log   *slog.Logger
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
	w, err := loadWeights(ctx, db)
	if err != nil {
		db.Close()
		closeLog()
		return nil, err
	}
	ac, rw, err := loadAppraiseParams(ctx, db)
	if err != nil {
		db.Close()
		closeLog()
		return nil, err
	}
	h, err := loadHesitation(ctx, db, m.Getenv)
	if err != nil {
		db.Close()
		closeLog()
		return nil, err
	}
	k, err := kb.New(kb.Config{Store: db, Embedder: emb, Weights: &w, Hesitation: &h, Session: session, Logger: log.With("component", "kb"),
		Appraise: &ac, Route: &rw, ReadOnly: db.ReadOnly(), ReadOnlyReason: roWhy})
	if err != nil {
		db.Close()
		closeLog()
		return nil, err
	}
	closeDB := func() {
		if acc != serveAccess && !db.ReadOnly() {
			pruneStep(db, log)
		}
		db.Close()
		closeLog()
	}
	a := &app{db: db, kb: k, emb: emb, log: log, close: closeDB}
	// Tuned parameters (the regulator's) override the stored defaults.
	r, err := newRegulator()
	if err == nil {
		err = r.retune(ctx, a)
	}
	if err != nil {
		a.close()
		return nil, err
	}
	return a, nil
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

// retention reads the trace retention from the flags, the environment
// (INNATE_RETAIN_DAYS, INNATE_RETAIN_TRACES) or the defaults.
func (m *Main) retention(g *globals) (storage.Retention, error) {
	r := storage.DefaultRetention()
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

// loadWeights reads the fused-score weights from the meta table, storing the
// documented defaults on first use; keys missing from a stored value keep
// their defaults.
func loadWeights(ctx context.Context, db *storage.DB) (kb.Weights, error) {
	def := kb.DefaultWeights()
	b, _ := json.Marshal(def)
	v, err := db.SetMetaDefault(ctx, "weights", string(b))
	if err != nil {
		return kb.Weights{}, err
	}
	w := def
	if err := json.Unmarshal([]byte(v), &w); err != nil {
		return kb.Weights{}, fmt.Errorf("meta weights: %w", err)
	}
	if err := w.Validate(); err != nil {
		return kb.Weights{}, fmt.Errorf("meta weights: %w", err)
	}
	return w, nil
}

// writeJSON prints v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// decodeStrict decodes one JSON value from r, refusing unknown fields and
// trailing data.
func decodeStrict(r io.Reader, v any) error {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%w: %s", kb.ErrInput, jsonErrorText(err))
	}
	if dec.More() {
		return fmt.Errorf("%w: trailing data after the JSON object", kb.ErrInput)
	}
	return nil
}

// jsonErrorText turns a JSON decoding error into advice for the caller.
func jsonErrorText(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF):
		return "no JSON input: pass the tool arguments as a JSON object"
	case errors.As(err, &se):
		return fmt.Sprintf("malformed JSON at byte %d: %v", se.Offset, err)
	case errors.As(err, &te):
		return fmt.Sprintf("field %s has the wrong type: want %s, got %s", te.Field, te.Type, te.Value)
	case strings.HasPrefix(err.Error(), "json: unknown field"):
		return strings.TrimPrefix(err.Error(), "json: ") + ": remove it (see the tool's input schema)"
	}
	return err.Error()
}
