package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/innate-mcp/innate-mcp/hook"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/pgstore"
	"github.com/innate-mcp/innate-mcp/rulesync"
	"github.com/innate-mcp/innate-mcp/setup"
	"github.com/innate-mcp/innate-mcp/storage"
)

// errDoctor is returned when doctor found something broken: exit 1.
var errDoctor = errors.New("doctor found something to fix")

// doctorReport is what doctor finds; --json prints it.
type doctorReport struct {
	Binary   string         `json:"binary"`
	Version  string         `json:"version"`
	Project  string         `json:"project"`
	Database doctorDB       `json:"database"`
	Embedder string         `json:"embedder,omitempty"`
	Clients  []doctorClient `json:"clients"`
	NotFound []string       `json:"clients_not_installed,omitempty"`
	// HookTransport is how Claude Code's hooks installed in the user's
	// settings reach innate-mcp: mcp, command, or auto (none found).
	HookTransport setup.HookTransport `json:"hook_transport"`
	HookServer    doctorServer        `json:"hook_server"`
	HookConfig    doctorConfig        `json:"hook_config"`
	RuleFiles     []doctorFile        `json:"rule_files"`
	Rules         map[string]int      `json:"rules,omitempty"`
	HookErrors    []string            `json:"hook_errors"`
	Problems      []doctorIssue       `json:"problems"`
}

type doctorDB struct {
	Where         string `json:"where"`
	Kind          string `json:"kind"` // sqlite, postgres
	SizeBytes     int64  `json:"size_bytes,omitempty"`
	SchemaVersion int    `json:"schema_version,omitempty"`
	ActiveLessons int    `json:"active_lessons"`
	Error         string `json:"error,omitempty"`
}

type doctorClient struct {
	Client string `json:"client"`
	File   string `json:"file"`
	What   string `json:"what"`
	State  string `json:"state"` // registered, not registered, differs
}

type doctorServer struct {
	Socket  string `json:"socket"`
	Running bool   `json:"running"`
	// Stale: a socket file no server answers on (a server that died).
	Stale bool `json:"stale,omitempty"`
	// IdleSeconds is how long ago it answered its last request (the
	// socket's time); it exits after IdleTimeout without one.
	IdleSeconds int `json:"idle_seconds,omitempty"`
	// Others counts the sockets of other builds (older binaries).
	Others int `json:"other_builds,omitempty"`
}

type doctorConfig struct {
	Files []string `json:"files"`
	Off   []string `json:"off,omitempty"`
	Error string   `json:"error,omitempty"`
}

type doctorFile struct {
	Path     string    `json:"path"`
	Rules    int       `json:"rules"`
	SyncedAt time.Time `json:"synced_at,omitzero"`
	Error    string    `json:"error,omitempty"`
}

type doctorIssue struct {
	Problem string `json:"problem"`
	Fix     string `json:"fix"`
}

// runDoctor says, for a user whose hooks seem silent, what is registered
// where, whether the hook server runs, which hook configuration applies,
// which rule files were found for the project and what became of their
// rules, and the hooks' last errors; every problem with the command that
// fixes it. It brings the project's rule files in first, as any call
// does, and changes nothing else. It exits 1 when something is broken.
func (m *Main) runDoctor(ctx context.Context, g *globals, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("doctor", g, stderr, "[--project DIR] [--json]")
	projectFlag := fs.String("project", "", "the project to look at (default: the git root of the current directory)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	if err := fs.Parse(args); err != nil {
		return err
	}
	r := doctorReport{Version: version, HookErrors: []string{}, Problems: []doctorIssue{}, RuleFiles: []doctorFile{}}
	r.Binary, _ = os.Executable()
	if p, err := filepath.EvalSymlinks(r.Binary); err == nil {
		r.Binary = p
	}
	r.Project = *projectFlag
	if r.Project == "" {
		r.Project = m.currentProject()
	}
	problem := func(p, fix string) { r.Problems = append(r.Problems, doctorIssue{p, fix}) }

	a, err := m.open(ctx, g, io.Discard, m.cliSession(), logAccess)
	if err != nil {
		r.Database.Error = err.Error()
		problem("the database cannot be opened: every tool and hook fails", "fix the path given by --db or INNATE_DB, or its permissions")
	} else {
		defer a.close()
		m.doctorDatabase(ctx, a, &r)
	}
	m.doctorClients(ctx, g, &r, problem)
	m.doctorServer(g, &r, problem)
	m.doctorConfig(&r, problem)
	if a != nil && filepath.IsAbs(r.Project) {
		m.doctorRules(ctx, a, &r, problem)
	}
	if log, err := m.hookErrorLog(); err == nil {
		r.HookErrors = append(r.HookErrors, lastLines(log, 10)...)
	}
	if *asJSON {
		if err := writeJSON(stdout, r); err != nil {
			return err
		}
	} else if err := printDoctor(stdout, r); err != nil {
		return err
	}
	if len(r.Problems) > 0 {
		return errDoctor
	}
	return nil
}

func (m *Main) doctorDatabase(ctx context.Context, a *app, r *doctorReport) {
	r.Database.Where = a.where
	r.Database.Kind = "postgres"
	r.Database.SchemaVersion = pgstore.SchemaVersion()
	if a.file != "" {
		r.Database.Kind = "sqlite"
		r.Database.SchemaVersion = storage.SchemaVersion()
		if fi, err := os.Stat(a.file); err == nil {
			r.Database.SizeBytes = fi.Size()
		}
	}
	a.kb.Lessons(ctx, kb.LessonFilter{States: []kb.State{kb.StateActive}}, func(kb.Lesson) error { r.Database.ActiveLessons++; return nil })
	if a.emb != nil {
		r.Embedder = a.emb.Name()
	}
}

// doctorClients reads what setup's dry run would change: a client found
// but not set up, or set up with another binary, is a problem; so are
// Claude Code's hooks or server when they point at a binary that is gone.
func (m *Main) doctorClients(ctx context.Context, g *globals, r *doctorReport, problem func(string, string)) {
	home := m.Getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	// Hooks are compared by the transport they use: either works.
	transport := setup.InstalledHookTransport(filepath.Join(home, ".claude", "settings.json"))
	r.HookTransport = transport
	o := setup.Options{Hooks: true, DryRun: true, Binary: r.Binary, HookTransport: transport}
	if dir, err := dataDir(m.Getenv); err == nil {
		o.StateFile = filepath.Join(dir, "innate-mcp", "setup.json")
		if inNpxCache(r.Binary) {
			o.Binary = filepath.Join(dir, "innate-mcp", "bin", filepath.Base(r.Binary))
		}
	}
	if db := cmp.Or(g.db, m.Getenv("INNATE_DB")); db != "" {
		o.DB = db
		if !isPostgres(db) {
			o.DB, _ = filepath.Abs(db)
		}
	}
	rep, err := setup.Run(ctx, &setup.Env{Home: home, GOOS: runtime.GOOS, Getenv: m.Getenv, LookPath: exec.LookPath}, o)
	if err != nil {
		if strings.Contains(err.Error(), "no supported client") {
			problem("no agent client found for this user", "install one, or name it: innate-mcp setup claude-code")
		} else {
			problem("setup cannot read a client's file: "+err.Error(), "fix or move the file, then run innate-mcp setup")
		}
		return
	}
	r.NotFound = rep.Skipped
	for _, c := range rep.Changes {
		state := "registered"
		switch c.Action {
		case "added":
			state = "not registered"
			problem(fmt.Sprintf("%s: %s is not registered in %s", c.Client, c.What, c.File), "innate-mcp setup "+c.Client)
		case "updated":
			state = "differs"
			problem(fmt.Sprintf("%s: %s in %s is not this binary's (another binary or options)", c.Client, c.What, c.File), "innate-mcp setup "+c.Client)
		}
		r.Clients = append(r.Clients, doctorClient{c.Client, c.File, c.What, state})
	}
	for _, f := range []string{filepath.Join(home, ".claude", "settings.json"), filepath.Join(home, ".claude.json")} {
		for _, bin := range innateCommands(f) {
			if _, err := os.Stat(bin); err != nil {
				problem(fmt.Sprintf("%s runs %s, which is gone (moved or deleted): Claude Code's hooks or server fail", f, bin), "innate-mcp setup claude-code")
			}
		}
	}
}

// innateCommands returns the programs of the commands in a client's JSON
// file that run innate-mcp (a hook "BIN hook EVENT", a server "BIN serve").
func innateCommands(path string) []string {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var v any
	if json.Unmarshal(b, &v) != nil {
		return nil
	}
	var out []string
	var walk func(any, string)
	walk = func(x any, key string) {
		switch t := x.(type) {
		case map[string]any:
			for k, y := range t {
				walk(y, k)
			}
		case []any:
			for _, y := range t {
				walk(y, key)
			}
		case string:
			if key != "command" || !strings.Contains(t, "innate-mcp") {
				return
			}
			f := strings.Fields(t)
			if len(f) > 0 && filepath.IsAbs(strings.Trim(f[0], `"'`)) && !slices.Contains(out, strings.Trim(f[0], `"'`)) {
				out = append(out, strings.Trim(f[0], `"'`))
			}
		}
	}
	walk(v, "")
	return out
}

// doctorServer finds the hook server of this binary and database: running,
// absent, or a stale socket no server answers on.
func (m *Main) doctorServer(g *globals, r *doctorReport, problem func(string, string)) {
	socket, err := m.hookSocket(g)
	if err != nil {
		return
	}
	r.HookServer.Socket = socket
	if c, err := net.DialTimeout("unix", socket, 500*time.Millisecond); err == nil {
		c.Close()
		r.HookServer.Running = true
		if fi, err := os.Stat(socket); err == nil {
			r.HookServer.IdleSeconds = int(time.Since(fi.ModTime()).Seconds())
		}
	} else if _, err := os.Stat(socket); err == nil {
		r.HookServer.Stale = true
		problem("a stale hook-server socket "+socket+" (its server died)", "rm "+socket+" (the next hook starts a new server)")
	}
	if others, _ := filepath.Glob(filepath.Join(filepath.Dir(socket), "hook-*.sock")); len(others) > 0 {
		for _, o := range others {
			if o != socket {
				r.HookServer.Others++
			}
		}
	}
}

func (m *Main) doctorConfig(r *doctorReport, problem func(string, string)) {
	root := ""
	if filepath.IsAbs(r.Project) {
		root = r.Project
	}
	paths := hook.ConfigPaths(m.userConfigDir(), root)
	r.HookConfig.Files = []string{}
	for _, p := range paths {
		if _, err := os.Stat(p); err == nil {
			r.HookConfig.Files = append(r.HookConfig.Files, p)
		}
	}
	cfg, err := hook.LoadConfig(paths...)
	if err != nil {
		r.HookConfig.Error = err.Error()
		problem("the hooks' configuration does not load: every hook answers nothing", "fix the file and field the error names: "+err.Error())
		return
	}
	for name, on := range map[string]bool{"session_start": cfg.SessionStart.Enabled, "user_prompt_submit": cfg.UserPromptSubmit.Enabled,
		"pre_tool_use": cfg.PreToolUse.Enabled, "post_tool_use": cfg.PostToolUse.Enabled, "stop": cfg.Stop.Enabled, "rule_sync": cfg.RuleSync.Enabled} {
		if !on {
			r.HookConfig.Off = append(r.HookConfig.Off, name)
		}
	}
	slices.Sort(r.HookConfig.Off)
}

// doctorRules brings the project's rule files in (as any call does) and
// reports each, a file it could not read with its reason, and what the
// rules became.
func (m *Main) doctorRules(ctx context.Context, a *app, r *doctorReport, problem func(string, string)) {
	if s := m.ruleSyncer(a, nil); s != nil && !a.kb.ReadOnly() {
		rep, err := s.Sync(ctx, r.Project)
		if err != nil {
			problem("the project's rule files could not be synced: "+err.Error(), "innate-mcp doctor --project "+r.Project+" again once the error is fixed")
		}
		for _, ref := range rep.Refused {
			r.RuleFiles = append(r.RuleFiles, doctorFile{Path: ref.Path, Error: ref.Reason})
			problem(fmt.Sprintf("the rule file %s is not read: %s", ref.Path, ref.Reason), "make it readable (chmod u+r "+ref.Path+") or move it away")
		}
	}
	states, err := rulesync.States(ctx, a.store)
	if err != nil {
		return
	}
	for _, st := range states {
		if st.Project != r.Project {
			continue
		}
		for _, f := range st.Files {
			r.RuleFiles = append(r.RuleFiles, doctorFile{Path: f.Path, Rules: f.Rules, SyncedAt: f.SyncedAt})
		}
	}
	rows, err := ruleRows(ctx, a.kb, r.Project)
	if err != nil {
		return
	}
	r.Rules = map[string]int{}
	for _, row := range rows {
		r.Rules[row.Status]++
	}
}

// printDoctor prints the report for people.
func printDoctor(w io.Writer, r doctorReport) error {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	p := func(format string, a ...any) { fmt.Fprintf(tw, format, a...) }
	p("innate-mcp doctor\t%s (%s)\n", r.Binary, r.Version)
	p("project\t%s\n", cmp.Or(r.Project, "(none: not in a git repository; pass --project DIR)"))
	if d := r.Database; d.Error != "" {
		p("database\tcannot be opened: %s\n", d.Error)
	} else {
		p("database\t%s (%s, schema %d, %d bytes): %d active lessons\n", d.Where, d.Kind, d.SchemaVersion, d.SizeBytes, d.ActiveLessons)
	}
	if r.Embedder != "" {
		p("embedder\t%s\n", r.Embedder)
	}
	p("\nCLIENTS\t(what `innate-mcp setup` would change)\n")
	for _, c := range r.Clients {
		p("  %s\t%s\t%s\t%s\n", c.Client, c.File, c.What, c.State)
	}
	for _, c := range r.NotFound {
		p("  %s\tnot installed\n", c)
	}
	switch r.HookTransport {
	case setup.HookMCP:
		p("  hooks	Claude Code: PreToolUse, PostToolUse and Stop over the session's MCP connection; SessionStart and UserPromptSubmit as commands\n")
	case setup.HookCommand:
		p("  hooks	Claude Code: every event as a command (innate-mcp setup --hook-transport mcp: no process per event, Claude Code 2.1.118+)\n")
	}
	s := r.HookServer
	switch {
	case s.Running:
		p("\nHOOK SERVER\trunning, last request %s ago, exits after %s without one (%s)\n",
			time.Duration(s.IdleSeconds)*time.Second, hook.IdleTimeout, s.Socket)
	case s.Stale:
		p("\nHOOK SERVER\tstale socket, no server answers (%s)\n", s.Socket)
	default:
		p("\nHOOK SERVER\tnot running: the next hook answers in its own process and starts one (%s)\n", s.Socket)
	}
	if s.Others > 0 {
		p("  other builds\t%d sockets of other binaries (each exits when idle)\n", s.Others)
	}
	c := r.HookConfig
	where := "defaults (no hooks.json)"
	if len(c.Files) > 0 {
		where = strings.Join(c.Files, ", ")
	}
	switch {
	case c.Error != "":
		p("HOOK CONFIG\terror: %s\n", c.Error)
	case len(c.Off) > 0:
		p("HOOK CONFIG\t%s; off: %s\n", where, strings.Join(c.Off, ", "))
	default:
		p("HOOK CONFIG\t%s; every hook on\n", where)
	}
	p("\nRULE FILES\n")
	if len(r.RuleFiles) == 0 {
		p("  none found (CLAUDE.md, AGENTS.md, .cursorrules, .cursor/rules/*.mdc, …)\n")
	}
	for _, f := range r.RuleFiles {
		if f.Error != "" {
			p("  %s\tnot read: %s\n", f.Path, f.Error)
		} else {
			p("  %s\t%d rules\tsynced %s\n", f.Path, f.Rules, f.SyncedAt.Local().Format(time.DateTime))
		}
	}
	if r.Rules != nil {
		n := 0
		for _, v := range r.Rules {
			n += v
		}
		p("  rules\t%d: %d compiled, %d remind-only, %d with no check, %d not rules (innate-mcp rules lists them)\n",
			n, r.Rules[statusCompiled], r.Rules[statusRemindOnly], r.Rules[statusNoCheck], r.Rules[statusNotARule])
	}
	if len(r.HookErrors) == 0 {
		p("\nHOOK ERRORS\tnone\n")
	} else {
		p("\nHOOK ERRORS\tthe last %d:\n", len(r.HookErrors))
		for _, l := range r.HookErrors {
			p("  %s\n", l)
		}
	}
	if len(r.Problems) == 0 {
		p("\nOK\tnothing to fix\n")
	} else {
		p("\nTO FIX\n")
		for _, pr := range r.Problems {
			p("  - %s\n    fix: %s\n", pr.Problem, pr.Fix)
		}
	}
	return tw.Flush()
}
