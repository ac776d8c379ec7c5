package hook

import (
	"context"
	"testing"
)

// TestBudget_sessionContext: the context the hooks add counts against the
// session's budget, by event; past it context alone is left out, a
// decision still comes, and another session has its own budget.
func TestBudget_sessionContext(t *testing.T) {
	h, _ := testHandler(t)
	ctx := context.Background()
	h.Config.SessionStart.RepeatLoadedFiles = true
	start := payload(t, "session-start.json", "transcript-untested.jsonl")
	out, err := h.Handle(ctx, start)
	if err != nil || out.Empty() {
		t.Fatalf("SessionStart: %+v, %v", out, err)
	}
	st, _ := h.State.Read(start.SessionID)
	if st.Injected[SessionStart] != Tokens(out) || Tokens(out) == 0 {
		t.Fatalf("counted %v, answer %d tokens", st.Injected, Tokens(out))
	}
	h.Config.SessionBudgetTokens = Tokens(out) + 1
	if out, _ := h.Handle(ctx, start); !out.Empty() {
		t.Errorf("past the budget, context alone: %+v", out.Specific)
	}
	if st, _ = h.State.Read(start.SessionID); st.Withheld == 0 {
		t.Errorf("nothing withheld: %+v", st)
	}
	ask := payload(t, "pre-tool-use-bash.json", "transcript-untested.jsonl")
	if out, _ := h.Handle(ctx, ask); out.Specific == nil || out.Specific.PermissionDecision != "ask" {
		t.Errorf("past the budget, a decision: %+v", out.Specific)
	}
	other := start
	other.SessionID = "another"
	if out, _ := h.Handle(ctx, other); out.Empty() {
		t.Error("another session's budget was spent by this one")
	}
}
