package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDoctor_saysWhatIsWrong: doctor reports a client found but not set
// up, the rule files read and what their rules became, a broken hooks
// configuration and the hooks' last errors, and after setup the client as
// registered with this binary.
func TestDoctor_saysWhatIsWrong(t *testing.T) {
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o700); err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join(home, "shop")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "CLAUDE.md"), []byte("# Shop\n\n- Use pnpm, not npm or yarn.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := testEnv(t)
	env["HOME"] = home
	env["XDG_DATA_HOME"] = filepath.Join(home, "data")
	env["XDG_CONFIG_HOME"] = filepath.Join(home, "config")
	env["XDG_RUNTIME_DIR"] = filepath.Join(home, "run")
	env["INNATE_PROJECT"] = repo
	if _, _, err := runIO(t, env, "", "recall", "add lodash"); err != nil { // reads CLAUDE.md in
		t.Fatal(err)
	}
	doctor := func() string {
		t.Helper()
		out, _, err := runIO(t, env, "", "doctor", "--project", repo)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	out := doctor()
	for _, want := range []string{"claude-code", "not registered", "innate-mcp setup claude-code", "CLAUDE.md", "1: 1 compiled", "HOOK ERRORS  none"} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}

	m := &Main{Getenv: func(k string) string { return env[k] }}
	m.noteHookError("PreToolUse", errors.New("open the database: disk I/O error"))
	cfg := filepath.Join(home, "config", "innate-mcp")
	os.MkdirAll(cfg, 0o700)
	if err := os.WriteFile(filepath.Join(cfg, "hooks.json"), []byte(`{"pre_tool_use": {"bash_decision": "maybe"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	out = doctor()
	for _, want := range []string{"HOOK CONFIG  error", "bash_decision", "PreToolUse open the database: disk I/O error", "answers nothing until it is fixed"} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
	os.Remove(filepath.Join(cfg, "hooks.json"))

	if _, _, err := runIO(t, env, "", "setup", "claude-code"); err != nil {
		t.Fatal(err)
	}
	out = doctor()
	if strings.Contains(out, "not registered") || !strings.Contains(out, "registered with this binary") {
		t.Errorf("after setup:\n%s", out)
	}
}
