package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/hook"
	"github.com/innate-mcp/innate-mcp/mcpserver"
	"github.com/innate-mcp/innate-mcp/setup"
)

// interpolate fills an mcp_tool hook's input from an event's payload as
// Claude Code does: each "${a.b}" in a string becomes the payload's value
// at that path, a string as it is, an object or array as its JSON, any
// other value as its text, and a missing one as "".
func interpolate(t testing.TB, input map[string]string, payload []byte) map[string]any {
	t.Helper()
	var p map[string]any
	if err := json.Unmarshal(payload, &p); err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`\$\{([a-zA-Z_][a-zA-Z0-9_.]*)\}`)
	out := map[string]any{}
	for k, v := range input {
		out[k] = re.ReplaceAllStringFunc(v, func(m string) string {
			var cur any = p
			for _, part := range strings.Split(re.FindStringSubmatch(m)[1], ".") {
				obj, ok := cur.(map[string]any)
				if !ok {
					return ""
				}
				cur = obj[part]
			}
			switch x := cur.(type) {
			case nil:
				return ""
			case string:
				return x
			case bool:
				return strconv.FormatBool(x)
			case float64:
				return strconv.FormatFloat(x, 'f', -1, 64)
			default:
				b, _ := json.Marshal(x)
				return string(b)
			}
		})
	}
	return out
}

// hookOverMCP calls the hook tool of srv with the input setup writes for
// event, filled from payload, and returns the answer's text.
func hookOverMCP(t testing.TB, srv *rpcClient, event string, payload []byte) string {
	t.Helper()
	res := srv.tool(mcpserver.HookTool, interpolate(t, setup.MCPHookInput(event), payload))
	if res["isError"] == true {
		t.Fatalf("%s over MCP: %v", event, res)
	}
	content, _ := res["content"].([]any)
	if len(content) != 1 {
		t.Fatalf("%s over MCP: content %v", event, res)
	}
	text, _ := content[0].(map[string]any)["text"].(string)
	return text
}

func decodeOutput(t testing.TB, what string, b []byte) hook.Output {
	t.Helper()
	var o hook.Output
	if len(bytes.TrimSpace(b)) == 0 {
		return o
	}
	if err := json.Unmarshal(b, &o); err != nil {
		t.Fatalf("%s: %v: %s", what, err, b)
	}
	return o
}

// TestHook_overMCP: Claude Code's mcp_tool hooks, as setup writes them
// and Claude Code fills them in, get from the session's own server what
// the command hook prints for the same event: the ask before npm, the
// block of an unverified "done". The tool is not listed to the agent.
func TestHook_overMCP(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	e := newHookEnv(t)
	e.importShopRules(t)
	srv := spawnProcessIn(t, e.project, e.db, e.env...)
	srv.initialize()
	list := srv.call("tools/list", map[string]any{})
	tools, _ := list["result"].(map[string]any)["tools"].([]any)
	if len(tools) == 0 || slices.ContainsFunc(tools, func(x any) bool { return x.(map[string]any)["name"] == mcpserver.HookTool }) {
		t.Fatalf("tools/list: %d tools, the hook tool listed or nothing listed: %v", len(tools), list)
	}
	for _, c := range []struct{ event, file, transcript string }{
		{"PreToolUse", "pre-tool-use-bash.json", "transcript-untested.jsonl"},
		{"PostToolUse", "post-tool-use-bash.json", "transcript-tested.jsonl"},
		{"Stop", "stop.json", "transcript-untested.jsonl"},
		{"Stop", "stop.json", "transcript-tested.jsonl"},
	} {
		payload := e.payload(t, c.file, c.transcript)
		// Each side its own session: a Stop blocks once per session's turn.
		viaMCP := bytes.Replace(payload, []byte(`"9f1c2e5a-`), []byte(`"mcp00000-`), 1)
		out, code, _ := e.run(t, c.event, payload, "INNATE_HOOK_SERVER=off")
		if code != 0 {
			t.Fatalf("%s: exit %d", c.event, code)
		}
		want := decodeOutput(t, c.event+" by command", out)
		got := decodeOutput(t, c.event+" over MCP", []byte(hookOverMCP(t, srv, c.event, viaMCP)))
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s with %s: over MCP %+v, by command %+v (server stderr: %s)", c.event, c.transcript, got, want, srv.stderr.String())
		}
		switch {
		case c.event == "PreToolUse" && (got.Specific == nil || got.Specific.PermissionDecision != "ask"):
			t.Errorf("PreToolUse of npm install over MCP: %+v, want an ask", got)
		case c.event == "Stop" && c.transcript == "transcript-untested.jsonl" && got.Decision != "block":
			t.Errorf("Stop after an unverified claim over MCP: %+v, want a block", got)
		case c.event == "Stop" && c.transcript == "transcript-tested.jsonl" && !got.Empty():
			t.Errorf("Stop after a verified claim over MCP: %+v, want nothing", got)
		}
	}
	// A call that is not a hook event is refused with what to send.
	res := srv.tool(mcpserver.HookTool, map[string]any{"event": "Notification"})
	if res["isError"] != true || !strings.Contains(fmt.Sprint(res["content"]), "event must be one of") {
		t.Errorf("an unknown event: %v", res)
	}
}

// BenchmarkHookOverMCP measures Claude Code's mcp_tool hooks end to end:
// a tools/call of the hook tool written to the server process's stdin
// until its answer is read from its stdout, with 10,000 lessons.
func BenchmarkHookOverMCP(b *testing.B) {
	e := newHookEnv(b)
	e.importShopRules(b)
	fillLessons(b, e.db, e.project, 10000)
	srv := spawnProcessIn(b, e.project, e.db, e.env...)
	srv.initialize()
	events := []struct{ event, file, transcript string }{
		{"PreToolUse", "pre-tool-use-bash.json", "transcript-untested.jsonl"},
		{"PostToolUse", "post-tool-use-bash.json", "transcript-tested.jsonl"},
		{"Stop", "stop.json", "transcript-tested.jsonl"},
	}
	// The first call waits for the encoder and the index, as the first
	// hook of a session would after the server's start.
	for _, ev := range events {
		hookOverMCP(b, srv, ev.event, e.payload(b, ev.file, ev.transcript))
	}
	took := map[string][]time.Duration{}
	for b.Loop() {
		for _, ev := range events {
			p := e.payload(b, ev.file, ev.transcript)
			start := time.Now()
			hookOverMCP(b, srv, ev.event, p)
			took[ev.event] = append(took[ev.event], time.Since(start))
		}
	}
	for _, ev := range events {
		s := slices.Clone(took[ev.event])
		slices.Sort(s)
		q := func(p float64) float64 { return float64(s[int(math.Ceil(p*float64(len(s))))-1].Microseconds()) / 1000 }
		b.ReportMetric(q(0.5), ev.event+"-p50-ms")
		b.ReportMetric(q(0.95), ev.event+"-p95-ms")
	}
}

// BenchmarkProcessStart measures what every command hook pays before it
// does anything: `innate-mcp version`, spawn to exit, with the binary
// built as the tests build it (static).
func BenchmarkProcessStart(b *testing.B) {
	bin := buildBinary(b)
	var took []time.Duration
	for b.Loop() {
		start := time.Now()
		if out, err := exec.Command(bin, "version").CombinedOutput(); err != nil {
			b.Fatalf("version: %v\n%s", err, out)
		}
		took = append(took, time.Since(start))
	}
	slices.Sort(took)
	q := func(p float64) float64 {
		return float64(took[int(math.Ceil(p*float64(len(took))))-1].Microseconds()) / 1000
	}
	b.ReportMetric(q(0.5), "p50-ms")
	b.ReportMetric(q(0.95), "p95-ms")
}
