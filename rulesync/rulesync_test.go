package rulesync_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/internal/mcptest"

	"github.com/innate-mcp/innate-mcp/embed"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/rulesync"
	"github.com/innate-mcp/innate-mcp/storage"
)

// A query that recall answers with the project's rule on frontend tests
// when the file is imported by hand: the project's CLAUDE.md (a real one,
// copied to testdata) says how frontend tests run. The query is this
// test's own, not a sentence of an evaluation set.
const (
	frontendQuery = "Which command runs the frontend tests after I edit a React page in site/src/pages?"
	frontendRule  = "`pnpm test` - Run frontend tests"
	// frontendEdit is the rule reworded.
	frontendEdit = "`pnpm test:unit` - Run frontend tests (not the e2e suite)"
)

type env struct {
	db   *storage.DB
	kb   *kb.KB
	root string
	home string
	log  *mcptest.SyncBuffer
}

// newEnv is a knowledge base with the built-in encoder and a project: a
// git repository holding the rules set's CLAUDE.md.
func newEnv(t testing.TB) *env {
	t.Helper()
	db, err := storage.Open(context.Background(), filepath.Join(t.TempDir(), "kb.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	k, err := kb.New(kb.Config{Store: db, Embedder: embed.Builtin(), Session: "rulesync"})
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	claude, err := os.ReadFile(filepath.Join("testdata", "CLAUDE.md"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(root, "CLAUDE.md"), claude)
	return &env{db: db, kb: k, root: root, home: t.TempDir(), log: &mcptest.SyncBuffer{}}
}

func writeFile(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func (e *env) syncer(opt rulesync.Options) *rulesync.Syncer {
	if opt.Interval == 0 {
		opt.Interval = -1
	}
	if opt.Home == "" {
		opt.Home = e.home
	}
	opt.Log = slogTo(e.log)
	return rulesync.New(e.kb, e.db, opt)
}

func (e *env) sync(t testing.TB, s *rulesync.Syncer, project string) rulesync.Report {
	t.Helper()
	rep, err := s.Sync(context.Background(), project)
	if err != nil {
		t.Fatalf("Sync(%s): %v", project, err)
	}
	return rep
}

// recallTop is the content of recall's best lesson for the query in the
// project, "" when it finds none.
func (e *env) recallTop(t *testing.T, query string) string {
	t.Helper()
	res, err := e.kb.Recall(context.Background(), kb.RecallRequest{Query: query, Project: e.root, Top: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Lessons) == 0 {
		return ""
	}
	return res.Lessons[0].Content
}

func TestSync_firstRecallFindsTheRuleAndAnEditIsSeen(t *testing.T) {
	e := newEnv(t)
	if got := e.recallTop(t, frontendQuery); got != "" {
		t.Fatalf("before any sync recall found %q", got)
	}
	s := e.syncer(rulesync.Options{})
	s.Seen(context.Background(), e.root)
	if got := e.recallTop(t, frontendQuery); !strings.Contains(got, frontendRule) {
		t.Fatalf("after the first sync recall's best lesson is %q; want the rule %q", got, frontendRule)
	}

	path := filepath.Join(e.root, "CLAUDE.md")
	old, _ := os.ReadFile(path)
	edited := bytes.Replace(old, []byte(frontendRule), []byte(frontendEdit), 1)
	writeFile(t, path, edited)
	rep := e.sync(t, s, e.root)
	if len(rep.Imported) != 1 || rep.Imported[0].Changed != 1 {
		t.Fatalf("after an edit of one rule: %+v; want the file imported with one rule changed", rep)
	}
	if got := e.recallTop(t, frontendQuery); !strings.Contains(got, frontendEdit) {
		t.Fatalf("after the edit recall's best lesson is %q; want the new wording", got)
	}
	var archived []string
	err := e.db.Lessons(context.Background(), kb.LessonFilter{Project: e.root, States: []kb.State{kb.StateArchived}}, func(l kb.Lesson) error {
		archived = append(archived, l.Content)
		return nil
	})
	if err != nil || len(archived) != 1 || !strings.Contains(archived[0], frontendRule) {
		t.Fatalf("archived lessons %q, %v; want the old wording only", archived, err)
	}
}

func TestSync_unchangedFilesAreNotImportedAgain(t *testing.T) {
	e := newEnv(t)
	s := e.syncer(rulesync.Options{})
	first := e.sync(t, s, e.root)
	if len(first.Imported) != 1 || first.Imported[0].Added == 0 {
		t.Fatalf("first sync: %+v; want CLAUDE.md imported", first)
	}
	if rep := e.sync(t, s, e.root); len(rep.Imported) != 0 || rep.Skipped != "" {
		t.Fatalf("second sync of an unchanged project: %+v; want the files checked and nothing imported", rep)
	}
	// A new time with the same content: read and hashed, not imported.
	path := filepath.Join(e.root, "CLAUDE.md")
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	if rep := e.sync(t, s, e.root); len(rep.Imported) != 0 {
		t.Fatalf("sync after a touch: %+v; want nothing imported", rep)
	}
	states, err := rulesync.States(context.Background(), e.db)
	if err != nil || len(states) != 1 || len(states[0].Files) != 1 {
		t.Fatalf("states %+v, %v; want the project's one file", states, err)
	}
	f := states[0].Files[0]
	if !f.ModTime.Equal(later) || !f.SyncedAt.Equal(first.Imported[0].SyncedAt) || f.Added != first.Imported[0].Added {
		t.Errorf("state after the touch %+v; want the new mtime %v and the first sync's time and counts", f, later)
	}
}

func TestSync_withinTheIntervalNothingIsLookedAt(t *testing.T) {
	e := newEnv(t)
	now := time.Now()
	s := e.syncer(rulesync.Options{Interval: 2 * time.Second, Now: func() time.Time { return now }})
	e.sync(t, s, e.root)
	writeFile(t, filepath.Join(e.root, "AGENTS.md"), []byte("- Always run `make lint` before a commit.\n"))
	if rep := e.sync(t, s, e.root); rep.Skipped != rulesync.SkipRecent {
		t.Fatalf("a second sync within the interval: %+v; want it skipped", rep)
	}
	now = now.Add(3 * time.Second)
	if rep := e.sync(t, s, e.root); len(rep.Imported) != 1 || !strings.HasSuffix(rep.Imported[0].Path, "AGENTS.md") {
		t.Fatalf("a sync after the interval: %+v; want AGENTS.md imported", rep)
	}
}

func TestSync_refusesLinksOutsideAndHugeFilesAndGoesOn(t *testing.T) {
	e := newEnv(t)
	outside := filepath.Join(t.TempDir(), "secret.md")
	writeFile(t, outside, []byte("- Never reveal the deploy key.\n"))
	if err := os.Symlink(outside, filepath.Join(e.root, "AGENTS.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(e.root, ".cursor", "rules"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../../"+filepath.Base(filepath.Dir(outside))+"/secret.md", filepath.Join(e.root, ".cursor", "rules", "up.mdc")); err != nil {
		t.Fatal(err)
	}
	big, err := os.Create(filepath.Join(e.root, "GEMINI.md"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(50 << 20); err != nil {
		t.Fatal(err)
	}
	big.Close()
	writeFile(t, filepath.Join(e.root, ".github", "copilot-instructions.md"), []byte("- Prefer table-driven tests.\n"))

	s := e.syncer(rulesync.Options{})
	rep := e.sync(t, s, e.root)
	var imported []string
	for _, f := range rep.Imported {
		imported = append(imported, filepath.Base(f.Path))
	}
	if !slices.Equal(imported, []string{"CLAUDE.md", "copilot-instructions.md"}) {
		t.Errorf("imported %v; want CLAUDE.md and copilot-instructions.md", imported)
	}
	want := map[string]string{"AGENTS.md": "outside the project root", "up.mdc": "", "GEMINI.md": "more than 4 MiB"}
	if len(rep.Refused) != len(want) {
		t.Errorf("refused %+v; want %v", rep.Refused, want)
	}
	logs := e.log.String()
	for _, r := range rep.Refused {
		w, ok := want[filepath.Base(r.Path)]
		if !ok || !strings.Contains(r.Reason, w) {
			t.Errorf("refused %s: %q; want a reason with %q", r.Path, r.Reason, w)
		}
		if !strings.Contains(logs, "rule file refused") || !strings.Contains(logs, r.Path) {
			t.Errorf("no log line for %s in\n%s", r.Path, logs)
		}
	}
	var contents []string
	e.db.Lessons(context.Background(), kb.LessonFilter{}, func(l kb.Lesson) error {
		contents = append(contents, l.Content)
		return nil
	})
	for _, c := range contents {
		if strings.Contains(c, "deploy key") {
			t.Fatalf("a lesson from outside the root was stored: %q", c)
		}
	}
	// Logged once a process, not on every check.
	n := strings.Count(e.log.String(), "rule file refused")
	e.sync(t, s, e.root)
	if m := strings.Count(e.log.String(), "rule file refused"); m != n {
		t.Errorf("a second check logged the refusals again (%d lines, then %d)", n, m)
	}
}

func TestSync_settingTurnsItOff(t *testing.T) {
	e := newEnv(t)
	var asked []string
	s := e.syncer(rulesync.Options{Enabled: func(p string) bool { asked = append(asked, p); return p != e.root }})
	s.Seen(context.Background(), e.root)
	if got := e.recallTop(t, frontendQuery); got != "" {
		t.Fatalf("with sync off for the project recall found %q", got)
	}
	if rep := e.sync(t, s, e.root); rep.Skipped != rulesync.SkipDisabled {
		t.Fatalf("sync of a project turned off: %+v", rep)
	}
	if !slices.Contains(asked, "") || !slices.Contains(asked, e.root) {
		t.Errorf("Enabled asked about %q; want the global rules and the project", asked)
	}
}

func TestSync_globalFileAndGoneFile(t *testing.T) {
	e := newEnv(t)
	writeFile(t, filepath.Join(e.home, ".claude", "CLAUDE.md"), []byte("# Mine\n\n- Answer in British English.\n"))
	s := e.syncer(rulesync.Options{})
	s.Seen(context.Background(), e.root)
	var global []kb.Lesson
	e.db.Lessons(context.Background(), kb.LessonFilter{Project: "", Global: true}, func(l kb.Lesson) error {
		global = append(global, l)
		return nil
	})
	if len(global) != 1 || !strings.Contains(global[0].Content, "British English") || global[0].Project != "" {
		t.Fatalf("global lessons %+v; want the user's CLAUDE.md rule, with no project", global)
	}
	if err := os.Remove(filepath.Join(e.root, "CLAUDE.md")); err != nil {
		t.Fatal(err)
	}
	rep := e.sync(t, s, e.root)
	if len(rep.Gone) != 1 {
		t.Fatalf("sync after CLAUDE.md was deleted: %+v; want it gone", rep)
	}
	active := 0
	e.db.Lessons(context.Background(), kb.LessonFilter{Project: e.root, States: []kb.State{kb.StateActive}}, func(kb.Lesson) error {
		active++
		return nil
	})
	if active != 0 {
		t.Errorf("%d lessons of the deleted file are still active", active)
	}
	if states, _ := rulesync.States(context.Background(), e.db); len(states) != 2 || states[0].Project != "" || len(states[1].Files) != 0 {
		t.Errorf("states %+v; want the global one first and the project's with no file", states)
	}
}

func TestSync_projectsThatAreNoDirectory(t *testing.T) {
	e := newEnv(t)
	s := e.syncer(rulesync.Options{})
	for _, p := range []string{"demo", filepath.Join(e.root, "CLAUDE.md"), filepath.Join(e.root, "missing")} {
		if rep := e.sync(t, s, p); rep.Skipped != rulesync.SkipNoDir {
			t.Errorf("Sync(%q) = %+v; want it skipped as no directory", p, rep)
		}
	}
}

// TestSync_dotClaudeFile: a project's .claude/CLAUDE.md, which Claude Code
// loads as the project's memory, is one of its rule files.
func TestSync_dotClaudeFile(t *testing.T) {
	e := newEnv(t)
	writeFile(t, filepath.Join(e.root, ".claude", "CLAUDE.md"), []byte("# Tools\n\n- Use pnpm, never npm.\n"))
	rep := e.sync(t, e.syncer(rulesync.Options{}), e.root)
	found := false
	for _, f := range rep.Imported {
		found = found || strings.HasSuffix(filepath.ToSlash(f.Path), ".claude/CLAUDE.md")
	}
	if !found {
		t.Fatalf("imported %+v; want .claude/CLAUDE.md among them", rep.Imported)
	}
}

// TestSync_newImportVersion: a file synced by an older import is imported
// again, though it did not change, so that a fix of the import reaches it.
func TestSync_newImportVersion(t *testing.T) {
	e := newEnv(t)
	s := e.syncer(rulesync.Options{})
	e.sync(t, s, e.root)
	// The state as an older version stored it: no import version.
	ctx := context.Background()
	states, err := rulesync.States(ctx, e.db)
	if err != nil || len(states) == 0 {
		t.Fatalf("states: %v, %v", states, err)
	}
	var st rulesync.State
	for _, x := range states {
		if x.Project == e.root {
			st = x
		}
	}
	for i := range st.Files {
		st.Files[i].Import = 0
	}
	b, _ := json.Marshal(st)
	if err := e.db.SetMeta(ctx, "rule_sync:"+e.root, string(b)); err != nil {
		t.Fatal(err)
	}
	again := e.sync(t, e.syncer(rulesync.Options{}), e.root)
	if len(again.Imported) == 0 {
		t.Fatalf("an unchanged file synced by an older import was not imported again: %+v", again)
	}
	third := e.sync(t, e.syncer(rulesync.Options{}), e.root)
	if len(third.Imported) != 0 {
		t.Fatalf("a file imported by this version was imported again: %+v", third.Imported)
	}
}
