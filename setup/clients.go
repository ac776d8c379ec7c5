package setup

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// ServerName is the name innate-mcp is registered under in every client.
const ServerName = "innate"

// Scope is where a registration is written: for the user (every project)
// or for one project (files in the project, which a team may commit).
type Scope string

// The scopes.
const (
	ScopeUser    Scope = "user"
	ScopeProject Scope = "project"
)

// HookEvents are the Claude Code events setup installs a hook for, in the
// order they are written, with the tools each one matches ("" for events
// without a matcher).
var HookEvents = []struct{ Event, Matcher string }{
	{"SessionStart", ""},
	{"UserPromptSubmit", ""},
	{"PreToolUse", "Bash|Edit|Write|MultiEdit|NotebookEdit"},
	{"PostToolUse", "Bash"},
	{"Stop", ""},
}

// hookTimeout is the seconds Claude Code gives a hook before it cancels
// it; every hook of innate-mcp answers in well under one.
const hookTimeout = 10

// Client is an agent client setup can register innate-mcp with.
type Client struct {
	// Name is what the user types: claude-code, cursor, codex, gemini,
	// vscode, windsurf.
	Name string
	// Title is the product's name.
	Title string
	// Hooks reports whether setup installs hooks in this client.
	Hooks bool
	// detect reports whether the client is installed for this user.
	detect func(e *Env) bool
	// edits returns the changes that register the server (and hooks).
	edits func(e *Env, o *Options) ([]edit, error)
}

// Clients lists every client setup knows, in the order `all` visits them.
func Clients() []Client {
	return []Client{
		{Name: "claude-code", Title: "Claude Code", Hooks: true, detect: detectClaude, edits: claudeEdits},
		{Name: "cursor", Title: "Cursor", Hooks: true, detect: dirDetector(".cursor"), edits: cursorEdits},
		{Name: "codex", Title: "Codex CLI", detect: detectCodex, edits: codexEdits},
		{Name: "gemini", Title: "Gemini CLI", detect: detectGemini, edits: geminiEdits},
		{Name: "vscode", Title: "VS Code", detect: detectVSCode, edits: vscodeEdits},
		{Name: "windsurf", Title: "Windsurf", detect: dirDetector(filepath.Join(".codeium", "windsurf")), edits: windsurfEdits},
	}
}

// ClientNames returns the names setup accepts, all included.
func ClientNames() []string {
	var out []string
	for _, c := range Clients() {
		out = append(out, c.Name)
	}
	return append(out, "all")
}

func dirDetector(rel string) func(e *Env) bool {
	return func(e *Env) bool { return e.isDir(filepath.Join(e.Home, rel)) }
}

func detectClaude(e *Env) bool {
	return e.onPath("claude") || e.isDir(filepath.Join(e.Home, ".claude")) || e.isFile(filepath.Join(e.Home, ".claude.json"))
}

func detectCodex(e *Env) bool { return e.onPath("codex") || e.isDir(filepath.Join(e.Home, ".codex")) }

func detectGemini(e *Env) bool {
	return e.onPath("gemini") || e.isDir(filepath.Join(e.Home, ".gemini"))
}

func detectVSCode(e *Env) bool {
	return e.onPath("code") || e.isDir(filepath.Dir(vscodeUserDir(e)))
}

// serverEntry is the usual mcpServers entry: command and arguments.
func serverEntry(o *Options) orderedObject {
	return orderedObject{{"command", o.Binary}, {"args", o.serveArgs()}}
}

// claudeEdits registers the server in ~/.claude.json (user scope) or the
// project's .mcp.json, through Claude Code's own CLI when it is on PATH,
// and the hooks in ~/.claude/settings.json or the project's
// .claude/settings.json.
func claudeEdits(e *Env, o *Options) ([]edit, error) {
	var mcpPath string
	switch o.Scope {
	case ScopeUser:
		dir := e.Home
		if d := e.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
			dir = d
		}
		mcpPath = filepath.Join(dir, ".claude.json")
	case ScopeProject:
		mcpPath = filepath.Join(e.Project, ".mcp.json")
	}
	entry := orderedObject{{"type", "stdio"}, {"command", o.Binary}, {"args", o.serveArgs()}, {"env", map[string]any{}}}
	reg := jsonServerEdit(mcpPath, "mcpServers", entry)
	if e.onPath("claude") {
		reg.cli = &cliEdit{
			add: append([]string{"claude", "mcp", "add", "--scope", string(o.Scope), ServerName, "--"},
				append([]string{o.Binary}, o.serveArgs()...)...),
			remove: []string{"claude", "mcp", "remove", "--scope", string(o.Scope), ServerName},
		}
	}
	edits := []edit{reg}
	if o.Hooks || o.Uninstall {
		settings := filepath.Join(e.Home, ".claude", "settings.json")
		if o.Scope == ScopeProject {
			settings = filepath.Join(e.Project, ".claude", "settings.json")
		}
		edits = append(edits, claudeHooksEdit(settings, o))
	}
	return edits, nil
}

func cursorEdits(e *Env, o *Options) ([]edit, error) {
	dir := filepath.Join(e.Home, ".cursor")
	if o.Scope == ScopeProject {
		dir = filepath.Join(e.Project, ".cursor")
	}
	edits := []edit{jsonServerEdit(filepath.Join(dir, "mcp.json"), "mcpServers", serverEntry(o))}
	if o.Hooks || o.Uninstall {
		edits = append(edits, cursorHooksEdit(filepath.Join(dir, "hooks.json"), o))
	}
	return edits, nil
}

// CursorHookEvent is the Cursor event setup installs a hook for: before a
// shell command runs (innate-mcp answers ask when it breaks a rule).
const CursorHookEvent = "beforeShellExecution"

// cursorHooksEdit installs the beforeShellExecution hook in a Cursor
// hooks file ({"version": 1, "hooks": {EVENT: [{"command": …}]}}), and
// removes exactly it.
func cursorHooksEdit(path string, o *Options) edit {
	entry := orderedObject{{"command", hookCommand(o, CursorHookEvent)}}
	ours := func(m map[string]any) bool {
		cmd, _ := m["command"].(string)
		return isOurHook(o, cmd, CursorHookEvent)
	}
	list := []string{"hooks", CursorHookEvent}
	return jsonEdit(path, "hooks",
		func(d *jdoc) error {
			if d.get("version") == nil {
				if _, err := d.set(1, "version"); err != nil {
					return err
				}
			}
			return setListEntry(d, list, entry, ours)
		},
		func(d *jdoc) error { return removeListEntry(d, list, ours) })
}

func geminiEdits(e *Env, o *Options) ([]edit, error) {
	dir := filepath.Join(e.Home, ".gemini")
	if o.Scope == ScopeProject {
		dir = filepath.Join(e.Project, ".gemini")
	}
	return []edit{jsonServerEdit(filepath.Join(dir, "settings.json"), "mcpServers", serverEntry(o))}, nil
}

func windsurfEdits(e *Env, o *Options) ([]edit, error) {
	if o.Scope == ScopeProject {
		return nil, fmt.Errorf("windsurf reads MCP servers only from ~/.codeium/windsurf/mcp_config.json: use --scope user")
	}
	return []edit{jsonServerEdit(filepath.Join(e.Home, ".codeium", "windsurf", "mcp_config.json"), "mcpServers", serverEntry(o))}, nil
}

// vscodeUserDir is VS Code's per-user settings directory.
func vscodeUserDir(e *Env) string {
	switch e.GOOS {
	case "darwin":
		return filepath.Join(e.Home, "Library", "Application Support", "Code", "User")
	case "windows":
		if d := e.Getenv("APPDATA"); d != "" {
			return filepath.Join(d, "Code", "User")
		}
		return filepath.Join(e.Home, "AppData", "Roaming", "Code", "User")
	}
	if d := e.Getenv("XDG_CONFIG_HOME"); d != "" {
		return filepath.Join(d, "Code", "User")
	}
	return filepath.Join(e.Home, ".config", "Code", "User")
}

func vscodeEdits(e *Env, o *Options) ([]edit, error) {
	path := filepath.Join(vscodeUserDir(e), "mcp.json")
	if o.Scope == ScopeProject {
		path = filepath.Join(e.Project, ".vscode", "mcp.json")
	}
	entry := orderedObject{{"type", "stdio"}, {"command", o.Binary}, {"args", o.serveArgs()}}
	return []edit{jsonServerEdit(path, "servers", entry)}, nil
}

func codexEdits(e *Env, o *Options) ([]edit, error) {
	if o.Scope == ScopeProject {
		return nil, fmt.Errorf("codex reads MCP servers from ~/.codex/config.toml only: use --scope user")
	}
	dir := filepath.Join(e.Home, ".codex")
	if d := e.Getenv("CODEX_HOME"); d != "" {
		dir = d
	}
	header := "mcp_servers." + ServerName
	body := tomlServerTable(ServerName, o.Binary, o.serveArgs())
	return []edit{{
		path:  filepath.Join(dir, "config.toml"),
		what:  "MCP server " + ServerName,
		check: func(text []byte) error { return nil },
		apply: func(text []byte) ([]byte, error) {
			out, _ := tomlSetTable(string(text), header, body)
			return []byte(out), nil
		},
		remove: func(text []byte) ([]byte, error) {
			out, _ := tomlRemoveTable(string(text), header)
			return []byte(out), nil
		},
	}}, nil
}

// jsonServerEdit sets KEY.innate to entry in the JSON file at path.
func jsonServerEdit(path, key string, entry orderedObject) edit {
	return jsonEdit(path, "MCP server "+ServerName,
		func(d *jdoc) error { _, err := d.set(entry, key, ServerName); return err },
		func(d *jdoc) error { _, err := d.removeMember(d.get(key), ServerName); return err })
}

func checkJSON(text []byte) error {
	_, err := openJSONC(text)
	return err
}

// hookCommand is the shell command Claude Code runs for event.
func hookCommand(o *Options, event string) string {
	parts := []string{shellQuote(o.Binary)}
	if o.DB != "" {
		parts = append(parts, "--db", shellQuote(o.DB))
	}
	return strings.Join(append(parts, "hook", event), " ")
}

// isOurHook reports whether a hook command is one setup wrote for event:
// it runs `… hook EVENT` with a binary of ours.
func isOurHook(o *Options, command, event string) bool {
	if !strings.HasSuffix(command, " hook "+event) {
		return false
	}
	bin := strings.Fields(command)[0]
	bin = strings.Trim(bin, `'"`)
	return bin == o.Binary || strings.Contains(filepath.Base(bin), "innate")
}

// claudeHooksEdit installs one hook group per event of HookEvents in a
// Claude Code settings file, and removes exactly those groups.
func claudeHooksEdit(path string, o *Options) edit {
	group := func(ev struct{ Event, Matcher string }) orderedObject {
		var g orderedObject
		if ev.Matcher != "" {
			g = append(g, kv{"matcher", ev.Matcher})
		}
		h := orderedObject{{"type", "command"}, {"command", hookCommand(o, ev.Event)}, {"timeout", hookTimeout}}
		if in := mcpHookInput(ev.Event); o.HookTransport == HookMCP && in != nil {
			h = orderedObject{{"type", "mcp_tool"}, {"server", ServerName}, {"tool", HookToolName}, {"input", in}, {"timeout", hookTimeout}}
		}
		return append(g, kv{"hooks", []orderedObject{h}})
	}
	// ours finds the group of event that setup wrote, by either transport.
	ours := func(event string) func(map[string]any) bool {
		return func(m map[string]any) bool {
			hs, _ := m["hooks"].([]any)
			return slices.ContainsFunc(hs, func(h any) bool {
				hm, _ := h.(map[string]any)
				if hm["type"] == "mcp_tool" {
					in, _ := hm["input"].(map[string]any)
					return hm["server"] == ServerName && hm["tool"] == HookToolName && in["event"] == event
				}
				cmd, _ := hm["command"].(string)
				return isOurHook(o, cmd, event)
			})
		}
	}
	return jsonEdit(path, "hooks",
		func(d *jdoc) error {
			for _, ev := range HookEvents {
				if err := setListEntry(d, []string{"hooks", ev.Event}, group(ev), ours(ev.Event)); err != nil {
					return err
				}
			}
			return nil
		},
		func(d *jdoc) error {
			for _, ev := range HookEvents {
				if err := removeListEntry(d, []string{"hooks", ev.Event}, ours(ev.Event)); err != nil {
					return err
				}
			}
			// An emptied hooks object goes with what setup added.
			if h := d.get("hooks"); h != nil && h.kind == '{' && len(h.members) == 0 {
				_, err := d.removeMember(d.root, "hooks")
				return err
			}
			return nil
		})
}

// jsonEdit is an edit of a JSON file by apply and remove functions over
// its parsed text.
func jsonEdit(path, what string, apply, remove func(d *jdoc) error) edit {
	run := func(fn func(d *jdoc) error) func([]byte) ([]byte, error) {
		return func(text []byte) ([]byte, error) {
			d, err := openJSONC(text)
			if err != nil {
				return nil, err
			}
			if err := fn(d); err != nil {
				return nil, err
			}
			return d.text, nil
		}
	}
	return edit{path: path, what: what, check: checkJSON, apply: run(apply), remove: run(remove)}
}

// findEntry returns the index of the element of list arr that ours
// recognises, or -1.
func findEntry(d *jdoc, arr *jnode, ours func(map[string]any) bool) int {
	for i, e := range arr.elems {
		v, err := d.decode(e)
		if m, ok := v.(map[string]any); err == nil && ok && ours(m) {
			return i
		}
	}
	return -1
}

// setListEntry makes the list at path hold entry: in place of the element
// ours recognises (left as written when equal), else appended; the list
// and the objects on the way are created when missing.
func setListEntry(d *jdoc, path []string, entry orderedObject, ours func(map[string]any) bool) error {
	arr := d.get(path...)
	switch {
	case arr == nil:
		_, err := d.set([]orderedObject{entry}, path...)
		return err
	case arr.kind != '[':
		return fmt.Errorf("%s is not a list", strings.Join(path, "."))
	}
	i := findEntry(d, arr, ours)
	if i < 0 {
		return d.appendElem(arr, entry)
	}
	if cur, _ := d.decode(arr.elems[i]); jsonEqual(cur, entry) {
		return nil
	}
	return d.replaceNode(arr.elems[i], entry)
}

// removeListEntry cuts the element ours recognises out of the list at
// path; a list left empty is removed with its key.
func removeListEntry(d *jdoc, path []string, ours func(map[string]any) bool) error {
	arr := d.get(path...)
	if arr == nil || arr.kind != '[' {
		return nil
	}
	i := findEntry(d, arr, ours)
	if i < 0 {
		return nil
	}
	if err := d.removeElem(arr, i); err != nil {
		return err
	}
	if arr = d.get(path...); arr != nil && len(arr.elems) == 0 {
		_, err := d.removeMember(d.get(path[:len(path)-1]...), path[len(path)-1])
		return err
	}
	return nil
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+=:,@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
