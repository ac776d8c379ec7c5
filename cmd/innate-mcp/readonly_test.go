package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/innate-mcp/innate-mcp/kb"
)

// TestCLI_readOnlyDatabase: on a read-only database file, and in a
// read-only directory, the commands that read work and those that write
// fail saying which is read-only and what to do. Permissions do not bind
// root: run as another user.
func TestCLI_readOnlyDatabase(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes read-only files: run the test as another user")
	}
	env := testEnv(t)
	path := env["INNATE_DB"]
	dir := filepath.Dir(path)
	if _, err := run(t, env, "", "record", "--lesson", "Run go vet before every commit.", "--origin", "user_stated"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o700); os.Chmod(path, 0o600) })
	reads := func(t *testing.T) {
		t.Helper()
		for _, args := range [][]string{{"stats"}, {"lessons", "list"}, {"export"}, {"recall", "go vet before commit"},
			{"appraise", "--candidate", "I run go vet, then commit.", "committing"}, {"patterns", "list"}, {"regulate", "--dry-run"}} {
			out, err := run(t, env, "It probably works.", args...)
			if err != nil {
				t.Errorf("%s on a read-only database: %v", strings.Join(args, " "), err)
			}
			if args[0] == "recall" {
				var res kb.RecallResult
				if err := json.Unmarshal([]byte(out), &res); err != nil || len(res.Lessons) != 1 || !strings.Contains(res.Note, "read-only") {
					t.Errorf("recall on a read-only database: %s", out)
				}
			}
		}
		if _, err := run(t, env, "It probably works.", "hesitate"); err != nil {
			t.Errorf("hesitate on a read-only database: %v", err)
		}
	}
	writes := func(t *testing.T, want ...string) {
		t.Helper()
		for _, args := range [][]string{{"record", "--lesson", "Another lesson.", "--origin", "user_stated"}, {"regulate"}} {
			_, err := run(t, env, "", args...)
			if !errors.Is(err, kb.ErrReadOnly) {
				t.Errorf("%s on a read-only database: %v, want a read-only error", args[0], err)
				continue
			}
			for _, w := range want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%s: %q does not say %q", args[0], err, w)
				}
			}
		}
	}
	t.Run("file", func(t *testing.T) {
		os.Chmod(path, 0o444)
		defer os.Chmod(path, 0o600)
		reads(t)
		writes(t, "database file "+path+" is read-only", "chmod u+w "+path)
	})
	t.Run("directory", func(t *testing.T) {
		os.Chmod(dir, 0o555)
		defer os.Chmod(dir, 0o700)
		reads(t)
		writes(t, "directory "+dir+" of the database is not writable", "--db or INNATE_DB")
	})
}
