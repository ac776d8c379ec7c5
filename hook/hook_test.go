package hook

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/action"
	"github.com/innate-mcp/innate-mcp/embed"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/storage"
)

const project = "/home/dev/shop"

// rules is the project's CLAUDE.md.
const rules = `# Shop

## Conventions
- Use pnpm, not npm or yarn.
- Never push directly to main; open a pull request.
- Run ` + "`go test ./...`" + ` before committing.
`

// testHandler is a handler over a new knowledge base holding the
// project's rules, with the built-in encoder.
func testHandler(t *testing.T) (*Handler, *kb.KB) {
	t.Helper()
	ctx := context.Background()
	db, err := storage.Open(ctx, filepath.Join(t.TempDir(), "kb.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	k, err := kb.New(kb.Config{Store: db, Embedder: embed.Builtin(), Session: "hooks"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := k.ImportRuleFile(ctx, filepath.Join(project, "CLAUDE.md"), project, []byte(rules)); err != nil {
		t.Fatal(err)
	}
	return &Handler{
		KB: k, Config: DefaultConfig(),
		Project: func(cwd string) string { return cwd },
		State:   &StateDir{Dir: filepath.Join(t.TempDir(), "state")},
		Now:     func() time.Time { return time.Now() },
	}, k
}

// payload reads a documented payload from testdata with its placeholders
// filled in.
func payload(t *testing.T, name, transcript string) Input {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	s := strings.ReplaceAll(string(b), "PROJECT", project)
	s = strings.ReplaceAll(s, "TRANSCRIPT", filepath.Join("testdata", transcript))
	in, err := ReadInput(strings.NewReader(s), "")
	if err != nil {
		t.Fatal(err)
	}
	return in
}

func TestPreToolUse_askWhenACommandBreaksARule(t *testing.T) {
	h, _ := testHandler(t)
	ctx := context.Background()
	out, err := h.Handle(ctx, payload(t, "pre-tool-use-bash.json", "transcript-untested.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if out.Specific == nil || out.Specific.PermissionDecision != "ask" || !strings.Contains(out.Specific.PermissionDecisionReason, "Use pnpm, not npm or yarn.") {
		t.Fatalf("npm install: %+v", out.Specific)
	}
	// The command that follows the rule passes silently.
	in := payload(t, "pre-tool-use-bash.json", "transcript-untested.jsonl")
	in.ToolInput = json.RawMessage(`{"command":"pnpm add lodash","description":"Install lodash"}`)
	if out, err := h.Handle(ctx, in); err != nil || !out.Empty() {
		t.Errorf("pnpm add: %+v, %v", out.Specific, err)
	}
	// Configured to deny, it denies; never by default.
	h.Config.PreToolUse.BashDecision = "deny"
	out, _ = h.Handle(ctx, payload(t, "pre-tool-use-bash.json", "transcript-untested.jsonl"))
	if out.Specific == nil || out.Specific.PermissionDecision != "deny" {
		t.Errorf("deny configured: %+v", out.Specific)
	}
	// Switched off, it says nothing.
	h.Config.PreToolUse.Enabled = false
	if out, _ := h.Handle(ctx, payload(t, "pre-tool-use-bash.json", "transcript-untested.jsonl")); !out.Empty() {
		t.Errorf("disabled: %+v", out)
	}
}

// TestPreToolUse_codeThatSaysSkipIsNotASkippedStep: an edit whose code
// skips blank lines, and a command with a --skip flag, do not read as a
// plan going ahead without the rule's step.
func TestPreToolUse_codeThatSaysSkipIsNotASkippedStep(t *testing.T) {
	h, _ := testHandler(t)
	ctx := context.Background()
	for _, c := range []struct{ tool, input string }{
		{"Edit", `{"file_path":"PROJECT/lines.go","old_string":"x","new_string":"// skip blank lines, manually trimmed\nfor _, l := range lines {\n\tif strings.TrimSpace(l) == \"\" {\n\t\tcontinue // skip\n\t}\n\tt.Skip(\"immediately\")\n}"}`},
		{"Bash", `{"command":"go vet ./... --skip-dirs vendor","description":"Vet the code"}`},
	} {
		in := payload(t, "pre-tool-use-bash.json", "transcript-untested.jsonl")
		in.ToolName = c.tool
		in.ToolInput = json.RawMessage(strings.ReplaceAll(c.input, "PROJECT", project))
		out, err := h.Handle(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		if !out.Empty() {
			t.Errorf("%s %s: %+v %+v", c.tool, c.input, out.Specific, out)
		}
	}
}

func TestStop_blocksOnceAnUntestedSuccessClaim(t *testing.T) {
	h, _ := testHandler(t)
	ctx := context.Background()
	in := payload(t, "stop.json", "transcript-untested.jsonl")
	out, err := h.Handle(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if out.Decision != "block" || out.Reason == "" {
		t.Fatalf("untested success claim: %+v", out)
	}
	// At most once a turn.
	if out, _ := h.Handle(ctx, in); !out.Empty() {
		t.Errorf("second stop of the same turn blocked again: %+v", out)
	}
	// Never when Claude is already continuing because of a stop hook.
	h2, _ := testHandler(t)
	in.StopHookActive = true
	if out, _ := h2.Handle(ctx, in); !out.Empty() {
		t.Errorf("stop_hook_active: %+v", out)
	}
	// Plain go test output after the edit backs the claim.
	if out, err := h2.Handle(ctx, payload(t, "stop.json", "transcript-tested.jsonl")); err != nil || !out.Empty() {
		t.Errorf("tested: %+v, %v", out, err)
	}
	// Failing tests do not.
	if out, _ := h2.Handle(ctx, payload(t, "stop.json", "transcript-failing.jsonl")); out.Decision != "block" {
		t.Errorf("failing tests: %+v", out)
	}
}

func TestUserPromptSubmit_recallsAndCaptures(t *testing.T) {
	h, k := testHandler(t)
	ctx := context.Background()
	out, err := h.Handle(ctx, payload(t, "user-prompt-submit.json", "transcript-tested.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if out.Specific == nil || !strings.Contains(out.Specific.AdditionalContext, "Use pnpm, not npm or yarn.") {
		t.Fatalf("recall: %+v", out.Specific)
	}
	// A standing rule is recorded as the user's own, active at once.
	h.Capture = func(msg, prev string) Capture {
		return Capture{Rule: true, RuleText: "From now on, always run gofmt before committing."}
	}
	in := payload(t, "user-prompt-submit.json", "transcript-tested.jsonl")
	in.Prompt = "Thanks. From now on, always run gofmt before committing."
	out, err = h.Handle(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if out.Specific == nil || !strings.Contains(out.Specific.AdditionalContext, "recorded the user's rule") {
		t.Fatalf("rule capture: %+v", out.Specific)
	}
	// The lesson just recorded is not recalled back in the same answer:
	// the user's words are already in the agent's context.
	if n := strings.Count(out.Specific.AdditionalContext, "always run gofmt"); n != 1 {
		t.Errorf("the recorded rule appears %d times in the answer:\n%s", n, out.Specific.AdditionalContext)
	}
	found := false
	k.Lessons(ctx, kb.LessonFilter{Project: project}, func(l kb.Lesson) error {
		if strings.Contains(l.Content, "always run gofmt") {
			found = l.State == kb.StateActive && l.Origin == kb.OriginUserStated
		}
		return nil
	})
	if !found {
		t.Error("the rule is not an active user-stated lesson")
	}
	// A correction is recorded with the agent's previous reply as draft.
	var gotPrev string
	h.Capture = func(msg, prev string) Capture { gotPrev = prev; return Capture{Correction: true} }
	in.Prompt = "No, that's wrong: the discount applies before tax."
	out, err = h.Handle(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(gotPrev, "all tests pass") {
		t.Errorf("previous reply given to capture: %q", gotPrev)
	}
	// When the transcript already holds the prompt being submitted, the
	// previous reply is the one before it.
	in.Prompt = "The cart total ignores the discount; fix it."
	h.Handle(ctx, in)
	if gotPrev != "" { // the chat's first message: no reply before it
		t.Errorf("previous reply for a prompt already in the transcript: %q", gotPrev)
	}
	if out.Specific == nil || !strings.Contains(out.Specific.AdditionalContext, "recorded this message as a correction") {
		t.Errorf("correction capture: %+v", out.Specific)
	}
}

func TestPostToolUse_notesTestRuns(t *testing.T) {
	h, _ := testHandler(t)
	in := payload(t, "post-tool-use-bash.json", "transcript-tested.jsonl")
	if out, err := h.Handle(context.Background(), in); err != nil || !out.Empty() {
		t.Fatalf("%+v, %v", out, err)
	}
	s, err := h.State.Read(in.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Runs) != 1 || s.Runs[0].Outcome != "passed" || s.Runs[0].Runner != "go test" || s.Runs[0].Command != "go test ./..." {
		t.Errorf("runs %+v", s.Runs)
	}
}

func TestReadTurn(t *testing.T) {
	turn, err := ReadTurn(filepath.Join("testdata", "transcript-tested.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if turn.Prompt != "The cart total ignores the discount; fix it." || !strings.HasPrefix(turn.Final, "Fixed!") {
		t.Errorf("turn %q → %q", turn.Prompt, turn.Final)
	}
	if len(turn.Tools) != 3 || turn.Tools[2].Command() != "go test ./..." || !strings.Contains(turn.Tools[2].Output, "ok  \texample.com/shop/cart") || len(turn.Tools[1].Edits(action.Env{})) == 0 {
		t.Errorf("tools %+v", turn.Tools)
	}
	if _, err := ReadTurn(filepath.Join("testdata", "missing.jsonl")); err == nil {
		t.Error("missing transcript: no error")
	}
}

func TestReadInput_refusesWhatItCannotRead(t *testing.T) {
	for _, tt := range []struct{ in, event string }{
		{"not json", ""},
		{`{"hook_event_name":"Stop"}`, "PreToolUse"},
		{`{"hook_event_name":"Notification"}`, ""},
		{`{}`, ""},
	} {
		if _, err := ReadInput(strings.NewReader(tt.in), tt.event); !errors.Is(err, ErrInput) {
			t.Errorf("%q as %q: err = %v", tt.in, tt.event, err)
		}
	}
	in, err := ReadInput(strings.NewReader(`{"session_id":"s"}`), "Stop")
	if err != nil || in.Event != Stop {
		t.Errorf("event from the command line: %+v %v", in, err)
	}
}

// TestSessionStart_syncsTheRuleFilesFirst: SyncRules runs with the
// project before SessionStart reads its rules, so that a rule file never
// imported is in the first session's context.
func TestSessionStart_syncsTheRuleFilesFirst(t *testing.T) {
	h, k := testHandler(t)
	var synced []string
	h.SyncRules = func(ctx context.Context, p string) {
		synced = append(synced, p)
		if _, err := k.ImportRuleFile(ctx, filepath.Join(p, "AGENTS.md"), p, []byte("- Always run `make proto` after editing a .proto file.\n")); err != nil {
			t.Error(err)
		}
	}
	out, err := h.Handle(context.Background(), payload(t, "session-start.json", "transcript-untested.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(synced) != 1 || synced[0] != project {
		t.Fatalf("SyncRules called with %q; want once with %q", synced, project)
	}
	if out.Specific == nil || !strings.Contains(out.Specific.AdditionalContext, "make proto") {
		t.Errorf("the synced rule is not in the context: %+v", out)
	}
	// Other events do not sync.
	h.Handle(context.Background(), payload(t, "stop.json", "transcript-tested.jsonl"))
	if len(synced) != 1 {
		t.Errorf("SyncRules called on Stop: %q", synced)
	}
}

func TestLoadConfig(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "user.json")
	proj := filepath.Join(dir, "proj.json")
	os.WriteFile(user, []byte(`{"stop": {"enabled": false}, "session_start": {"enabled": true, "budget_tokens": 200, "correction_days": 7}}`), 0o600)
	os.WriteFile(proj, []byte(`{"pre_tool_use": {"enabled": true, "bash_decision": "deny"}}`), 0o600)
	c, err := LoadConfig(user, proj, filepath.Join(dir, "missing.json"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Stop.Enabled || c.SessionStart.BudgetTokens != 200 || c.PreToolUse.BashDecision != "deny" || !c.UserPromptSubmit.Enabled {
		t.Errorf("config %+v", c)
	}
	if !c.RuleSync.Enabled {
		t.Errorf("rule sync off by default: %+v", c)
	}
	os.WriteFile(proj, []byte(`{"rule_sync": {"enabled": false}}`), 0o600)
	if c, err := LoadConfig(user, proj); err != nil || c.RuleSync.Enabled || c.Stop.Enabled {
		t.Errorf("a project's rule_sync off: %+v, %v; want it off and the user's settings kept", c.RuleSync, err)
	}
	for _, bad := range []string{`{"stop": {"enabled": "no"}}`, `{"bogus": 1}`, `{"rule_sync": {"enabled": 0}}`, `{"pre_tool_use": {"bash_decision": "allow"}}`} {
		os.WriteFile(proj, []byte(bad), 0o600)
		if _, err := LoadConfig(proj); err == nil || !strings.Contains(err.Error(), proj) {
			t.Errorf("%s: err = %v", bad, err)
		}
	}
}

func FuzzReadInput(f *testing.F) {
	for _, name := range []string{"session-start.json", "user-prompt-submit.json", "pre-tool-use-bash.json", "post-tool-use-bash.json", "stop.json"} {
		b, _ := os.ReadFile(filepath.Join("testdata", name))
		f.Add(string(b))
	}
	f.Fuzz(func(t *testing.T, s string) {
		in, err := ReadInput(strings.NewReader(s), "")
		if err == nil && in.Event == "" {
			t.Fatal("accepted an event without a name")
		}
	})
}

func FuzzParseTurn(f *testing.F) {
	for _, name := range []string{"transcript-tested.jsonl", "transcript-untested.jsonl"} {
		b, _ := os.ReadFile(filepath.Join("testdata", name))
		f.Add(string(b))
	}
	f.Fuzz(func(t *testing.T, s string) {
		turn, err := parseTurn(strings.NewReader(s))
		if err != nil {
			return
		}
		for _, c := range turn.Tools {
			_ = c.Command()
		}
	})
}

func TestCursor_beforeShellExecution(t *testing.T) {
	h, _ := testHandler(t)
	b, err := os.ReadFile(filepath.Join("testdata", "cursor-before-shell.json"))
	if err != nil {
		t.Fatal(err)
	}
	in, err := ReadCursorInput(strings.NewReader(strings.ReplaceAll(string(b), "PROJECT", project)))
	if err != nil {
		t.Fatal(err)
	}
	out, err := h.Handle(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	ans, ok := CursorOutput(out)
	if !ok || ans.Permission != "ask" || !strings.Contains(ans.UserMessage, "Use pnpm, not npm or yarn.") {
		t.Errorf("npm install: %+v %v", ans, ok)
	}
	in, _ = ReadCursorInput(strings.NewReader(`{"hook_event_name":"beforeShellExecution","command":"pnpm add lodash","cwd":"` + project + `"}`))
	out, _ = h.Handle(context.Background(), in)
	if _, ok := CursorOutput(out); ok {
		t.Errorf("pnpm add: %+v", out)
	}
	if _, err := ReadCursorInput(strings.NewReader(`{"hook_event_name":"afterFileEdit"}`)); err == nil {
		t.Error("another Cursor event accepted")
	}
}
