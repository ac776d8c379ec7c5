package mcpserver

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// TestArgValidator_saysWhatToSend: every input error names the field and
// what to send, in words, never the validator's Go structs.
func TestArgValidator_saysWhatToSend(t *testing.T) {
	tools := map[string]mcp.Tool{}
	for _, mk := range []func(Service, *ProjectResolver, *slog.Logger) (mcp.Tool, server.ToolHandlerFunc){recallTool, recordTool, appraiseTool, hesitateTool} {
		tool, _ := mk(nil, nil, slog.Default())
		tools[tool.Name] = tool
	}
	tests := []struct {
		tool, args string
		want       []string
	}{
		{"recall", `{"query":"x","top":"5"}`, []string{"top must be an integer from 1 to 50, not string"}},
		{"recall", `{"query":"x","top":0}`, []string{"top must be an integer from 1 to 50"}},
		{"recall", `{"query":"x","top":51}`, []string{"top must be an integer from 1 to 50"}},
		{"recall", `{"query":"x","budget_tokens":-1}`, []string{"budget_tokens must be an integer of at least 0"}},
		{"recall", `{}`, []string{"query is required (What you are about to do"}},
		{"recall", `{"query":"x","bogus":1}`, []string{"unknown field bogus in the arguments; the fields are ", "query", "top"}},
		{"recall", `{"query":"x","files":"a.go"}`, []string{"files must be an array, not string"}},
		{"recall", `{"query":"x","files":[1]}`, []string{"files[0] must be a string, not number"}},
		{"appraise", `{"query":"x","mode":"loud"}`, []string{"mode must be one of focus, brainstorm, quiet, not loud"}},
		{"hesitate", `{"draft":5}`, []string{"draft must be a string, not number"}},
		{"hesitate", `{}`, []string{"draft is required"}},
		{"record", `{"lesson":{"content":1}}`, []string{"lesson.content must be a string, not number"}},
		{"record", `{"lesson":{"content":"x","colour":"red"}}`, []string{"unknown field colour in lesson; the fields are "}},
	}
	for _, tc := range tests {
		t.Run(tc.tool+" "+tc.args, func(t *testing.T) {
			v, err := newArgValidator(tools[tc.tool])
			if err != nil {
				t.Fatal(err)
			}
			err = v.validate([]byte(tc.args))
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "&{") || strings.Contains(err.Error(), "Got:") {
				t.Errorf("error %q prints Go structs", err)
			}
		})
	}
	for name, tool := range tools {
		v, err := newArgValidator(tool)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := v.validate([]byte(`{"query":"fine","draft":"fine"}`)); err != nil && name != "record" && !strings.Contains(err.Error(), "unknown field") {
			t.Errorf("%s: valid arguments refused: %v", name, err)
		}
	}
}

// TestServer_inputErrorsInWords: a tools/call with bad arguments comes back
// over MCP as an isError result that says what to send (it printed the
// validator's Go structs, "/top: &{Got:string Want:[integer]}", before).
func TestServer_inputErrorsInWords(t *testing.T) {
	s := New("test", nil, nil, NewProjectResolver(""), slog.New(slog.DiscardHandler), func() {})
	for _, c := range []struct{ args, want string }{
		{`{"query":"x","top":"5"}`, "top must be an integer from 1 to 50, not string"},
		{`{}`, "query is required"},
		{`{"query":"x","bogus":1}`, "unknown field bogus"},
	} {
		msg := s.HandleMessage(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"recall","arguments":`+c.args+`}}`))
		b, err := json.Marshal(msg)
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		if !strings.Contains(text, `"isError":true`) || !strings.Contains(text, c.want) || strings.Contains(text, "\u0026{") || strings.Contains(text, "&{") {
			t.Errorf("%s: %s, want an isError result saying %q", c.args, text, c.want)
		}
	}
}
