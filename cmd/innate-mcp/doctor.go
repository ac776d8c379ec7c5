package main

import (
	"context"
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
	"github.com/innate-mcp/innate-mcp/rulesync"
	"github.com/innate-mcp/innate-mcp/setup"
)

// runDoctor says, for a user whose hooks seem silent, what is registered
// where, whether the hook server runs, which hook configuration applies,
// which rule files were found for the project and what became of their
// rules, and the hooks' last errors. It changes nothing.
func (m *Main) runDoctor(ctx context.Context, g *globals, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("doctor", g, stderr, "[--project DIR]")
	projectFlag := fs.String("project", "", "the project to look at (default: the git root of the current directory)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var problems []string
	tw := tabwriter.NewWriter(stdout, 2, 4, 2, ' ', 0)
	p := func(format string, a ...any) { fmt.Fprintf(tw, format, a...) }

	exe, _ := os.Executable()
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	p("innate-mcp doctor\t%s (%s)\n", exe, version)
	project := *projectFlag
	if project == "" {
		project = m.currentProject()
	}
	if project == "" {
		project = "(none: not in a git repository; pass --project DIR)"
	}
	p("project\t%s\n", project)

	// The database.
	a, err := m.open(ctx, g, io.Discard, m.cliSession(), readAccess)
	if err != nil {
		p("database\tcannot be opened: %v\n", err)
		problems = append(problems, "the database cannot be opened: every tool and hook fails (fix the path in --db or INNATE_DB)")
	} else {
		defer a.close()
		n := 0
		a.kb.Lessons(ctx, kb.LessonFilter{States: []kb.State{kb.StateActive}}, func(kb.Lesson) error { n++; return nil })
		p("database\t%s: %d active lessons\n", a.where, n)
	}

	// The clients: a dry run of setup says what is registered.
	p("\nCLIENTS\t(what `innate-mcp setup` would change; nothing changed means registered with this binary)\n")
	problems = append(problems, m.doctorClients(ctx, g, exe, p)...)

	// The hook server.
	if socket, err := m.hookSocket(g); err == nil {
		if c, err := net.DialTimeout("unix", socket, 500*time.Millisecond); err == nil {
			c.Close()
			p("\nHOOK SERVER\trunning (%s)\n", socket)
		} else {
			p("\nHOOK SERVER\tnot running: the next hook answers in its own process and starts one (%s)\n", socket)
		}
	}

	// The hooks' configuration.
	root := ""
	if strings.HasPrefix(project, "/") {
		root = project
	}
	paths := hook.ConfigPaths(m.userConfigDir(), root)
	if cfg, err := hook.LoadConfig(paths...); err != nil {
		p("HOOK CONFIG\terror: %v\n", err)
		problems = append(problems, "the hooks' configuration has an error: every hook answers nothing until it is fixed")
	} else {
		var found []string
		for _, c := range paths {
			if _, err := os.Stat(c); err == nil {
				found = append(found, c)
			}
		}
		where := "defaults (no hooks.json)"
		if len(found) > 0 {
			where = strings.Join(found, ", ")
		}
		off := []string{}
		for name, on := range map[string]bool{"session_start": cfg.SessionStart.Enabled, "user_prompt_submit": cfg.UserPromptSubmit.Enabled,
			"pre_tool_use": cfg.PreToolUse.Enabled, "post_tool_use": cfg.PostToolUse.Enabled, "stop": cfg.Stop.Enabled, "rule_sync": cfg.RuleSync.Enabled} {
			if !on {
				off = append(off, name)
			}
		}
		state := "every hook on"
		if len(off) > 0 {
			slices.Sort(off)
			state = "off: " + strings.Join(off, ", ")
		}
		p("HOOK CONFIG\t%s; %s\n", where, state)
	}

	// The project's rule files.
	if a != nil && root != "" {
		problems = append(problems, m.doctorRules(ctx, a, root, p)...)
	}

	// The hooks' last errors.
	if log, err := m.hookErrorLog(); err == nil {
		lines := lastLines(log, 10)
		if len(lines) == 0 {
			p("\nHOOK ERRORS\tnone (%s)\n", log)
		} else {
			p("\nHOOK ERRORS\tthe last %d (%s):\n", len(lines), log)
			for _, l := range lines {
				p("  %s\n", l)
			}
		}
	}
	if len(problems) == 0 {
		p("\nOK\tnothing to fix\n")
	} else {
		p("\nTO FIX\n")
		for _, pr := range problems {
			p("  - %s\n", pr)
		}
	}
	return tw.Flush()
}

// doctorClients prints, client by client, what setup would change, and
// returns the problems: a client found but not set up.
func (m *Main) doctorClients(ctx context.Context, g *globals, exe string, p func(string, ...any)) []string {
	home := m.Getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	o := setup.Options{Hooks: true, DryRun: true, Binary: exe}
	if dir, err := dataDir(m.Getenv); err == nil {
		o.StateFile = filepath.Join(dir, "innate-mcp", "setup.json")
		if inNpxCache(exe) {
			o.Binary = filepath.Join(dir, "innate-mcp", "bin", filepath.Base(exe))
		}
	}
	if db := firstNonEmpty(g.db, m.Getenv("INNATE_DB")); db != "" {
		o.DB = db
		if !isPostgres(db) {
			o.DB, _ = filepath.Abs(db)
		}
	}
	rep, err := setup.Run(ctx, &setup.Env{Home: home, GOOS: runtime.GOOS, Getenv: m.Getenv, LookPath: exec.LookPath}, o)
	if err != nil {
		p("  %v\n", err)
		if strings.Contains(err.Error(), "no supported client") {
			return []string{"no agent client found: install one, or name it: innate-mcp setup claude-code"}
		}
		return []string{"setup cannot read a client's file: " + err.Error()}
	}
	var problems []string
	for _, c := range rep.Changes {
		state := "registered with this binary"
		switch c.Action {
		case "added":
			state = "not registered"
			problems = append(problems, fmt.Sprintf("%s: %s not registered: innate-mcp setup %s", c.Client, c.What, c.Client))
		case "updated":
			state = "registered, but not as setup would now (another binary or options)"
			problems = append(problems, fmt.Sprintf("%s: %s differs from this binary's: innate-mcp setup %s", c.Client, c.What, c.Client))
		}
		p("  %s\t%s\t%s\t%s\n", c.Client, c.File, c.What, state)
	}
	for _, s := range rep.Skipped {
		p("  %s\tnot installed\n", s)
	}
	return problems
}

// doctorRules prints the project's rule files as last synced and what
// became of their rules, and returns the problems.
func (m *Main) doctorRules(ctx context.Context, a *app, root string, p func(string, ...any)) []string {
	states, err := rulesync.States(ctx, a.store)
	if err != nil {
		p("\nRULE FILES\tcannot be read: %v\n", err)
		return nil
	}
	p("\nRULE FILES\tof %s, as last synced\n", root)
	n := 0
	for _, st := range states {
		if st.Project != root && st.Project != "" {
			continue
		}
		for _, f := range st.Files {
			n++
			p("  %s\t%d rules\tsynced %s\n", f.Path, f.Rules, f.SyncedAt.Local().Format(time.DateTime))
		}
	}
	if n == 0 {
		p("  none yet: the first tool call or hook in the project reads them (CLAUDE.md, AGENTS.md, .cursorrules, .cursor/rules/*.mdc, …)\n")
		return nil
	}
	rows, err := ruleRows(ctx, a.kb, root)
	if err != nil {
		return nil
	}
	counts := map[string]int{}
	for _, r := range rows {
		counts[r.Status]++
	}
	p("  rules\t%d: %d compiled, %d remind-only, %d with no check, %d not rules (innate-mcp rules lists them)\n",
		len(rows), counts[statusCompiled], counts[statusRemindOnly], counts[statusNoCheck], counts[statusNotARule])
	return nil
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}
