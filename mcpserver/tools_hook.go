package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/innate-mcp/innate-mcp/hook"
	"github.com/innate-mcp/innate-mcp/kb"
)

// HookTool is the tool Claude Code's hooks of type mcp_tool call (Claude
// Code 2.1.118 and later). Such a hook is a call over the connection the
// session already has to this server: no process is started for it,
// which a command hook pays for on every event (about 25 ms of the
// binary's start). The tool is left out of tools/list: it is for the
// client's hooks, not for the agent, and costs the agent no tokens.
const HookTool = "hook"

// HookFunc answers one hook event, as `innate-mcp hook EVENT` does.
type HookFunc func(ctx context.Context, in hook.Input) (hook.Output, error)

// WithHook serves HookTool with f. Only the stdio server takes it: the
// hooks run on the user's machine, next to the session's own server.
func WithHook(f HookFunc) Option { return func(o *options) { o.hook = f } }

// HookRequest is HookTool's input: the fields of a Claude Code hook event,
// each interpolated by Claude Code as a string ("${tool_input}" gives the
// object's JSON). A field an event does not have comes as "".
type HookRequest struct {
	Event                string `json:"event" jsonschema:"required" jsonschema_description:"The hook event: SessionStart, UserPromptSubmit, PreToolUse, PostToolUse or Stop."`
	SessionID            string `json:"session_id,omitempty"`
	TranscriptPath       string `json:"transcript_path,omitempty"`
	Cwd                  string `json:"cwd,omitempty"`
	Source               string `json:"source,omitempty"`
	Prompt               string `json:"prompt,omitempty"`
	ToolName             string `json:"tool_name,omitempty"`
	ToolUseID            string `json:"tool_use_id,omitempty"`
	ToolInput            string `json:"tool_input,omitempty" jsonschema_description:"The tool's input as JSON."`
	ToolResponse         string `json:"tool_response,omitempty" jsonschema_description:"The tool's response: JSON, or its text."`
	StopHookActive       string `json:"stop_hook_active,omitempty" jsonschema_description:"true or false."`
	LastAssistantMessage string `json:"last_assistant_message,omitempty"`
}

// Input returns the event as the hooks read it, or an error of kb.ErrInput
// class that says what to fix.
func (r HookRequest) Input() (hook.Input, error) {
	if !slices.Contains(hook.Events, r.Event) {
		return hook.Input{}, fmt.Errorf("%w: event must be one of %s, not %q", kb.ErrInput, strings.Join(hook.Events, ", "), r.Event)
	}
	return hook.Input{
		SessionID: r.SessionID, TranscriptPath: r.TranscriptPath, Cwd: r.Cwd, Event: r.Event,
		Source: r.Source, Prompt: r.Prompt, ToolName: r.ToolName, ToolUseID: r.ToolUseID,
		ToolInput: rawField(r.ToolInput), ToolResponse: rawField(r.ToolResponse),
		StopHookActive:       r.StopHookActive == "true",
		LastAssistantMessage: r.LastAssistantMessage,
	}, nil
}

// rawField turns an interpolated field back into JSON: an object or array
// as it came, any other text as a JSON string, "" as nothing.
func rawField(s string) json.RawMessage {
	t := strings.TrimSpace(s)
	if t == "" {
		return nil
	}
	if (t[0] == '{' || t[0] == '[') && json.Valid([]byte(t)) {
		return json.RawMessage(t)
	}
	b, _ := json.Marshal(s)
	return b
}

// hookTool returns HookTool and its handler. The handler fails open, as
// every hook does: an error of ours is logged and answers nothing, so
// that Claude Code goes on as if no hook were installed.
func hookTool(f HookFunc, log *slog.Logger) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool(HookTool,
		mcp.WithToolTitle("Claude Code hook"),
		mcp.WithDescription("Called by Claude Code's hooks (settings.json, type mcp_tool), never by the agent: answers one hook event as `innate-mcp hook EVENT` does."),
		mcp.WithInputSchema[HookRequest](),
	)
	return tool, handler(log, tool, func(ctx context.Context, req HookRequest) (hook.Output, error) {
		in, err := req.Input()
		if err != nil {
			return hook.Output{}, err
		}
		out, err := f(ctx, in)
		if err != nil {
			log.Warn("hook", "event", in.Event, "err", err)
			return hook.Output{}, nil
		}
		return out, nil
	})
}

// listingKey marks the context of a tools/list request, whose answer
// leaves HookTool out.
type listingKey struct{}

// withListing marks ctx as a tools/list request's when method is one.
func withListing(ctx context.Context, method string) context.Context {
	if method != string(mcp.MethodToolsList) {
		return ctx
	}
	return context.WithValue(ctx, listingKey{}, true)
}

// hideHookTool is the tool filter that leaves HookTool out of tools/list;
// a call by name still reaches it.
func hideHookTool(ctx context.Context, tools []mcp.Tool) []mcp.Tool {
	if ctx.Value(listingKey{}) == nil {
		return tools
	}
	return slices.DeleteFunc(tools, func(t mcp.Tool) bool { return t.Name == HookTool })
}
