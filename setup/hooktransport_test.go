package setup

import (
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func claudeVersion(t *testing.T, claude string) string {
	t.Helper()
	out, err := exec.Command(claude, "--version").Output()
	if err != nil {
		return "an unknown version"
	}
	return strings.TrimSpace(string(out))
}

// TestResolveHookTransport: auto is mcp only for a claude on PATH that
// says it is 2.1.118 or later; anything it cannot tell is command.
func TestResolveHookTransport(t *testing.T) {
	for _, c := range []struct {
		name    string
		asked   HookTransport
		onPath  bool
		version string
		runErr  error
		want    HookTransport
		wantErr bool
	}{
		{"new claude", HookAuto, true, "2.1.197 (Claude Code)\n", nil, HookMCP, false},
		{"the first with mcp_tool", "", true, "2.1.118 (Claude Code)", nil, HookMCP, false},
		{"one before", HookAuto, true, "2.1.117 (Claude Code)", nil, HookCommand, false},
		{"an older minor", HookAuto, true, "2.0.999", nil, HookCommand, false},
		{"a newer major", HookAuto, true, "3.0.0", nil, HookMCP, false},
		{"no claude on PATH", HookAuto, false, "", nil, HookCommand, false},
		{"claude fails", HookAuto, true, "", errors.New("exit 1"), HookCommand, false},
		{"no version in its answer", HookAuto, true, "Claude Code", nil, HookCommand, false},
		{"asked for command", HookCommand, true, "2.1.197", nil, HookCommand, false},
		{"asked for mcp", HookMCP, false, "", nil, HookMCP, false},
		{"unknown", "http", true, "2.1.197", nil, "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := &Env{
				LookPath: func(p string) (string, error) {
					if c.onPath {
						return "/usr/bin/" + p, nil
					}
					return "", exec.ErrNotFound
				},
				Run: func(_ context.Context, argv []string) ([]byte, error) {
					if strings.Join(argv, " ") != "claude --version" {
						t.Errorf("ran %q", argv)
					}
					return []byte(c.version), c.runErr
				},
			}
			got, err := resolveHookTransport(context.Background(), e, c.asked)
			if (err != nil) != c.wantErr || got != c.want {
				t.Errorf("got %q, %v; want %q (error %v)", got, err, c.want, c.wantErr)
			}
		})
	}
}

// TestRun_mcpHooks: with the mcp transport, SessionStart and
// UserPromptSubmit stay commands and the other events call the hook tool with each field they need; a
// later setup with the command transport replaces them (no hook twice),
// and uninstall removes either kind.
func TestRun_mcpHooks(t *testing.T) {
	ctx := context.Background()
	e := testEnv(t)
	settingsPath := filepath.Join(e.Home, ".claude", "settings.json")
	write(t, settingsPath, `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}}`)
	o := testOptions(e, "claude-code")
	o.HookTransport = HookMCP
	rep, err := Run(ctx, e, o)
	if err != nil {
		t.Fatal(err)
	}
	if rep.HookTransport != HookMCP {
		t.Errorf("report says %q", rep.HookTransport)
	}
	var doc struct {
		Hooks map[string][]struct {
			Matcher string           `json:"matcher"`
			Hooks   []map[string]any `json:"hooks"`
		} `json:"hooks"`
	}
	parse := func() {
		t.Helper()
		doc.Hooks = nil
		if err := json.Unmarshal([]byte(read(t, settingsPath)), &doc); err != nil {
			t.Fatal(err)
		}
	}
	parse()
	for _, ev := range HookEvents {
		groups := doc.Hooks[ev.Event]
		var ours []map[string]any
		for _, g := range groups {
			for _, h := range g.Hooks {
				if h["command"] != "say done" {
					ours = append(ours, h)
				}
			}
		}
		if len(ours) != 1 {
			t.Fatalf("%s: %d hooks of ours: %v", ev.Event, len(ours), groups)
		}
		h := ours[0]
		if ev.Event == "SessionStart" || ev.Event == "UserPromptSubmit" {
			if h["type"] != "command" || h["command"] != "/opt/innate/bin/innate-mcp hook "+ev.Event {
				t.Errorf("%s: %v", ev.Event, h)
			}
			continue
		}
		in, _ := h["input"].(map[string]any)
		if h["type"] != "mcp_tool" || h["server"] != ServerName || h["tool"] != HookToolName || in["event"] != ev.Event ||
			in["cwd"] != "${cwd}" || in["transcript_path"] != "${transcript_path}" {
			t.Errorf("%s: %v", ev.Event, h)
		}
	}
	if in := doc.Hooks["PostToolUse"][0].Hooks[0]["input"].(map[string]any); in["tool_response"] != "${tool_response}" || in["tool_input"] != "${tool_input}" {
		t.Errorf("PostToolUse input %v", in)
	}
	if len(doc.Hooks["Stop"]) != 2 {
		t.Errorf("the user's own Stop hook is gone: %v", doc.Hooks["Stop"])
	}
	o.HookTransport = HookCommand
	if _, err := Run(ctx, e, o); err != nil {
		t.Fatal(err)
	}
	parse()
	for _, ev := range HookEvents {
		n := 0
		for _, g := range doc.Hooks[ev.Event] {
			for _, h := range g.Hooks {
				if h["type"] == "mcp_tool" {
					t.Errorf("%s: an mcp_tool hook left after setup with the command transport: %v", ev.Event, h)
				}
				if h["command"] == "/opt/innate/bin/innate-mcp hook "+ev.Event {
					n++
				}
			}
		}
		if n != 1 {
			t.Errorf("%s: %d command hooks of ours", ev.Event, n)
		}
	}
	o.HookTransport = HookMCP
	if _, err := Run(ctx, e, o); err != nil {
		t.Fatal(err)
	}
	o.Uninstall = true
	if _, err := Run(ctx, e, o); err != nil {
		t.Fatal(err)
	}
	parse()
	if len(doc.Hooks) != 1 || len(doc.Hooks["Stop"]) != 1 || doc.Hooks["Stop"][0].Hooks[0]["command"] != "say done" {
		t.Errorf("after uninstall: %+v", doc.Hooks)
	}
}

// TestInstalledHookTransport reads which kind of hooks a settings file has.
func TestInstalledHookTransport(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, text string
		want       HookTransport
	}{
		{"mcp", `{"hooks": {"Stop": [{"hooks": [{"type": "mcp_tool", "server": "innate", "tool": "hook", "input": {"event": "Stop"}}]}]}}`, HookMCP},
		{"command", `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "/opt/innate-mcp hook Stop"}]}]}} // a comment`, HookCommand},
		{"another server's tool", `{"hooks": {"Stop": [{"hooks": [{"type": "mcp_tool", "server": "semgrep", "tool": "hook"}]}]}}`, HookAuto},
		{"none", `{"model": "opus"}`, HookAuto},
		{"broken", `{"hooks": `, HookAuto},
	} {
		p := filepath.Join(dir, c.name+".json")
		write(t, p, c.text)
		if got := InstalledHookTransport(p); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	if got := InstalledHookTransport(filepath.Join(dir, "absent.json")); got != HookAuto {
		t.Errorf("no file: %q", got)
	}
}
