package hook

import (
	"bufio"
	"bytes"
	"encoding/json"
	"github.com/innate-mcp/innate-mcp/action"
	"io"
	"os"
	"strings"
)

// Claude Code writes a session's transcript as JSON lines: one entry per
// message, {"type": "user"|"assistant", "message": {"role", "content"}},
// where content is a string or a list of blocks: {"type": "text", "text"},
// {"type": "tool_use", "id", "name", "input"} in the assistant's messages,
// {"type": "tool_result", "tool_use_id", "content", "is_error"} in the
// user's. Other entry types (summaries, system notes) are skipped.

// Turn is what the hooks read of a transcript: the user's latest prompt,
// the agent's reply before it, and what the agent did since.
type Turn struct {
	// Prompt is the user's latest message (not a tool result).
	Prompt string
	// PreviousReply is the agent's last text before Prompt: what a
	// correction in Prompt corrects.
	PreviousReply string
	// Final is the agent's last text after Prompt: the reply Stop checks.
	Final string
	// Tools are the tool calls after Prompt, in order, each with its
	// result.
	Tools []ToolCall
}

// ToolCall is one tool use of the agent and its result.
type ToolCall struct {
	ID      string
	Name    string
	Input   json.RawMessage
	Output  string
	IsError bool
	// Cwd is the directory the agent's session stood in when it made the
	// call, as the transcript records it ("" when it does not).
	Cwd string
}

// Command returns a Bash call's command, or "".
func (c ToolCall) Command() string {
	var in struct {
		Command string `json:"command"`
	}
	if json.Unmarshal(c.Input, &in) != nil {
		return ""
	}
	return in.Command
}

// Edits are the files the call changes, relative to the project root
// env names: a file tool's path ("" when it names none), or what a shell
// line writes by a path inside the project (`sed -i`, `echo >> f`, `mv`,
// …), read as PreToolUse reads it (package action), from the directory the
// transcript says the session stood in. Directories, and scratch files
// outside the project, are left out.
func (c ToolCall) Edits(env action.Env) []string {
	return c.edits(c.read(env))
}

// read parses the call as PreToolUse does: a shell line from the
// directory the transcript says the session stood in, a file tool with
// its path; nothing of other tools, or of a file tool it cannot read.
func (c ToolCall) read(env action.Env) action.Action {
	switch c.Name {
	case "Edit", "Write", "MultiEdit", "NotebookEdit":
		a, _ := action.FromTool(c.Name, c.Input, env)
		return a
	case "Bash":
		env.Dir = c.Cwd
		return action.Shell(c.Command(), env)
	}
	return action.Action{}
}

// edits are the files of a call read as a (read), as Edits says.
func (c ToolCall) edits(a action.Action) []string {
	switch c.Name {
	case "Edit", "Write", "MultiEdit", "NotebookEdit":
		if len(a.Writes) == 0 {
			return []string{""}
		}
	case "Bash":
	default:
		return nil
	}
	var out []string
	for _, w := range a.Writes {
		if w.Dir || c.Name == "Bash" && !action.InRoot(w.Path) {
			continue
		}
		out = append(out, w.Path)
	}
	return out
}

// maxTranscriptTail is how much of the end of a transcript is read: a
// turn's entries are at its end, and a long session's file is large.
const maxTranscriptTail = 4 << 20

// maxEntryBytes bounds one transcript line (a tool result can be large).
const maxEntryBytes = 8 << 20

// ReadTurn reads the latest turn of the transcript at path. A missing or
// unreadable file gives an empty turn and the error.
func ReadTurn(path string) (Turn, error) {
	f, err := os.Open(path)
	if err != nil {
		return Turn{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return Turn{}, err
	}
	var r io.Reader = f
	if fi.Size() > maxTranscriptTail {
		if _, err := f.Seek(fi.Size()-maxTranscriptTail, io.SeekStart); err != nil {
			return Turn{}, err
		}
		br := bufio.NewReader(f)
		if _, err := br.ReadBytes('\n'); err != nil { // a partial first line
			return Turn{}, err
		}
		r = br
	}
	return parseTurn(r)
}

// entry is one transcript line.
type entry struct {
	Type    string `json:"type"`
	IsMeta  bool   `json:"isMeta"`
	Cwd     string `json:"cwd"`
	Message struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

// block is one content block of a message.
type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// parseTurn reads transcript lines and keeps the latest turn. Lines that
// are not JSON, or are too long, are skipped.
func parseTurn(r io.Reader) (Turn, error) {
	var t Turn
	lastReply := ""
	lines, err := readLines(r)
	for _, line := range lines[turnStart(lines):] {
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		var e entry
		if json.Unmarshal(line, &e) != nil || e.IsMeta {
			continue
		}
		blocks, text := contentOf(e.Message.Content)
		switch e.Type {
		case "user":
			prompt := text
			var results []block
			for _, b := range blocks {
				switch b.Type {
				case "text":
					prompt += b.Text
				case "tool_result":
					results = append(results, b)
				}
			}
			if len(results) > 0 && strings.TrimSpace(prompt) == "" {
				for _, res := range results {
					for i := range t.Tools {
						if t.Tools[i].ID == res.ToolUseID {
							t.Tools[i].Output, _ = textOf(res.Content)
							t.Tools[i].IsError = res.IsError
						}
					}
				}
				continue
			}
			if strings.TrimSpace(prompt) == "" {
				continue
			}
			// A new turn.
			t = Turn{Prompt: prompt, PreviousReply: lastReply}
		case "assistant":
			reply := text
			for _, b := range blocks {
				switch b.Type {
				case "text":
					if reply != "" && b.Text != "" {
						reply += "\n"
					}
					reply += b.Text
				case "tool_use":
					t.Tools = append(t.Tools, ToolCall{ID: b.ID, Name: b.Name, Input: b.Input, Cwd: e.Cwd})
				}
			}
			if strings.TrimSpace(reply) != "" {
				t.Final = reply
				lastReply = reply
			}
		}
	}
	return t, err
}

// readLines reads the transcript's lines, trimmed; a line longer than
// maxEntryBytes ends the reading without an error.
func readLines(r io.Reader) ([][]byte, error) {
	var lines [][]byte
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxEntryBytes)
	for sc.Scan() {
		if line := bytes.TrimSpace(sc.Bytes()); len(line) > 0 && line[0] == '{' {
			lines = append(lines, bytes.Clone(line))
		}
	}
	if err := sc.Err(); err != nil && err != bufio.ErrTooLong {
		return lines, err
	}
	return lines, nil
}

// turnStart is the index of the line from which parseTurn needs to read:
// the agent's last reply before the latest prompt, or the prompt. Lines
// before it are an earlier turn's, and decoding them (a long session's
// tool outputs) is most of a Stop's time. It decodes only the lines that
// may be a prompt or a reply, from the end.
func turnStart(lines [][]byte) int {
	prompt := -1
	for i := len(lines) - 1; i >= 0; i-- {
		l := lines[i]
		if prompt < 0 {
			if bytes.Contains(l, []byte(`"user"`)) && !bytes.Contains(l, []byte(`"tool_result"`)) && hasText(l, "user") {
				prompt = i
			}
			continue
		}
		if bytes.Contains(l, []byte(`"assistant"`)) && bytes.Contains(l, []byte(`"text"`)) && hasText(l, "assistant") {
			return i
		}
	}
	return max(prompt, 0)
}

// hasText reports whether a line is a message of the role typ ("user",
// "assistant") that holds text: for the user a prompt, as parseTurn reads
// it; for the assistant a reply.
func hasText(line []byte, typ string) bool {
	var e entry
	if json.Unmarshal(line, &e) != nil || e.IsMeta || e.Type != typ {
		return false
	}
	blocks, text := contentOf(e.Message.Content)
	for _, b := range blocks {
		if b.Type == "text" {
			text += b.Text
		}
	}
	return strings.TrimSpace(text) != ""
}

// contentOf reads a message's content: a plain string, or blocks.
func contentOf(raw json.RawMessage) ([]block, string) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil, ""
	}
	if raw[0] == '"' {
		var s string
		json.Unmarshal(raw, &s)
		return nil, s
	}
	var bs []block
	if json.Unmarshal(raw, &bs) != nil {
		return nil, ""
	}
	return bs, ""
}

// textOf reads a tool result's content: a string, or text blocks.
func textOf(raw json.RawMessage) (string, bool) {
	bs, s := contentOf(raw)
	if s != "" {
		return s, true
	}
	var parts []string
	for _, b := range bs {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n"), len(parts) > 0
}
