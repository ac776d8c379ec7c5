package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/innate-mcp/innate-mcp/kb"
)

// instructions tell the agent when to call each tool; the MCP client shows
// them to the model at the start of a session.
const instructions = `innate-mcp is your fast, local memory and intuition for this codebase. It never calls an LLM and answers in milliseconds.

- Call recall before you act on a non-trivial task (planning a change, debugging an error, touching unfamiliar code): pass what you are about to do as query, plus error/files/stage when you have them. Load the lessons it returns; "empty": true means nothing relevant is known — proceed on your own judgement. A lesson with "truncated": true is the excerpt of a longer one that matches your situation; when you need the rest, read the resource innate://lesson/{id}.
- Call record afterwards with the trace_id recall gave you: the outcome (success/failure), which returned lessons you actually used, and up/down feedback on lessons that were right or wrong. When the user states a rule ("always…", "never…", "in this repo we…"), record it as a lesson with origin user_stated whose content is their sentence(s) word for word, and pass their message verbatim as message: it is active at once. Any other lesson you record (and any global one) waits, pending, until the user approves it. When the user corrects you, record the correction.
- Call appraise before committing to an answer or plan, with your draft as candidate (and the user's latest message as message): it says whether the knowledge base gives footing (affirm), warns (caution, flagged points) or abstains — abstaining means you are on your own, which is fine. It never gives answers; weigh it, do not defer to it. Record the outcome with its trace_id and verdict_heeded.
- Call hesitate with your draft before you act on it when the stakes are real (a commit, push, deploy, migration, deletion, recording a lesson, or a confident factual reply): pass the intended actions and what backs the draft (tool outputs, tests_run). Follow its plan: hedge means soften and cite, hold means verify first or ask. When the user confirms or rejects a hold, record it (trace_id + review).
- Lessons are guidance learned from past work, not ground truth: weigh them against what you see in the code, and by their provenance (a rule the user wrote outweighs what an agent inferred).`

// Service is what the tools need of the knowledge base; *kb.KB implements
// it.
type Service interface {
	Recall(ctx context.Context, req kb.RecallRequest) (kb.RecallResult, error)
	Record(ctx context.Context, req kb.RecordRequest) (kb.RecordResult, error)
	Hesitate(ctx context.Context, req kb.HesitateRequest) (kb.HesitateResult, error)
	Appraise(ctx context.Context, req kb.AppraiseRequest) (kb.AppraiseResult, error)
	Lesson(ctx context.Context, id string) (kb.Lesson, error)
	Compiler
}

// recallTool returns the recall tool and its handler.
func recallTool(svc Service, proj *ProjectResolver, log *slog.Logger) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("recall",
		mcp.WithToolTitle("Recall lessons"),
		mcp.WithDescription("Before acting: returns the lessons from the knowledge base worth loading for this situation, best first, "+
			"each with its score, per-channel breakdown, confidence, provenance (a rule file the user imported, the user, or an agent) and why it matched — or empty: true when nothing is relevant "+
			"(never a list of unrelated lessons). A lesson longer than "+strconv.Itoa(kb.LessonBudgetBytes)+" bytes comes back as the passage that matches the situation, "+
			"with truncated: true; read the resource innate://lesson/{id} for the whole lesson. Keep the trace_id to report the outcome with record."),
		mcp.WithInputSchema[kb.RecallRequest](),
		mcp.WithOutputSchema[kb.RecallResult](),
		mcp.WithToolAnnotation(mcp.ToolAnnotation{Title: "Recall lessons",
			ReadOnlyHint: mcp.ToBoolPtr(true), DestructiveHint: mcp.ToBoolPtr(false),
			IdempotentHint: mcp.ToBoolPtr(true), OpenWorldHint: mcp.ToBoolPtr(false)}),
	)
	// mcp-go's schema reflection reads no bounds from struct tags.
	setBounds(&tool, "top", 1, kb.MaxTop)
	setBounds(&tool, "budget_tokens", 0, -1)
	return tool, handler(log, tool, func(ctx context.Context, req kb.RecallRequest) (kb.RecallResult, error) {
		if req.Project == "" {
			req.Project = proj.resolve(ctx)
		}
		proj.seen(ctx, req.Project)
		return svc.Recall(ctx, req)
	})
}

// recordTool returns the record tool and its handler.
func recordTool(svc Service, proj *ProjectResolver, log *slog.Logger) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("record",
		mcp.WithToolTitle("Record outcome, feedback, lessons"),
		mcp.WithDescription("After acting: report what came of a recall (outcome, the lessons you used, up/down feedback with a reason), "+
			"teach a new lesson (a lesson starts pending until the user approves it, unless it is user_stated, for this project, and its content is whole sentences of the user's message, word for word, with that message passed verbatim as message; a lesson already held is "+
			"reinforced, not stored twice, and so is an agent_inferred one that repeats a held lesson but for its numbers), "+
			"or keep a user's correction. "+
			"Only lessons the trace returned receive credit; repeating the same record changes nothing. The result lists what changed."),
		mcp.WithInputSchema[kb.RecordRequest](),
		mcp.WithOutputSchema[kb.RecordResult](),
		mcp.WithToolAnnotation(mcp.ToolAnnotation{Title: "Record outcome, feedback, lessons",
			ReadOnlyHint: mcp.ToBoolPtr(false), DestructiveHint: mcp.ToBoolPtr(false),
			IdempotentHint: mcp.ToBoolPtr(true), OpenWorldHint: mcp.ToBoolPtr(false)}),
	)
	return tool, handler(log, tool, func(ctx context.Context, req kb.RecordRequest) (kb.RecordResult, error) {
		if req.Project == "" && req.Lesson != nil && !req.Lesson.Global {
			req.Project = proj.resolve(ctx)
		}
		return svc.Record(ctx, req)
	})
}

// setBounds gives an integer property of a tool's input schema a minimum
// and, when hi ≥ lo, a maximum, so that validation refuses a value out of
// range ("top must be an integer from 1 to 50") whether it is given over
// MCP or on the command line.
func setBounds(t *mcp.Tool, prop string, lo, hi int) {
	// The property's object is edited in place, as bytes, so that the
	// schema keeps the properties in the order of the request struct.
	key := []byte(`"` + prop + `":{`)
	i := bytes.Index(t.RawInputSchema, key)
	if i < 0 {
		return
	}
	bound := fmt.Sprintf(`"minimum":%d,`, lo)
	if hi >= lo {
		bound += fmt.Sprintf(`"maximum":%d,`, hi)
	}
	at := i + len(key)
	raw := append(append(append([]byte{}, t.RawInputSchema[:at]...), bound...), t.RawInputSchema[at:]...)
	if json.Valid(raw) {
		t.RawInputSchema = raw
	}
}

// handler adapts a typed operation to an MCP tool handler: arguments are
// decoded strictly (unknown fields refused), input errors come back as an
// isError result that says what to fix, and results carry both structured
// content and a JSON text copy for clients that read only text.
func handler[Req, Res any](log *slog.Logger, tool mcp.Tool, op func(context.Context, Req) (Res, error)) server.ToolHandlerFunc {
	name := tool.Name
	v, verr := newArgValidator(tool)
	if verr != nil {
		// The schemas come from this program's own types; a test compiles
		// every one. Strict decoding below still refuses unknown fields.
		log.Error("input schema does not compile; arguments are only decoded strictly", "tool", name, "err", verr)
	}
	return func(ctx context.Context, call mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		raw, err := json.Marshal(call.GetRawArguments())
		if err != nil {
			return mcp.NewToolResultError("arguments are not a JSON object"), nil
		}
		if string(raw) == "null" {
			raw = []byte("{}")
		}
		if v != nil {
			if err := v.validate(raw); err != nil {
				return mcp.NewToolResultError(name + ": " + err.Error()), nil
			}
		}
		var req Req
		if err := DecodeStrict(bytes.NewReader(raw), &req); err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		res, err := op(ctx, req)
		switch {
		case errors.Is(err, kb.ErrInput), errors.Is(err, kb.ErrEmbedderMismatch), errors.Is(err, kb.ErrNotFound), errors.Is(err, kb.ErrReadOnly):
			return mcp.NewToolResultError(err.Error()), nil
		case err != nil:
			log.Error("tool failed", "tool", name, "err", err)
			return mcp.NewToolResultError(name + " failed: " + err.Error()), nil
		}
		text, err := json.Marshal(res)
		if err != nil {
			return nil, err
		}
		return mcp.NewToolResultStructured(res, string(text)), nil
	}
}

// registerTools adds every tool to s.
func registerTools(s *server.MCPServer, svc Service, proj *ProjectResolver, log *slog.Logger, o options) {
	for _, mk := range []func(Service, *ProjectResolver, *slog.Logger) (mcp.Tool, server.ToolHandlerFunc){recallTool, recordTool, appraiseTool, hesitateTool} {
		t, h := mk(svc, proj, log)
		s.AddTool(t, h)
	}
	t, h := compileTool(svc, proj, o.recorded, log)
	s.AddTool(t, h)
	if o.hook != nil {
		s.AddTool(hookTool(o.hook, log))
	}
}
