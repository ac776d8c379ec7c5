package kb_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/innate-mcp/innate-mcp/action"
	"github.com/innate-mcp/innate-mcp/appraise"
	"github.com/innate-mcp/innate-mcp/check"
	"github.com/innate-mcp/innate-mcp/consult"
	"github.com/innate-mcp/innate-mcp/kb"
)

const webRules = "# Web\n\n- Template comments are HEEx comments, never HTML ones.\n- The web layer lives in lib/web.\n"

// compileEnv is a knowledge base holding the web project's rule file, and
// the rules a consultant is asked about.
func compileEnv(t *testing.T) (*env, []consult.Rule) {
	t.Helper()
	e := newEnv(t)
	ctx := context.Background()
	if _, err := e.kb.ImportRuleFile(ctx, "/src/web/CLAUDE.md", "web", []byte(webRules)); err != nil {
		t.Fatal(err)
	}
	files, err := e.kb.RulesToCompile(ctx, "web", true)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0].File != "/src/web/CLAUDE.md" || len(files[0].Rules) != 2 {
		t.Fatalf("rules to compile: %+v", files)
	}
	return e, files[0].Rules
}

var webSay = []string{"touch a page layout", "adjust the markup of a screen", "rework a view partial", "fix a broken page fragment", "restyle the account screen"}

func webAnswer(rules []consult.Rule) consult.Answer {
	return consult.Answer{Model: "test-model", Rules: []consult.RuleAnswer{
		{ID: rules[0].ID, Is: consult.IsRule, Do: consult.Dont, Say: webSay, Checks: []consult.CheckAnswer{{
			Check: check.Check{Kind: check.Forbid, Write: &check.WritePattern{Paths: []string{"*.heex"}, Text: "<!--"}},
			Bad:   []consult.Call{{Write: "lib/web/a.html.heex", Text: "<!-- x -->"}}}}},
		{ID: rules[1].ID, Is: consult.IsDescription},
	}}
}

// TestApplyCompile: a consultant's checks are stored with its provenance
// and only remind until a person approves them; a person's check replaces
// them; a compiled rule is not asked about again, and an edited one is,
// its old compile dropped.
func TestApplyCompile(t *testing.T) {
	e, rules := compileEnv(t)
	ctx := context.Background()
	rep, err := e.kb.ApplyCompile(ctx, "web", webAnswer(rules), kb.ApplyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Rules != 2 || rep.Checks != 1 || rep.Phrasing != 5 || len(rep.Refused) != 0 {
		t.Fatalf("apply: %+v", rep)
	}
	bad := action.Action{Tool: "Write", Parsed: true, Writes: []action.Write{{Path: "lib/web/b.html.heex", Text: "<p><!-- todo --></p>", TextKnown: true}}}
	got, err := e.kb.Enforce(ctx, "web", bad, check.History{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Ask) != 0 || len(got.Remind) != 1 || got.Remind[0].Stored.Check.From.By != check.ByConsultant || got.Remind[0].Stored.Check.From.Note != "test-model" {
		t.Fatalf("a consultant's check before approval: asks %v, reminds %+v", got.Ask, got.Remind)
	}
	if _, err := e.kb.SetCheckState(ctx, got.Remind[0].Stored.ID, kb.CheckActive); err != nil {
		t.Fatal(err)
	}
	if got, _ := e.kb.Enforce(ctx, "web", bad, check.History{}); len(got.Ask) != 1 {
		t.Errorf("an approved consultant's check does not ask: %+v", got)
	}
	// A person's check of the rule replaces the consultant's.
	lesson := got.Remind[0].Stored.LessonID
	if _, err := e.kb.AddCheck(ctx, lesson, check.Check{Kind: check.Forbid, Write: &check.WritePattern{Paths: []string{"lib/legacy/"}}, From: check.Provenance{By: check.ByPerson}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := e.kb.Enforce(ctx, "web", bad, check.History{}); len(got.Ask)+len(got.Remind) != 0 {
		t.Errorf("the consultant's check still speaks after a person's: %+v", got)
	}
	// Compiled: nothing is asked about again.
	if files, _ := e.kb.RulesToCompile(ctx, "web", true); len(files) != 0 {
		t.Errorf("compiled rules are asked about again: %+v", files)
	}
	// An edited rule alone is, and its old compile goes.
	edited := strings.Replace(webRules, "lib/web.", "lib/shop_web.", 1)
	if _, err := e.kb.ImportRuleFile(ctx, "/src/web/CLAUDE.md", "web", []byte(edited)); err != nil {
		t.Fatal(err)
	}
	files, err := e.kb.RulesToCompile(ctx, "web", true)
	if err != nil || len(files) != 1 || len(files[0].Rules) != 1 || !strings.Contains(files[0].Rules[0].Text, "shop_web") {
		t.Fatalf("after an edit, rules to compile: %+v %v", files, err)
	}
	if _, err := e.kb.ApplyCompile(ctx, "web", consult.Answer{Rules: []consult.RuleAnswer{{ID: files[0].Rules[0].ID, Is: consult.IsDescription}}}, kb.ApplyOptions{}); err != nil {
		t.Fatal(err)
	}
	compiles, err := e.kb.Compiles(ctx, "web")
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, 0, len(compiles))
	for id := range compiles {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	want := []string{rules[0].ID, files[0].Rules[0].ID}
	slices.Sort(want)
	if !slices.Equal(ids, want) {
		t.Errorf("compiles after the edit: %v, want %v", ids, want)
	}
}

// TestApplyCompile_refusesWholeAnswers: an answer to another project's
// prompt writes nothing.
func TestApplyCompile_refusesWholeAnswers(t *testing.T) {
	e, _ := compileEnv(t)
	ctx := context.Background()
	_, err := e.kb.ApplyCompile(ctx, "web", consult.Answer{Rules: []consult.RuleAnswer{{ID: "r00000000", Is: consult.IsRule}}}, kb.ApplyOptions{})
	if err == nil || !strings.Contains(err.Error(), "none of the rules") {
		t.Fatalf("an answer to another prompt: %v", err)
	}
	if c, _ := e.kb.Compiles(ctx, "web"); len(c) != 0 {
		t.Errorf("a refused answer wrote compiles: %v", c)
	}
}

// TestRecall_phrasings: a situation said in other words than the rule's
// finds it once a consultant's phrasings are stored, and not before.
func TestRecall_phrasings(t *testing.T) {
	e, rules := compileEnv(t)
	ctx := context.Background()
	req := kb.RecallRequest{Project: "web", Query: "I need to restyle the account screen and adjust its markup"}
	found := func() bool {
		res, err := e.kb.Recall(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range res.Lessons {
			if strings.Contains(l.Content, "HEEx") {
				return true
			}
		}
		return false
	}
	if found() {
		t.Fatal("the rule is found before any phrasing: the test says nothing")
	}
	if _, err := e.kb.ApplyCompile(ctx, "web", webAnswer(rules), kb.ApplyOptions{}); err != nil {
		t.Fatal(err)
	}
	if !found() {
		t.Error("the rule is not found from a situation its phrasings describe")
	}
}

// TestAppraise_consultantWriteCheck: appraise cautions on a plan whose code
// breaks a consultant's check of new text, while it only reminds the
// hooks, whether or not it names the file; a plan without such code is not
// cautioned by it.
func TestAppraise_consultantWriteCheck(t *testing.T) {
	e, rules := compileEnv(t)
	ctx := context.Background()
	if _, err := e.kb.ApplyCompile(ctx, "web", webAnswer(rules), kb.ApplyOptions{}); err != nil {
		t.Fatal(err)
	}
	flagged := func(plan string) bool {
		res, err := e.kb.Appraise(ctx, kb.AppraiseRequest{Project: "web", Query: "add a note to the page template", Candidate: plan})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range res.FlaggedPoints {
			if strings.Contains(p.Summary, "HEEx") {
				return true
			}
		}
		return false
	}
	if !flagged("In lib/web/page.html.heex add `<!-- banner -->` above the header.") {
		t.Error("a plan writing an HTML comment into a template is not flagged")
	}
	if flagged("In lib/web/page.html.heex add `<%!-- banner --%>` above the header.") {
		t.Error("a plan writing a HEEx comment is flagged")
	}
	// Code shown for no file is judged by its text alone.
	if !flagged("Add `<!-- banner -->` above the header.") {
		t.Error("a plan showing an HTML comment for no file is not flagged")
	}
	if flagged("Add `<%!-- banner --%>` above the header.") {
		t.Error("a plan showing a HEEx comment for no file is flagged")
	}
}

// TestAppraise_consultantCheckDecidesUnranked: a plan that breaks a
// consultant's check structurally is cautioned however low its rule ranks
// among the project's rules, as for a check that asks: the check only
// reminds in the hooks, and a caution is no more than a reminder.
func TestAppraise_consultantCheckDecidesUnranked(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	rulesFile := "# Go\n\n- Pass the build tag `integration` to every go invocation.\n" +
		"- Unit tests live next to the package they test.\n- Name unit tests after the function under test.\n" +
		"- Table-driven unit tests for parsers.\n- A package's unit tests never touch the network.\n" +
		"- Keep unit tests for the cache fast.\n- The cache package owns eviction.\n- Changes to the cache need a benchmark.\n"
	if _, err := e.kb.ImportRuleFile(ctx, "/src/svc/CLAUDE.md", "svc", []byte(rulesFile)); err != nil {
		t.Fatal(err)
	}
	files, err := e.kb.RulesToCompile(ctx, "svc", true)
	if err != nil || len(files) != 1 {
		t.Fatalf("rules to compile: %+v %v", files, err)
	}
	var ans consult.Answer
	for _, r := range files[0].Rules {
		ra := consult.RuleAnswer{ID: r.ID, Is: consult.IsRule, Do: consult.Do}
		if strings.Contains(r.Text, "build tag") {
			ra.Checks = []consult.CheckAnswer{{Check: check.Check{Kind: check.Forbid,
				Command: &check.CommandPattern{Programs: []string{"go"}, Sub: []string{"test"},
					Except: []*check.CommandPattern{{Programs: []string{"go"}, Sub: []string{"test"}, Flags: []string{"-tags"}}}}},
				Bad: []consult.Call{{Run: "go test ./..."}}, Good: []consult.Call{{Run: "go test -tags integration ./..."}}}}
		}
		ans.Rules = append(ans.Rules, ra)
	}
	if rep, err := e.kb.ApplyCompile(ctx, "svc", ans, kb.ApplyOptions{}); err != nil || rep.Checks != 1 {
		t.Fatalf("apply: %+v %v", rep, err)
	}
	verdict := func(candidate string) appraise.Verdict {
		res, err := e.kb.Appraise(ctx, kb.AppraiseRequest{Project: "svc",
			Query: "I changed the cache eviction and want to run the unit tests of that package.", Candidate: candidate})
		if err != nil {
			t.Fatal(err)
		}
		return res.Verdict
	}
	if v := verdict("`go test ./internal/cache/...`"); v.Abstained || v.Valence != appraise.Caution || len(v.FlaggedPoints) == 0 || !strings.Contains(v.FlaggedPoints[0].Summary, "build tag") {
		t.Errorf("a plan breaking a consultant's check of a low-ranked rule: %+v", v)
	}
	if v := verdict("`go test -tags integration ./internal/cache/...`"); v.Valence == appraise.Caution {
		t.Errorf("a plan that follows it is cautioned: %+v", v)
	}
}

// TestAppraise_consultantNotRule: once a consultant reads a line as a map
// entry, appraise no longer cautions a plan for leaving out the command it
// names.
func TestAppraise_consultantNotRule(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	if _, err := e.kb.ImportRuleFile(ctx, "/src/rs/CLAUDE.md", "rs", []byte("# Commands\n\n- Lint: `cargo clippy --all-targets`.\n- Never commit secrets.\n")); err != nil {
		t.Fatal(err)
	}
	session := 0
	lacks := func() bool {
		session++
		res, err := e.kb.Appraise(ctx, kb.AppraiseRequest{Project: "rs", Query: "lint the crate before I push", Candidate: "Run `cargo build` and push the branch.",
			Session: fmt.Sprint("s", session)})
		if err != nil {
			t.Fatal(err)
		}
		return res.Valence == appraise.Caution
	}
	if !lacks() {
		t.Fatal("before the consultant: the map line read as a rule does not caution")
	}
	files, err := e.kb.RulesToCompile(ctx, "rs", true)
	if err != nil || len(files) != 1 || len(files[0].Rules) != 2 {
		t.Fatalf("rules to compile: %+v %v", files, err)
	}
	ans := consult.Answer{}
	for _, r := range files[0].Rules {
		ra := consult.RuleAnswer{ID: r.ID, Is: consult.IsMap}
		if strings.Contains(r.Text, "secrets") {
			ra = consult.RuleAnswer{ID: r.ID, Is: consult.IsRule, Do: consult.Dont, Say: webSay}
		}
		ans.Rules = append(ans.Rules, ra)
	}
	if _, err := e.kb.ApplyCompile(ctx, "rs", ans, kb.ApplyOptions{}); err != nil {
		t.Fatal(err)
	}
	if lacks() {
		t.Error("after the consultant read it as a map entry, it still cautions")
	}
}

// TestEnforce_consultantNotRule: the reader's check of a line a consultant
// read as no rule no longer speaks; the line's other checks are untouched.
func TestEnforce_consultantNotRule(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	if _, err := e.kb.ImportRuleFile(ctx, "/src/js/CLAUDE.md", "js", []byte("# Notes for humans\n\n- Never run `npm install`.\n")); err != nil {
		t.Fatal(err)
	}
	install := action.Shell("npm install lodash", action.Env{})
	if got, err := e.kb.Enforce(ctx, "js", install, check.History{}); err != nil || len(got.Ask)+len(got.Remind) != 1 {
		t.Fatalf("the reader's check before the consultant: %+v %v", got, err)
	}
	files, err := e.kb.RulesToCompile(ctx, "js", true)
	if err != nil || len(files) != 1 || len(files[0].Rules) != 1 {
		t.Fatalf("rules to compile: %+v %v", files, err)
	}
	if _, err := e.kb.ApplyCompile(ctx, "js", consult.Answer{Rules: []consult.RuleAnswer{{ID: files[0].Rules[0].ID, Is: consult.IsNotForAgents}}}, kb.ApplyOptions{}); err != nil {
		t.Fatal(err)
	}
	if got, err := e.kb.Enforce(ctx, "js", install, check.History{}); err != nil || len(got.Ask)+len(got.Remind) != 0 {
		t.Errorf("the reader's check of a line read as not for agents still speaks: %+v %v", got, err)
	}
}
