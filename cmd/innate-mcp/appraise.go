package main

import (
	"context"
	"io"
	"strings"

	"github.com/innate-mcp/innate-mcp/kb"
)

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
	m.syncProject(ctx, a, req.Project)
	res, err := a.kb.Appraise(ctx, req)
	if err != nil {
		return err
	}
	return writeJSON(stdout, res)
}
