package kb_test

import (
	"context"
	"strings"
	"testing"

	"github.com/innate-mcp/innate-mcp/action"
	"github.com/innate-mcp/innate-mcp/appraise"
	"github.com/innate-mcp/innate-mcp/check"
	"github.com/innate-mcp/innate-mcp/kb"
)

// TestEnforce_projectScopedAndOneJudgement: a project's checks come from
// its own rules and the global ones only; appraise cautions on a plan that
// runs what a check forbids, citing that rule, as the hook asks about the
// same command.
func TestEnforce_projectScopedAndOneJudgement(t *testing.T) {
	e := newRulesEnv(t)
	ctx := context.Background()
	if _, err := e.kb.ImportRuleFile(ctx, "other/CLAUDE.md", "other", []byte("# Other\n\n- Never use pnpm.\n")); err != nil {
		t.Fatal(err)
	}
	npm := action.Shell("npm install lodash", action.Env{})
	pnpm := action.Shell("pnpm add lodash", action.Env{})
	for _, c := range []struct {
		project string
		act     action.Action
		asks    bool
	}{
		{"shop", npm, true}, {"shop", pnpm, false}, {"other", pnpm, true}, {"other", npm, false}, {"", npm, false},
	} {
		got, err := e.kb.Enforce(ctx, c.project, c.act, check.History{})
		if err != nil {
			t.Fatal(err)
		}
		if (len(got.Ask) > 0) != c.asks {
			t.Errorf("project %q, %s: asks %v, want %v", c.project, c.act.Commands[0].Text, got.Ask, c.asks)
		}
	}
	res, err := e.kb.Appraise(ctx, kb.AppraiseRequest{Project: "shop", Query: "add lodash to the front end",
		Candidate: "Add it with `npm install lodash` and import it in main.ts."})
	if err != nil {
		t.Fatal(err)
	}
	if res.Valence != appraise.Caution || len(res.FlaggedPoints) == 0 || !strings.Contains(res.FlaggedPoints[0].Summary, "pnpm") {
		t.Errorf("appraise of an npm plan: %s %+v", res.Valence, res.FlaggedPoints)
	}
	res, err = e.kb.Appraise(ctx, kb.AppraiseRequest{Project: "shop", Query: "add lodash to the front end",
		Candidate: "Add it with `pnpm add lodash` and import it in main.ts.", Session: "second"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Valence == appraise.Caution {
		t.Errorf("appraise of a pnpm plan: %+v", res)
	}
}
