package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/embed"
	"github.com/innate-mcp/innate-mcp/hook"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/storage"
)

// hookEnv is a temporary user for hook tests: data and runtime
// directories of its own, a git project with a CLAUDE.md, a database.
type hookEnv struct {
	dir, project, db string
	env              []string
}

func newHookEnv(t testing.TB) *hookEnv {
	t.Helper()
	dir, err := os.MkdirTemp("", "ih") // short: a Unix socket path is limited
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	e := &hookEnv{dir: dir, project: filepath.Join(dir, "shop"), db: filepath.Join(dir, "kb.db")}
	if err := os.MkdirAll(filepath.Join(e.project, ".git"), 0o700); err != nil {
		t.Fatal(err)
	}
	e.env = append(os.Environ(), "INNATE_DB="+e.db, "INNATE_LOG_LEVEL=warn", "XDG_DATA_HOME="+filepath.Join(dir, "data"),
		"XDG_RUNTIME_DIR="+filepath.Join(dir, "run"), "XDG_CONFIG_HOME="+filepath.Join(dir, "config"), "HOME="+dir,
		"INNATE_HOOK_IDLE=10s") // the hook server the test starts exits soon after it

	return e
}

// payload reads a documented payload of package hook's testdata, filled in
// for this environment.
func (e *hookEnv) payload(t testing.TB, name, transcript string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "hook", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	s := strings.ReplaceAll(string(b), "PROJECT", e.project)
	// Absolute, as Claude Code gives it.
	tp, err := filepath.Abs(filepath.Join("..", "..", "hook", "testdata", transcript))
	if err != nil {
		t.Fatal(err)
	}
	s = strings.ReplaceAll(s, "TRANSCRIPT", tp)
	return []byte(s)
}

// run runs the built binary's hook command with payload on stdin and
// returns its stdout, its exit status and how long it took.
func (e *hookEnv) run(t testing.TB, event string, payload []byte, env ...string) ([]byte, int, time.Duration) {
	t.Helper()
	cmd := exec.Command(buildBinary(t), "hook", event)
	cmd.Env = append(append([]string{}, e.env...), env...)
	cmd.Stdin = bytes.NewReader(payload)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	code := 0
	if err != nil {
		code = -1
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
	}
	return out.Bytes(), code, took
}

// importShopRules writes shopRules as the project's CLAUDE.md and imports
// it with the binary.
func (e *hookEnv) importShopRules(t testing.TB) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(e.project, "CLAUDE.md"), []byte(shopRules), 0o600); err != nil {
		t.Fatal(err)
	}
	imp := exec.Command(buildBinary(t), "import", "--project", e.project, filepath.Join(e.project, "CLAUDE.md"))
	imp.Env = e.env
	if out, err := imp.CombinedOutput(); err != nil {
		t.Fatalf("import: %v\n%s", err, out)
	}
}

const shopRules = "# Shop\n\n- Use pnpm, not npm or yarn.\n- Never push directly to main; open a pull request.\n"

// TestHook_endToEnd runs the hook command as Claude Code does: a new
// process per event, the payload on stdin. The first event starts the
// hook server; the next ones are answered by it. Errors of every kind exit
// 0 with no output.
func TestHook_endToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	e := newHookEnv(t)
	e.importShopRules(t)
	pre := e.payload(t, "pre-tool-use-bash.json", "transcript-untested.jsonl")
	for i := range 3 {
		out, code, took := e.run(t, "PreToolUse", pre)
		var o hook.Output
		if code != 0 || json.Unmarshal(out, &o) != nil || o.Specific == nil || o.Specific.PermissionDecision != "ask" ||
			!strings.Contains(o.Specific.PermissionDecisionReason, "Use pnpm, not npm or yarn.") {
			t.Fatalf("call %d: exit %d, output %s", i, code, out)
		}
		t.Logf("PreToolUse call %d: %v", i, took)
		if i == 0 {
			waitForSocket(t, filepath.Join(e.dir, "run", "innate-mcp"))
		}
	}
	// Cursor's shell hook: its own payload and answer.
	out, code, _ := e.run(t, "beforeShellExecution", e.payload(t, "cursor-before-shell.json", "transcript-untested.jsonl"))
	var ca hook.CursorAnswer
	if code != 0 || json.Unmarshal(out, &ca) != nil || ca.Permission != "ask" || !strings.Contains(ca.AgentMessage, "Use pnpm") {
		t.Errorf("Cursor beforeShellExecution: exit %d, %s", code, out)
	}
	// SessionStart does not repeat CLAUDE.md, which Claude Code loads; after
	// a compaction it gives what the checks forbid.
	out, code, _ = e.run(t, "SessionStart", e.payload(t, "session-start.json", "transcript-untested.jsonl"))
	if code != 0 || bytes.Contains(out, []byte("Never push directly to main")) {
		t.Errorf("SessionStart: exit %d, %s", code, out)
	}
	compact := bytes.Replace(e.payload(t, "session-start.json", "transcript-untested.jsonl"), []byte(`"startup"`), []byte(`"compact"`), 1)
	out, code, _ = e.run(t, "SessionStart", compact)
	if code != 0 || !bytes.Contains(out, []byte("after the compaction")) || !bytes.Contains(out, []byte("forbids running `npm")) {
		t.Errorf("SessionStart after a compaction: exit %d, %s", code, out)
	}
	out, code, _ = e.run(t, "Stop", e.payload(t, "stop.json", "transcript-untested.jsonl"))
	if code != 0 || !bytes.Contains(out, []byte(`"decision":"block"`)) {
		t.Errorf("Stop: exit %d, %s", code, out)
	}
	// Failing open: bad input, an unknown event, a payload of another
	// event, an unreadable configuration: exit 0, nothing on stdout.
	cfgDir := filepath.Join(e.project, ".innate-mcp")
	os.MkdirAll(cfgDir, 0o700)
	for _, c := range []struct {
		event   string
		payload []byte
		before  func()
	}{
		{"PreToolUse", []byte("not json"), nil},
		{"Notification", pre, nil},
		{"Stop", pre, nil},
		{"PreToolUse", pre, func() { os.WriteFile(filepath.Join(cfgDir, "hooks.json"), []byte(`{"bogus": true}`), 0o600) }},
	} {
		if c.before != nil {
			c.before()
		}
		out, code, _ := e.run(t, c.event, c.payload)
		if code != 0 || len(out) != 0 {
			t.Errorf("%s with %.20q: exit %d, output %q", c.event, c.payload, code, out)
		}
	}
	// Switched off in the project's configuration: silent.
	os.WriteFile(filepath.Join(cfgDir, "hooks.json"), []byte(`{"pre_tool_use": {"enabled": false}}`), 0o600)
	if out, code, _ := e.run(t, "PreToolUse", pre); code != 0 || len(out) != 0 {
		t.Errorf("disabled: exit %d, %s", code, out)
	}
}

func waitForSocket(t testing.TB, dir string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if m, _ := filepath.Glob(filepath.Join(dir, "hook-*.sock")); len(m) > 0 {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no hook server socket in %s after 60 s", dir)
}

// randomVectors is an embedder under the built-in encoder's name that
// returns random unit vectors: it fills a large database fast, for timing.
type randomVectors struct{ r *rand.Rand }

func (randomVectors) Name() string { return embed.BuiltinName }
func (randomVectors) Dim() int     { return embed.Dim }
func (randomVectors) Remote() bool { return false }
func (f randomVectors) Embed(ctx context.Context, text string) ([]float32, error) {
	v, err := f.EmbedBatch(ctx, []string{text})
	return v[0], err
}
func (f randomVectors) EmbedBatch(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i := range texts {
		v := make([]float32, embed.Dim)
		var n float64
		for j := range v {
			x := f.r.NormFloat64()
			v[j], n = float32(x), n+x*x
		}
		for j := range v {
			v[j] /= float32(math.Sqrt(n))
		}
		out[i] = v
	}
	return out, nil
}

// fillLessons adds n lessons to the database at path: the project's rules,
// then made-up lessons, a third of them global and the rest spread over 20
// projects, the session's project among them.
func fillLessons(b testing.TB, path, project string, n int) {
	b.Helper()
	ctx := context.Background()
	db, err := storage.Open(ctx, path, storage.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	k, err := kb.New(kb.Config{Store: db, Embedder: randomVectors{rand.New(rand.NewPCG(1, 2))}})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := k.ImportRuleFile(ctx, filepath.Join(project, "CLAUDE.md"), project, []byte(shopRules)); err != nil {
		b.Fatal(err)
	}
	var ls []kb.NewLesson
	topics := []string{"billing service", "search frontend", "mobile client", "data pipeline", "auth gateway", "admin console"}
	verbs := []string{"Validate", "Log", "Cache", "Paginate", "Retry", "Document", "Benchmark", "Lint", "Version", "Index"}
	things := []string{"every request", "the responses", "database queries", "user input", "background jobs", "API errors", "config files", "migrations", "feature flags", "webhooks"}
	for i := 0; len(ls) < n; i++ {
		c := fmt.Sprintf("%s %s in the %s before release %s.", verbs[i%len(verbs)], things[(i/len(verbs))%len(things)],
			topics[(i/(len(verbs)*len(things)))%len(topics)], letters(i))
		// A third global, the rest spread over 20 projects, one of them
		// the session's: a user's knowledge base after months of use.
		l := kb.NewLesson{Content: c, Project: fmt.Sprintf("%s-%d", project, i%20), Origin: kb.OriginImported}
		switch {
		case i%3 == 0:
			l.Project = ""
		case i%20 == 0:
			l.Project = project
		}
		ls = append(ls, l)
	}
	if _, err := k.Add(ctx, ls, nil); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkHooks times each hook as Claude Code runs it: a new process per
// event (spawn to exit), on a database of 10k lessons, with the hook
// server running (started once, as the first hook of a session starts
// it). It reports p50 and p95 per event, and the same for an event
// answered with no server (INNATE_HOOK_SERVER=off: the process opens the
// database, loads the encoder and builds the index itself).
func BenchmarkHooks(b *testing.B) {
	e := newHookEnv(b)
	if err := os.WriteFile(filepath.Join(e.project, "CLAUDE.md"), []byte(shopRules), 0o600); err != nil {
		b.Fatal(err)
	}
	fillLessons(b, e.db, e.project, 10000)
	events := []struct{ event, file, transcript string }{
		{"SessionStart", "session-start.json", "transcript-untested.jsonl"},
		{"UserPromptSubmit", "user-prompt-submit.json", "transcript-tested.jsonl"},
		{"PreToolUse", "pre-tool-use-bash.json", "transcript-untested.jsonl"},
		{"PostToolUse", "post-tool-use-bash.json", "transcript-tested.jsonl"},
		{"Stop", "stop.json", "transcript-tested.jsonl"},
	}
	// Start the server, as the first hook of a session does, and wait
	// until it answers.
	e.run(b, "SessionStart", e.payload(b, "session-start.json", "transcript-untested.jsonl"))
	waitForSocket(b, filepath.Join(e.dir, "run", "innate-mcp"))
	time.Sleep(2 * time.Second) // the server loads the encoder and the index before it listens
	took := map[string][]time.Duration{}
	cold := map[string][]time.Duration{}
	i := 0
	for b.Loop() {
		for _, ev := range events {
			_, code, d := e.run(b, ev.event, e.payload(b, ev.file, ev.transcript))
			if code != 0 {
				b.Fatalf("%s: exit %d", ev.event, code)
			}
			took[ev.event] = append(took[ev.event], d)
		}
		if i < 3 {
			for _, ev := range []string{"PreToolUse", "UserPromptSubmit"} {
				f := map[string]string{"PreToolUse": "pre-tool-use-bash.json", "UserPromptSubmit": "user-prompt-submit.json"}[ev]
				_, _, d := e.run(b, ev, e.payload(b, f, "transcript-tested.jsonl"), "INNATE_HOOK_SERVER=off", "XDG_RUNTIME_DIR="+filepath.Join(e.dir, "none"))
				cold[ev] = append(cold[ev], d)
			}
		}
		i++
	}
	q := func(ds []time.Duration, p float64) float64 {
		s := slices.Clone(ds)
		slices.Sort(s)
		return float64(s[int(math.Ceil(p*float64(len(s))))-1].Microseconds()) / 1000
	}
	for _, ev := range events {
		b.ReportMetric(q(took[ev.event], 0.5), ev.event+"-p50-ms")
		b.ReportMetric(q(took[ev.event], 0.95), ev.event+"-p95-ms")
	}
	for ev, ds := range cold {
		b.ReportMetric(q(ds, 0.5), ev+"-noserver-p50-ms")
	}
}

// TestHook_sessionStartSyncsTheRuleFiles: with nothing imported, the
// SessionStart hook reads the project's AGENTS.md into the knowledge base
// and gives its rules (CLAUDE.md's it leaves to Claude Code, which loads
// them itself).
func TestHook_sessionStartSyncsTheRuleFiles(t *testing.T) {
	e := newHookEnv(t)
	if err := os.WriteFile(filepath.Join(e.project, "AGENTS.md"), []byte(shopRules), 0o600); err != nil {
		t.Fatal(err)
	}
	out, code, _ := e.run(t, "SessionStart", e.payload(t, "session-start.json", "transcript-untested.jsonl"), "INNATE_HOOK_SERVER=off")
	if code != 0 || !bytes.Contains(out, []byte("Never push directly to main")) {
		t.Errorf("SessionStart with an AGENTS.md never imported: exit %d, %s", code, out)
	}
	// With the sync off, a new user's session gets nothing of the file.
	e2 := newHookEnv(t)
	if err := os.WriteFile(filepath.Join(e2.project, "AGENTS.md"), []byte(shopRules), 0o600); err != nil {
		t.Fatal(err)
	}
	out, _, _ = e2.run(t, "SessionStart", e2.payload(t, "session-start.json", "transcript-untested.jsonl"), "INNATE_HOOK_SERVER=off", "INNATE_RULE_SYNC=off")
	if bytes.Contains(out, []byte("Never push directly to main")) {
		t.Errorf("SessionStart with INNATE_RULE_SYNC=off gave the file's rules: %s", out)
	}
}
