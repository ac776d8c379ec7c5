package mcpserver

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestHookRequest_input: the fields Claude Code interpolates as strings
// come back as the event the hooks read.
func TestHookRequest_input(t *testing.T) {
	in, err := HookRequest{
		Event: "PostToolUse", Cwd: "/w/shop", ToolName: "Bash",
		ToolInput:      `{"command":"go test ./..."}`,
		ToolResponse:   `plain text, not JSON`,
		StopHookActive: "true",
	}.Input()
	if err != nil {
		t.Fatal(err)
	}
	var resp string
	if string(in.ToolInput) != `{"command":"go test ./..."}` || json.Unmarshal(in.ToolResponse, &resp) != nil || resp != "plain text, not JSON" ||
		!in.StopHookActive || in.Event != "PostToolUse" || in.Cwd != "/w/shop" {
		t.Errorf("got %+v (tool_response %s)", in, in.ToolResponse)
	}
	for _, ev := range []string{"", "Notification", "stop"} {
		if _, err := (HookRequest{Event: ev}).Input(); err == nil {
			t.Errorf("event %q accepted", ev)
		}
	}
}

// TestHideHookTool: left out of tools/list, reachable by a call.
func TestHideHookTool(t *testing.T) {
	tools := []mcp.Tool{{Name: "recall"}, {Name: HookTool}}
	if got := hideHookTool(withListing(context.Background(), string(mcp.MethodToolsList)), tools); len(got) != 1 || got[0].Name != "recall" {
		t.Errorf("listing: %v", got)
	}
	if got := hideHookTool(withListing(context.Background(), string(mcp.MethodToolsCall)), []mcp.Tool{{Name: HookTool}}); len(got) != 1 {
		t.Errorf("call: %v", got)
	}
}

// FuzzRawField: whatever text comes, the field is valid JSON or nothing.
func FuzzRawField(f *testing.F) {
	for _, s := range []string{"", `{"a":1}`, "[1,2", "text", " [ ] ", `"quoted"`, "{\"a\":\"\xff\"}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		raw := rawField(s)
		if raw != nil && !json.Valid(raw) {
			t.Errorf("rawField(%q) = %s, not JSON", s, raw)
		}
	})
}
