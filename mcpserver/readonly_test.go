package mcpserver

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/innate-mcp/innate-mcp/internal/fakeembed"
	"github.com/innate-mcp/innate-mcp/internal/mcptest"
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
	rec := mcptest.Structured(t, call("recall", map[string]any{"query": "before I commit, go vet"}))
	if lessons, _ := rec["lessons"].([]any); len(lessons) != 1 || !strings.Contains(rec["note"].(string), "read-only") {
		t.Fatalf("read-only recall: %v", rec)
	}
	mcptest.Structured(t, call("appraise", map[string]any{"query": "commit", "candidate": "I will run go vet, then commit."}))
	mcptest.Structured(t, call("hesitate", map[string]any{"draft": "It probably works; pushing.", "actions": []string{"push"}}))
	text := mcptest.ErrorText(t, call("record", map[string]any{"trace_id": rec["trace_id"], "outcome": "success"}))
	if !strings.Contains(text, "read-only") || !strings.Contains(text, why) {
		t.Fatalf("read-only record: %q, want the reason and what to do", text)
	}
}
