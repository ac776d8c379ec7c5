package main

import (
	"context"
	"io"
	"log/slog"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/innate-mcp/innate-mcp/kb"
)

// appraiseTool returns the appraise tool and its handler.
func appraiseTool(svc kbService, project projectFunc, log *slog.Logger) (mcp.Tool, server.ToolHandlerFunc) {
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
			req.Project = project(ctx)
		}
		return svc.Appraise(ctx, req)
	})
}

func (m *Main) runAppraise(ctx context.Context, g *globals, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var req kb.AppraiseRequest
	var files stringList
	fs := newFlagSet("appraise", g, stderr, "[flags] [QUERY...]   (no query, candidate or message: JSON arguments on stdin)")
	fs.StringVar(&req.Query, "query", "", "the situation: what you are about to do, or the question")
	fs.StringVar(&req.Candidate, "candidate", "", "the draft answer or plan under judgement")
	fs.StringVar(&req.Message, "message", "", "the user's latest message (for the route)")
	fs.StringVar(&req.Error, "error", "", "error message you face")
	fs.Var(&files, "file", "file involved (repeatable)")
	fs.StringVar(&req.Stage, "stage", "", "stage: plan, edit, debug, test, review, commit")
	fs.StringVar(&req.Project, "project", "", "project (default: INNATE_PROJECT or the git root)")
	fs.StringVar(&req.Session, "session", "", "conversation id for hand-raise novelty (default: INNATE_SESSION or this process)")
	fs.StringVar(&req.Mode, "mode", "", "hand-raise mode: focus (default), brainstorm or quiet")
	if err := fs.Parse(args); err != nil {
		return err
	}
	req.Files = files
	if req.Query == "" && fs.NArg() > 0 {
		req.Query = strings.Join(fs.Args(), " ")
	}
	if req.Query == "" && req.Candidate == "" && req.Message == "" && req.Error == "" && len(files) == 0 {
		if err := readArgs(stdin, &req, needAppraise); err != nil {
			return err
		}
	}
	if req.Project == "" {
		req.Project = m.currentProject()
	}
	session := m.cliSession()
	if req.Session == "" {
		req.Session = session
	}
	a, err := m.open(ctx, g, stderr, session, logAccess)
	if err != nil {
		return err
	}
	defer a.close()
	res, err := a.kb.Appraise(ctx, req)
	if err != nil {
		return err
	}
	return writeJSON(stdout, res)
}
