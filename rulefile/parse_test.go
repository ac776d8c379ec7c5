package rulefile

import (
	"bytes"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func contents(rules []Rule) []string {
	out := make([]string, 0, len(rules))
	for _, r := range rules {
		out = append(out, r.Content)
	}
	return out
}

func TestParse_Errors(t *testing.T) {
	tests := []struct {
		name string
		data string
		want error
	}{
		{"invalid utf8", "# Rules\n- use \xff tabs\n", ErrNotText},
		{"nul bytes", "PK\x03\x04\x00\x00binary", ErrNotText},
		{"control chars", strings.Repeat("\x01\x02\x03abc", 20), ErrNotText},
		{"unterminated front matter", "---\ndescription: x\n- rule one\n", ErrFrontMatter},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rules, err := Parse("rule.mdc", []byte(tc.data))
			if !errors.Is(err, tc.want) {
				t.Fatalf("err=%v, want %v", err, tc.want)
			}
			if rules != nil {
				t.Errorf("rules=%v, want nil on error", rules)
			}
		})
	}
}

func TestParse_NoRules(t *testing.T) {
	for _, data := range []string{
		"",
		"---\n",
		"   \n\n\t\n",
		"---\ndescription: nothing yet\nglobs: \"**/*.go\"\nalwaysApply: true\n---\n",
		"---\ndescription: x\n---",
		"# Title\n\n## Empty\n\n## Also empty\n",
		"## Table of Contents\n- [A](#a)\n- [B](#b)\n",
		"- [Docs](https://example.com/docs)\n- https://example.com/api\n",
		"- \n- \n",
		"<!-- only a comment -->\n",
		"<div align=\"center\">\n<img src=\"logo.png\" alt=\"Logo\">\n</div>\n\n<br>\n",
	} {
		rules, err := Parse("CLAUDE.md", []byte(data))
		if err != nil || len(rules) != 0 {
			t.Errorf("Parse(%q) = %v, %v; want no rules, no error", data, contents(rules), err)
		}
	}
}

func TestParse_Structure(t *testing.T) {
	tests := []struct {
		name string
		file string
		data string
		want []string
	}{
		{
			"lines opening with a cross or a tick are items of their own", "CLAUDE.md",
			"## Don'ts\n❌ Run Python without uv\n❌ Commit secrets or keys\n✅ Use uv for everything\n",
			[]string{"❌ Run Python without uv", "❌ Commit secrets or keys", "✅ Use uv for everything"},
		},
		{
			"fence never split and stays with its item", "CLAUDE.md",
			"- Build with:\n\n  ```sh\n  - not an item\n\n  # not a heading\n  make\n  ```\n- Next rule here please.\n",
			[]string{"Build with:\n\n```sh\n- not an item\n\n# not a heading\nmake\n```", "Next rule here please."},
		},
		{
			"item opening with a fence keeps it whole", "CLAUDE.md",
			"- ```go\nfunc main() {\n- not an item\n}\n```\n- Second rule with enough words.\n",
			[]string{"```go\nfunc main() {\n- not an item\n}\n```", "Second rule with enough words."},
		},
		{
			"unclosed fence runs to the end", "AGENTS.md",
			"Run the generator like this:\n```\ngen --all\n- still code\n",
			[]string{"Run the generator like this:\n\n```\ngen --all\n- still code"},
		},
		{
			"code after a paragraph attaches", "CLAUDE.md",
			"## Logging\n\nUse structured logs:\n\n```go\nslog.Info(\"x\")\n```\n\n```go\nslog.Debug(\"y\")\n```\n",
			[]string{"Use structured logs:\n\n```go\nslog.Info(\"x\")\n```\n\n```go\nslog.Debug(\"y\")\n```"},
		},
		{
			"code first in a section is a rule", "CLAUDE.md",
			"## Commands\n\n```sh\nmake test\n```\n",
			[]string{"```sh\nmake test\n```"},
		},
		{
			"nested items and continuation lines stay in their item", "AGENTS.md",
			"1. Check for an existing component in:\n   - packages/ui\n   - apps/web\n   and reuse it.\n2) Otherwise create one with tests and stories.\n",
			[]string{"Check for an existing component in:\n- packages/ui\n- apps/web\nand reuse it.", "Otherwise create one with tests and stories."},
		},
		{
			"nested rules under a label item are rules of their own", "AGENTS.md",
			"- **Tailwind Only**:\n  - Do not write custom CSS\n  - Do not use scoped CSS\n- Backend\n  - Keep controllers thin and fast.\n",
			[]string{"Do not write custom CSS", "Do not use scoped CSS", "Keep controllers thin and fast."},
		},
		{
			"a bold sentence is a rule with its example, a bold label a heading", "CLAUDE.md",
			"**Always use backticks for code. Add `()` for methods:**\n\n```php\nit('uses `foo()`')\n```\n\n**Testing:**\n\nRun the whole suite before pushing.\n",
			[]string{"**Always use backticks for code. Add `()` for methods:**\n\n```php\nit('uses `foo()`')\n```", "Run the whole suite before pushing."},
		},
		{
			"a rule with nested items stays whole", "AGENTS.md",
			"- All existing tests must pass.\n  - Use `make test` to run unit tests.\n  - If your change breaks a test, fix it.\n",
			[]string{"All existing tests must pass.\n- Use `make test` to run unit tests.\n- If your change breaks a test, fix it."},
		},
		{
			"lazy continuation", "AGENTS.md",
			"- Keep handlers thin: parse,\ncall the domain, encode.\n- Return errors, do not panic.\n",
			[]string{"Keep handlers thin: parse,\ncall the domain, encode.", "Return errors, do not panic."},
		},
		{
			"short items merge with their heading", "CLAUDE.md",
			"## Stack\n- Go\n- SQLite\n- Use chromem-go for vectors in memory.\n- MCP\n",
			[]string{"Stack: Go, SQLite", "Use chromem-go for vectors in memory.", "Stack: MCP"},
		},
		{
			"short items merge with a lead-in", "CLAUDE.md",
			"Formatting tools:\n- gofmt\n- goimports\n",
			[]string{"Formatting tools: gofmt, goimports"},
		},
		{
			"plain text becomes paragraphs", ".cursorrules",
			"You write Go services for a payments team.\nPrefer the standard library.\n\nAlways add context to errors before returning them.\n",
			[]string{"You write Go services for a payments team.\nPrefer the standard library.", "Always add context to errors before returning them."},
		},
		{
			"unclosed --- in a .md file is a break", "CLAUDE.md",
			"---\n# Rules\n- Keep the main branch green at all times.\n",
			[]string{"Keep the main branch green at all times."},
		},
		{
			"no front matter outside .md and .mdc", ".cursorrules",
			"---\ndescription: not front matter here\n---\nUse tabs.\n",
			// A setext heading, and "Use tabs." is short enough to merge with it.
			[]string{"description: not front matter here: Use tabs"},
		},
		{
			"thematic break is not a rule", "CLAUDE.md",
			"Use tabs for indentation in Go files.\n\n---\n\n***\n\nUse spaces in YAML files.\n",
			[]string{"Use tabs for indentation in Go files.", "Use spaces in YAML files."},
		},
		{
			"crlf line endings", "CLAUDE.md",
			"## Style\r\n- Keep functions short and focused.\r\n- Name things for what they do.\r\n",
			[]string{"Keep functions short and focused.", "Name things for what they do."},
		},
		{
			"link list entries with text are kept", "CLAUDE.md",
			"- [Style guide](https://example.com/style): follow it for naming.\n- [Docs](https://example.com)\n",
			[]string{"[Style guide](https://example.com/style): follow it for naming."},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rules, err := Parse(tc.file, []byte(tc.data))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if got := contents(rules); !slices.Equal(got, tc.want) {
				t.Errorf("got=%q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestParse_TriggerTagsSource(t *testing.T) {
	data := "---\ndescription: \"Go testing rules\"\nglobs: **/*_test.go, internal/**/*.{go,tmpl}\nalwaysApply: false\n---\n# Testing\n\n## Table tests\n\nWhen a case fails:\n- Print got and want in the same order everywhere.\n"
	rules, err := Parse("backend/.cursor/rules/testing.mdc", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(rules) != 1 {
		t.Fatalf("got %d rules, want 1: %q", len(rules), contents(rules))
	}
	r := rules[0]
	wantTrigger := "Go testing rules; files: **/*_test.go, internal/**/*.{go,tmpl}; Testing > Table tests > When a case fails"
	if r.Trigger != wantTrigger {
		t.Errorf("trigger=%q, want %q", r.Trigger, wantTrigger)
	}
	wantTags := []string{"cursor", "backend", "go", "tmpl", "testing", "table-tests"}
	if !slices.Equal(r.Tags, wantTags) {
		t.Errorf("tags=%q, want %q", r.Tags, wantTags)
	}
	if want := "backend/.cursor/rules/testing.mdc#table-tests:11"; r.Source != want {
		t.Errorf("source=%q, want %q", r.Source, want)
	}
}

func TestParse_NestedLabelTriggerAndLine(t *testing.T) {
	rules, err := Parse("AGENTS.md", []byte("## Styling\n\n- **Tailwind Only**:\n  - Do not write custom CSS\n  - Do not use scoped CSS\n"))
	if err != nil || len(rules) != 2 {
		t.Fatalf("Parse = %q, %v; want two rules", contents(rules), err)
	}
	if want := "Styling > Tailwind Only"; rules[1].Trigger != want {
		t.Errorf("trigger=%q, want %q", rules[1].Trigger, want)
	}
	if want := "AGENTS.md#styling:5"; rules[1].Source != want {
		t.Errorf("source=%q, want %q", rules[1].Source, want)
	}
}

func TestParse_AlwaysApplyTag(t *testing.T) {
	rules, err := Parse("style.mdc", []byte("---\nalwaysApply: true\n---\nAnswer in British English in every reply.\n"))
	if err != nil || len(rules) != 1 {
		t.Fatalf("Parse = %v, %v; want one rule", rules, err)
	}
	if want := []string{"cursor", "always-apply"}; !slices.Equal(rules[0].Tags, want) {
		t.Errorf("tags=%q, want %q", rules[0].Tags, want)
	}
}

func TestParseFrontMatter(t *testing.T) {
	tests := []struct {
		name, src string
		desc      string
		globs     []string
		always    bool
	}{
		{"plain", "description: Rules for X\nglobs: *.go\nalwaysApply: true", "Rules for X", []string{"*.go"}, true},
		{"quoted flow list", "description: 'Quoted: yes'\nglobs: [\"a/**\", 'b/*.{ts,tsx}']", "Quoted: yes", []string{"a/**", "b/*.{ts,tsx}"}, false},
		{"block list", "globs:\n  - \"**/*.py\"\n  - scripts/*.sh\ndescription: >\n  folded\n  text", "folded text", []string{"**/*.py", "scripts/*.sh"}, false},
		{"comma string with braces", "globs: src/**/*.{js,jsx}, test/*.js", "", []string{"src/**/*.{js,jsx}", "test/*.js"}, false},
		{"applyTo", "applyTo: \"**/*.py,**/*.pyi\"", "", []string{"**/*.py", "**/*.pyi"}, false},
		{"empty globs", "globs:\ndescription:", "", nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fm := parseFrontMatter(strings.Split(tc.src, "\n"))
			if fm.description != tc.desc || !slices.Equal(fm.globs, tc.globs) || fm.alwaysApply != tc.always {
				t.Errorf("got=%+v, want desc %q globs %q always %v", fm, tc.desc, tc.globs, tc.always)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	for _, name := range []string{"CLAUDE.md", "AGENTS.md", ".cursor/rules/go-testing.mdc", "frontend/.cursor/rules/react.mdc", "plain/.cursorrules"} {
		data, err := os.ReadFile("testdata/inputs/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(name, data)
	}
	f.Add("x.mdc", []byte("---\nglobs: [\n---\n- a\n```\n"))
	f.Add("CLAUDE.md", []byte("- \n  ```\n- x\n1) y\n**z**\n---\n|a|\n"))
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		dir := ScopeDir(name)
		if strings.HasPrefix(dir, "/") || dir == ".." || strings.HasPrefix(dir, "../") || strings.HasSuffix(dir, "/") {
			t.Fatalf("ScopeDir(%q) = %q, not a directory below the root", name, dir)
		}
		rules, err := ParseIn(dir, name, data)
		if err != nil {
			if !errors.Is(err, ErrNotText) && !errors.Is(err, ErrFrontMatter) {
				t.Fatalf("unexpected error kind: %v", err)
			}
			return
		}
		for _, r := range rules {
			if strings.TrimSpace(r.Content) == "" {
				t.Fatalf("empty rule content in %q", rules)
			}
			if !utf8.ValidString(r.Content) || !utf8.ValidString(r.Trigger) || !utf8.ValidString(r.Source) {
				t.Fatalf("invalid UTF-8 in rule %+v", r)
			}
			if dir != "" && utf8.ValidString(dir) && !strings.Contains(r.Trigger, DirPrefix+dir) {
				t.Fatalf("trigger %q does not name the directory %q", r.Trigger, dir)
			}
			if !strings.HasPrefix(r.Source, strings.ReplaceAll(strings.ToValidUTF8(name, "\uFFFD"), "\\", "/")) {
				t.Fatalf("source %q does not start with the file name %q", r.Source, name)
			}
		}
	})
}

// TestScopeDir: the directory a rule file governs, from its path below the
// project's root.
func TestScopeDir(t *testing.T) {
	for rel, want := range map[string]string{
		"CLAUDE.md":                                    "",
		".cursorrules":                                 "",
		".cursor/rules/go.mdc":                         "",
		".cursor/rules/sub/go.mdc":                     "",
		".github/copilot-instructions.md":              "",
		".github/instructions/x.instructions.md":       "",
		"web/CLAUDE.md":                                "web",
		"web/.cursorrules":                             "web",
		"web/.cursor/rules/ts.mdc":                     "web",
		"services/api/AGENTS.md":                       "services/api",
		"services/api/.github/copilot-instructions.md": "services/api",
		`services\api\CLAUDE.md`:                       "services/api",
		"./web/./CLAUDE.md":                            "web",
		"../elsewhere/CLAUDE.md":                       "",
		"/abs/CLAUDE.md":                               "",
		"web/../CLAUDE.md":                             "",
	} {
		if got := ScopeDir(rel); got != want {
			t.Errorf("ScopeDir(%q) = %q, want %q", rel, got, want)
		}
	}
}

// TestParseIn: a nested file's rules name their directory in their
// trigger, after the front matter's globs and before the heading path.
func TestParseIn(t *testing.T) {
	rules, err := ParseIn("web", "ts.mdc", []byte("---\nglobs: *.ts\n---\n# Types\n\n- Do not use `any`.\n"))
	if err != nil || len(rules) != 1 {
		t.Fatalf("ParseIn: %+v, %v", rules, err)
	}
	if want := FilesPrefix + "*.ts; " + DirPrefix + "web; Types"; rules[0].Trigger != want {
		t.Errorf("trigger %q, want %q", rules[0].Trigger, want)
	}
	root, err := Parse("ts.mdc", []byte("---\nglobs: *.ts\n---\n# Types\n\n- Do not use `any`.\n"))
	if err != nil || len(root) != 1 || strings.Contains(root[0].Trigger, DirPrefix) {
		t.Errorf("a root file's trigger names a directory: %+v, %v", root, err)
	}
}

func BenchmarkParse(b *testing.B) {
	data, err := os.ReadFile("testdata/inputs/CLAUDE.md")
	if err != nil {
		b.Fatal(err)
	}
	big := bytes.Repeat(data, (1<<20)/len(data)+1)
	// Blank runs inside items, unclosed fences and deep nesting: the
	// shapes that could make a line-based parser quadratic.
	odd := []byte(strings.Repeat("- item\n"+strings.Repeat("\n", 50)+"  more\n"+strings.Repeat("  ", 30)+"- deep\n```\n", 2000))
	for _, c := range []struct {
		name string
		data []byte
	}{{"CLAUDE.md", data}, {"1MB", big}, {"adversarial", odd}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.data)))
			for b.Loop() {
				if _, err := Parse("CLAUDE.md", c.data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestParse_ConcurrentUse(t *testing.T) {
	data := []byte("## Style\n- Keep functions short and focused.\n")
	done := make(chan int)
	for range 8 {
		go func() {
			rules, _ := Parse("CLAUDE.md", data)
			done <- len(rules)
		}()
	}
	for range 8 {
		if n := <-done; n != 1 {
			t.Errorf("got %d rules, want 1", n)
		}
	}
}
