package main

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/innate-mcp/innate-mcp/hook"
)

// doctorHome is a temporary user with Claude Code installed and a project
// with a CLAUDE.md, set up with this binary.
func doctorHome(t *testing.T) (env map[string]string, repo string) {
	t.Helper()
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o700); err != nil {
		t.Fatal(err)
	}
	repo = filepath.Join(home, "shop")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "CLAUDE.md"), []byte("# Shop\n\n- Use pnpm, not npm or yarn.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env = testEnv(t)
	env["HOME"] = home
	env["XDG_DATA_HOME"] = filepath.Join(home, "data")
	env["XDG_CONFIG_HOME"] = filepath.Join(home, "config")
	env["XDG_RUNTIME_DIR"] = filepath.Join(home, "run")
	env["INNATE_PROJECT"] = repo
	if _, _, err := runIO(t, env, "", "setup", "claude-code"); err != nil {
		t.Fatal(err)
	}
	return env, repo
}

// TestDoctor: all good exits 0; a hook pointing at a moved binary, a
// stale hook server, an unreadable rule file, a broken configuration and
// the hooks' errors are each reported with the command that fixes it, and
// exit 1.
func TestDoctor(t *testing.T) {
	for _, c := range []struct {
		name   string
		break_ func(t *testing.T, env map[string]string, repo string)
		want   []string
	}{
		{"all good", nil, []string{"registered", "CLAUDE.md", "1: 1 compiled", "nothing to fix"}},
		{"a hook pointing at a moved binary", func(t *testing.T, env map[string]string, repo string) {
			p := filepath.Join(env["HOME"], ".claude", "settings.json")
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			exe, _ := os.Executable()
			exe, _ = filepath.EvalSymlinks(exe)
			if err := os.WriteFile(p, []byte(strings.ReplaceAll(string(b), exe, "/gone/innate-mcp")), 0o600); err != nil {
				t.Fatal(err)
			}
		}, []string{"runs /gone/innate-mcp, which is gone", "fix: innate-mcp setup claude-code"}},
		{"hooks over MCP", func(t *testing.T, env map[string]string, repo string) {
			if _, _, err := runIO(t, env, "", "setup", "claude-code", "--hook-transport", "mcp"); err != nil {
				t.Fatal(err)
			}
		}, []string{"hooks        Claude Code: PreToolUse, PostToolUse and Stop over the session's MCP connection", "nothing to fix"}},
		{"a stale hook server", func(t *testing.T, env map[string]string, repo string) {
			m := &Main{Getenv: func(k string) string { return env[k] }}
			socket, err := m.hookSocket(&globals{})
			if err != nil {
				t.Fatal(err)
			}
			os.MkdirAll(filepath.Dir(socket), 0o700)
			l, err := net.Listen("unix", socket)
			if err != nil {
				t.Fatal(err)
			}
			l.(*net.UnixListener).SetUnlinkOnClose(false)
			l.Close()
		}, []string{"stale hook-server socket", "fix: rm "}},
		{"a running hook server", func(t *testing.T, env map[string]string, repo string) {
			m := &Main{Getenv: func(k string) string { return env[k] }}
			socket, err := m.hookSocket(&globals{})
			if err != nil {
				t.Fatal(err)
			}
			os.MkdirAll(filepath.Dir(socket), 0o700)
			ln, err := net.Listen("unix", socket)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			t.Cleanup(cancel)
			srv := &hook.Server{Handler: func(hook.Input) (*hook.Handler, error) { return &hook.Handler{}, nil }}
			go srv.Serve(ctx, ln)
			if _, err := hook.Ask(ctx, socket, hook.Input{Event: hook.PostToolUse}); err != nil {
				t.Fatal(err)
			}
		}, []string{"HOOK SERVER  running, last request", "nothing to fix"}},
		{"an unreadable rule file", func(t *testing.T, env map[string]string, repo string) {
			if err := os.Symlink(filepath.Join(repo, "missing.md"), filepath.Join(repo, "AGENTS.md")); err != nil {
				t.Fatal(err)
			}
		}, []string{"AGENTS.md is not read", "fix: make it readable"}},
		{"a broken configuration", func(t *testing.T, env map[string]string, repo string) {
			dir := filepath.Join(env["XDG_CONFIG_HOME"], "innate-mcp")
			os.MkdirAll(dir, 0o700)
			os.WriteFile(filepath.Join(dir, "hooks.json"), []byte(`{"pre_tool_use": {"bash_decision": "maybe"}}`), 0o600)
		}, []string{"HOOK CONFIG  error", "bash_decision", "every hook answers nothing"}},
		{"the hooks' errors", func(t *testing.T, env map[string]string, repo string) {
			m := &Main{Getenv: func(k string) string { return env[k] }}
			m.noteHookError("PreToolUse", errors.New("open the database: disk I/O error"))
		}, []string{"PreToolUse open the database: disk I/O error"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			env, repo := doctorHome(t)
			if c.break_ != nil {
				c.break_(t, env, repo)
			}
			out, _, err := runIO(t, env, "", "doctor", "--project", repo)
			broken := c.break_ != nil && c.name != "the hooks' errors" && c.name != "a running hook server" && c.name != "hooks over MCP"
			if (err != nil) != broken {
				t.Errorf("err = %v, want broken %v", err, broken)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("lacks %q:\n%s", w, out)
				}
			}
			js, _, _ := runIO(t, env, "", "doctor", "--project", repo, "--json")
			var r doctorReport
			if err := json.Unmarshal([]byte(js), &r); err != nil || r.Version == "" || r.Database.Kind != "sqlite" || r.Embedder == "" {
				t.Errorf("--json: %v: %s", err, js)
			}
			if broken && len(r.Problems) == 0 {
				t.Errorf("--json lists no problem: %s", js)
			}
		})
	}
}
