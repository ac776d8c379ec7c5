package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/innate-mcp/innate-mcp/internal/fakeembed"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/storage"
)

// TestServe_readOnlyKnowledgeBase: a server over a read-only knowledge base
// serves recall, appraise and hesitate, and answers record with an isError
// result that says why and what to do, not a JSON-RPC error.
func TestServe_readOnlyKnowledgeBase(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "kb.db")
	db, err := storage.Open(ctx, path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := kb.New(kb.Config{Store: db, Embedder: fakeembed.New(64)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Add(ctx, []kb.NewLesson{{Content: "Run go vet before every commit.", Origin: kb.OriginUserStated}}, nil); err != nil {
		t.Fatal(err)
	}
	db.Close()
	ro, err := storage.Open(ctx, path, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	const why = "the database file kb.db is read-only: make it writable for this user (chmod u+w kb.db); then restart the server"
	k, err := kb.New(kb.Config{Store: ro, Embedder: fakeembed.New(64), ReadOnly: true, ReadOnlyReason: why})
	if err != nil {
		t.Fatal(err)
	}
	call := func(name string, args any) map[string]any {
		t.Helper()
		msg := rpc(t, k, "tools/call", map[string]any{"name": name, "arguments": args})
		res, ok := msg["result"].(map[string]any)
		if !ok {
			t.Fatalf("tools/call %s: no result: %v", name, msg)
		}
		return res
	}
	rec := structured(t, call("recall", map[string]any{"query": "before I commit, go vet"}))
	if lessons, _ := rec["lessons"].([]any); len(lessons) != 1 || !strings.Contains(rec["note"].(string), "read-only") {
		t.Fatalf("read-only recall: %v", rec)
	}
	structured(t, call("appraise", map[string]any{"query": "commit", "candidate": "I will run go vet, then commit."}))
	structured(t, call("hesitate", map[string]any{"draft": "It probably works; pushing.", "actions": []string{"push"}}))
	text := errorText(t, call("record", map[string]any{"trace_id": rec["trace_id"], "outcome": "success"}))
	if !strings.Contains(text, "read-only") || !strings.Contains(text, why) {
		t.Fatalf("read-only record: %q, want the reason and what to do", text)
	}
}

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
