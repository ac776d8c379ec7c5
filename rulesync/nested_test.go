package rulesync_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/rulesync"
)

// importedNames are the files a sync imported, relative to root.
func importedNames(t *testing.T, root string, rep rulesync.Report) []string {
	t.Helper()
	var out []string
	for _, f := range rep.Imported {
		rel, err := filepath.Rel(root, f.Path)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, filepath.ToSlash(rel))
	}
	slices.Sort(out)
	return out
}

// TestSync_nestedRuleFiles: a rule file below the root is synced with the
// directory it governs as its scope; dependencies, build output, hidden
// directories and test fixtures are not looked in, nor past the depth
// limit. Within NestedInterval the files found are checked (an edit and a
// removal are seen at once) and a new one waits for the next look.
func TestSync_nestedRuleFiles(t *testing.T) {
	e := newEnv(t)
	now := time.Now()
	s := e.syncer(rulesync.Options{Now: func() time.Time { return now }})
	for name, body := range map[string]string{
		"web/CLAUDE.md":                      "- Never edit files under generated/.\n",
		"web/.cursor/rules/ts.mdc":           "---\nglobs: *.ts\n---\n- Do not use `any`.\n",
		"services/api/AGENTS.md":             "- Use pnpm, never npm.\n",
		"node_modules/pkg/CLAUDE.md":         "- A dependency's rules.\n",
		"web/testdata/CLAUDE.md":             "- A fixture's rules.\n",
		".hidden/CLAUDE.md":                  "- A hidden directory's rules.\n",
		"a/b/c/d/e/CLAUDE.md":                "- Too deep.\n",
		"web/notes/README.md":                "- Not a rule file.\n",
		"services/api/.github/copilot-x.md":  "- Not a name looked for.\n",
		"services/api/.cursor/rules/x.mdc":   "- Cursor rules of a nested directory.\n",
		"services/api/.cursor/other/y.mdc":   "- Not under rules/.\n",
		"services/api/.windsurf/rules/z.mdc": "- Not read.\n",
	} {
		writeFile(t, filepath.Join(e.root, filepath.FromSlash(name)), []byte(body))
	}
	rep := e.sync(t, s, e.root)
	want := []string{"CLAUDE.md", "services/api/.cursor/rules/x.mdc", "services/api/AGENTS.md", "web/.cursor/rules/ts.mdc", "web/CLAUDE.md"}
	if got := importedNames(t, e.root, rep); !slices.Equal(got, want) {
		t.Fatalf("imported %q, want %q", got, want)
	}
	ctx := context.Background()
	scopes := map[string]string{}
	err := e.kb.Lessons(ctx, kb.LessonFilter{Project: e.root, States: []kb.State{kb.StateActive}}, func(l kb.Lesson) error {
		if l.Directive != nil {
			scopes[l.Content] = l.Directive.Dir + " " + strings.Join(l.Directive.Globs, ",")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for content, scope := range map[string]string{
		"Never edit files under generated/.":  "web ",
		"Do not use `any`.":                   "web *.ts",
		"Use pnpm, never npm.":                "services/api ",
		"Cursor rules of a nested directory.": "services/api ",
		"`pnpm test` - Run frontend tests":    " ",
	} {
		if got, ok := scopes[content]; !ok || got != scope {
			t.Errorf("the rule %q has scope %q (held: %v), want %q", content, got, ok, scope)
		}
	}

	// Within the interval: an edit and a removal of a nested file are
	// seen; a new nested file is not, until the next look.
	now = now.Add(rulesync.NestedInterval / 2)
	writeFile(t, filepath.Join(e.root, "web", "CLAUDE.md"), []byte("- Never edit files under gen/.\n"))
	if err := os.Remove(filepath.Join(e.root, "services", "api", "AGENTS.md")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(e.root, "docs", "AGENTS.md"), []byte("- Write docs in British English.\n"))
	rep = e.sync(t, s, e.root)
	if got := importedNames(t, e.root, rep); !slices.Equal(got, []string{"web/CLAUDE.md"}) || len(rep.Gone) != 1 || !strings.HasSuffix(rep.Gone[0], "AGENTS.md") {
		t.Fatalf("within the interval: imported %q, gone %q; want web/CLAUDE.md, and services/api/AGENTS.md gone", got, rep.Gone)
	}
	now = now.Add(rulesync.NestedInterval)
	rep = e.sync(t, s, e.root)
	if got := importedNames(t, e.root, rep); !slices.Equal(got, []string{"docs/AGENTS.md"}) {
		t.Fatalf("after the interval: imported %q, want docs/AGENTS.md", got)
	}
}

// TestSync_nestedLookInTheBackground: with a Background, a sync past
// NestedInterval goes on with the files found before and has the look run
// apart, once at a time; the look imports what it finds. The first look of
// a project is made in the call.
func TestSync_nestedLookInTheBackground(t *testing.T) {
	e := newEnv(t)
	now := time.Now()
	var pending []func(context.Context)
	s := e.syncer(rulesync.Options{Now: func() time.Time { return now },
		Background: func(f func(context.Context)) { pending = append(pending, f) }})
	writeFile(t, filepath.Join(e.root, "web", "CLAUDE.md"), []byte("- Never edit files under generated/.\n"))
	if got := importedNames(t, e.root, e.sync(t, s, e.root)); !slices.Equal(got, []string{"CLAUDE.md", "web/CLAUDE.md"}) || len(pending) != 0 {
		t.Fatalf("first sync imported %q with %d background looks; want both files, looked for in the call", got, len(pending))
	}
	writeFile(t, filepath.Join(e.root, "api", "AGENTS.md"), []byte("- Use pnpm, never npm.\n"))
	now = now.Add(2 * rulesync.NestedInterval)
	for range 2 {
		if got := importedNames(t, e.root, e.sync(t, s, e.root)); len(got) != 0 {
			t.Fatalf("a sync past the interval imported %q in the call; want the look left to the background", got)
		}
	}
	if len(pending) != 1 {
		t.Fatalf("%d background looks scheduled, want 1", len(pending))
	}
	pending[0](context.Background())
	states, err := rulesync.States(context.Background(), e.db)
	if err != nil || len(states) != 1 || !slices.Contains(states[0].Nested, "api/AGENTS.md") || !states[0].Walked.Equal(now) {
		t.Fatalf("state after the background look: %+v, %v; want api/AGENTS.md found, looked at now", states, err)
	}
	n := 0
	e.kb.Lessons(context.Background(), kb.LessonFilter{Project: e.root, States: []kb.State{kb.StateActive}}, func(l kb.Lesson) error {
		if l.Content == "Use pnpm, never npm." {
			n++
		}
		return nil
	})
	if n != 1 {
		t.Errorf("the background look imported api/AGENTS.md %d times, want once", n)
	}
}
