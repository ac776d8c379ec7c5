package stats

import (
	"testing"

	"github.com/innate-mcp/innate-mcp/hook"
)

func TestHookContext(t *testing.T) {
	got := HookContext([]hook.SessionState{
		{Injected: map[string]int{"SessionStart": 100, "PreToolUse": 20}},
		{Injected: map[string]int{"SessionStart": 60}, Withheld: 30},
		{Commands: []string{"ls"}}, // no context: not counted
	})
	if got.Sessions != 2 || got.TokensMax != 120 || got.TokensP50 != 60 || got.TokensMean != 90 || got.Withheld != 30 ||
		got.ByEvent["SessionStart"] != 80 || got.ByEvent["PreToolUse"] != 10 {
		t.Errorf("%+v", got)
	}
	if empty := HookContext(nil); empty.Sessions != 0 || empty.TokensMax != 0 {
		t.Errorf("no sessions: %+v", empty)
	}
}
