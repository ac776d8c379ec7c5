package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/innate-mcp/innate-mcp/internal/clip"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/hook"
	"github.com/innate-mcp/innate-mcp/kb"
)

// consultEnv is a hook environment with a fake consultant on PATH: a
// program that logs each prompt it is given and answers with the fixture
// FAKE_ANSWER names.
type consultEnv struct {
	*hookEnv
	log, answer string
}

func newConsultEnv(t *testing.T) *consultEnv {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake consultant is a shell script")
	}
	e := &consultEnv{hookEnv: newHookEnv(t)}
	bin := filepath.Join(e.dir, "bin")
	if err := os.MkdirAll(bin, 0o700); err != nil {
		t.Fatal(err)
	}
	e.log, e.answer = filepath.Join(e.dir, "consultant.log"), filepath.Join(e.dir, "answer.json")
	script := "#!/bin/sh\n{ echo '--- prompt'; cat; } >> \"$FAKE_LOG\"\ncat \"$FAKE_ANSWER\"\n"
	if err := os.WriteFile(filepath.Join(bin, "fake-consultant"), []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	e.env = append(e.env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "FAKE_LOG="+e.log, "FAKE_ANSWER="+e.answer)
	return e
}

// userConfig writes the user's hooks.json.
func (e *consultEnv) userConfig(t *testing.T, cfg string) {
	t.Helper()
	p := filepath.Join(e.dir, "config", "innate-mcp", hook.ConfigFile)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
}

// cli runs the binary with args in the project and returns its stdout,
// stderr and exit status.
func (e *consultEnv) cli(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(buildBinary(t), args...)
	cmd.Env, cmd.Dir = e.env, e.project
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// prompts is how many prompts the fake consultant was given, and the last.
func (e *consultEnv) prompts(t *testing.T) (int, string) {
	t.Helper()
	b, err := os.ReadFile(e.log)
	if os.IsNotExist(err) {
		return 0, ""
	}
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(string(b), "--- prompt\n")
	return len(parts) - 1, parts[len(parts)-1]
}

// ruleIDs are the ids a consultant is asked about for the project's
// CLAUDE.md, by a word of each rule.
func (e *consultEnv) ruleIDs(t *testing.T, words ...string) []string {
	t.Helper()
	p := filepath.Join(e.project, "CLAUDE.md")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	rules, err := kb.FileRules(p, data)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, w := range words {
		for _, r := range rules {
			if strings.Contains(r.Text, w) {
				out = append(out, r.ID)
			}
		}
	}
	if len(out) != len(words) {
		t.Fatalf("rule ids for %q: %v of %+v", words, out, rules)
	}
	return out
}

func (e *consultEnv) writeAnswer(t *testing.T, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(e.answer, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// webRulesText is the project's CLAUDE.md in these tests.
const webRulesText = "# Web\n\n- Template comments are HEEx comments, never HTML ones.\n- The web layer lives in lib/web.\n"

// webRules writes webRulesText and returns its rules' ids (the comment
// rule, then the description).
func (e *consultEnv) webRules(t *testing.T) []string {
	t.Helper()
	if err := os.WriteFile(filepath.Join(e.project, "CLAUDE.md"), []byte(webRulesText), 0o600); err != nil {
		t.Fatal(err)
	}
	return e.ruleIDs(t, "HEEx", "web layer")
}

// preToolUse runs PreToolUse in-process and returns its answer, as
// hook.Specific prints it.
func (e *consultEnv) preToolUse(t *testing.T, payload []byte) string {
	t.Helper()
	b, code, _ := e.run(t, "PreToolUse", payload, "INNATE_HOOK_SERVER=off")
	if code != 0 {
		t.Fatalf("PreToolUse: exit %d", code)
	}
	var o hook.Output
	if len(b) > 0 {
		json.Unmarshal(b, &o)
	}
	return o.Specific.String()
}

// say are five phrasings that share no word with the test's rules.
var say = []string{"touch a page layout", "adjust the markup of a screen", "rework a view partial", "fix a broken page fragment", "restyle the account screen"}

// heexAnswer compiles the comment rule into a check on the new text of
// templates, with a check that misses its own bad example (refused), and
// reads the other line as a description.
func heexAnswer(ids []string) map[string]any {
	return map[string]any{"model": "fake-model", "rules": []any{
		map[string]any{"id": ids[0], "is": "rule", "do": "dont", "say": say, "checks": []any{
			map[string]any{"kind": "forbid", "write": map[string]any{"paths": []string{"*.heex"}, "text": "<!--"},
				"bad": []any{map[string]any{"write": "lib/web/page.html.heex", "text": "<!-- note -->"}}, "good": []any{map[string]any{"write": "lib/web/page.html.heex", "text": "<%!-- note --%>"}}},
			map[string]any{"kind": "forbid", "write": map[string]any{"paths": []string{"*.ex"}, "text": "<!--"},
				"bad": []any{map[string]any{"write": "lib/web/page.html.heex", "text": "<!-- note -->"}}},
		}},
		map[string]any{"id": ids[1], "is": "description"},
	}}
}

// TestConsultant_endToEnd: SessionStart invites the agent while no
// consultant is configured (once for a change); a configured program
// compiles the rules: its checks are validated (one refused), stored as
// reminders and enforced by PreToolUse, asking once a person approves
// them; nothing is compiled again while nothing changed, and an edited rule
// alone is compiled again.
func TestConsultant_endToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	e := newConsultEnv(t)
	ids := e.webRules(t)
	claude := webRulesText
	start, _ := json.Marshal(map[string]any{"session_id": "s1", "cwd": e.project, "hook_event_name": "SessionStart", "source": "startup"})

	// No consultant configured: the agent is invited, once.
	out, code, _ := e.run(t, "SessionStart", start, "INNATE_HOOK_SERVER=off")
	if code != 0 || !strings.Contains(string(out), "compile_rules") {
		t.Fatalf("SessionStart did not invite the agent (exit %d): %s", code, out)
	}
	if out, _, _ := e.run(t, "SessionStart", start, "INNATE_HOOK_SERVER=off"); strings.Contains(string(out), "compile_rules") {
		t.Errorf("the second SessionStart invited again with nothing changed: %s", out)
	}

	// A configured program compiles the rules.
	e.userConfig(t, `{"consultant": {"command": ["fake-consultant"]}}`)
	e.writeAnswer(t, heexAnswer(ids))
	stdout, stderr, code := e.cli(t, "rules", "compile", "--run")
	if code != 0 {
		t.Fatalf("rules compile --run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "1 checks") || !strings.Contains(stdout, "refused "+ids[0]+" check 2") || !strings.Contains(stdout, "tokens: prompt about") {
		t.Errorf("rules compile --run printed:\n%s", stdout)
	}
	n, prompt := e.prompts(t)
	if n != 1 || !strings.Contains(prompt, ids[0][:7]+" | ") || !strings.Contains(prompt, ids[1][:7]+" | ") {
		t.Fatalf("the consultant was given %d prompts; the last:\n%s", n, prompt)
	}

	// PreToolUse enforces it: a reminder, then an ask once approved.
	write := preToolUse(t, e.project, "Write", map[string]string{"file_path": filepath.Join(e.project, "lib", "web", "home.html.heex"), "content": "<div><!-- todo --></div>"})
	ok := preToolUse(t, e.project, "Write", map[string]string{"file_path": filepath.Join(e.project, "lib", "web", "home.html.heex"), "content": "<div><%!-- todo --%></div>"})
	answer := func(p []byte) string { return e.preToolUse(t, p) }
	if got := answer(write); strings.HasPrefix(got, "ask|") || !strings.Contains(got, "HEEx") {
		t.Errorf("a consultant's check before approval should remind, not ask: %q", got)
	}
	if got := answer(ok); got != "" {
		t.Errorf("a compliant write was flagged: %q", got)
	}
	listed, _, _ := e.cli(t, "rules", "list", "--json")
	var rows []ruleRow
	if err := json.Unmarshal([]byte(listed), &rows); err != nil {
		t.Fatal(err)
	}
	checkID := ""
	for _, r := range rows {
		for _, c := range r.Checks {
			if strings.HasPrefix(c.By, "consultant") {
				checkID = c.ID
				if !strings.Contains(c.Check.From.Note, "fake-model") {
					t.Errorf("the provenance does not name the model: %+v", c.Check.From)
				}
			}
		}
	}
	if checkID == "" {
		t.Fatalf("rules list shows no consultant's check:\n%s", listed)
	}
	if _, stderr, code := e.cli(t, "rules", "approve", checkID); code != 0 {
		t.Fatalf("rules approve: %s", stderr)
	}
	if got := answer(write); !strings.HasPrefix(got, "ask|") || !strings.Contains(got, "HEEx") {
		t.Errorf("an approved check should ask: %q", got)
	}

	// Nothing changed: nothing is compiled again.
	stdout, _, _ = e.cli(t, "rules", "compile", "--run")
	if n, _ := e.prompts(t); n != 1 || !strings.Contains(stdout, "nothing to compile") {
		t.Errorf("with nothing changed, the consultant was asked again (%d prompts): %s", n, stdout)
	}

	// One rule edited: it alone is compiled again.
	claude = strings.Replace(claude, "lives in lib/web.", "lives in lib/shop_web.", 1)
	if err := os.WriteFile(filepath.Join(e.project, "CLAUDE.md"), []byte(claude), 0o600); err != nil {
		t.Fatal(err)
	}
	edited := e.ruleIDs(t, "web layer")
	e.writeAnswer(t, map[string]any{"rules": []any{map[string]any{"id": edited[0], "is": "description"}}})
	if stdout, stderr, code := e.cli(t, "rules", "compile", "--run"); code != 0 {
		t.Fatalf("rules compile --run after the edit: %s %s", stdout, stderr)
	}
	n, prompt = e.prompts(t)
	if n != 2 || !strings.Contains(prompt, edited[0][:7]+" | ") || strings.Contains(prompt, ids[0][:7]+" | ") {
		t.Errorf("after the edit, %d prompts; the last should ask about the edited rule alone:\n%s", n, prompt)
	}
}

// TestConsultant_network: nothing reaches an endpoint the user did not
// configure, a repository cannot configure one, and one the user
// configured is asked once for each file.
func TestConsultant_network(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	e := newConsultEnv(t)
	ids := e.webRules(t)
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		ans, _ := json.Marshal(heexAnswer(ids))
		json.NewEncoder(w).Encode(map[string]any{"model": "llama-test", "message": map[string]any{"role": "assistant", "content": string(ans)}})
	}))
	defer srv.Close()
	start, _ := json.Marshal(map[string]any{"session_id": "s1", "cwd": e.project, "hook_event_name": "SessionStart", "source": "startup"})

	// Not configured: the hooks and the CLI reach nothing.
	e.run(t, "SessionStart", start, "INNATE_HOOK_SERVER=off")
	if _, stderr, code := e.cli(t, "rules", "compile", "--run"); code == 0 || !strings.Contains(stderr, "no consultant is configured") {
		t.Errorf("rules compile --run with no consultant: exit %d, %s", code, stderr)
	}
	// A repository's own configuration may not name an endpoint.
	proj := filepath.Join(e.project, ".innate-mcp", hook.ConfigFile)
	os.MkdirAll(filepath.Dir(proj), 0o700)
	os.WriteFile(proj, []byte(fmt.Sprintf(`{"consultant": {"endpoint": %q, "api": "ollama", "model": "m"}}`, srv.URL)), 0o600)
	if _, stderr, code := e.cli(t, "rules", "compile", "--run"); code == 0 || !strings.Contains(stderr, "read only from your own configuration") {
		t.Errorf("a repository's endpoint was not refused: exit %d, %s", code, stderr)
	}
	e.run(t, "SessionStart", start, "INNATE_HOOK_SERVER=off")
	if n := hits.Load(); n != 0 {
		t.Fatalf("the endpoint was reached %d times while the user configured none", n)
	}
	os.Remove(proj)

	// Configured by the user: asked once, its answer stored.
	e.userConfig(t, fmt.Sprintf(`{"consultant": {"endpoint": %q, "api": "ollama", "model": "llama-test"}}`, srv.URL))
	stdout, stderr, code := e.cli(t, "rules", "compile", "--run")
	if code != 0 || hits.Load() != 1 || !strings.Contains(stdout, "1 checks") {
		t.Errorf("rules compile --run with an endpoint: exit %d, %d requests\n%s\n%s", code, hits.Load(), stdout, stderr)
	}
	// With nothing left to compile, SessionStart starts nothing.
	e.run(t, "SessionStart", start, "INNATE_HOOK_SERVER=off")
	if _, err := os.Stat(filepath.Join(e.dir, "data", "innate-mcp", "hooks", "log", "consultant.log")); err == nil {
		t.Errorf("SessionStart started a consultant with every rule compiled")
	}
}

// TestConsultant_background: with a consultant configured, SessionStart
// starts it in the background and invites no one; the compile lands.
func TestConsultant_background(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	e := newConsultEnv(t)
	e.writeAnswer(t, heexAnswer(e.webRules(t)))
	e.userConfig(t, `{"consultant": {"command": ["fake-consultant"]}}`)
	start, _ := json.Marshal(map[string]any{"session_id": "s1", "cwd": e.project, "hook_event_name": "SessionStart", "source": "startup"})
	out, code, _ := e.run(t, "SessionStart", start, "INNATE_HOOK_SERVER=off")
	if code != 0 || strings.Contains(string(out), "compile_rules") {
		t.Fatalf("SessionStart with a consultant configured: exit %d, %s", code, out)
	}
	// Wait for the background compile to land (an event, not a timing).
	for i := 0; ; i++ {
		stdout, _, _ := e.cli(t, "rules", "compile")
		if strings.Contains(stdout, "nothing to compile") {
			break
		}
		if i == 50 {
			lg, _ := os.ReadFile(filepath.Join(e.dir, "data", "innate-mcp", "hooks", "log", "consultant.log"))
			t.Fatalf("the background compile never landed: %s\nits log:\n%s", stdout, lg)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if n, _ := e.prompts(t); n != 1 {
		t.Errorf("the consultant was asked %d times", n)
	}
}

// TestConsultant_agentThroughMCP: the agent's own path: compile_rules
// without an answer gives the prompt of the project's rules, with one it
// stores it (refusals named), a wrong answer is an isError result that
// writes nothing, and PreToolUse then reminds of the compiled rule.
func TestConsultant_agentThroughMCP(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	e := newConsultEnv(t)
	ids := e.webRules(t)
	c := spawnProcessIn(t, e.project, e.db, e.env...)
	c.initialize()
	res := c.tool("compile_rules", map[string]any{})
	sc, _ := res["structuredContent"].(map[string]any)
	prompt, _ := sc["prompt"].(string)
	if res["isError"] == true || !strings.Contains(prompt, ids[0][:7]+" | ") || !strings.Contains(prompt, ids[1][:7]+" | ") || sc["file"] != "CLAUDE.md" {
		t.Fatalf("compile_rules without an answer: %v", res)
	}
	bad := c.tool("compile_rules", map[string]any{"answer": map[string]any{"rules": []any{map[string]any{"id": "r00000000", "is": "rule"}}}})
	if bad["isError"] != true {
		t.Errorf("an answer to another prompt was not refused: %v", bad)
	}
	res = c.tool("compile_rules", map[string]any{"answer": heexAnswer(ids)})
	sc, _ = res["structuredContent"].(map[string]any)
	stored, _ := sc["stored"].(map[string]any)
	if res["isError"] == true || stored["checks"] != float64(1) || stored["rules"] != float64(2) {
		t.Fatalf("compile_rules with an answer: %v", res)
	}
	if refused, _ := stored["refused"].([]any); len(refused) != 1 {
		t.Errorf("the refused check is not named: %v", stored)
	}
	if again := c.tool("compile_rules", map[string]any{}); !strings.Contains(fmt.Sprint(again), "nothing to compile") {
		t.Errorf("after the answer, compile_rules still asks: %v", again)
	}
	write := preToolUse(t, e.project, "Write", map[string]string{"file_path": filepath.Join(e.project, "lib", "web", "home.html.heex"), "content": "<div><!-- todo --></div>"})
	if got := e.preToolUse(t, write); !strings.Contains(got, "HEEx") || strings.HasPrefix(got, "ask|") {
		t.Errorf("PreToolUse after the agent's compile: %q", got)
	}
}

// TestInviteNames: the invite names rule files by path, and the rules
// captured from the user's messages as such, not by their source's code.
func TestInviteNames(t *testing.T) {
	tests := []struct {
		files []string
		want  string
	}{
		{[]string{"CLAUDE.md"}, "CLAUDE.md"},
		{[]string{"CLAUDE.md", "record:hook:message"}, "CLAUDE.md and the user's messages"},
		{[]string{"AGENTS.md", "web/CLAUDE.md", "record:cli"}, "AGENTS.md, web/CLAUDE.md and the user's messages"},
	}
	for _, tt := range tests {
		var names []string
		for _, f := range tt.files {
			names = append(names, ruleFileName(f))
		}
		if got := clip.Series(names, "and"); got != tt.want {
			t.Errorf("%q: got %q, want %q", tt.files, got, tt.want)
		}
	}
}
