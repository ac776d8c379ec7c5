package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/innate-mcp/innate-mcp/hook"
)

// preToolUse is a PreToolUse payload of a tool call in a project.
func preToolUse(t *testing.T, project, tool string, input map[string]string) []byte {
	t.Helper()
	ti, _ := json.Marshal(input)
	b, err := json.Marshal(map[string]any{"session_id": "s-rules", "cwd": project, "hook_event_name": "PreToolUse",
		"tool_name": tool, "tool_input": json.RawMessage(ti)})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestHook_rulesFresh: PreToolUse enforces the project's rule files with
// no SessionStart and no import before it; an edit of CLAUDE.md is seen by
// the next hook; a change of another project's rule files changes no
// answer in this one. Each call is a new process, as Claude Code runs
// hooks, answered in-process.
func TestHook_rulesFresh(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	e := newHookEnv(t)
	other := filepath.Join(e.dir, "other")
	if err := os.MkdirAll(filepath.Join(other, ".git"), 0o700); err != nil {
		t.Fatal(err)
	}
	write := func(dir, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, "CLAUDE.md"), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(e.project, "# Shop\n\n- Use pnpm, not npm or yarn.\n")
	write(other, "# Other\n\n- Never edit files under src/.\n- Use npm for everything.\n")
	calls := [][]byte{
		preToolUse(t, e.project, "Bash", map[string]string{"command": "npm install lodash"}),
		preToolUse(t, e.project, "Edit", map[string]string{"file_path": filepath.Join(e.project, "src", "cart.go"), "old_string": "a", "new_string": "b"}),
		preToolUse(t, e.project, "Bash", map[string]string{"command": "pnpm add lodash"}),
	}
	answers := func() []string {
		var out []string
		for _, c := range calls {
			b, code, _ := e.run(t, "PreToolUse", c, "INNATE_HOOK_SERVER=off")
			if code != 0 {
				t.Fatalf("exit %d", code)
			}
			var o hook.Output
			if len(b) > 0 {
				json.Unmarshal(b, &o)
			}
			out = append(out, o.Specific.String())
		}
		return out
	}
	first := answers()
	if !strings.HasPrefix(first[0], "ask|") || !strings.Contains(first[0], "Use pnpm, not npm or yarn.") || first[1] != "" || first[2] != "" {
		t.Fatalf("first answers, with no SessionStart: %q", first)
	}
	// Another project's rules change: nothing here changes.
	write(other, "# Other\n\n- Never edit files under lib/.\n- Use yarn, never pnpm.\n")
	if got := answers(); strings.Join(got, "\n") != strings.Join(first, "\n") {
		t.Errorf("another project's rule change changed answers here:\n%q\n%q", first, got)
	}
	// This project's CLAUDE.md changes: the next hook sees it.
	write(e.project, "# Shop\n\n- Use npm; never pnpm.\n- Never edit files under src/.\n")
	got := answers()
	if got[0] != "" || !strings.Contains(got[1], "Never edit files under src/") || !strings.Contains(got[2], "never pnpm") {
		t.Errorf("after the edit of CLAUDE.md: %q", got)
	}
}

// TestHook_nestedRuleFile: a CLAUDE.md below the root is enforced in its
// directory only: an edit under web/generated/ is asked about and one
// under the root's generated/ is not; its command rule holds where the
// agent works in web/ (a `cd web`, or a session whose shell stands there)
// and nowhere else. Each call is a new process, with no SessionStart.
func TestHook_nestedRuleFile(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	e := newHookEnv(t)
	web := filepath.Join(e.project, "web")
	if err := os.MkdirAll(web, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(e.project, "CLAUDE.md"), []byte("# Shop\n\n- Keep handlers small.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(web, "CLAUDE.md"), []byte("# Web\n\n- Never edit files under generated/.\n- Use pnpm, not npm or yarn.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	inWeb := func(cmd string) []byte {
		b := preToolUse(t, e.project, "Bash", map[string]string{"command": cmd})
		return []byte(strings.Replace(string(b), `"cwd":"`+e.project+`"`, `"cwd":"`+web+`"`, 1))
	}
	for _, tt := range []struct {
		name string
		call []byte
		rule string // quoted in the ask; "" for silence
	}{
		{"edit under web/generated", preToolUse(t, e.project, "Edit", map[string]string{"file_path": filepath.Join(web, "generated", "api.ts"), "old_string": "a", "new_string": "b"}), "Never edit files under generated/"},
		{"edit under the root's generated", preToolUse(t, e.project, "Edit", map[string]string{"file_path": filepath.Join(e.project, "generated", "api.ts"), "old_string": "a", "new_string": "b"}), ""},
		{"npm at the root", preToolUse(t, e.project, "Bash", map[string]string{"command": "npm install lodash"}), ""},
		{"npm after cd web", preToolUse(t, e.project, "Bash", map[string]string{"command": "cd web && npm install lodash"}), "Use pnpm, not npm or yarn."},
		{"npm in a shell standing in web", inWeb("npm install lodash"), "Use pnpm, not npm or yarn."},
		{"pnpm in web", inWeb("pnpm add lodash"), ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, code, _ := e.run(t, "PreToolUse", tt.call, "INNATE_HOOK_SERVER=off")
			if code != 0 {
				t.Fatalf("exit %d", code)
			}
			var o hook.Output
			if len(b) > 0 {
				json.Unmarshal(b, &o)
			}
			got := o.Specific.String()
			if tt.rule == "" && got != "" || tt.rule != "" && (!strings.HasPrefix(got, "ask|") || !strings.Contains(got, tt.rule)) {
				t.Errorf("answer %q, want %s", got, map[bool]string{true: "silence", false: "an ask quoting " + tt.rule}[tt.rule == ""])
			}
		})
	}
}
