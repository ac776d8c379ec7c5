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
