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

// TestEnforce_correctionEscalates: a lesson the hooks read out of a
// correction reminds the first time an action repeats the mistake and asks
// from then on; a person's rejection undoes it.
func TestEnforce_correctionEscalates(t *testing.T) {
	e := newRulesEnv(t)
	ctx := context.Background()
	res, err := e.kb.Record(ctx, kb.RecordRequest{
		Lesson:  &kb.LessonInput{Content: "use pnpm, not npm", Origin: kb.OriginUserStated, Tags: []string{kb.TagCorrection}},
		Message: "No, I told you to use pnpm, not npm!", Project: "cart", Author: kb.AuthorHook,
	})
	if err != nil {
		t.Fatal(err)
	}
	id := res.Changes[0].LessonID
	l, err := e.kb.Lesson(ctx, id)
	if err != nil || l.State != kb.StateActive || kb.ProvenanceOf(l).Kind != kb.ProvenanceUserMessage {
		t.Fatalf("lesson %+v, %v: want active, from the user's message", l, err)
	}
	npm := action.Shell("npm install lodash", action.Env{})
	got, err := e.kb.Enforce(ctx, "cart", npm, check.History{})
	if err != nil || len(got.Ask) != 0 || len(got.Remind) != 1 || !got.Remind[0].Stored.Check.Escalate {
		t.Fatalf("first repeat: %+v, %v; want one reminder of an escalating check", got, err)
	}
	if _, err := e.kb.CheckFired(ctx, got.Remind[0].Stored.ID); err != nil {
		t.Fatal(err)
	}
	if got, _ = e.kb.Enforce(ctx, "cart", npm, check.History{}); len(got.Ask) != 1 {
		t.Fatalf("second repeat: %+v; want an ask", got)
	}
	if got, _ = e.kb.Enforce(ctx, "cart", action.Shell("pnpm add lodash", action.Env{}), check.History{}); len(got.Ask)+len(got.Remind) != 0 {
		t.Fatalf("pnpm: %+v; want nothing", got)
	}
	if l, _, err = e.kb.ApplyAction(ctx, id, kb.ActionReject, ""); err != nil || l.State != kb.StateArchived {
		t.Fatalf("reject: %+v, %v; want archived", l, err)
	}
	if got, _ = e.kb.Enforce(ctx, "cart", npm, check.History{}); len(got.Ask)+len(got.Remind) != 0 {
		t.Fatalf("after reject: %+v; want nothing", got)
	}
	// Not the user's words: the hooks' claim is not taken.
	res, err = e.kb.Record(ctx, kb.RecordRequest{
		Lesson:  &kb.LessonInput{Content: "use yarn", Origin: kb.OriginUserStated, Tags: []string{kb.TagCorrection}},
		Message: "No, I told you to use pnpm, not npm!", Project: "cart", Author: kb.AuthorHook,
	})
	if err != nil {
		t.Fatal(err)
	}
	if l, _ := e.kb.Lesson(ctx, res.Changes[0].LessonID); l.Origin == kb.OriginUserStated {
		t.Errorf("a lesson not in the message was taken as the user's: %+v", l)
	}
}
