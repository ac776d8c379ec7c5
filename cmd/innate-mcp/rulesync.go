package main

import (
	"context"
	"os"
	"sync"

	"github.com/innate-mcp/innate-mcp/hook"
	"github.com/innate-mcp/innate-mcp/rulesync"
)

// ruleSyncer returns the sync of the agent rule files into a's knowledge
// base, or nil when INNATE_RULE_SYNC=off. Whether a project's files are
// synced is the rule_sync switch of the hooks' configuration files (the
// user's, then the project's); a file that cannot be read turns the sync
// of that project off, with a log line naming it. bg runs the looks for
// nested rule files apart from the calls, in a process that lives on; nil
// makes them in the call (rulesync.Options.Background).
func (m *Main) ruleSyncer(a *app, bg func(func(context.Context))) *rulesync.Syncer {
	if m.Getenv("INNATE_RULE_SYNC") == "off" {
		return nil
	}
	log := a.log.With("component", "rulesync")
	home := m.Getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	userDir := m.userConfigDir()
	enabled := func(project string) bool {
		cfg, err := hook.LoadConfig(hook.ConfigPaths(userDir, project)...)
		if err != nil {
			log.Warn("rule sync off for this project: fix its configuration file", "project", project, "err", err)
			return false
		}
		return cfg.RuleSync.Enabled
	}
	return rulesync.New(a.kb, a.store, rulesync.Options{Home: home, Enabled: enabled, Log: log, Background: bg})
}

// inBackground runs work apart from the call, with ctx, counted in wg so
// that the process waits for it before it closes the knowledge base.
func inBackground(ctx context.Context, wg *sync.WaitGroup) func(func(context.Context)) {
	return func(f func(context.Context)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(ctx)
		}()
	}
}

// userConfigDir is the user's configuration directory ($XDG_CONFIG_HOME,
// else os.UserConfigDir's), "" when there is none.
func (m *Main) userConfigDir() string {
	if d := m.Getenv("XDG_CONFIG_HOME"); d != "" {
		return d
	}
	d, _ := os.UserConfigDir()
	return d
}

// syncProject brings a project's agent rule files into the knowledge base
// before a command reads it, as the MCP server and the hooks do: the first
// recall, appraise or hesitate in a project sees its CLAUDE.md. Nothing
// happens on a read-only store, without a project, or with the sync off;
// a failure is logged and the command goes on with the lessons held.
func (m *Main) syncProject(ctx context.Context, a *app, project string) {
	if project == "" || a.kb.ReadOnly() {
		return
	}
	if s := m.ruleSyncer(a, nil); s != nil {
		s.Seen(ctx, project)
	}
}
