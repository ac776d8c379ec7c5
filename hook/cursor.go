package hook

import (
	"encoding/json"
	"fmt"
	"io"
)

// Cursor runs hooks too (~/.cursor/hooks.json, or .cursor/hooks.json in a
// project): a command per event, the event's JSON on stdin, an answer on
// stdout. Its beforeShellExecution event is Claude Code's PreToolUse for a
// shell command, in another shape: the command and the working directory
// at the top level, and an answer {"permission": "allow"|"deny"|"ask",
// "userMessage", "agentMessage"}. The other events Cursor offers cannot
// add context to the agent's prompt the way Claude Code's can, so only
// this one is answered.

// CursorShellEvent is the name of Cursor's event before a shell command.
const CursorShellEvent = "beforeShellExecution"

// cursorShellInput is Cursor's beforeShellExecution payload.
type cursorShellInput struct {
	Command        string   `json:"command"`
	Cwd            string   `json:"cwd"`
	ConversationID string   `json:"conversation_id"`
	Event          string   `json:"hook_event_name"`
	WorkspaceRoots []string `json:"workspace_roots"`
}

// ReadCursorInput reads Cursor's beforeShellExecution payload as the
// PreToolUse event of a Bash command.
func ReadCursorInput(r io.Reader) (Input, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxInputBytes+1))
	if err != nil {
		return Input{}, fmt.Errorf("%w: %v", ErrInput, err)
	}
	if len(b) > MaxInputBytes {
		return Input{}, fmt.Errorf("%w: larger than %d MiB", ErrInput, MaxInputBytes>>20)
	}
	var c cursorShellInput
	if err := json.Unmarshal(b, &c); err != nil {
		return Input{}, fmt.Errorf("%w: %v", ErrInput, err)
	}
	if c.Event != "" && c.Event != CursorShellEvent {
		return Input{}, fmt.Errorf("%w: the payload is a %s event; innate-mcp answers Cursor's %s", ErrInput, c.Event, CursorShellEvent)
	}
	cwd := c.Cwd
	if cwd == "" && len(c.WorkspaceRoots) > 0 {
		cwd = c.WorkspaceRoots[0]
	}
	ti, err := json.Marshal(map[string]string{"command": c.Command})
	if err != nil {
		return Input{}, err
	}
	return Input{Event: PreToolUse, SessionID: c.ConversationID, Cwd: cwd, ToolName: "Bash", ToolInput: ti}, nil
}

// CursorAnswer is the answer to Cursor's beforeShellExecution.
type CursorAnswer struct {
	Permission   string `json:"permission"`
	UserMessage  string `json:"userMessage,omitempty"`
	AgentMessage string `json:"agentMessage,omitempty"`
}

// CursorOutput turns a PreToolUse answer into Cursor's; ok is false when
// there is nothing to say (the command breaks no rule), and then nothing
// is printed, which leaves the decision to Cursor.
func CursorOutput(o Output) (CursorAnswer, bool) {
	if o.Specific == nil || o.Specific.PermissionDecision == "" {
		return CursorAnswer{}, false
	}
	return CursorAnswer{Permission: o.Specific.PermissionDecision,
		UserMessage: o.Specific.PermissionDecisionReason, AgentMessage: o.Specific.PermissionDecisionReason}, true
}
