package hook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/action"
	"github.com/innate-mcp/innate-mcp/embed"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/storage"
)

// cleanHandler is a handler over a knowledge base holding
// testdata/clean-rules.md as the CLAUDE.md of root.
func cleanHandler(t *testing.T, root string) (*Handler, *kb.KB) {
	t.Helper()
	ctx := context.Background()
	db, err := storage.Open(ctx, filepath.Join(t.TempDir(), "kb.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	k, err := kb.New(kb.Config{Store: db, Embedder: embed.Builtin(), Session: "hooks"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join("testdata", "clean-rules.md"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := k.ImportRuleFile(ctx, filepath.Join(root, "CLAUDE.md"), root, b); err != nil {
		t.Fatal(err)
	}
	return &Handler{KB: k, Config: DefaultConfig(), Project: func(cwd string) string { return root },
		State: &StateDir{Dir: filepath.Join(t.TempDir(), "state")}, Now: time.Now}, k
}

// call is one tool call of a session.
type call struct {
	tool, input string
}

func (c call) input_(root, session string) Input {
	return Input{SessionID: session, Cwd: root, Event: PreToolUse, ToolName: c.tool,
		ToolInput: json.RawMessage(strings.ReplaceAll(c.input, "ROOT", root))}
}

func bashCall(cmd string) call {
	b, _ := json.Marshal(map[string]string{"command": cmd})
	return call{"Bash", string(b)}
}

// TestPreToolUse_cleanRules: on a small, clean rule file every breach is
// asked about, quoting the rule it breaks, through every way of doing it;
// what the rules ask for, and lines that are not rules, say nothing.
func TestPreToolUse_cleanRules(t *testing.T) {
	root := "/home/dev/proj"
	h, _ := cleanHandler(t, root)
	ctx := context.Background()
	const (
		generated    = "Never edit files under generated/"
		conventional = "Use Conventional Commits"
		lint         = "Run `make lint` before committing"
		pipe         = "Never use head, tail, or pipe"
		compile      = "Never compile individual files"
		gofumpt      = "Use gofumpt"
		pnpm         = "Use pnpm, never npm or yarn"
		force        = "Never push with `--force`"
		trailer      = "Never put a `Co-Authored-By` trailer"
		prTitle      = "Pull request titles follow the form `Area: Summary`"
		tsIgnore     = "No `@ts-ignore` comments"
		noVerify     = "Never pass `--no-verify` to `git commit`"
		apiKeys      = "Never hardcode API keys or tokens"
	)
	tests := []struct {
		name string
		call call
		rule string // quoted in the ask; "" for silence
	}{
		{"Edit under generated", call{"Edit", `{"file_path":"ROOT/generated/foo.go","old_string":"a","new_string":"b"}`}, generated},
		{"Write under generated", call{"Write", `{"file_path":"ROOT/generated/foo.go","content":"package gen"}`}, generated},
		{"MultiEdit under generated", call{"MultiEdit", `{"file_path":"ROOT/generated/foo.go","edits":[{"old_string":"a","new_string":"b"}]}`}, generated},
		{"sed -i under generated", bashCall("sed -i 's/a/b/' generated/foo.go"), generated},
		{"echo >> under generated", bashCall("echo 'var x = 1' >> generated/foo.go"), generated},
		{"wip commit", bashCall(`git commit -am "wip"`), conventional},
		{"commit without lint", bashCall(`git commit -m "feat: add cart totals"`), lint},
		{"pipe into tail", bashCall("meson test -C build --suite unit | tail -20"), pipe},
		{"gcc -c", bashCall("gcc -c src/basic/foo.c"), compile},
		{"go fmt", bashCall("go fmt ./..."), gofumpt},
		{"npm install", bashCall("npm install lodash"), pnpm},
		{"npx yarn behind sudo", bashCall("sudo yarn add lodash"), pnpm},
		{"force push", bashCall("git push --force origin feature"), force},
		{"force push short", bashCall("git push -f"), force},
		{"commit that skips the hooks", bashCall(`make lint && git commit --no-verify -m "feat: add cart totals"`), noVerify},
		{"co-author trailer", bashCall(`make lint && git commit -m "feat: add cart totals" -m "Co-authored-by: Claude <noreply@anthropic.com>"`), trailer},
		{"PR title without its area", bashCall(`gh pr create --title "Add cart totals" --body "Totals"`), prTitle},
		{"a new @ts-ignore", call{"Write", `{"file_path":"ROOT/src/cart.ts","content":"// @ts-ignore\nconst t = total(cart)"}`}, tsIgnore},
		{"a token in the code", call{"Write", `{"file_path":"ROOT/src/github.ts","content":"const client = new Octokit({ auth: 'ghp_1234567890abcdefghijklmnopqrstuvwxyzAB' })"}`}, apiKeys},
		{"a token echoed into a config", bashCall(`echo 'STRIPE_KEY = "sk_live_4eC39HqLyjWDarjtT1zdp7dc00"' >> config/settings.py`), apiKeys},
		// Compliant, and not rules at all: silent.
		{"a token in the local .env", call{"Write", `{"file_path":"ROOT/.env","content":"GITHUB_TOKEN=ghp_1234567890abcdefghijklmnopqrstuvwxyzAB"}`}, ""},
		{"a token read from the environment", call{"Write", `{"file_path":"ROOT/src/github.ts","content":"const client = new Octokit({ auth: process.env.GITHUB_TOKEN })"}`}, ""},
		{"a test's weak literal", call{"Write", `{"file_path":"ROOT/src/github.test.ts","content":"const token = 'test-token'"}`}, ""},
		{"@ts-ignore in a doc", call{"Write", `{"file_path":"ROOT/docs/typing.md","content":"Never write // @ts-ignore"}`}, ""},
		{"an edit that keeps an @ts-ignore", call{"Edit", `{"file_path":"ROOT/src/cart.ts","old_string":"// @ts-ignore\nconst t = total(cart)","new_string":"// @ts-ignore\nconst t = total(cart, tax)"}`}, ""},
		{"PR title in the form", bashCall(`gh pr create --title "Cart: Add totals" --body "Totals"`), ""},
		{"pnpm add", bashCall("pnpm add lodash"), ""},
		{"make lint", bashCall("make lint"), ""},
		{"meson compile", bashCall("meson compile -C build systemd"), ""},
		{"ls", bashCall("ls -la"), ""},
		{"git status", bashCall("git status"), ""},
		{"linted conventional commit", bashCall(`make lint && git commit -m "feat: add cart totals" -m "Closes #12"`), ""},
		{"gofumpt", bashCall("gofumpt -l -w ."), ""},
		// A rule about a command with a flag leaves the command alone.
		{"go test without the flag", bashCall("go test ./internal/..."), ""},
		{"push without force", bashCall("git push origin feature"), ""},
		{"edit elsewhere", call{"Edit", `{"file_path":"ROOT/src/cart.go","old_string":"a","new_string":"b"}`}, ""},
		{"read generated", bashCall("cat generated/foo.go | grep Total"), ""},
		{"pasted warning", bashCall("dotnet build && dotnet test"), ""},
		{"a description", bashCall("aws s3 cp dist/app.tar.gz s3://releases/latest/"), ""},
		{"an env-var list", bashCall("export DATABASE_URL=postgres://localhost/x REDIS_URL=redis://localhost"), ""},
		{"a map entry", bashCall("git push origin lucis/login-button"), ""},
		{"the asked-for directory", bashCall("mkdir -p data/chat_exports"), ""},
		{"the asked-for library", bashCall("pnpm add @mui/material"), ""},
		{"a shell that does not parse", bashCall("npm install 'lodash"), ""},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := tt.call.input_(root, "s"+string(rune('a'+i)))
			out, err := h.Handle(ctx, in)
			if err != nil {
				t.Fatal(err)
			}
			if tt.rule == "" {
				if !out.Empty() {
					t.Fatalf("want silence, got %+v", out.Specific)
				}
				return
			}
			if out.Specific == nil || out.Specific.PermissionDecision != "ask" {
				t.Fatalf("want an ask quoting %q, got %+v", tt.rule, out.Specific)
			}
			if !strings.Contains(out.Specific.PermissionDecisionReason, tt.rule) {
				t.Errorf("the ask quotes the wrong rule, want %q:\n%s", tt.rule, out.Specific.PermissionDecisionReason)
			}
		})
	}
}

// TestPreToolUse_namesEveryRuleBroken: a call that breaks several rules
// is asked about once, quoting the first and naming the others, each once.
func TestPreToolUse_namesEveryRuleBroken(t *testing.T) {
	root := "/home/dev/proj"
	h, _ := cleanHandler(t, root)
	// No lint before it, not a Conventional Commit, and the hooks skipped.
	in := bashCall(`git commit --no-verify -m "wip"`).input_(root, "s1")
	out, err := h.Handle(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if out.Specific == nil || out.Specific.PermissionDecision != "ask" {
		t.Fatalf("want an ask, got %+v", out.Specific)
	}
	reason := out.Specific.PermissionDecisionReason
	// The rule the call breaks most plainly, by the option it passes,
	// comes first; the form its message lacks and the step it skips after.
	if !strings.HasPrefix(reason, "innate-mcp: this breaks the rule \"Never pass `--no-verify` to `git commit`") {
		t.Errorf("the ask should quote the rule the option breaks first:\n%s", reason)
	}
	for _, rule := range []string{"Use Conventional Commits", "Run `make lint` before committing", "Never pass `--no-verify` to `git commit`"} {
		if n := strings.Count(reason, rule); n != 1 {
			t.Errorf("%q named %d times in:\n%s", rule, n, reason)
		}
	}
	if !strings.Contains(reason, "It also breaks") {
		t.Errorf("the other rules are not named as such:\n%s", reason)
	}
}

// TestPreToolUse_remindsOfSeveralRules: a call that breaks several rules
// whose checks only remind is reminded of one rule a call, each once a
// session, within a reminder's budget.
func TestPreToolUse_remindsOfSeveralRules(t *testing.T) {
	root := "/home/dev/proj"
	h, k := cleanHandler(t, root)
	ctx := context.Background()
	// The rules are compiled on first use.
	if _, err := h.Handle(ctx, bashCall("ls").input_(root, "s0")); err != nil {
		t.Fatal(err)
	}
	cs, err := k.Checks(ctx, kb.CheckFilter{Project: root})
	if err != nil || len(cs) < 10 {
		t.Fatalf("%d checks, %v", len(cs), err)
	}
	for _, c := range cs {
		if _, err := k.SetCheckState(ctx, c.ID, kb.CheckRemind); err != nil {
			t.Fatal(err)
		}
	}
	in := bashCall(`git commit --no-verify -m "wip"`).input_(root, "s1")
	var said []string
	for i := range 4 {
		out, err := h.Handle(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		if out.Specific == nil {
			said = append(said, "")
			continue
		}
		if out.Specific.PermissionDecision != "" {
			t.Fatalf("call %d: an ask from checks that only remind: %+v", i, out.Specific)
		}
		said = append(said, out.Specific.AdditionalContext)
	}
	for i, want := range []int{1, 1, 1, 0} {
		if n := strings.Count(said[i], "innate-mcp reminder"); n != want || len(said[i]) > maxReminderBytes {
			t.Fatalf("want one reminder a call for three calls, then silence; got %q", said)
		}
	}
	all := strings.Join(said, "\n")
	for _, rule := range []string{"Use Conventional Commits", "Run `make lint` before committing", "Never pass `--no-verify` to `git commit`"} {
		if strings.Count(all, rule) != 1 {
			t.Errorf("%q reminded %d times: %q", rule, strings.Count(all, rule), said)
		}
	}
}

// TestPreToolUse_orderRuleFromTheSession: a commit after `make lint` ran in
// the session (PostToolUse saw it) is silent; before it, it is asked.
func TestPreToolUse_orderRuleFromTheSession(t *testing.T) {
	root := "/home/dev/proj"
	h, _ := cleanHandler(t, root)
	ctx := context.Background()
	commit := bashCall(`git commit -m "feat: add cart totals"`).input_(root, "s1")
	if out, _ := h.Handle(ctx, commit); out.Specific == nil || out.Specific.PermissionDecision != "ask" {
		t.Fatalf("commit before lint: %+v", out.Specific)
	}
	lint := bashCall("make lint").input_(root, "s1")
	lint.Event = PostToolUse
	if _, err := h.Handle(ctx, lint); err != nil {
		t.Fatal(err)
	}
	if out, _ := h.Handle(ctx, commit); !out.Empty() {
		t.Errorf("commit after lint: %+v", out.Specific)
	}
	// Another session has not run it.
	other := bashCall(`git commit -m "feat: add cart totals"`).input_(root, "s2")
	if out, _ := h.Handle(ctx, other); out.Specific == nil {
		t.Error("another session's commit before lint: silent")
	}
}

// TestPreToolUse_overriddenTwiceReminds: when the user lets an asked call
// run twice, the check only reminds (once a session), until a person
// approves it.
func TestPreToolUse_overriddenTwiceReminds(t *testing.T) {
	root := "/home/dev/proj"
	h, k := cleanHandler(t, root)
	ctx := context.Background()
	npm := bashCall("npm install lodash")
	for i := range 2 {
		in := npm.input_(root, "s1")
		in.ToolUseID = "toolu_" + string(rune('a'+i))
		if out, _ := h.Handle(ctx, in); out.Specific == nil || out.Specific.PermissionDecision != "ask" {
			t.Fatalf("ask %d: %+v", i, out.Specific)
		}
		in.Event = PostToolUse
		if _, err := h.Handle(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	out, _ := h.Handle(ctx, npm.input_(root, "s2"))
	if out.Specific == nil || out.Specific.PermissionDecision != "" || !strings.Contains(out.Specific.AdditionalContext, "Use pnpm") {
		t.Fatalf("after two overrides: want a reminder, got %+v", out.Specific)
	}
	if len(out.Specific.AdditionalContext) > maxReminderBytes {
		t.Errorf("reminder of %d bytes", len(out.Specific.AdditionalContext))
	}
	if out, _ := h.Handle(ctx, npm.input_(root, "s2")); !out.Empty() {
		t.Errorf("second reminder in one session: %+v", out.Specific)
	}
	cs, err := k.Checks(ctx, kb.CheckFilter{Project: root})
	if err != nil {
		t.Fatal(err)
	}
	var id string
	for _, c := range cs {
		if c.State == kb.CheckRemind {
			id = c.ID
			if c.Overridden != 2 || c.Fired != 3 {
				t.Errorf("record: fired %d, overridden %d", c.Fired, c.Overridden)
			}
		}
	}
	if id == "" {
		t.Fatal("no check was demoted")
	}
	if _, err := k.SetCheckState(ctx, id, kb.CheckActive); err != nil {
		t.Fatal(err)
	}
	if out, _ := h.Handle(ctx, npm.input_(root, "s3")); out.Specific == nil || out.Specific.PermissionDecision != "ask" {
		t.Errorf("approved again: %+v", out.Specific)
	}
}

// lessonID is a lesson's id in an answer: each knowledge base makes its
// own.
var lessonID = regexp.MustCompile(`\[L[0-9a-f]+\]`)

// TestPreToolUse_rootIndependent: the same calls in checkouts at two
// places get the same answers.
func TestPreToolUse_rootIndependent(t *testing.T) {
	ctx := context.Background()
	var answers [2][]string
	for i, root := range []string{"/home/a/proj", "/srv/ci/workspace/x/proj"} {
		h, _ := cleanHandler(t, root)
		for _, c := range []call{
			{"Edit", `{"file_path":"ROOT/generated/a.go","new_string":"x"}`},
			bashCall("cd ROOT/generated && sed -i s/a/b/ a.go"),
			bashCall("echo x > ROOT/src/a.go"),
		} {
			c.input = strings.ReplaceAll(c.input, "ROOT", root)
			out, err := h.Handle(ctx, c.input_(root, "s"))
			if err != nil {
				t.Fatal(err)
			}
			answers[i] = append(answers[i], lessonID.ReplaceAllString(out.Specific.String(), "[ID]"))
		}
	}
	for j := range answers[0] {
		if answers[0][j] != answers[1][j] {
			t.Errorf("call %d: %q at one root, %q at the other", j, answers[0][j], answers[1][j])
		}
	}
}

// TestToolCall_Edits: a shell line that writes a project file is an edit,
// as a file tool is; reading, and writing outside the project, are not.
func TestToolCall_Edits(t *testing.T) {
	isEdit := func(c ToolCall) bool { return len(c.Edits(action.Env{})) > 0 }
	for cmd, want := range map[string]bool{
		"sed -i 's/a/b/' cart.go":      true,
		"echo x >> notes.md":           true,
		"mv a.go b.go":                 true,
		"go test ./... > /tmp/out.txt": false,
		"cat cart.go | grep Total":     false,
		"mkdir -p build":               false,
		"git status":                   false,
	} {
		b, _ := json.Marshal(map[string]string{"command": cmd})
		if got := isEdit(ToolCall{Name: "Bash", Input: b}); got != want {
			t.Errorf("Edits(%q) = %v, want an edit %v", cmd, (ToolCall{Name: "Bash", Input: b}).Edits(action.Env{}), want)
		}
	}
	if !isEdit(ToolCall{Name: "Write"}) {
		t.Error("Write is not an edit")
	}
}

// TestPreToolUse_branch: a rule against work on main asks before a commit
// made with main checked out, as the repository's HEAD says or as the line
// moves to it, and says nothing on a topic branch or a repository's first
// commit.
func TestPreToolUse_branch(t *testing.T) {
	ctx := context.Background()
	h, k := cleanHandler(t, "/unused")
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const rule = "Use topic branches; do not commit directly to `main`."
	repo := func(head string, born ...string) string {
		root := t.TempDir()
		write(filepath.Join(root, ".git", "HEAD"), "ref: refs/heads/"+head+"\n")
		for _, b := range born {
			write(filepath.Join(root, ".git", "refs", "heads", b), "4e0be584f3c1d2e5a6b7c8d9e0f1a2b3c4d5e6f7\n")
		}
		if _, err := k.ImportRuleFile(ctx, filepath.Join(root, "CLAUDE.md"), root, []byte("# Git\n\n- "+rule+"\n")); err != nil {
			t.Fatal(err)
		}
		return root
	}
	onMain, onTopic, fresh := repo("main", "main"), repo("topic", "main", "topic"), repo("main")
	tests := []struct {
		name, root, cmd string
		ask             bool
	}{
		{"a commit on main", onMain, `git commit -am "fix parser"`, true},
		{"a commit from a subdirectory of main's checkout", filepath.Join(onMain, "src"), `git commit -am "fix parser"`, true},
		{"a push to main", onTopic, "git push origin main", true},
		{"a commit on a topic branch", onTopic, `git commit -am "fix parser"`, false},
		{"a checkout of main, then a commit", onTopic, `git checkout main && git commit -am "fix parser"`, true},
		{"a new branch, then a commit", onMain, `git switch -c fix/parser && git commit -am "fix parser"`, false},
		{"a repository's first commit", fresh, `git commit -m "initial commit"`, false},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			project := tt.root
			for filepath.Base(project) == "src" {
				project = filepath.Dir(project)
			}
			h.Project = func(string) string { return project }
			out, err := h.Handle(ctx, bashCall(tt.cmd).input_(tt.root, fmt.Sprintf("b%d", i)))
			if err != nil {
				t.Fatal(err)
			}
			asked := out.Specific != nil && out.Specific.PermissionDecision == "ask"
			if asked != tt.ask {
				t.Fatalf("asked = %v, want %v (%+v)", asked, tt.ask, out.Specific)
			}
			if asked && !strings.Contains(out.Specific.PermissionDecisionReason, rule) {
				t.Errorf("the ask quotes another rule:\n%s", out.Specific.PermissionDecisionReason)
			}
		})
	}
}

// TestHandle_panicFailsOpen: a defect met while answering an event is an
// error the caller logs, with no answer, never a crash (a Go panic exits
// with status 2, which Claude Code reads as "block the call").
func TestHandle_panicFailsOpen(t *testing.T) {
	h, _ := cleanHandler(t, "/home/dev/proj")
	h.SyncRules = func(context.Context, string) { panic("a defect") }
	out, err := h.Handle(context.Background(), bashCall("npm install lodash").input_("/home/dev/proj", "p1"))
	if !errors.Is(err, ErrInternal) || !strings.Contains(err.Error(), "a defect") {
		t.Fatalf("err = %v, want ErrInternal naming the panic", err)
	}
	if !out.Empty() {
		t.Fatalf("a panicking hook answered %+v", out.Specific)
	}
}

// TestRemember_sinceCommit: the files written since the session's last
// commit start again at each commit.
func TestRemember_sinceCommit(t *testing.T) {
	env := action.Env{Root: "/r"}
	var s SessionState
	s.remember(action.Shell("echo x > app/main.go", env), Input{ToolName: "Bash", ToolInput: []byte(`{"command":"echo x > app/main.go"}`)})
	if h := s.history(env); !slices.Equal(h.SinceCommit, []string{"app/main.go"}) {
		t.Fatalf("since commit: %q", h.SinceCommit)
	}
	s.remember(action.Shell(`git commit -am "fix: x"`, env), Input{ToolName: "Bash", ToolInput: []byte(`{"command":"git commit -am \"fix: x\""}`)})
	s.remember(action.Shell("echo y >> docs/notes.md", env), Input{ToolName: "Bash", ToolInput: []byte(`{"command":"echo y >> docs/notes.md"}`)})
	h := s.history(env)
	if !slices.Equal(h.SinceCommit, []string{"docs/notes.md"}) || !slices.Equal(h.Touched, []string{"app/main.go", "docs/notes.md"}) {
		t.Errorf("since commit %q, touched %q", h.SinceCommit, h.Touched)
	}
	// A file staged counts as one written; staging is no write.
	s.remember(action.Shell("git add CHANGELOG.md", env), Input{ToolName: "Bash", ToolInput: []byte(`{"command":"git add CHANGELOG.md"}`)})
	h = s.history(env)
	if !slices.Equal(h.SinceCommit, []string{"docs/notes.md", "CHANGELOG.md"}) || len(h.Touched) != 2 {
		t.Errorf("since commit %q, touched %q", h.SinceCommit, h.Touched)
	}
}
