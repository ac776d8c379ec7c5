package setup

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// testEnv is a temporary home and project with no client CLI on PATH.
func testEnv(t *testing.T) *Env {
	t.Helper()
	root := t.TempDir()
	home := filepath.Join(root, "home")
	proj := filepath.Join(root, "proj")
	for _, d := range []string{home, proj} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	return &Env{
		Home: home, Project: proj, GOOS: "linux",
		Getenv:   func(string) string { return "" },
		LookPath: func(p string) (string, error) { return "", exec.ErrNotFound },
		Now:      func() time.Time { return time.Date(2026, 11, 24, 4, 0, 0, 0, time.UTC) },
	}
}

func testOptions(e *Env, clients ...string) Options {
	return Options{
		Clients: clients, Scope: ScopeUser, Hooks: true,
		Binary:    "/opt/innate/bin/innate-mcp",
		StateFile: filepath.Join(e.Home, ".local", "share", "innate-mcp", "setup.json"),
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// snapshot returns every regular file under dir (backups and setup's state
// left out) with its bytes.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.Contains(p, ".innate-backup-") || strings.HasSuffix(p, "setup.json") {
			return err
		}
		b, err := os.ReadFile(p)
		out[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Existing configuration files of every client, with settings, comments
// and formatting of their own that setup must keep.
var existing = map[string]string{
	".claude.json": `{
  "numStartups": 3,
  "mcpServers": {
    "github": {
      "type": "stdio",
      "command": "gh-mcp",
      "args": []
    }
  }
}
`,
	".claude/settings.json": `{
    "model": "opus",
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [ { "type": "command", "command": "~/bin/guard.sh" } ]
            }
        ]
    }
}
`,
	".cursor/mcp.json": `// Cursor servers
{
	"mcpServers": {
		"db": { "command": "db-mcp", "args": ["--ro"] }, // read only
	},
}
`,
	".codex/config.toml": `model = "o3"  # the default

[mcp_servers.docs]
command = "docs-mcp"
args = []

# profiles below
[profiles.fast]
model = "o4-mini"
`,
	".cursor/hooks.json": `{
  "version": 1,
  "hooks": {
    "afterFileEdit": [{ "command": "./format.sh" }]
  }
}
`,
	".gemini/settings.json": `{"theme": "Dracula"}`,
	".config/Code/User/mcp.json": `{
  // VS Code user servers
  "servers": {},
  "inputs": []
}
`,
	".codeium/windsurf/mcp_config.json": "{\n  \"mcpServers\": {}\n}\n",
}

func TestRun_everyClientKeepsTheRestAndUninstallsByteForByte(t *testing.T) {
	ctx := context.Background()
	for _, fresh := range []bool{false, true} {
		name := "existing files"
		if fresh {
			name = "no files yet"
		}
		t.Run(name, func(t *testing.T) {
			e := testEnv(t)
			if !fresh {
				for rel, text := range existing {
					write(t, filepath.Join(e.Home, rel), text)
				}
			}
			before := snapshot(t, e.Home)
			o := testOptions(e, "claude-code", "cursor", "codex", "gemini", "vscode", "windsurf")
			rep, err := Run(ctx, e, o)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Changes) != 8 {
				t.Fatalf("%d changes, want 8 (six servers, Claude Code's and Cursor's hooks): %+v", len(rep.Changes), rep.Changes)
			}
			for _, c := range rep.Changes {
				if c.Action != "added" {
					t.Errorf("%s %s: %s, want added", c.Client, c.File, c.Action)
				}
				if !fresh && c.Backup == "" {
					t.Errorf("%s: no backup of %s", c.Client, c.File)
				}
				if !fresh && c.Backup != "" && read(t, c.Backup) != before[c.File] {
					t.Errorf("%s: backup %s is not the original", c.Client, c.Backup)
				}
			}
			checkRegistered(t, e, o)
			if !fresh {
				// Everything that was there is still there.
				for _, keep := range []struct{ rel, text string }{
					{".claude.json", `"numStartups": 3`}, {".claude.json", `"command": "gh-mcp"`},
					{".claude/settings.json", `~/bin/guard.sh`}, {".claude/settings.json", `"model": "opus"`},
					{".cursor/mcp.json", "// Cursor servers"}, {".cursor/mcp.json", "// read only"},
					{".cursor/hooks.json", `"command": "./format.sh"`},
					{".codex/config.toml", "# profiles below\n[profiles.fast]"}, {".codex/config.toml", `model = "o3"  # the default`},
					{".gemini/settings.json", `"theme": "Dracula"`},
					{".config/Code/User/mcp.json", "// VS Code user servers"},
				} {
					if got := read(t, filepath.Join(e.Home, keep.rel)); !strings.Contains(got, keep.text) {
						t.Errorf("%s lost %q:\n%s", keep.rel, keep.text, got)
					}
				}
			}

			// A second run changes nothing and says so.
			after := snapshot(t, e.Home)
			rep, err = Run(ctx, e, o)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Changed() {
				t.Errorf("second run changed %+v", rep.Changes)
			}
			if got := snapshot(t, e.Home); !equalMaps(got, after) {
				t.Error("second run changed files")
			}

			// Uninstall restores every file byte for byte.
			o.Uninstall = true
			if _, err := Run(ctx, e, o); err != nil {
				t.Fatal(err)
			}
			if got := snapshot(t, e.Home); !equalMaps(got, before) {
				for p, text := range got {
					if before[p] != text {
						t.Errorf("%s after uninstall:\n%s\nwant:\n%s", p, text, before[p])
					}
				}
				for p := range before {
					if _, ok := got[p]; !ok {
						t.Errorf("%s is gone", p)
					}
				}
			}
			if _, err := os.Stat(o.StateFile); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("setup state left behind: %v", err)
			}
		})
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// checkRegistered parses each client's file and finds innate registered
// with the binary and the hooks installed.
func checkRegistered(t *testing.T, e *Env, o Options) {
	t.Helper()
	for _, c := range []struct{ rel, key string }{
		{".claude.json", "mcpServers"}, {".cursor/mcp.json", "mcpServers"}, {".gemini/settings.json", "mcpServers"},
		{".config/Code/User/mcp.json", "servers"}, {".codeium/windsurf/mcp_config.json", "mcpServers"},
	} {
		d, err := openJSONC([]byte(read(t, filepath.Join(e.Home, c.rel))))
		if err != nil {
			t.Fatalf("%s: %v", c.rel, err)
		}
		v, err := d.decode(d.get(c.key, ServerName))
		if err != nil || v == nil {
			t.Errorf("%s: no %s.%s (%v)", c.rel, c.key, ServerName, err)
			continue
		}
		m := v.(map[string]any)
		if m["command"] != o.Binary || len(m["args"].([]any)) != 1 || m["args"].([]any)[0] != "serve" {
			t.Errorf("%s: entry %v", c.rel, m)
		}
	}
	var cursorHooks struct {
		Version int `json:"version"`
		Hooks   map[string][]struct {
			Command string `json:"command"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal([]byte(read(t, filepath.Join(e.Home, ".cursor/hooks.json"))), &cursorHooks); err != nil {
		t.Fatal(err)
	}
	if hs := cursorHooks.Hooks[CursorHookEvent]; cursorHooks.Version != 1 || len(hs) != 1 || hs[0].Command != o.Binary+" hook "+CursorHookEvent {
		t.Errorf("Cursor hooks: %+v", cursorHooks)
	}
	toml := read(t, filepath.Join(e.Home, ".codex/config.toml"))
	if !strings.Contains(toml, "[mcp_servers.innate]\ncommand = \"/opt/innate/bin/innate-mcp\"\nargs = [\"serve\"]\n") {
		t.Errorf("codex config:\n%s", toml)
	}
	var settings struct {
		Hooks map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []struct {
				Type    string `json:"type"`
				Command string `json:"command"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal([]byte(read(t, filepath.Join(e.Home, ".claude/settings.json"))), &settings); err != nil {
		t.Fatal(err)
	}
	for _, ev := range HookEvents {
		found := false
		for _, g := range settings.Hooks[ev.Event] {
			for _, h := range g.Hooks {
				if h.Command == o.Binary+" hook "+ev.Event {
					found = true
					if g.Matcher != ev.Matcher {
						t.Errorf("%s matcher %q, want %q", ev.Event, g.Matcher, ev.Matcher)
					}
				}
			}
		}
		if !found {
			t.Errorf("no %s hook in %+v", ev.Event, settings.Hooks[ev.Event])
		}
	}
}

func TestRun_uninstallAfterOtherChangesRemovesOnlyOurs(t *testing.T) {
	ctx := context.Background()
	e := testEnv(t)
	path := filepath.Join(e.Home, ".cursor/mcp.json")
	write(t, path, existing[".cursor/mcp.json"])
	o := testOptions(e, "cursor")
	if _, err := Run(ctx, e, o); err != nil {
		t.Fatal(err)
	}
	// The user adds a server after setup.
	d, err := openJSONC([]byte(read(t, path)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.set(map[string]any{"command": "later-mcp"}, "mcpServers", "later"); err != nil {
		t.Fatal(err)
	}
	write(t, path, string(d.text))
	o.Uninstall = true
	rep, err := Run(ctx, e, o)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Changes[0].Action != "removed" {
		t.Errorf("action %s, want removed", rep.Changes[0].Action)
	}
	got := read(t, path)
	if strings.Contains(got, ServerName) || !strings.Contains(got, "later-mcp") || !strings.Contains(got, "// read only") {
		t.Errorf("after uninstall:\n%s", got)
	}
}

func TestRun_dryRunWritesNothingAndShowsTheDiff(t *testing.T) {
	e := testEnv(t)
	write(t, filepath.Join(e.Home, ".gemini/settings.json"), existing[".gemini/settings.json"])
	before := snapshot(t, e.Home)
	o := testOptions(e, "gemini")
	o.DryRun = true
	rep, err := Run(context.Background(), e, o)
	if err != nil {
		t.Fatal(err)
	}
	if got := snapshot(t, e.Home); !equalMaps(got, before) {
		t.Error("dry run wrote files")
	}
	if len(rep.Changes) != 1 || !strings.Contains(rep.Changes[0].Diff, `+  "mcpServers": {`) || !strings.Contains(rep.Changes[0].Diff, `-{"theme": "Dracula"}`) {
		t.Errorf("diff:\n%s", rep.Changes[0].Diff)
	}
}

func TestRun_refusesAFileItCannotParse(t *testing.T) {
	e := testEnv(t)
	write(t, filepath.Join(e.Home, ".cursor/mcp.json"), existing[".cursor/mcp.json"])
	bad := filepath.Join(e.Home, ".gemini/settings.json")
	write(t, bad, `{"theme": "Dracula",, }`)
	before := snapshot(t, e.Home)
	_, err := Run(context.Background(), e, testOptions(e, "cursor", "gemini"))
	if err == nil || !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), "line 1") {
		t.Fatalf("err = %v, want a syntax error naming %s", err, bad)
	}
	if got := snapshot(t, e.Home); !equalMaps(got, before) {
		t.Error("files written although one could not be parsed")
	}
}

func TestRun_allSetsUpOnlyInstalledClients(t *testing.T) {
	e := testEnv(t)
	if err := os.MkdirAll(filepath.Join(e.Home, ".cursor"), 0o700); err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), e, testOptions(e, "all"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Changes) != 2 || rep.Changes[0].Client != "cursor" || rep.Changes[1].What != "hooks" || len(rep.Skipped) != 5 {
		t.Errorf("changes %+v, skipped %v", rep.Changes, rep.Skipped)
	}
	e2 := testEnv(t)
	if _, err := Run(context.Background(), e2, testOptions(e2)); err == nil || !strings.Contains(err.Error(), "name one") {
		t.Errorf("no client installed: err = %v", err)
	}
	if _, err := Run(context.Background(), e2, testOptions(e2, "emacs")); !errors.Is(err, ErrUnknownClient) {
		t.Errorf("unknown client: err = %v", err)
	}
}

func TestRun_projectScopeAndDB(t *testing.T) {
	e := testEnv(t)
	o := testOptions(e, "claude-code", "vscode", "cursor")
	o.Scope = ScopeProject
	o.DB = "/data/team kb.db"
	if _, err := Run(context.Background(), e, o); err != nil {
		t.Fatal(err)
	}
	mcp := read(t, filepath.Join(e.Project, ".mcp.json"))
	if !strings.Contains(mcp, `"--db",`) || !strings.Contains(mcp, `"/data/team kb.db",`) {
		t.Errorf(".mcp.json:\n%s", mcp)
	}
	settings := read(t, filepath.Join(e.Project, ".claude/settings.json"))
	if !strings.Contains(settings, `/opt/innate/bin/innate-mcp --db '/data/team kb.db' hook Stop`) {
		t.Errorf("settings:\n%s", settings)
	}
	if !strings.Contains(read(t, filepath.Join(e.Project, ".vscode/mcp.json")), `"type": "stdio"`) {
		t.Error("no VS Code project file")
	}
	for _, c := range []string{"codex", "windsurf"} {
		o := testOptions(e, c)
		o.Scope = ScopeProject
		if _, err := Run(context.Background(), e, o); err == nil || !strings.Contains(err.Error(), "--scope user") {
			t.Errorf("%s project scope: err = %v", c, err)
		}
	}
}

func TestRun_noHooks(t *testing.T) {
	e := testEnv(t)
	o := testOptions(e, "claude-code")
	o.Hooks = false
	rep, err := Run(context.Background(), e, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Changes) != 1 {
		t.Errorf("changes %+v, want the server only", rep.Changes)
	}
	if _, err := os.Stat(filepath.Join(e.Home, ".claude/settings.json")); !errors.Is(err, os.ErrNotExist) {
		t.Error("settings written with --no-hooks")
	}
}

// TestRun_updatesAMovedBinary: setup after the binary moved rewrites its
// entries in place, and uninstall still restores the first original.
func TestRun_updatesAMovedBinary(t *testing.T) {
	ctx := context.Background()
	e := testEnv(t)
	for rel, text := range existing {
		write(t, filepath.Join(e.Home, rel), text)
	}
	before := snapshot(t, e.Home)
	o := testOptions(e, "claude-code", "codex")
	if _, err := Run(ctx, e, o); err != nil {
		t.Fatal(err)
	}
	o.Binary = "/usr/local/bin/innate-mcp"
	rep, err := Run(ctx, e, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rep.Changes {
		if c.Action != "updated" {
			t.Errorf("%s: %s, want updated", c.File, c.Action)
		}
	}
	settings := read(t, filepath.Join(e.Home, ".claude/settings.json"))
	if strings.Contains(settings, "/opt/innate") || strings.Count(settings, "hook Stop") != 1 {
		t.Errorf("settings after the move:\n%s", settings)
	}
	if toml := read(t, filepath.Join(e.Home, ".codex/config.toml")); strings.Count(toml, "[mcp_servers.innate]") != 1 || !strings.Contains(toml, "/usr/local/bin/innate-mcp") {
		t.Errorf("codex after the move:\n%s", toml)
	}
	o.Uninstall = true
	if _, err := Run(ctx, e, o); err != nil {
		t.Fatal(err)
	}
	got := snapshot(t, e.Home)
	for _, rel := range []string{".claude.json", ".claude/settings.json", ".codex/config.toml"} {
		p := filepath.Join(e.Home, rel)
		if got[p] != before[p] {
			t.Errorf("%s not restored:\n%s", rel, got[p])
		}
	}
}

// TestRun_claudeCLI drives the real Claude Code CLI when it is installed:
// setup registers through `claude mcp add`, `claude mcp list` reports the
// server connected, a second setup changes nothing, and uninstall restores
// the files byte for byte.
func TestRun_claudeCLI(t *testing.T) {
	claude, err := exec.LookPath("claude")
	if err != nil {
		t.Skip("the Claude Code CLI is not installed (npm install -g @anthropic-ai/claude-code)")
	}
	if testing.Short() {
		t.Skip("runs the Claude Code CLI")
	}
	ctx := context.Background()
	bin := filepath.Join(t.TempDir(), "innate-mcp")
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "../cmd/innate-mcp").CombinedOutput(); err != nil {
		t.Fatalf("build innate-mcp: %v\n%s", err, out)
	}
	e := testEnv(t)
	e.LookPath = exec.LookPath
	write(t, filepath.Join(e.Home, ".claude.json"), existing[".claude.json"])
	before := snapshot(t, e.Home)
	o := testOptions(e, "claude-code")
	o.Binary = bin
	rep, err := Run(ctx, e, o)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Changes[0].Via != "claude mcp add" {
		t.Errorf("registered %+v, want through claude mcp add", rep.Changes[0])
	}
	cmd := exec.CommandContext(ctx, claude, "mcp", "list")
	cmd.Env = append(os.Environ(), "HOME="+e.Home)
	cmd.Dir = e.Project
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), ServerName+": ") || !strings.Contains(string(out), "Connected") {
		t.Fatalf("claude mcp list: %v\n%s", err, out)
	}
	settings := read(t, filepath.Join(e.Home, ".claude", "settings.json"))
	if rep.HookTransport != HookMCP {
		t.Errorf("hook transport %q with %s, want mcp", rep.HookTransport, claudeVersion(t, claude))
	}
	for _, ev := range HookEvents {
		want := bin + " hook " + ev.Event
		if MCPHookInput(ev.Event) != nil {
			want = `"event": "` + ev.Event + `"`
		}
		if !strings.Contains(settings, want) {
			t.Errorf("settings.json lacks the %s hook (%s):\n%s", ev.Event, want, settings)
		}
	}
	if rep, err := Run(ctx, e, o); err != nil || rep.Changed() {
		t.Errorf("second setup: %v %+v", err, rep.Changes)
	}
	o.Uninstall = true
	if _, err := Run(ctx, e, o); err != nil {
		t.Fatal(err)
	}
	got := snapshot(t, e.Home)
	for _, rel := range []string{".claude.json", ".claude/settings.json"} {
		p := filepath.Join(e.Home, rel)
		if got[p] != before[p] {
			t.Errorf("%s not restored:\n%s\nwant:\n%s", rel, got[p], before[p])
		}
	}
}
