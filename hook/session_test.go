package hook

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/innate-mcp/innate-mcp/internal/clip"
	"github.com/innate-mcp/innate-mcp/kb"
)

// TestSessionStart_whatTheAgentCannotKnow: SessionStart does not repeat
// the rules of CLAUDE.md, which Claude Code loads itself; it gives the
// rules of other agents' files, what corrections left, and, after a
// compaction, what the checks forbid; a correction that left no lesson is
// shown only when the work resumes.
func TestSessionStart_whatTheAgentCannotKnow(t *testing.T) {
	ctx := context.Background()
	start := func(h *Handler, source, cwd string) string {
		t.Helper()
		in := payload(t, "session-start.json", "transcript-untested.jsonl")
		in.Source = source
		if cwd != "" {
			in.Cwd = cwd
		}
		out, err := h.Handle(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		if out.Specific == nil {
			return ""
		}
		if len(out.Specific.AdditionalContext) > h.Config.SessionStart.BudgetTokens*clip.BytesPerToken {
			t.Errorf("context of %d bytes, over the budget", len(out.Specific.AdditionalContext))
		}
		return out.Specific.AdditionalContext
	}

	h, k := testHandler(t)
	if got := start(h, "startup", ""); got != "" {
		t.Errorf("only CLAUDE.md rules: want nothing, got\n%s", got)
	}
	h.Config.SessionStart.RepeatLoadedFiles = true
	if got := start(h, "startup", ""); !strings.Contains(got, "Use pnpm, not npm or yarn.") {
		t.Errorf("repeat_loaded_files: want CLAUDE.md's rules, got\n%s", got)
	}
	h.Config.SessionStart.RepeatLoadedFiles = false

	if _, err := k.ImportRuleFile(ctx, filepath.Join(project, "AGENTS.md"), project, []byte("# Agents\n\n- Never edit files under generated/.\n")); err != nil {
		t.Fatal(err)
	}
	got := start(h, "startup", "")
	if !strings.Contains(got, "Never edit files under generated/.") || strings.Contains(got, "Use pnpm") {
		t.Errorf("AGENTS.md's rule, not CLAUDE.md's: got\n%s", got)
	}

	// A correction that left a lesson is shown as what to do from now on;
	// one that left none only when the work resumes; another project's
	// never.
	if _, err := k.Record(ctx, kb.RecordRequest{Project: project, Author: kb.AuthorHook,
		Message:    "No, I told you to use gofumpt, not go fmt!",
		Correction: &kb.CorrectionInput{Text: "No, I told you to use gofumpt, not go fmt!"},
		Lesson:     &kb.LessonInput{Content: "use gofumpt, not go fmt", Origin: kb.OriginUserStated, Tags: []string{kb.TagCorrection}}}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ project, text string }{{project, "still the same error"}, {"/home/dev/other", "Wrong branch again."}} {
		if _, err := k.Record(ctx, kb.RecordRequest{Project: c.project, Correction: &kb.CorrectionInput{Text: c.text}}); err != nil {
			t.Fatal(err)
		}
	}
	got = start(h, "startup", "")
	if !strings.Contains(got, "from now on:\n- use gofumpt, not go fmt [L") || strings.Contains(got, "still the same error") ||
		strings.Contains(got, "No, I told you") {
		t.Errorf("startup: want the correction's lesson only, got\n%s", got)
	}
	got = start(h, "resume", "")
	if !strings.Contains(got, "still the same error") || strings.Contains(got, "Wrong branch") || strings.Contains(got, "No, I told you") {
		t.Errorf("resume: want the correction that left no lesson, got\n%s", got)
	}

	// After a compaction: what the checks forbid, CLAUDE.md's included.
	got = start(h, "compact", "")
	for _, want := range []string{"after the compaction", "forbids running `npm", "forbids writing `generated/`", "use gofumpt"} {
		if !strings.Contains(got, want) {
			t.Errorf("compact: lacks %q:\n%s", want, got)
		}
	}

	// A project without rules or corrections: nothing.
	if got := start(h, "startup", "/home/dev/third"); got != "" {
		t.Errorf("empty project: %q", got)
	}
	// A small budget keeps to it.
	h.Config.SessionStart.BudgetTokens = 20
	start(h, "compact", "")
}
