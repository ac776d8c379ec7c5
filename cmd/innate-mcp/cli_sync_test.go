package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/innate-mcp/innate-mcp/kb"
)

// TestCLI_recallSyncsTheProjectsRuleFiles: in a fresh repository with a
// CLAUDE.md, the first recall reads the file in and finds its rule, as the
// MCP server's first call does; with INNATE_RULE_SYNC=off it does not.
func TestCLI_recallSyncsTheProjectsRuleFiles(t *testing.T) {
	for _, c := range []struct {
		sync  string
		found bool
	}{{"", true}, {"off", false}} {
		repo := t.TempDir()
		if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, "CLAUDE.md"), []byte("# Rules\n\n- Use pnpm, not npm or yarn.\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		env := testEnv(t)
		env["INNATE_RULE_SYNC"] = c.sync
		env["INNATE_PROJECT"] = repo
		stdout, _, err := runIO(t, env, "", "recall", "install a package with npm")
		if err != nil {
			t.Fatal(err)
		}
		var res kb.RecallResult
		if err := json.Unmarshal([]byte(stdout), &res); err != nil {
			t.Fatalf("%v: %s", err, stdout)
		}
		found := len(res.Lessons) > 0 && res.Lessons[0].Content == "Use pnpm, not npm or yarn."
		if found != c.found {
			t.Errorf("INNATE_RULE_SYNC=%q: found the rule %v, want %v (%s)", c.sync, found, c.found, stdout)
		}
	}
}
