package directive

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/innate-mcp/innate-mcp/action"
	"github.com/innate-mcp/innate-mcp/check"
)

// TestTemplateCheck: a rule that shows a commit message's or a PR title's
// shape in a code span compiles to a Require on the first line, which the
// messages of that shape pass and others fail; a span that is a literal, a
// rule against a prefix, a template in a clause about something else, or
// one its own examples contradict compiles to nothing of the kind.
func TestTemplateCheck(t *testing.T) {
	tests := []struct {
		name, rule string
		kinds      []action.MessageKind
		pass, fail []string
	}{
		{"placeholders and an issue hash", "Commits: format each as `Area: Summary #ticket-number`.",
			[]action.MessageKind{action.CommitMessage},
			[]string{"Parser: handle tabs #12", "Build: bump go #7", "Merge branch 'main'"},
			[]string{"handle tabs", "Parser: handle tabs", "wip"}},
		{"bracketed placeholders", "Write commit messages in the form `<type>: <subject>`.",
			[]action.MessageKind{action.CommitMessage},
			[]string{"fix: off by one", "docs: typo"},
			[]string{"off by one", "fix off by one"}},
		{"an issue key example", "Commit subject format: `[PROJ-42] summary`",
			[]action.MessageKind{action.CommitMessage},
			[]string{"[APP-7] add login", "[CORE-1234] drop cache"},
			[]string{"add login", "APP-7 add login", "[app] add login"}},
		{"PR titles, with examples", "Pull request titles follow `Component: Change` (for example `Cli: Add --json`, `Store: Fix lock`).",
			[]action.MessageKind{action.PRTitle},
			[]string{"Cli: Add --json", "Docs: Explain setup"},
			[]string{"Add --json", "add json output"}},
		{"a Conventional header as a template: the scope is optional", "Commit messages should look like `type(scope): summary`.",
			[]action.MessageKind{action.CommitMessage},
			[]string{"feat(cli): add flag", "fix: nil map", "Revert \"feat: x\""},
			[]string{"Feature: add flag", "add flag", "feat add flag"}},
		{"both messages", "Commit messages and PR titles use the format `Module: Summary`.",
			[]action.MessageKind{action.PRTitle, action.CommitMessage},
			[]string{"Hook: Read stdin"}, []string{"Read stdin"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got *check.MessagePattern
			for _, c := range Compile(tc.rule, "") {
				if c.Message != nil && c.Kind == check.Require {
					got = c.Message
				}
			}
			if got == nil {
				t.Fatalf("%q: no message check; compiled %v", tc.rule, Compile(tc.rule, ""))
			}
			if !sameKinds(got.Kinds, tc.kinds) {
				t.Errorf("kinds %v, want %v", got.Kinds, tc.kinds)
			}
			re := regexp.MustCompile(got.Must)
			for _, m := range tc.pass {
				if !re.MatchString(m) {
					t.Errorf("%q fails %s; it has the rule's shape", m, got.Must)
				}
			}
			for _, m := range tc.fail {
				if re.MatchString(m) {
					t.Errorf("%q passes %s; it lacks the rule's shape", m, got.Must)
				}
			}
		})
	}
}

func sameKinds(a, b []action.MessageKind) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// TestTemplateCheck_none: what gives no message template.
func TestTemplateCheck_none(t *testing.T) {
	for _, rule := range []string{
		"Commit messages mention the ticket, e.g. `ABC-1 fixes login`.",              // a literal example, no placeholder
		"When you touch the parser, PR titles start with `[parser]`.",                // a literal prefix
		"Pull request titles take no `feat:` or `fix:` prefix.",                      // rules a prefix out
		"Branches are named `topic/<name>` and commits follow the team's style.",     // the template is a branch's
		"Commit messages follow `Area: Summary` (e.g. `fixed the parser`).",          // its example contradicts it
		"Use the `Arrange: Act: Assert` layout in tests.",                            // no message named
		"Run `git commit -m <message>` only after the tests pass.",                   // a command, not a shape
		"Format commit messages as `Summary`.",                                       // no mark: nothing to hold
		"Commit messages follow `Type Summary` style, with the type first, always.",  // two placeholders, nothing between
		"Never use the format `<type>: <subject>` for commit messages; write prose.", // forbids it
		"Keep the commit message under 72 characters, like `Area: summary`.",         // no word that gives a shape
	} {
		for _, c := range Compile(rule, "") {
			if c.Message != nil && c.Kind == check.Require && c.Message.Name != "" && c.Message.Name[:3] == "in " {
				t.Errorf("%q compiled a template: %s", rule, check.Describe(c))
			}
		}
	}
}

// FuzzTemplatePattern: whatever the span, a template's pattern compiles,
// and the check built on it is valid.
func FuzzTemplatePattern(f *testing.F) {
	for _, s := range []string{"Area: Summary #ticket", "<type>: <subject>", "[PROJ-42] summary", "{scope}/{name}: ...", "Module - Change"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, span string) {
		p, ok := templatePattern(span)
		if !ok {
			return
		}
		if _, err := regexp.Compile(p); err != nil {
			t.Fatalf("templatePattern(%q) = %q: %v", span, p, err)
		}
		rule := "Commit messages follow the format `" + strings.ReplaceAll(span, "`", "") + "`."
		for _, c := range Compile(rule, "") {
			if err := check.Validate(c); err != nil {
				t.Fatalf("Compile(%q) gave an invalid check: %v", rule, err)
			}
		}
	})
}

// FuzzBranchPattern: a branch template read from any span compiles, and
// matches the span itself when the span holds no placeholder brackets.
func FuzzBranchPattern(f *testing.F) {
	for _, s := range []string{"agent/<topic>", "feature/short-name", "bugfix/issue-name", "feature/<ticket>-<short-description>", "a/b", "<x>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, span string) {
		p, ok := branchPattern(span)
		if !ok {
			return
		}
		re, err := regexp.Compile(p)
		if err != nil {
			t.Fatalf("%q: pattern %q does not compile: %v", span, p, err)
		}
		if !strings.ContainsAny(span, "<>{}") && !re.MatchString(span) {
			t.Errorf("%q: pattern %q misses the span itself", span, p)
		}
	})
}
