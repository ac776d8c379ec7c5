package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/innate-mcp/innate-mcp/hook"
)

// TestHook_correctionBecomesACheck runs, through the binary as Claude Code
// runs the hooks, a correction that becomes a check: the next repeat of
// the corrected mistake gets a reminder, the one after an ask; what the
// user asked for instead is silent, and so is hesitate on it; rejecting
// the lesson the confirmation line names undoes it.
func TestHook_correctionBecomesACheck(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	e := newHookEnv(t)
	transcript := filepath.Join(e.dir, "t.jsonl")
	lines := []map[string]any{
		{"type": "user", "cwd": e.project, "message": map[string]any{"role": "user", "content": "Add lodash to the web package."}},
		{"type": "assistant", "cwd": e.project, "message": map[string]any{"role": "assistant", "content": []any{
			map[string]any{"type": "text", "text": "I ran npm install lodash and added debounce to the search box."}}}},
	}
	var buf bytes.Buffer
	for _, l := range lines {
		b, _ := json.Marshal(l)
		buf.Write(append(b, '\n'))
	}
	if err := os.WriteFile(transcript, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	event := func(name string, fields map[string]any) hook.Output {
		t.Helper()
		p := map[string]any{"session_id": "s1", "transcript_path": transcript, "cwd": e.project, "hook_event_name": name}
		for k, v := range fields {
			p[k] = v
		}
		b, _ := json.Marshal(p)
		out, code, _ := e.run(t, name, b)
		var o hook.Output
		if code != 0 || len(out) > 0 && json.Unmarshal(out, &o) != nil {
			t.Fatalf("%s: exit %d, %s", name, code, out)
		}
		return o
	}
	bash := func(cmd string) hook.Output {
		return event("PreToolUse", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": cmd}})
	}
	context := func(o hook.Output) string {
		if o.Specific == nil {
			return ""
		}
		return o.Specific.AdditionalContext
	}

	o := event("UserPromptSubmit", map[string]any{"prompt": "No, I told you to use pnpm, not npm!"})
	line := context(o)
	m := regexp.MustCompile(`lesson (L[0-9a-f]+) "use pnpm, not npm"`).FindStringSubmatch(line)
	if m == nil || !strings.Contains(line, "Undo: innate-mcp lessons reject "+m[1]) {
		t.Fatalf("confirmation line: %q", line)
	}
	id := m[1]

	if o := bash("npm install lodash"); o.Specific == nil || o.Specific.PermissionDecision != "" ||
		!strings.Contains(o.Specific.AdditionalContext, "use pnpm, not npm") {
		t.Fatalf("first repeat: want a reminder, got %+v", o.Specific)
	}
	if o := bash("npm install lodash"); o.Specific == nil || o.Specific.PermissionDecision != "ask" {
		t.Fatalf("second repeat: want an ask, got %+v", o.Specific)
	}
	if o := bash("pnpm add lodash"); o.Specific != nil {
		t.Fatalf("pnpm add: want silence, got %+v", o.Specific)
	}

	hes := exec.Command(buildBinary(t), "hesitate")
	hes.Env = e.env
	hes.Stdin = strings.NewReader("I ran pnpm add lodash and the lockfile is updated.")
	out, err := hes.CombinedOutput()
	if err != nil || bytes.Contains(out, []byte("error_pattern")) {
		t.Fatalf("hesitate on the corrected behaviour: %v\n%s", err, out)
	}

	rej := exec.Command(buildBinary(t), "lessons", "reject", id)
	rej.Env = e.env
	if out, err := rej.CombinedOutput(); err != nil {
		t.Fatalf("lessons reject %s: %v\n%s", id, err, out)
	}
	if o := event("PreToolUse", map[string]any{"session_id": "s2", "tool_name": "Bash", "tool_input": map[string]any{"command": "npm install lodash"}}); o.Specific != nil {
		t.Fatalf("after lessons reject: want silence, got %+v", o.Specific)
	}
}
