package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/innate-mcp/innate-mcp/consult"
	"github.com/innate-mcp/innate-mcp/consultant"
	"github.com/innate-mcp/innate-mcp/hook"
	"github.com/innate-mcp/innate-mcp/internal/clip"
	"github.com/innate-mcp/innate-mcp/kb"
)

// consultantTarget is the consultant the user configured.
func (m *Main) consultantTarget(c hook.ConsultantConfig) consultant.Target {
	t := consultant.Target{Command: c.Command, Endpoint: c.Endpoint, API: c.API, Model: c.Model,
		Timeout: time.Duration(c.TimeoutSeconds) * time.Second}
	if c.APIKeyEnv != "" {
		t.APIKey = m.Getenv(c.APIKeyEnv)
	}
	return t
}

// runConsultant asks the configured consultant to compile each file's
// rules, one prompt a file, and stores its answers. A file whose answer
// cannot be read is reported and the others go on.
func (m *Main) runConsultant(ctx context.Context, a *app, o rulesOpts, files []kb.RuleFile, stdout io.Writer) error {
	cfg, err := hook.LoadConfig(hook.ConfigPaths(m.userConfigDir(), o.project)...)
	if err != nil {
		return fmt.Errorf("hook configuration: %w", err)
	}
	if !cfg.Consultant.Configured() {
		return fmt.Errorf("%w: no consultant is configured: set consultant.command (e.g. [\"claude\", \"-p\"]) or consultant.endpoint in %s (docs/consultant.md), or answer the prompt of --print-prompt yourself and --apply it",
			errUsage, hook.ConfigPaths(m.userConfigDir(), "")[0])
	}
	if len(files) == 0 {
		fmt.Fprintf(stdout, "nothing to compile in %s\n", o.project)
		return nil
	}
	o.compile.active = o.compile.active || cfg.Consultant.Checks == "active"
	t := m.consultantTarget(cfg.Consultant)
	failed := 0
	for _, f := range files {
		prompt := consult.Prompt(f.File, f.Rules)
		reply, err := t.Ask(ctx, prompt)
		if err != nil {
			failed++
			fmt.Fprintf(stdout, "%s: %v\n", f.File, err)
			continue
		}
		text := reply.Text
		if ans, err := consult.Parse([]byte(text)); err == nil && ans.Model == "" && reply.Model != "" {
			ans.Model = reply.Model
		}
		res, err := applyAnswer(ctx, a, o, []byte(text), m.recordedCommands())
		if err != nil {
			failed++
			fmt.Fprintf(stdout, "%s: the answer was not stored: %v\n", f.File, err)
			continue
		}
		res.PromptTokens = clip.Tokens(prompt)
		fmt.Fprintf(stdout, "%s (%d rules):\n", f.File, len(f.Rules))
		if err := printCompileResult(stdout, o.json, res); err != nil {
			return err
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d rule files were not compiled", failed, len(files))
	}
	return nil
}

// Keys of the settings the SessionStart wiring keeps per project.
const (
	consultRunningKey = "consult-running|" // when a background compile started
	consultInvitedKey = "consult-invited|" // which rules an invitation named
	// consultRunGap is how long a started background compile keeps
	// another from starting.
	consultRunGap = 15 * time.Minute
)

// consultOnSessionStart is what SessionStart adds about the project's rules
// that have no compile: with a consultant configured, it starts `rules
// compile --run` in the background and adds nothing; otherwise it invites
// the agent to call compile_rules, once for each change of the rules to
// compile. It never blocks and fails open.
func (m *Main) consultOnSessionStart(a *app, cfg hook.ConsultantConfig) func(ctx context.Context, project string) string {
	return func(ctx context.Context, project string) string {
		if project == "" || (!cfg.Invite && !cfg.Configured()) {
			return ""
		}
		files, err := a.kb.RulesToCompile(ctx, project, false)
		if err != nil || len(files) == 0 {
			return ""
		}
		h := sha256.New()
		for _, f := range files {
			for _, r := range f.Rules {
				h.Write([]byte(r.ID))
			}
		}
		sum := hex.EncodeToString(h.Sum(nil)[:8])
		if cfg.Configured() {
			m.startBackgroundCompile(ctx, a, project)
			return ""
		}
		if v, ok, err := a.store.Meta(ctx, consultInvitedKey+project); err != nil || ok && v == sum {
			return ""
		}
		// The files whose compile fits the budget, the answer taken to cost
		// about what the prompt does.
		var names []string
		n, cost := 0, 0
		for _, f := range files {
			c := 2 * clip.Tokens(consult.Prompt(f.File, f.Rules))
			if cost+c > cfg.BudgetTokens && len(names) > 0 {
				break
			}
			names = append(names, ruleFileName(f.File))
			n += len(f.Rules)
			cost += c
		}
		if err := a.store.SetMeta(ctx, consultInvitedKey+project, sum); err != nil {
			return ""
		}
		return fmt.Sprintf("innate-mcp: %d rules of %s have no checks yet. When you have a moment, call the tool compile_rules "+
			"(no arguments) and answer the prompt it returns, one file at a time: about %d tokens in all, prompts and answers. "+
			"It lets the hooks enforce these rules without a model. (The user can switch this off: consultant.invite false in hooks.json.)\n",
			n, clip.Series(names, "and"), cost)
	}
}

// ruleFileName is how the invite names a file of rules: its path, or for
// the rules captured from the user's messages (whose source is a record:
// kind, not a file), what they are.
func ruleFileName(file string) string {
	if strings.HasPrefix(file, "record:") {
		return "the user's messages"
	}
	return file
}

// startBackgroundCompile starts `innate-mcp rules compile --run` for the
// project, detached, unless one started within consultRunGap.
func (m *Main) startBackgroundCompile(ctx context.Context, a *app, project string) {
	now := time.Now().UTC()
	if v, ok, err := a.store.Meta(ctx, consultRunningKey+project); err != nil {
		return
	} else if ok {
		if t, err := time.Parse(time.RFC3339, v); err == nil && now.Sub(t) < consultRunGap {
			return
		}
	}
	if err := a.store.SetMeta(ctx, consultRunningKey+project, now.Format(time.RFC3339)); err != nil {
		return
	}
	self, err := os.Executable()
	if err != nil {
		a.log.Warn("start the consultant", "err", err)
		return
	}
	args := []string{"rules", "compile", "--run", "--project", project}
	if a.file != "" {
		// The database this hook opened; PostgreSQL's URL is in the
		// environment (INNATE_DB), never on a command line.
		args = append([]string{"--db", a.file}, args...)
	}
	logDir, err := m.hookDir("log")
	if err != nil {
		a.log.Warn("start the consultant", "err", err)
		return
	}
	logf, err := os.OpenFile(filepath.Join(logDir, "consultant.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		a.log.Warn("start the consultant", "err", err)
		return
	}
	defer logf.Close()
	cmd := exec.Command(self, args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.Dir = logDir
	detach(cmd)
	if err := cmd.Start(); err != nil {
		a.log.Warn("start the consultant", "err", err)
		return
	}
	a.log.Info("consultant started in the background", "project", project, "pid", cmd.Process.Pid)
	go cmd.Wait() //nolint:errcheck // reaped; its outcome is in its own log
}
