package mcpserver

import (
	"context"
	"encoding/json"
	"flag"
	"log/slog"
	"os"
	"testing"

	"github.com/innate-mcp/innate-mcp/internal/linediff"
	"github.com/mark3labs/mcp-go/mcp"
)

var update = flag.Bool("update", false, "rewrite golden files (tools.json)")

// listTools returns the tools the server lists, as tools/list returns them.
func listTools(t *testing.T) []mcp.Tool {
	t.Helper()
	s := New("test", nil, nil, NewProjectResolver(""), slog.New(slog.DiscardHandler), func() {})
	msg := s.HandleMessage(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	b, err := json.Marshal(msg)
	if err != nil {
		t.Fatal(err)
	}
	var resp struct {
		Result struct {
			Tools []mcp.Tool `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal(b, &resp); err != nil {
		t.Fatalf("decode tools/list: %v\n%s", err, b)
	}
	return resp.Result.Tools
}

// TestToolsManifest fails when tools.json differs from what the server lists.
func TestToolsManifest(t *testing.T) {
	tools := listTools(t)
	got, err := json.MarshalIndent(map[string]any{"tools": tools}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	const path = "../tools.json"
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s (run go test ./mcpserver -run TestToolsManifest -update): %v", path, err)
	}
	if d := linediff.Diff(string(want), string(got)); d != "" {
		t.Fatalf("tools.json differs from the server's tools/list (- tools.json, + tools/list); run go test ./mcpserver -run TestToolsManifest -update and review the diff:\n%s", d)
	}
}

// TestTools_annotations checks every tool declares its hints: mcp-go marks
// tools destructive and open-world by default.
func TestTools_annotations(t *testing.T) {
	want := map[string]struct{ readOnly, destructive, idempotent bool }{
		"recall":   {true, false, true},
		"record":   {false, false, true},
		"hesitate": {false, false, false}, // logs each call, counts pattern hits
		"appraise": {true, false, true},
		// stores a consultant's answer; the same answer again changes nothing
		"compile_rules": {false, false, true},
	}
	tools := listTools(t)
	if len(tools) != len(want) {
		t.Fatalf("server lists %d tools, want %d", len(tools), len(want))
	}
	for _, tool := range tools {
		w, ok := want[tool.Name]
		if !ok {
			t.Errorf("unexpected tool %q", tool.Name)
			continue
		}
		a := tool.Annotations
		if a.ReadOnlyHint == nil || *a.ReadOnlyHint != w.readOnly || a.DestructiveHint == nil || *a.DestructiveHint != w.destructive ||
			a.IdempotentHint == nil || *a.IdempotentHint != w.idempotent || a.OpenWorldHint == nil || *a.OpenWorldHint {
			t.Errorf("%s annotations = %+v", tool.Name, a)
		}
		if tool.Description == "" || (len(tool.RawInputSchema) == 0 && len(tool.InputSchema.Properties) == 0) || tool.OutputSchema.Type != "object" {
			t.Errorf("%s lacks description, input or output schema", tool.Name)
		}
	}
}
