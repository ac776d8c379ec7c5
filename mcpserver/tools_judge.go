package mcpserver

import (
	"context"
	"log/slog"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/innate-mcp/innate-mcp/kb"
)

// appraiseTool returns the appraise tool and its handler.
func appraiseTool(svc Service, proj *ProjectResolver, log *slog.Logger) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("appraise",
		mcp.WithToolTitle("Appraise a situation or a draft"),
		mcp.WithDescription("Before committing to an answer or plan: the knowledge base's intuition about the situation and, "+
			"optionally, your candidate (draft answer or plan). Returns a verdict — valence (affirm/caution/mixed/neutral), "+
			"strength, tier, calibrated confidence, the lessons it rests on and flagged points to watch out for — or "+
			"abstained: true when the knowledge base gives no footing (weak_resonance, false_resonance, sparse_evidence, "+
			"conflicted). It never gives an answer. With the user's message it also suggests a route: respond, clarify, "+
			"gather (look things up first), acknowledge or ignore. Report what followed with record (trace_id, outcome, "+
			"verdict_heeded, misroute) so the verdicts get calibrated."),
		mcp.WithInputSchema[kb.AppraiseRequest](),
		mcp.WithOutputSchema[kb.AppraiseResult](),
		mcp.WithToolAnnotation(mcp.ToolAnnotation{Title: "Appraise a situation or a draft",
			ReadOnlyHint: mcp.ToBoolPtr(true), DestructiveHint: mcp.ToBoolPtr(false),
			IdempotentHint: mcp.ToBoolPtr(true), OpenWorldHint: mcp.ToBoolPtr(false)}),
	)
	return tool, handler(log, tool, func(ctx context.Context, req kb.AppraiseRequest) (kb.AppraiseResult, error) {
		if req.Project == "" {
			req.Project = proj.resolve(ctx)
		}
		proj.seen(ctx, req.Project)
		return svc.Appraise(ctx, req)
	})
}

// hesitateTool returns the hesitate tool and its handler.
func hesitateTool(svc Service, proj *ProjectResolver, log *slog.Logger) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("hesitate",
		mcp.WithToolTitle("Hesitate before acting"),
		mcp.WithDescription("Before acting on a draft (a reply, a plan, a commit, a lesson to record): a deterministic, zero-LLM check "+
			"for overconfidence — absolute claims without evidence, specific facts nobody checked, success claimed with no test run, "+
			"conclusions without reasoning, repeats of mistakes the user corrected before. Returns a 0-100 score, the signals with "+
			"their spans, and per intended action whether to proceed, hedge, hold or mark for review. "+
			"Each call is logged for review, and the learned error patterns the draft repeats count the hit "+
			"(which keeps them from decaying)."),
		mcp.WithInputSchema[kb.HesitateRequest](),
		mcp.WithOutputSchema[kb.HesitateResult](),
		// Not read-only: every call writes its trace and hesitation log entry
		// and updates the matched patterns' counters, so a repeated call is
		// not idempotent either. Nothing is removed: not destructive.
		mcp.WithToolAnnotation(mcp.ToolAnnotation{Title: "Hesitate before acting",
			ReadOnlyHint: mcp.ToBoolPtr(false), DestructiveHint: mcp.ToBoolPtr(false),
			IdempotentHint: mcp.ToBoolPtr(false), OpenWorldHint: mcp.ToBoolPtr(false)}),
	)
	return tool, handler(log, tool, func(ctx context.Context, req kb.HesitateRequest) (kb.HesitateResult, error) {
		// Hesitate names no project, but its learned error patterns come
		// from the project's rules too.
		if proj.onProject != nil {
			proj.seen(ctx, proj.resolve(ctx))
		}
		return svc.Hesitate(ctx, req)
	})
}
