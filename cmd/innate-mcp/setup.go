package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/innate-mcp/innate-mcp/internal/atomicfile"
	"github.com/innate-mcp/innate-mcp/mcpserver"
	"github.com/innate-mcp/innate-mcp/setup"
)

// runSetup registers the server, and the hooks where the client has them,
// with the clients named (or every one found installed).
func (m *Main) runSetup(ctx context.Context, g *globals, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("setup", g, stderr, "[claude-code|cursor|codex|gemini|vscode|windsurf|all ...] [--scope user|project] [--no-hooks] [--hook-transport auto|command|mcp] [--dry-run] [--uninstall] [--json]")
	scope := fs.String("scope", "user", "user (every project) or project (files in this project, which a team may commit)")
	noHooks := fs.Bool("no-hooks", false, "register the server only, without Claude Code's hooks")
	hooks := fs.Bool("hooks", true, "install Claude Code's hooks (the default)")
	transport := fs.String("hook-transport", "auto", "how Claude Code's hooks reach innate-mcp: mcp (a call over the session's MCP connection, no process; Claude Code 2.1.118+), command (a process per event), or auto (mcp when the claude on PATH has it)")
	dryRun := fs.Bool("dry-run", false, "change nothing: print the diff of every file setup would change")
	uninstall := fs.Bool("uninstall", false, "remove what setup added (the original bytes when nothing else changed a file since)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	clients, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find this program's path: %w", err)
	}
	if resolved, err := filepath.EvalSymlinks(exe); err == nil {
		exe = resolved
	}
	home, err := os.UserHomeDir()
	if d := m.Getenv("HOME"); d != "" {
		home, err = d, nil
	}
	if err != nil {
		return fmt.Errorf("find the home directory: %w", err)
	}
	cwd, err := m.Getwd()
	if err != nil {
		return fmt.Errorf("find the working directory: %w", err)
	}
	project := mcpserver.GitRoot(cwd)
	if project == "" {
		project = cwd
	}
	o := setup.Options{
		Clients: clients, Scope: setup.Scope(*scope), Hooks: *hooks && !*noHooks,
		DryRun: *dryRun, Uninstall: *uninstall, Binary: exe, HookTransport: setup.HookTransport(*transport),
	}
	db := g.db
	if db == "" {
		db = m.Getenv("INNATE_DB")
	}
	if isPostgres(db) {
		o.DB = db // a URL, not a path to make absolute
	} else if db != "" {
		if o.DB, err = filepath.Abs(db); err != nil {
			return err
		}
	}
	dir, err := dataDir(m.Getenv)
	if err != nil {
		return err
	}
	o.StateFile = filepath.Join(dir, "innate-mcp", "setup.json")
	if inNpxCache(exe) && !*uninstall {
		// npx runs the binary from its cache, which npm may clear or move:
		// the clients would lose the server. Register a copy of it in the
		// data directory instead (refreshed by every setup run this way).
		stable := filepath.Join(dir, "innate-mcp", "bin", filepath.Base(exe))
		if !*dryRun {
			if err := copyExecutable(exe, stable); err != nil {
				return fmt.Errorf("keep a copy of the binary npx ran (its cache is temporary): %w", err)
			}
		}
		fmt.Fprintf(stderr, "innate-mcp setup: npx runs the binary from its cache, which npm may clear: the clients are given a copy at %s (run `npx -y innate-mcp setup` again to update it)\n", stable)
		o.Binary = stable
	}
	env := &setup.Env{Home: home, Project: project, GOOS: runtime.GOOS, Getenv: m.Getenv, LookPath: exec.LookPath}
	rep, err := setup.Run(ctx, env, o)
	if *asJSON {
		if werr := writeJSON(stdout, rep); err == nil {
			err = werr
		}
	} else {
		rep.Print(stdout)
	}
	if err != nil {
		return err
	}
	if !*dryRun && !*uninstall && *scope == string(setup.ScopeProject) {
		m.syncProjectRules(ctx, g, project, stdout, stderr, !*asJSON)
	}
	if !*dryRun && !*uninstall && rep.Changed() && !*asJSON {
		fmt.Fprintln(stdout, "Done: start a new session of the client. `innate-mcp setup --dry-run` shows what is set; `--uninstall` removes it.")
	}
	return nil
}

// parseInterspersed parses flags that may come before, between or after
// the positional arguments (`setup claude-code --scope project`), and
// returns the positional ones.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// syncProjectRules imports the project's agent rule files into the
// knowledge base now, as the server would on its first call naming the
// project; a failure is reported on stderr and does not fail setup.
func (m *Main) syncProjectRules(ctx context.Context, g *globals, project string, stdout, stderr io.Writer, say bool) {
	a, err := m.open(ctx, g, stderr, "", logAccess)
	if err != nil {
		fmt.Fprintf(stderr, "setup: rule files not synced: %v\n", err)
		return
	}
	defer a.close()
	s := m.ruleSyncer(a, nil)
	if s == nil {
		return
	}
	rep, err := s.Sync(ctx, project)
	if err != nil {
		fmt.Fprintf(stderr, "setup: rule files not synced (the server syncs them on its first call): %v\n", err)
		return
	}
	if !say {
		return
	}
	for _, f := range rep.Imported {
		fmt.Fprintf(stdout, "rule file %s: %d rules, %d added, %d changed, %d removed\n", f.Path, f.Rules, f.Added, f.Changed, f.Removed)
	}
	for _, r := range rep.Refused {
		fmt.Fprintf(stdout, "rule file %s: refused: %s\n", r.Path, r.Reason)
	}
}

// inNpxCache reports whether a binary runs from npx's package cache
// (~/.npm/_npx/…), which npm may clear at any time.
func inNpxCache(exe string) bool {
	for _, part := range strings.Split(filepath.ToSlash(exe), "/") {
		if part == "_npx" {
			return true
		}
	}
	return false
}

// copyExecutable copies the binary src to dst, whole or not at all,
// executable by its owner and readable by all (as an installed program).
func copyExecutable(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(dst, 0o755, func(w io.Writer) error {
		_, err := io.Copy(w, in)
		return err
	})
}
