package mcpserver

import (
	"os"
	"path/filepath"
	"testing"
)

// TestProjectRoot: a directory's project is its git repository's root;
// outside git, the directory itself when it holds rule files, else none
// (a home directory must not become everyone's project).
func TestProjectRoot(t *testing.T) {
	base := t.TempDir()
	mk := func(rel string, file bool) string {
		p := filepath.Join(base, rel)
		dir := p
		if file {
			dir = filepath.Dir(p)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if file {
			if err := os.WriteFile(p, []byte("- Use pnpm.\n"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return p
	}
	mk("repo/.git", false)
	mk("repo/web/src", false)
	mk("loose/CLAUDE.md", true)
	mk("loose/sub", false)
	mk("cursor/.cursor/rules/go.mdc", true)
	mk("plain/docs", false)
	for dir, want := range map[string]string{
		"repo/web/src": "repo",
		"loose":        "loose",
		"loose/sub":    "", // a rule file one level up does not make sub a project
		"cursor":       "cursor",
		"plain/docs":   "",
		"plain":        "",
	} {
		got := ProjectRoot(filepath.Join(base, dir))
		if want != "" {
			want = filepath.Join(base, want)
		}
		if got != want {
			t.Errorf("ProjectRoot(%s) = %q, want %q", dir, got, want)
		}
	}
}
