package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"

	"github.com/innate-mcp/innate-mcp/sanitize"
)

// version is the program version reported by `innate-mcp version`, by
// /healthz and in the MCP handshake. It is a variable only so that the
// release build (internal/release) can stamp it with
// -ldflags "-X main.version=…"; nothing in the program assigns it. A plain
// `go build` reports this development version.
var version = "0.1.0-dev"

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
		{"rules", "the project's rules as enforced: list, explain an action, add, approve, remind or disable a check", (*Main).runRules},
		{"regulate", "let the regulator tune one parameter if due (--dry-run: only show)", (*Main).runRegulate},
		{"ui", "the local dashboard in a browser: prints a one-time URL (--addr 127.0.0.1:0, --open)", (*Main).runUI},
		{"stats", "the system's health: lessons, recall, hesitation, contradictions", (*Main).runStats},
		{"prune", "prune traces beyond the retention now and reclaim the space (SQLite)", (*Main).runPrune},
		{"migrate", "copy a SQLite knowledge base into an empty PostgreSQL one, then verify it: --from PATH.db --to postgres://...", (*Main).runMigrate},
		{"eval", "measure quality on a dataset: eval retrieval|appraise|hedging|hesitation|rules|capture|actions|stop", (*Main).runEval},
		{"embed", "print embeddings of texts as JSON", (*Main).runEmbed},
		{"reembed", "re-embed every lesson with the configured embedder", (*Main).runReembed},
		{"setup", "register innate-mcp (and its hooks) with Claude Code, Cursor, Codex, Gemini CLI, VS Code, Windsurf", (*Main).runSetup},
		{"doctor", "what is registered where, the hook server, the hooks' configuration, the rule files found and what became of them, the hooks' last errors", (*Main).runDoctor},
		{"hook", "answer a Claude Code hook event (JSON on stdin): SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Stop", (*Main).runHook},
		{"token", "team server tokens: create (printed once), list, revoke", (*Main).runToken},
		{"hook-server", "serve hook events for the database (the hooks start it; exits when idle)", (*Main).runHookServer},
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
	fmt.Fprintln(w, "Usage: innate-mcp [--db PATH|postgres://...] [command] [flags]")
	fmt.Fprintln(w, "\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-11s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nGlobal flags (also accepted after the command):")
	fmt.Fprintln(w, "  --db PATH|URL      the knowledge base (env INNATE_DB): a SQLite file (default "+defaultDBHint()+"),")
	fmt.Fprintln(w, "                     or a PostgreSQL database shared by a team, postgres://USER:PASSWORD@HOST:5432/DATABASE")
	fmt.Fprintln(w, "                     (or postgresql://; the password may come from PGPASSWORD or ~/.pgpass instead)")
	fmt.Fprintln(w, "  --log-level LEVEL  debug, info, warn or error (env INNATE_LOG_LEVEL; default info)")
	fmt.Fprintln(w, "  --log-file PATH    append logs to a file instead of stderr (env INNATE_LOG_FILE)")
	days, traces := defaultRetention()
	fmt.Fprintf(w, "  --retain-days N    keep traces of tool calls N days, 0: no age limit (env INNATE_RETAIN_DAYS; default %d)\n", days)
	fmt.Fprintf(w, "  --retain-traces N  keep the newest N traces, 0: no count limit (env INNATE_RETAIN_TRACES; default %d)\n", traces)
	fmt.Fprintln(w, "\nPostgreSQL: the schema is created on first use; `innate-mcp migrate --from PATH.db --to postgres://...` copies a")
	fmt.Fprintln(w, "SQLite knowledge base into an empty one and verifies the copy. Trace retention and prune apply to SQLite only.")
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
	fs.StringVar(&g.db, "db", g.db, "the knowledge base: a SQLite file or a postgres:// URL (env INNATE_DB)")
	fs.StringVar(&g.logLevel, "log-level", g.logLevel, "log level: debug, info, warn, error (env INNATE_LOG_LEVEL)")
	fs.StringVar(&g.logFile, "log-file", g.logFile, "append logs to this file instead of stderr (env INNATE_LOG_FILE)")
	days, traces := defaultRetention()
	fs.StringVar(&g.retainDays, "retain-days", g.retainDays,
		fmt.Sprintf("keep traces of tool calls this many days, 0: no age limit (env INNATE_RETAIN_DAYS; default %d)", days))
	fs.StringVar(&g.retainTraces, "retain-traces", g.retainTraces,
		fmt.Sprintf("keep this many traces, the newest, 0: no count limit (env INNATE_RETAIN_TRACES; default %d)", traces))
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

// helpFirst answers `innate-mcp NAME -h` for a command whose first word
// is a subcommand (eval, token): when args start with -h, -help or
// --help, it prints the usage and returns flag.ErrHelp (exit 0), and ok.
func helpFirst(name, usage string, g *globals, stderr io.Writer, args []string) (bool, error) {
	if len(args) == 0 || args[0] != "-h" && args[0] != "-help" && args[0] != "--help" {
		return false, nil
	}
	return true, newFlagSet(name, g, stderr, usage).Parse(args[:1])
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

// writeJSON prints v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
