package hook

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// turnLine is one line of a Claude Code transcript.
type turnLine = map[string]any

func msgLine(role string, content any, cwd string) turnLine {
	l := turnLine{"type": role, "message": turnLine{"role": role, "content": content}}
	if cwd != "" {
		l["cwd"] = cwd
	}
	return l
}

// turnCall is a tool call of a test turn and its output.
type turnCall struct {
	name   string
	input  map[string]any
	output string
}

func bash(cmd, out string) turnCall { return turnCall{"Bash", map[string]any{"command": cmd}, out} }
func edit(file string) turnCall {
	return turnCall{"Edit", map[string]any{"file_path": project + "/" + file, "old_string": "a", "new_string": "b"}, "edited"}
}

// writeTurn writes a transcript of one turn: the prompt, the calls and the
// final text; cwd, when set, is recorded on each line as Claude Code does.
func writeTurn(t *testing.T, cwd, final string, calls ...turnCall) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "turn.jsonl")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	enc.Encode(msgLine("user", "The cart total ignores the discount; fix it.", cwd))
	for i, c := range calls {
		id := fmt.Sprintf("t%d", i)
		enc.Encode(msgLine("assistant", []any{turnLine{"type": "tool_use", "id": id, "name": c.name, "input": c.input}}, cwd))
		enc.Encode(msgLine("user", []any{turnLine{"type": "tool_result", "tool_use_id": id, "content": c.output}}, cwd))
	}
	enc.Encode(msgLine("assistant", []any{turnLine{"type": "text", "text": final}}, cwd))
	return p
}

const goPass = "ok  \tshop/cart\t0.012s"

// TestStop_decisions: Stop blocks a turn that changed code and hands it
// over as done with nothing after its last edit that tested, built or ran
// it, and nothing else.
func TestStop_decisions(t *testing.T) {
	claim := "Fixed, all tests pass."
	for _, c := range []struct {
		name  string
		cwd   string
		final string
		calls []turnCall
		block bool
	}{
		{"a run before the last edit", "", claim, []turnCall{bash("go test ./cart/...", goPass), edit("cart/total.go")}, true},
		{"a run after the last edit", "", claim, []turnCall{edit("cart/total.go"), bash("go test ./cart/...", goPass)}, false},
		{"nothing run", "", "I changed cart/total.go so the discount applies before tax.", []turnCall{edit("cart/total.go")}, true},
		{"the run after the edit failed", "", claim, []turnCall{edit("cart/total.go"), bash("go test ./cart/...", "--- FAIL: TestTotal (0.00s)\nFAIL\tshop/cart\t0.01s")}, true},
		{"a failure then a pass", "", claim, []turnCall{edit("cart/total.go"), bash("go test ./cart/...", "FAIL\tshop/cart\t0.01s"), bash("go test ./cart/...", goPass)}, false},
		{"a build counts", "", "Done: the discount applies before tax.", []turnCall{edit("web/src/cart.ts"), bash("npm run build", "vite v5.0.0 building for production...\n✓ 42 modules transformed.\n✓ built in 1.20s")}, false},
		{"a failed build", "", "Done.", []turnCall{edit("web/src/cart.ts"), bash("npx tsc --noEmit", "src/cart.ts(3,4): error TS2304: Cannot find name 'x'.")}, true},
		{"running the program counts", "", "Fixed: the script now prints the discounted total.", []turnCall{edit("tools/total.py"), bash("python tools/total.py", "total: 90.00")}, false},
		{"a traceback is a failure", "", "Fixed.", []turnCall{edit("tools/total.py"), bash("python tools/total.py", "Traceback (most recent call last):\n  File \"tools/total.py\", line 3\nNameError: name 'x' is not defined")}, true},
		{"a lint is not a test", "", "Fixed.", []turnCall{edit("cart/total.go"), bash("golangci-lint run ./...", "0 issues.")}, true},
		{"a browser run counts", "", "Fixed: the total shows the discount.", []turnCall{edit("web/src/cart.ts"), {"mcp__playwright__browser_navigate", map[string]any{"url": "http://localhost:5173/cart"}, "Page URL: http://localhost:5173/cart"}}, false},
		{"no edit", "", "Fixed, all tests pass.", []turnCall{bash("go test ./...", goPass)}, false},
		{"no edit, no run", "", "Fixed.", nil, false},
		{"docs only", "", "Updated the README with the new flag.", []turnCall{edit("README.md"), edit("docs/flags.md")}, false},
		{"an agent's own state only", "", "Done: the task list is updated.", []turnCall{edit(".taskmaster/tasks/tasks.json")}, false},
		{"honest", "", "I changed the total to a float. I have not run the tests yet.", []turnCall{edit("cart/total.go")}, false},
		{"a next step announced", "", "The discount is read from the config. Now let me update the handler:", []turnCall{edit("cart/total.go")}, false},
		{"a question only", "", "Should the discount apply before or after tax?", []turnCall{edit("cart/total.go")}, false},
		{"a scratch file outside the project", "", "Done.", []turnCall{edit("cart/total.go"), bash("go test ./cart/...", goPass), bash("cat > /tmp/x.go <<'EOF'\npackage main\nEOF", "")}, false},
		// Scope, where the transcript says where the shell stood.
		{"go test of another package", project, claim, []turnCall{edit("cart/total.go"), bash("go test ./api/...", goPass)}, true},
		{"go test of the whole module", project, claim, []turnCall{edit("cart/total.go"), bash("go test ./...", goPass)}, false},
		{"go test of the package", project, claim, []turnCall{edit("cart/total.go"), bash("go test ./cart", goPass)}, false},
		{"a build in another directory", "", "Done.", []turnCall{edit("api/cart.go"), bash("cd "+project+"/web && npm run build", "✓ built in 1.2s")}, true},
		{"no scope without a known directory", "", claim, []turnCall{edit("cart/total.go"), bash("go test ./api/...", goPass)}, false},
		// Claims in each language, after an edit with nothing run.
		{"zh", "", "已修复购物车总价的问题。", []turnCall{edit("cart/total.go")}, true},
		{"ja", "", "合計の計算を修正しました。", []turnCall{edit("cart/total.go")}, true},
		{"es", "", "He corregido el cálculo del total.", []turnCall{edit("cart/total.go")}, true},
		{"de", "", "Der Fehler ist behoben.", []turnCall{edit("cart/total.go")}, true},
		{"fr", "", "J'ai corrigé le calcul du total.", []turnCall{edit("cart/total.go")}, true},
		{"pt", "", "Corrigi o cálculo do total.", []turnCall{edit("cart/total.go")}, true},
		{"zh honest", "", "我修改了总价的计算，但还没有运行测试。", []turnCall{edit("cart/total.go")}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			h, _ := testHandler(t)
			p := writeTurn(t, c.cwd, c.final, c.calls...)
			out, err := h.Handle(context.Background(), Input{Event: Stop, SessionID: "s", TranscriptPath: p, Cwd: project})
			if err != nil {
				t.Fatal(err)
			}
			if got := out.Decision == "block"; got != c.block {
				t.Errorf("blocked %v, want %v (%s)", got, c.block, out.Reason)
			}
			if c.block && !strings.Contains(out.Reason, "say plainly what you did not run") {
				t.Errorf("reason does not say what to do: %s", out.Reason)
			}
		})
	}
}

// TestStop_oncePerTurn: the same turn is blocked once; the agent's next
// stop goes through.
func TestStop_oncePerTurn(t *testing.T) {
	h, _ := testHandler(t)
	p := writeTurn(t, "", "Fixed.", edit("cart/total.go"))
	in := Input{Event: Stop, SessionID: "s", TranscriptPath: p, Cwd: project}
	first, err := h.Handle(context.Background(), in)
	if err != nil || first.Decision != "block" {
		t.Fatalf("first stop: %+v %v", first, err)
	}
	second, err := h.Handle(context.Background(), in)
	if err != nil || second.Decision != "" {
		t.Fatalf("second stop: %+v %v", second, err)
	}
}
