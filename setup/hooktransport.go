package setup

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// HookTransport is how Claude Code's hooks reach innate-mcp.
type HookTransport string

// The hook transports.
const (
	// HookAuto is HookMCP when the claude on PATH is MCPHookVersion or
	// later, HookCommand otherwise.
	HookAuto HookTransport = "auto"
	// HookCommand: every event runs `innate-mcp hook EVENT`, a new process.
	HookCommand HookTransport = "command"
	// HookMCP: PreToolUse, PostToolUse and Stop, the events of every tool
	// call and turn, are hooks of type mcp_tool: a call of the hook tool
	// over the session's own connection to the server, with no process to
	// start. SessionStart and UserPromptSubmit stay commands: they come
	// before the session's MCP servers may have connected, and they start
	// the hook server.
	HookMCP HookTransport = "mcp"
)

// MCPHookVersion is the first Claude Code with hooks of type mcp_tool.
var MCPHookVersion = [3]int{2, 1, 118}

// versionTimeout bounds `claude --version`: a claude that does not answer
// in time gets command hooks.
const versionTimeout = 10 * time.Second

// HookToolName is the tool the mcp_tool hooks call (mcpserver.HookTool).
const HookToolName = "hook"

// resolveHookTransport turns HookAuto (or "") into a transport by asking
// the claude on PATH for its version; without one, HookCommand.
func resolveHookTransport(ctx context.Context, e *Env, t HookTransport) (HookTransport, error) {
	switch t {
	case HookCommand, HookMCP:
		return t, nil
	case HookAuto, "":
	default:
		return "", fmt.Errorf("unknown hook transport %q: use auto, command or mcp", t)
	}
	if !e.onPath("claude") {
		return HookCommand, nil
	}
	ctx, cancel := context.WithTimeout(ctx, versionTimeout)
	defer cancel()
	out, err := e.run(ctx, []string{"claude", "--version"})
	if err != nil {
		return HookCommand, nil
	}
	if v, ok := parseVersion(string(out)); ok && slices.Compare(v[:], MCPHookVersion[:]) >= 0 {
		return HookMCP, nil
	}
	return HookCommand, nil
}

var versionRE = regexp.MustCompile(`(\d+)\.(\d+)\.(\d+)`)

// parseVersion reads the first x.y.z of text ("2.1.197 (Claude Code)").
func parseVersion(text string) ([3]int, bool) {
	m := versionRE.FindStringSubmatch(text)
	if m == nil {
		return [3]int{}, false
	}
	var v [3]int
	for i := range v {
		v[i], _ = strconv.Atoi(m[i+1])
	}
	return v, true
}

// mcpHookFields are the fields of each event the hook tool reads, beyond
// session_id, transcript_path and cwd.
var mcpHookFields = map[string][]string{
	"PreToolUse":  {"tool_name", "tool_use_id", "tool_input"},
	"PostToolUse": {"tool_name", "tool_use_id", "tool_input", "tool_response"},
	"Stop":        {"stop_hook_active", "last_assistant_message"},
}

// MCPHookInput is the input of the mcp_tool hook of event: each field of
// the event as Claude Code interpolates it ("${cwd}"; an object comes as
// its JSON). It is nil for an event that stays a command (SessionStart,
// UserPromptSubmit).
func MCPHookInput(event string) map[string]string {
	in := map[string]string{}
	for _, f := range mcpHookInput(event) {
		in[f.key] = f.val.(string)
	}
	if len(in) == 0 {
		return nil
	}
	return in
}

// mcpHookInput is MCPHookInput in the order setup writes it.
func mcpHookInput(event string) orderedObject {
	fields, ok := mcpHookFields[event]
	if !ok {
		return nil
	}
	in := orderedObject{{"event", event}}
	for _, f := range append([]string{"session_id", "transcript_path", "cwd"}, fields...) {
		in = append(in, kv{f, "${" + f + "}"})
	}
	return in
}

// InstalledHookTransport says how the Claude Code hooks in the settings
// file at path reach innate-mcp: HookMCP when one of them calls the hook
// tool, HookCommand when one runs `… hook EVENT`, HookAuto when there is
// none (or the file cannot be read). doctor compares the hooks with what
// setup would write by the same transport, so that a Claude Code update
// does not make hooks that work look wrong.
func InstalledHookTransport(path string) HookTransport {
	b, err := os.ReadFile(path)
	if err != nil {
		return HookAuto
	}
	clean, err := stripJSONC(b)
	if err != nil {
		return HookAuto
	}
	var doc struct {
		Hooks map[string][]struct {
			Hooks []map[string]any `json:"hooks"`
		} `json:"hooks"`
	}
	if json.Unmarshal(clean, &doc) != nil {
		return HookAuto
	}
	found := HookAuto
	for event, groups := range doc.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				if h["type"] == "mcp_tool" && h["server"] == ServerName && h["tool"] == HookToolName {
					return HookMCP
				}
				if cmd, _ := h["command"].(string); strings.HasSuffix(cmd, " hook "+event) && strings.Contains(cmd, "innate") {
					found = HookCommand
				}
			}
		}
	}
	return found
}
