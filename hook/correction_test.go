package hook

import (
	"context"
	"strings"
	"testing"
)

// TestCapture_correctionLesson: a correction's directive becomes a lesson
// whose check reminds, and the confirmation line names it and the commands
// that undo it; the same directive again, or one a rule file already
// enforces, is merged, not stored twice; a correction that directs
// nothing leaves only the error pattern.
func TestCapture_correctionLesson(t *testing.T) {
	h, _ := testHandler(t)
	h.Capture = func(msg, prev string) Capture {
		c := Capture{Correction: true}
		switch {
		case strings.Contains(msg, "gofumpt"):
			c.Directive = "use gofumpt, not go fmt"
		case strings.Contains(msg, "pnpm"):
			c.Directive = "use pnpm, not npm or yarn"
		}
		return c
	}
	ctx := context.Background()
	say := func(prompt string) string {
		t.Helper()
		out, err := h.Handle(ctx, Input{Event: UserPromptSubmit, SessionID: "s", Cwd: project, Prompt: prompt})
		if err != nil {
			t.Fatal(err)
		}
		if out.Specific == nil {
			return ""
		}
		return out.Specific.AdditionalContext
	}
	first := say("No, I told you to use gofumpt, not go fmt!")
	if !strings.Contains(first, `"use gofumpt, not go fmt"`) || !strings.Contains(first, "reminds once, then asks") ||
		!strings.Contains(first, "Undo: innate-mcp lessons reject L") {
		t.Fatalf("first correction: %q", first)
	}
	again := say("I said: use gofumpt, not go fmt.")
	if !strings.Contains(again, "already enforces what it asks") || strings.Contains(again, "lessons reject") {
		t.Errorf("same correction again: %q", again)
	}
	ruleFile := say("No! use pnpm, not npm or yarn")
	if !strings.Contains(ruleFile, "already enforces what it asks") {
		t.Errorf("a correction the rule file already enforces: %q", ruleFile)
	}
	bare := say("still the same error")
	if strings.Contains(bare, "lesson") || !strings.Contains(bare, "recorded this message as a correction") {
		t.Errorf("a correction that directs nothing: %q", bare)
	}
}
