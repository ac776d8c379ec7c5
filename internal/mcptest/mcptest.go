// Package mcptest reads MCP tool results in tests: the structured content
// of a result, or the text of an isError one.
package mcptest

import "testing"

// Structured returns a tool result's structured content, failing on isError.
func Structured(t testing.TB, res map[string]any) map[string]any {
	t.Helper()
	if isErr, _ := res["isError"].(bool); isErr {
		t.Fatalf("tool error: %v", res["content"])
	}
	sc, ok := res["structuredContent"].(map[string]any)
	if !ok {
		t.Fatalf("no structured content: %v", res)
	}
	return sc
}

// ErrorText returns the text of an isError result, failing otherwise.
func ErrorText(t testing.TB, res map[string]any) string {
	t.Helper()
	if isErr, _ := res["isError"].(bool); !isErr {
		t.Fatalf("want isError, got %v", res)
	}
	content, _ := res["content"].([]any)
	if len(content) == 0 {
		t.Fatalf("isError result without text: %v", res)
	}
	first, _ := content[0].(map[string]any)
	text, _ := first["text"].(string)
	return text
}
