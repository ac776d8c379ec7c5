package hook

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/internal/fakeembed"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/rulesync"
	"github.com/innate-mcp/innate-mcp/storage"
)

// BenchmarkPreToolUse times the PreToolUse handler in-process, as the hook
// server runs it, on a knowledge base of 10k lessons (a third global, the
// rest over 20 projects) with the project's rule files synced before each
// event as the hooks do (a size and time check): the part of a hook's
// latency that is innate-mcp's, without the process spawn. It reports p50
// and p95 in milliseconds.
func BenchmarkPreToolUse(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	root := filepath.Join(dir, "proj")
	if err := os.MkdirAll(filepath.Join(root, ".git"), 0o700); err != nil {
		b.Fatal(err)
	}
	rules, err := os.ReadFile(filepath.Join("testdata", "clean-rules.md"))
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "CLAUDE.md"), rules, 0o600); err != nil {
		b.Fatal(err)
	}
	db, err := storage.Open(ctx, filepath.Join(dir, "kb.db"), storage.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	k, err := kb.New(kb.Config{Store: db, Embedder: fakeembed.New(64)})
	if err != nil {
		b.Fatal(err)
	}
	var ls []kb.NewLesson
	for i := range 10000 {
		l := kb.NewLesson{Content: fmt.Sprintf("Never edit the %s module's %d generated files; run `make gen-%d` before committing.", letters(i), i, i),
			Project: fmt.Sprintf("/p/%d", i%20), Origin: kb.OriginImported}
		if i%3 == 0 {
			l.Project = ""
		}
		ls = append(ls, l)
	}
	if _, err := k.Add(ctx, ls, nil); err != nil {
		b.Fatal(err)
	}
	sync := rulesync.New(k, db, rulesync.Options{Interval: -1})
	h := &Handler{KB: k, Config: DefaultConfig(), Project: func(string) string { return root },
		State: &StateDir{Dir: filepath.Join(dir, "state")}, SyncRules: sync.Seen, Now: time.Now}
	calls := []call{
		bashCall("npm install lodash"), bashCall("pnpm add lodash"), bashCall("git status"),
		{"Edit", `{"file_path":"ROOT/src/a.go","old_string":"a","new_string":"b"}`},
		bashCall("go test ./... 2>&1 | tail -5"),
	}
	h.Handle(ctx, Input{SessionID: "s", Cwd: root, Event: SessionStart})
	var took []time.Duration
	i := 0
	for b.Loop() {
		c := calls[i%len(calls)]
		c.input = strings.ReplaceAll(c.input, "ROOT", root)
		in := c.input_(root, "s")
		start := time.Now()
		if _, err := h.Handle(ctx, in); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(start))
		i++
	}
	slices.Sort(took)
	ms := func(p float64) float64 { return float64(took[int(p*float64(len(took)-1))].Microseconds()) / 1000 }
	b.ReportMetric(ms(0.5), "p50-ms")
	b.ReportMetric(ms(0.95), "p95-ms")
}

// letters spells n in letters, so that generated lessons differ by a word.
func letters(n int) string {
	s := ""
	for {
		s = string(rune('a'+n%26)) + s
		n /= 26
		if n == 0 {
			return s
		}
	}
}

// BenchmarkStop times the Stop handler in-process on a long turn: 300 tool
// calls (edits, test runs with 4 KB of output each, and reads) in a
// transcript with 2 MB of earlier session before the turn, ending in a
// claim. It reports p50 and p95 in milliseconds.
func BenchmarkStop(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	root := filepath.Join(dir, "proj")
	var lines []turnLine
	filler := strings.Repeat("earlier output line\n", 200)
	for i := 0; len(lines) < 500; i++ {
		lines = append(lines, msgLine("user", fmt.Sprintf("earlier request %d", i), ""),
			msgLine("assistant", []any{turnLine{"type": "text", "text": filler}}, ""))
	}
	lines = append(lines, msgLine("user", "Fix the discount rounding in the cart.", ""))
	out := strings.Repeat("=== RUN   TestTotal\n--- PASS: TestTotal (0.00s)\n", 80) + "ok  \tshop/cart\t0.2s\n"
	for i := range 300 {
		id := fmt.Sprintf("t%d", i)
		var c turnCall
		switch i % 3 {
		case 0:
			c = turnCall{"Edit", map[string]any{"file_path": root + fmt.Sprintf("/cart/f%d.go", i), "old_string": "a", "new_string": "b"}, "edited"}
		case 1:
			c = turnCall{"Bash", map[string]any{"command": "cd " + root + " && go test ./cart/... 2>&1 | tail -80"}, out}
		default:
			c = turnCall{"Read", map[string]any{"file_path": root + "/cart/total.go"}, filler}
		}
		lines = append(lines, msgLine("assistant", []any{turnLine{"type": "tool_use", "id": id, "name": c.name, "input": c.input}}, root),
			msgLine("user", []any{turnLine{"type": "tool_result", "tool_use_id": id, "content": c.output}}, root))
	}
	lines = append(lines, msgLine("assistant", []any{turnLine{"type": "text", "text": "Fixed: the discount is rounded to cents and all tests pass."}}, root))
	p := filepath.Join(dir, "t.jsonl")
	f, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	enc := json.NewEncoder(f)
	for _, l := range lines {
		enc.Encode(l)
	}
	f.Close()
	h := &Handler{Config: DefaultConfig(), Project: func(string) string { return root }, Now: time.Now}
	var took []time.Duration
	for b.Loop() {
		start := time.Now()
		if _, err := h.Handle(ctx, Input{SessionID: "s", Cwd: root, Event: Stop, TranscriptPath: p}); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(start))
	}
	slices.Sort(took)
	ms := func(q float64) float64 { return float64(took[int(q*float64(len(took)-1))].Microseconds()) / 1000 }
	b.ReportMetric(ms(0.5), "p50-ms")
	b.ReportMetric(ms(0.95), "p95-ms")
}
