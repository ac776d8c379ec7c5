package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestHook_serverOffAnswersInProcess: with INNATE_HOOK_SERVER=off an event
// is answered in the hook's own process even while a hook server runs. The
// two are told apart by a configuration only the hook's own environment
// sees: it switches PreToolUse off.
func TestHook_serverOffAnswersInProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	e := newHookEnv(t)
	e.importShopRules(t)
	pre := e.payload(t, "pre-tool-use-bash.json", "transcript-untested.jsonl")
	if out, _, _ := e.run(t, "PreToolUse", pre); !bytes.Contains(out, []byte(`"ask"`)) {
		t.Fatalf("first PreToolUse: %s", out)
	}
	waitForSocket(t, filepath.Join(e.dir, "run", "innate-mcp"))
	other := filepath.Join(e.dir, "other-config")
	if err := os.MkdirAll(filepath.Join(other, "innate-mcp"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "innate-mcp", "hooks.json"), []byte(`{"pre_tool_use": {"enabled": false}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, _, _ := e.run(t, "PreToolUse", pre, "XDG_CONFIG_HOME="+other); !bytes.Contains(out, []byte(`"ask"`)) {
		t.Fatalf("with the server running, the server answers (its own configuration): %s", out)
	}
	if out, code, _ := e.run(t, "PreToolUse", pre, "XDG_CONFIG_HOME="+other, "INNATE_HOOK_SERVER=off"); code != 0 || len(out) != 0 {
		t.Fatalf("INNATE_HOOK_SERVER=off: want this process's answer (PreToolUse off: nothing), got exit %d, %s", code, out)
	}
}
