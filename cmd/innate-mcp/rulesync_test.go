package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/rulesync"
)

// A query (this test's own, not a sentence of an evaluation set) whose
// rule recall finds when the file is imported by hand; rulesync/testdata
// holds that project's CLAUDE.md.
const (
	syncQuery = "Which command runs the frontend tests after I edit a React page in site/src/pages?"
	syncRule  = "`pnpm test` - Run frontend tests"
	syncEdit  = "`pnpm test:unit` - Run frontend tests (not the e2e suite)"
)

// syncProject is a git repository holding the rules set's CLAUDE.md, an
// AGENTS.md linked to a file outside it, and a 50 MB GEMINI.md.
func syncProject(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	claude, err := os.ReadFile(filepath.Join("..", "..", "rulesync", "testdata", "CLAUDE.md"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "CLAUDE.md"), claude, 0o644); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "private.md")
	if err := os.WriteFile(outside, []byte("- The staging password is hunter2-staging.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "AGENTS.md")); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(root, "GEMINI.md"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(50 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return root
}

// recallContents calls recall (in project, "" for the server's own) and
// returns the lessons' contents, best first.
func recallContents(t *testing.T, c *rpcClient, project string) []string {
	t.Helper()
	args := map[string]any{"query": syncQuery}
	if project != "" {
		args["project"] = project
	}
	res := c.tool("recall", args)
	sc, _ := res["structuredContent"].(map[string]any)
	ls, _ := sc["lessons"].([]any)
	var out []string
	for _, l := range ls {
		out = append(out, l.(map[string]any)["content"].(string))
	}
	return out
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

// TestE2E_ruleFilesSync: through the built binary, with nothing imported,
// the first recall naming a project finds the rule its CLAUDE.md states;
// after an edit the next call past the interval finds the new wording; a
// link out of the root and a 50 MB file are refused with a log line each,
// and serving goes on.
func TestE2E_ruleFilesSync(t *testing.T) {
	root := syncProject(t)
	c := spawnProcess(t, filepath.Join(t.TempDir(), "kb.db"))
	c.initialize()
	if got := first(recallContents(t, c, root)); !strings.Contains(got, syncRule) {
		t.Fatalf("first recall in the project: best lesson %q; want %q (stderr: %s)", got, syncRule, c.stderr.String())
	}
	path := filepath.Join(root, "CLAUDE.md")
	old, _ := os.ReadFile(path)
	if err := os.WriteFile(path, bytes.Replace(old, []byte(syncRule), []byte(syncEdit), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	time.Sleep(rulesync.DefaultInterval + 100*time.Millisecond)
	got := recallContents(t, c, root)
	if !strings.Contains(first(got), syncEdit) {
		t.Fatalf("recall after the edit: best lesson %q; want %q", first(got), syncEdit)
	}
	for _, l := range got {
		if strings.Contains(l, syncRule) {
			t.Errorf("the old wording is still recalled: %q", l)
		}
	}
	logs := c.stderr.String()
	for _, want := range []string{"AGENTS.md", "outside the project root", "GEMINI.md", "more than 4 MiB"} {
		if !strings.Contains(logs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, logs)
		}
	}
	if strings.Contains(logs, "hunter2") {
		t.Errorf("the linked file was read: %s", logs)
	}
}

// TestE2E_ruleSyncOff: INNATE_RULE_SYNC=off, or rule_sync off in the
// project's .innate-mcp/hooks.json, leaves the rule files unread.
func TestE2E_ruleSyncOff(t *testing.T) {
	root := syncProject(t)
	c := spawnProcess(t, filepath.Join(t.TempDir(), "kb.db"), "INNATE_RULE_SYNC=off")
	c.initialize()
	if got := recallContents(t, c, root); len(got) != 0 {
		t.Errorf("with INNATE_RULE_SYNC=off recall found %q", got)
	}
	if err := os.MkdirAll(filepath.Join(root, ".innate-mcp"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".innate-mcp", "hooks.json"), []byte(`{"rule_sync": {"enabled": false}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	c2 := spawn(t, filepath.Join(t.TempDir(), "kb.db"))
	c2.initialize()
	if got := recallContents(t, c2, root); len(got) != 0 {
		t.Errorf("with rule_sync off in the project's hooks.json recall found %q", got)
	}
	// The same project with the file removed is synced, in-process too.
	os.Remove(filepath.Join(root, ".innate-mcp", "hooks.json"))
	c3 := spawn(t, filepath.Join(t.TempDir(), "kb.db"))
	c3.initialize()
	if got := first(recallContents(t, c3, root)); !strings.Contains(got, syncRule) {
		t.Errorf("in-process, with sync on: best lesson %q; want %q", got, syncRule)
	}
}

// TestCLI_statsAndLessonsListShowSyncedFiles: what the server synced is
// in `stats` and under `lessons list`.
func TestCLI_statsAndLessonsListShowSyncedFiles(t *testing.T) {
	root := syncProject(t)
	db := filepath.Join(t.TempDir(), "kb.db")
	c := spawn(t, db)
	c.initialize()
	recallContents(t, c, root)
	c.close()
	want := filepath.Join(root, "CLAUDE.md")
	out, err := runOn(t, db, "", "stats", "--json")
	if err != nil || !strings.Contains(out, `"rule_files"`) || !strings.Contains(out, want) {
		t.Errorf("stats --json: %v\n%s", err, out)
	}
	validateStats(t, out)
	out, err = runOn(t, db, "", "lessons", "list", "--project", root)
	if err != nil || !strings.Contains(out, "RULE FILE") || !strings.Contains(out, want) {
		t.Errorf("lessons list: %v\n%s", err, out)
	}
}

// TestE2E_initializeFastWithRuleSync: the handshake of a server started in
// a project whose rule files were never synced is answered within 100 ms
// (the sync runs after it), and the first call finds the project's rule.
func TestE2E_initializeFastWithRuleSync(t *testing.T) {
	root := syncProject(t)
	for i := range 40 {
		p := filepath.Join(root, ".cursor", "rules", fmt.Sprintf("r%02d.mdc", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(fmt.Sprintf("---\ndescription: module %d\n---\n- Keep module %d's handlers free of SQL; call its store instead.\n", i, i)), 0o644)
	}
	c := spawnProcessIn(t, root, filepath.Join(t.TempDir(), "kb.db"))
	c.call("ping", map[string]any{}) // the process is up
	took := initializeTime(t, c)
	t.Logf("initialize answered in %v with the rule sync on", took)
	if took > 100*time.Millisecond {
		t.Errorf("initialize took %v, over 100 ms", took)
	}
	if got := first(recallContents(t, c, "")); !strings.Contains(got, syncRule) {
		t.Errorf("first recall in the server's own project: best lesson %q; want %q", got, syncRule)
	}
}

// initializeTime sends initialize and returns how long its response took.
func initializeTime(tb testing.TB, c *rpcClient) time.Duration {
	tb.Helper()
	start := time.Now()
	c.initialize()
	return time.Since(start)
}

// BenchmarkInitializeWithRuleSync measures the handshake of a server
// started in a project of 41 rule files never synced: from the request to
// its response, the process already up (target ≤ 100 ms).
func BenchmarkInitializeWithRuleSync(b *testing.B) {
	bin := buildBinary(b)
	root := b.TempDir()
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	claude, _ := os.ReadFile(filepath.Join("..", "..", "rulesync", "testdata", "CLAUDE.md"))
	os.WriteFile(filepath.Join(root, "CLAUDE.md"), claude, 0o644)
	for i := range 40 {
		p := filepath.Join(root, ".cursor", "rules", fmt.Sprintf("r%02d.mdc", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(fmt.Sprintf("- Keep module %d's handlers free of SQL.\n", i)), 0o644)
	}
	var total time.Duration
	n := 0
	for b.Loop() {
		b.StopTimer()
		cmd := exec.Command(bin, "serve")
		cmd.Env = append(os.Environ(), "INNATE_DB="+filepath.Join(b.TempDir(), "kb.db"), "INNATE_LOG_LEVEL=error", "HOME="+b.TempDir())
		cmd.Dir = root
		stdin, _ := cmd.StdinPipe()
		stdout, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		r := bufio.NewReader(stdout)
		fmt.Fprintln(stdin, `{"jsonrpc":"2.0","id":0,"method":"ping"}`)
		if _, err := r.ReadString('\n'); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start := time.Now()
		fmt.Fprintln(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`)
		if _, err := r.ReadString('\n'); err != nil {
			b.Fatal(err)
		}
		total += time.Since(start)
		n++
		b.StopTimer()
		fmt.Fprintln(stdin, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		stdin.Close()
		io.Copy(io.Discard, r)
		cmd.Wait()
		b.StartTimer()
	}
	b.ReportMetric(float64(total.Microseconds())/float64(n)/1000, "ms/initialize")
}

// TestCLI_setupProjectScopeSyncsTheRuleFiles: `setup --scope project`
// imports the project's rule files at once, and says which.
func TestCLI_setupProjectScopeSyncsTheRuleFiles(t *testing.T) {
	root := syncProject(t)
	env := testEnv(t)
	env["XDG_DATA_HOME"] = t.TempDir()
	m := &Main{Getenv: func(k string) string { return env[k] }, Getwd: func() (string, error) { return root, nil }}
	var out, errb bytes.Buffer
	if err := m.Run(context.Background(), []string{"setup", "cursor", "--scope", "project"}, strings.NewReader(""), &out, &errb); err != nil {
		t.Fatalf("setup: %v\n%s", err, errb.String())
	}
	if !strings.Contains(out.String(), "rule file "+filepath.Join(root, "CLAUDE.md")+": ") || !strings.Contains(out.String(), "GEMINI.md: refused") {
		t.Errorf("setup's output does not say what it synced:\n%s", out.String())
	}
	res, err := run(t, env, `{"query": "`+syncQuery+`", "project": "`+root+`"}`, "recall")
	if err != nil || !strings.Contains(res, "pnpm test") {
		t.Errorf("recall after setup: %v\n%s", err, res)
	}
}
