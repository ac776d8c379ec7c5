package kb_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/innate-mcp/innate-mcp/appraise"
	"github.com/innate-mcp/innate-mcp/embed"
	"github.com/innate-mcp/innate-mcp/kb"
)

// shopRules is a project rule file as a user writes one.
const shopRules = `# Shop

This is a Go 1.22 service with a Vue front end.

## Tooling

- Use ` + "`pnpm`" + `, not npm or yarn.
- Format Go code with ` + "`gofumpt`" + `.

## Git

- Never push directly to main; open a pull request so CI runs first.
- Write commit messages as ` + "`type(scope): message`" + `.

## Frontend

- Use Zod for form validation.
- Do not use scoped CSS.

## Database Rules

- Doctrine entity changes affecting the schema require a migration file.
- Generate migration with ` + "`bin/console doctrine:migrations:diff`" + `.
`

// newRulesEnv is a knowledge base with the built-in sentence encoder and
// the shop's rule file imported under project "shop".
func newRulesEnv(tb testing.TB) *env {
	tb.Helper()
	e := newEnv(tb, func(c *kb.Config) { c.Embedder = embed.Builtin() })
	if _, err := e.kb.ImportRuleFile(context.Background(), "CLAUDE.md", "shop", []byte(shopRules)); err != nil {
		tb.Fatalf("import: %v", err)
	}
	return e
}

// TestRuleFile_importedAsTheUsersWords: a rule file's rules are the user's
// own, with a directive derived and stored, and a context line stays
// context.
func TestRuleFile_importedAsTheUsersWords(t *testing.T) {
	e := newRulesEnv(t)
	var pnpm, context *kb.Lesson
	err := e.kb.Lessons(t.Context(), kb.LessonFilter{Project: "shop"}, func(l kb.Lesson) error {
		if l.Origin != kb.OriginUserStated || l.State != kb.StateActive {
			t.Errorf("lesson %q: origin %s state %s, want user_stated active", l.Content, l.Origin, l.State)
		}
		switch {
		case strings.Contains(l.Content, "pnpm"):
			pnpm = &l
		case strings.HasPrefix(l.Content, "This is a Go"):
			context = &l
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if pnpm == nil || pnpm.Directive == nil || !pnpm.Directive.Directs() {
		t.Fatalf("pnpm rule: %+v, want a stored directive", pnpm)
	}
	if len(pnpm.Directive.Dont) != 2 || !strings.Contains(pnpm.Trigger, "about: pnpm") {
		t.Errorf("pnpm directive %+v, trigger %q: want npm and yarn ruled out and the trigger to name pnpm", pnpm.Directive, pnpm.Trigger)
	}
	if context == nil || context.Directive == nil || context.Directive.Directs() {
		t.Errorf("context line %+v: want a directive that does not direct", context)
	}
}

func TestAppraise_projectRules(t *testing.T) {
	e := newRulesEnv(t)
	tests := []struct {
		name, query, candidate string
		valence                appraise.Valence
		cites                  string // text of the rule the verdict rests on
	}{
		{"forbidden package manager", "add lodash to the project", "npm install lodash", appraise.Caution, "pnpm"},
		{"the package manager the rule asks for", "add lodash to the project", "pnpm add lodash", appraise.Affirm, "pnpm"},
		{"push to main", "ship the hotfix", "git push origin main", appraise.Caution, "push directly to main"},
		{"commit format followed", "commit the dropdown fix", "git commit -m \"fix(ui): correct the dropdown\"", appraise.Affirm, "type(scope)"},
		{"formatter skipped", "tidy the Go code before pushing", "Run `gofmt -w handler.go` and push.", appraise.Caution, "gofumpt"},
		{"migration step skipped", "I added a column to the Tag entity; the Doctrine migration is next",
			"Go straight to the deploy without generating anything.", appraise.Caution, "doctrine:migrations:diff"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := e.appraise(t, kb.AppraiseRequest{Query: tc.query, Candidate: tc.candidate, Project: "shop", Session: tc.name})
			if v.Abstained || v.Valence != tc.valence {
				t.Fatalf("valence %s (abstained %v %s), want %s; contributors %+v", v.Valence, v.Abstained, v.AbstainReason, tc.valence, v.Contributors)
			}
			var rest string
			if tc.valence == appraise.Caution {
				if len(v.FlaggedPoints) == 0 {
					t.Fatalf("a caution without a flagged point: %+v", v.Verdict)
				}
				rest = v.FlaggedPoints[0].LessonID
				if !strings.Contains(v.FlaggedPoints[0].Summary, tc.cites) {
					t.Errorf("summary %q does not quote the rule (%q)", v.FlaggedPoints[0].Summary, tc.cites)
				}
				if strings.Contains(v.FlaggedPoints[0].Summary, tc.candidate) {
					t.Errorf("summary %q repeats the candidate", v.FlaggedPoints[0].Summary)
				}
			} else {
				rest = v.Contributors[0].LessonID
			}
			l, err := e.kb.Lesson(t.Context(), rest)
			if err != nil || !strings.Contains(l.Content, tc.cites) {
				t.Errorf("the verdict rests on %q (%v), want the rule holding %q", l.Content, err, tc.cites)
			}
		})
	}
}

// TestAppraise_projectRulesNegationAndReading: a plan that says it will not
// do the forbidden thing, and one that only reads and reports, are not
// cautioned.
func TestAppraise_projectRulesNegationAndReading(t *testing.T) {
	e := newRulesEnv(t)
	for _, c := range []struct{ query, candidate string }{
		{"ship the hotfix", "I won't push to main; I'll open a pull request with `gh pr create`."},
		{"explain how the cart total is computed", "Read cart.go and summarize how the total is computed."},
	} {
		v := e.appraise(t, kb.AppraiseRequest{Query: c.query, Candidate: c.candidate, Project: "shop"})
		if !v.Abstained && v.Valence == appraise.Caution {
			t.Errorf("%q: caution %+v", c.candidate, v.FlaggedPoints)
		}
	}
}

// TestRecall_projectRules: the rule that covers a situation is recalled from
// the project's rule file even on a moderate match, and a situation no rule
// covers stays empty.
func TestRecall_projectRules(t *testing.T) {
	e := newRulesEnv(t)
	res := e.recall(t, kb.RecallRequest{Query: "I added a column to the Tag entity; how do I generate the Doctrine migration?", Project: "shop", Top: 3})
	found := false
	for _, l := range res.Lessons {
		found = found || strings.Contains(l.Content, "doctrine:migrations:diff") || strings.Contains(l.Content, "require a migration file")
	}
	if !found {
		t.Fatalf("migration rules not recalled: %+v", res.Lessons)
	}
	// A long situation dilutes resonance; the short rule it covers for the
	// most part comes through all the same.
	long := "The new rename-template dialog in the admin area has a form with a name field and a title field; " +
		"it needs validation that rejects an empty name and a title longer than eighty characters before the request is sent."
	res = e.recall(t, kb.RecallRequest{Query: long, Project: "shop", Top: 10})
	if !slices.ContainsFunc(res.Lessons, func(l kb.RecalledLesson) bool { return strings.Contains(l.Content, "Zod") }) {
		t.Errorf("the form validation rule is not recalled for a long situation: %+v", res.Lessons)
	}
	if res := e.recall(t, kb.RecallRequest{Query: "bake a chocolate cake for the party", Project: "shop"}); !res.Empty {
		t.Errorf("recall of an unrelated situation = %+v, want empty", res.Lessons)
	}
}

// TestRecall_globalCorpusDoesNotCrowdProjectRules: lessons of a global
// corpus that match as well come after the project's own rule.
func TestRecall_globalCorpusDoesNotCrowdProjectRules(t *testing.T) {
	e := newRulesEnv(t)
	var global []kb.NewLesson
	for _, s := range []string{
		"Use npm ci in CI pipelines for reproducible installs of the project's packages.",
		"Pin package versions and add packages to the project with the package manager.",
		"Run npm audit after you add packages to the project.",
		"Prefer yarn workspaces to manage packages in a monorepo project.",
	} {
		global = append(global, kb.NewLesson{Content: s, Trigger: "adding packages to a JavaScript project", Origin: kb.OriginImported})
	}
	e.add(t, global...)
	res := e.recall(t, kb.RecallRequest{Query: "add the lodash package to the project with npm", Project: "shop", Top: 3})
	if len(res.Lessons) == 0 || !strings.Contains(res.Lessons[0].Content, "pnpm") {
		t.Fatalf("first recalled = %+v, want the project's pnpm rule first", res.Lessons)
	}
}

func TestSourceLabel(t *testing.T) {
	for _, c := range []struct{ source, project, want string }{
		{"/src/shop/CLAUDE.md#CLAUDE.md#tooling:7", "/src/shop", "CLAUDE.md:7 (Tooling)"},
		{"/src/shop/docs/AGENTS.md#AGENTS.md#code-style:12", "/src/shop", "docs/AGENTS.md:12 (Code style)"},
		{"/src/shop/.cursorrules#.cursorrules:3", "/src/shop", ".cursorrules:3"},
		{"record:cli", "/src/shop", "record:cli"},
	} {
		if got := kb.SourceLabel(c.source, c.project); got != c.want {
			t.Errorf("SourceLabel(%q) = %q, want %q", c.source, got, c.want)
		}
	}
}
