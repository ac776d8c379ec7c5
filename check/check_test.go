package check

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/innate-mcp/innate-mcp/action"
)

func TestGlob(t *testing.T) {
	tests := []struct {
		pattern, path string
		want          bool
	}{
		{"generated/", "generated/foo.go", true},
		{"generated/", "src/generated/foo.go", true},
		{"generated/", "generatedx/foo.go", false},
		{"generated/**", "generated/a/b.go", true},
		{"generated/**", "src/generated/a.go", false},
		{"/build", "build/x", true},
		{"/build", "src/build/x", false},
		{"*.lock", "web/yarn.lock", true},
		{"*.lock", "web/yarn.locks", false},
		{"package-lock.json", "package-lock.json", true},
		{"package-lock.json", "apps/web/package-lock.json", true},
		{"src/**/*.test.ts", "src/a/b/c.test.ts", true},
		{"src/**/*.test.ts", "src/c.test.ts", true},
		{"src/**/*.test.ts", "lib/c.test.ts", false},
		{"migrations", "db/migrations/001.sql", true},
		{"./docs/", "docs/a.md", true},
		{"docs/", "/etc/docs/a.md", false},
		{"/etc/hosts", "/etc/hosts", true},
		{"docs/", "../docs/a.md", false},
		{"[", "x", false},
	}
	for _, tt := range tests {
		if got := Glob(tt.pattern, tt.path); got != tt.want {
			t.Errorf("Glob(%q, %q) = %v, want %v", tt.pattern, tt.path, got, tt.want)
		}
	}
}

const root = "/r"

func bash(line string) action.Action { return action.Shell(line, action.Env{Root: root}) }

func tool(name, input string) action.Action {
	a, err := action.FromTool(name, []byte(input), action.Env{Root: root})
	if err != nil {
		panic(err)
	}
	return a
}

func TestPrepared_Match(t *testing.T) {
	conventional := &MessagePattern{Must: `^(feat|fix|docs|style|refactor|perf|test|build|ci|chore|revert)(\([^)]+\))?!?: \S`, Name: "a Conventional Commit"}
	gen := Check{Kind: Forbid, Write: &WritePattern{Paths: []string{"generated/"}}}
	npm := Check{Kind: PreferInstead, Instead: "pnpm", Command: &CommandPattern{Programs: []string{"npm", "yarn"}}}
	force := Check{Kind: Forbid, Command: &CommandPattern{Programs: []string{"git"}, Sub: []string{"push"}, Flags: []string{"--force"}}}
	lint := Check{Kind: RequireBefore, Command: &CommandPattern{Programs: []string{"git"}, Sub: []string{"commit"}},
		Before: &CommandPattern{Programs: []string{"make"}, Sub: []string{"lint"}}}
	pipe := Check{Kind: Forbid, Command: &CommandPattern{Classes: []string{"build", "test"}, PipeTo: []string{"*"}}}
	tail := Check{Kind: Forbid, Command: &CommandPattern{Programs: []string{"head", "tail"}}}
	gcc := Check{Kind: Forbid, Command: &CommandPattern{Programs: []string{"gcc", "cc", "clang"}, Flags: []string{"-c"}}}
	gofmt := Check{Kind: PreferInstead, Instead: "gofumpt", Command: &CommandPattern{Programs: []string{"gofmt", "goimports"}}}
	lintFile := Check{Kind: Forbid, Command: &CommandPattern{Classes: []string{"lint"}, Args: []string{"*.go", "*.py", "*.ts"}}}
	tagV := Check{Kind: Require, Message: &MessagePattern{Kinds: []action.MessageKind{action.TagName}, Must: `^v\d`}}
	uv := Check{Kind: Forbid, Command: &CommandPattern{Programs: []string{"pytest", "python"}, NotVia: []string{"uv run"}}}
	commit := Check{Kind: Require, Message: conventional}
	header := Check{Kind: Require, Write: &WritePattern{Paths: []string{"*.go"}, New: true, Text: `(?m)^// SPDX-License-Identifier: MIT`}}
	crd := Check{Kind: RequireBefore, When: &Condition{Touched: []string{"api/"}},
		Command: &CommandPattern{Programs: []string{"git"}, Sub: []string{"commit"}}, Before: &CommandPattern{Programs: []string{"make"}, Sub: []string{"crd_install"}}}
	anyType := Check{Kind: Forbid, Write: &WritePattern{Paths: []string{"*.ts"}, Text: `\bas any\b`}}
	uiNpm := Check{Kind: Forbid, When: &Condition{In: []string{"web"}}, Command: &CommandPattern{Programs: []string{"npm"}}}
	pnpmTest := Check{Kind: PreferInstead, Instead: "pnpm test", Command: &CommandPattern{Classes: []string{"test"},
		Except: []*CommandPattern{{Programs: []string{"pnpm"}, Sub: []string{"test"}}, {Programs: []string{"pnpm"}, Sub: []string{"test:*"}}}}}
	lintHistory := History{Commands: bash("make lint").Commands}
	// An unanchored must_not rules out text anywhere in the message; an
	// anchored one is a form of the first line.
	trailer := Check{Kind: Forbid, Message: &MessagePattern{Kinds: []action.MessageKind{action.CommitMessage}, MustNot: `(?i)co-authored-by:\s*claude`}}
	longSubject := Check{Kind: Forbid, Message: &MessagePattern{MustNot: `^.{73,}`}}
	nightly := Check{Kind: RequireBefore, Command: &CommandPattern{Programs: []string{"git"}, Sub: []string{"commit"}},
		Before: &CommandPattern{Programs: []string{"cargo"}, Sub: []string{"+nightly", "fmt"}}}
	nightlyBuild := Check{Kind: Forbid, Command: &CommandPattern{Programs: []string{"cargo"}, Sub: []string{"+nightly", "build"}}}
	stableFmt := Check{Kind: Forbid, Command: &CommandPattern{Programs: []string{"cargo"}, Sub: []string{"fmt"}, Lacks: []string{"+nightly"}}}
	preferNightly := Check{Kind: PreferInstead, Instead: "cargo +nightly fmt --all", Command: &CommandPattern{Programs: []string{"cargo"}, Sub: []string{"fmt"}}}
	preferUv := Check{Kind: PreferInstead, Instead: "uv run pytest", Command: &CommandPattern{Programs: []string{"pytest"}, NotVia: []string{"uv"}}}
	testScripts := Check{Kind: Forbid, Command: &CommandPattern{Programs: []string{"test_*"}}}
	preferSquash := Check{Kind: PreferInstead, Instead: "gh pr merge --squash", Command: &CommandPattern{Programs: []string{"gh"}, Sub: []string{"pr", "merge"}, Flags: []string{"--merge"}}}
	checkoutDash := Check{Kind: Forbid, Command: &CommandPattern{Programs: []string{"git"}, Sub: []string{"checkout"}, Args: []string{"--"}}}
	secret := Check{Kind: Forbid, Write: &WritePattern{Holds: []string{"secret"}, Paths: []string{"*", "!.env"}}}
	prFooter := Check{Kind: Forbid, Message: &MessagePattern{Kinds: []action.MessageKind{action.PRBody}, MustNot: `(?i)generated with an assistant`}}
	onMain := Check{Kind: Forbid, When: &Condition{Branch: []string{"main", "release/*"}}, Command: &CommandPattern{Programs: []string{"git"}, Sub: []string{"commit"}}}
	lintJob := Check{Kind: RequireBefore, Command: &CommandPattern{Programs: []string{"git"}, Sub: []string{"commit"}}, Before: &CommandPattern{Classes: []string{"lint"}}}
	tests := []struct {
		name  string
		check Check
		act   action.Action
		h     History
		want  bool
	}{
		{"edit under generated", gen, tool("Edit", `{"file_path":"/r/generated/foo.go","new_string":"x"}`), History{}, true},
		{"write under generated", gen, tool("Write", `{"file_path":"/r/generated/foo.go","content":"x"}`), History{}, true},
		{"multiedit under generated", gen, tool("MultiEdit", `{"file_path":"generated/foo.go","edits":[{"new_string":"x"}]}`), History{}, true},
		{"sed -i under generated", gen, bash("sed -i 's/a/b/' generated/foo.go"), History{}, true},
		{"echo >> under generated", gen, bash("echo x >> generated/foo.go"), History{}, true},
		{"commit after a toolchain's fmt", nightly, bash("cargo +nightly fmt --all && git commit -m x"), History{}, false},
		{"commit after a stable fmt", nightly, bash("cargo fmt && git commit -m x"), History{}, true},
		{"build on nightly", nightlyBuild, bash("cargo +nightly build --release"), History{}, true},
		{"build on stable", nightlyBuild, bash("cargo build --release"), History{}, false},
		{"fmt off nightly", stableFmt, bash("cargo fmt --all"), History{}, true},
		{"fmt on nightly", stableFmt, bash("cargo +nightly fmt --all"), History{}, false},
		{"what is asked for instead", preferNightly, bash("cargo +nightly fmt --all"), History{}, false},
		{"what is asked for, other options", preferNightly, bash("cargo +nightly fmt -- --check"), History{}, false},
		{"the form ruled out", preferNightly, bash("cargo fmt --all"), History{}, true},
		{"instead through a runner", preferUv, bash("pytest -q"), History{}, true},
		{"the runner asked for", preferUv, bash("uv run pytest -q"), History{}, false},
		{"a test script by its name's glob", testScripts, bash("./e2e/cli/test_use --verbose"), History{}, true},
		{"another program", testScripts, bash("mise run test:e2e"), History{}, false},
		{"a merge strategy ruled out", preferSquash, bash("gh pr merge --merge 12"), History{}, true},
		{"the strategy asked for", preferSquash, bash("gh pr merge --squash 12"), History{}, false},
		{"checkout --", checkoutDash, bash("git checkout -- ."), History{}, true},
		{"checkout a branch", checkoutDash, bash("git checkout -b topic"), History{}, false},
		{"commit with no fmt", nightly, bash("cargo +nightly clippy && git commit -m x"), History{}, true},
		{"a literal key written", secret, tool("Write", `{"file_path":"src/client.py","content":"client = Client(api_key=\"sk-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH\")"}`), History{}, true},
		{"a key in a local .env", secret, tool("Write", `{"file_path":".env","content":"GITHUB_TOKEN=ghp_1234567890abcdefghijklmnopqrstuvwxyzAB"}`), History{}, false},
		{"a key read from the environment", secret, tool("Write", `{"file_path":"src/client.py","content":"client = Client(api_key=os.environ[\"API_KEY\"])"}`), History{}, false},
		{"a test's weak literal", secret, tool("Write", `{"file_path":"client_test.go","content":"token := \"test-token\""}`), History{}, false},
		{"an edit that keeps a key", secret, tool("Edit", `{"file_path":"cfg.py","old_string":"KEY = \"ghp_1234567890abcdefghijklmnopqrstuvwxyzAB\"\nx = 1","new_string":"KEY = \"ghp_1234567890abcdefghijklmnopqrstuvwxyzAB\"\nx = 2"}`), History{}, false},
		{"a key echoed into a file", secret, bash(`echo 'TOKEN = "ghp_1234567890abcdefghijklmnopqrstuvwxyzAB"' >> config.py`), History{}, true},
		// A PR's description, read only by a check that names it.
		{"a footer in a PR's description", prFooter, bash(`gh pr create --title "Fix parser" --body "Fixes the parser.` + "\n\n" + `Generated with an assistant"`), History{}, true},
		{"a description without it", prFooter, bash(`gh pr create --title "Fix parser" --body "Fixes the parser."`), History{}, false},
		{"a PR title is no description", prFooter, bash(`gh pr create --title "Generated with an assistant" --body "x"`), History{}, false},
		{"a description is not read by a check of no kind", longSubject, bash(`gh pr create --title "Fix" --body "` + strings.Repeat("x", 80) + `"`), History{}, false},
		// The branch a command runs on: the session's, or one the line
		// moved to first; unknown matches nothing.
		{"a commit on main", onMain, bash("git commit -am wip"), History{Branch: "main"}, true},
		{"a commit on a release branch", onMain, bash("git commit -am wip"), History{Branch: "release/2.1"}, true},
		{"a commit on a topic branch", onMain, bash("git commit -am wip"), History{Branch: "fix/parser"}, false},
		{"a commit where the branch is not known", onMain, bash("git commit -am wip"), History{}, false},
		{"a checkout of main, then a commit", onMain, bash("git checkout main && git commit -am wip"), History{Branch: "topic"}, true},
		{"a new branch, then a commit", onMain, bash("git switch -c topic && git commit -am wip"), History{Branch: "main"}, false},
		{"git checkout -b, then a commit", onMain, bash("git checkout -b topic main && git commit -am wip"), History{Branch: "main"}, false},
		{"files restored from main, then a commit", onMain, bash("git checkout main -- go.sum && git commit -am wip"), History{Branch: "topic"}, false},
		{"a commit, then a checkout of main", onMain, bash("git commit -am wip && git checkout main"), History{Branch: "topic"}, false},
		{"edit elsewhere", gen, tool("Edit", `{"file_path":"/r/src/foo.go","new_string":"x"}`), History{}, false},
		{"reading generated", gen, bash("cat generated/foo.go"), History{}, false},
		{"npm install", npm, bash("npm install lodash"), History{}, true},
		{"pnpm add", npm, bash("pnpm add lodash"), History{}, false},
		{"npx is not npm", npm, bash("npx tsc"), History{}, false},
		{"push --force", force, bash("git push --force origin main"), History{}, true},
		{"push -f", force, bash("git push -f"), History{}, true},
		{"push", force, bash("git push origin main"), History{}, false},
		{"commit without lint", lint, bash("git commit -m 'feat: x'"), History{}, true},
		{"commit after lint in history", lint, bash("git commit -m 'feat: x'"), lintHistory, false},
		{"commit after lint in line", lint, bash("make lint && git commit -m 'feat: x'"), History{}, false},
		{"make lint alone", lint, bash("make lint"), History{}, false},
		{"test piped into tail", pipe, bash("meson test -C build | tail -20"), History{}, true},
		{"go test piped", pipe, bash("go test ./... 2>&1 | grep FAIL"), History{}, true},
		{"ls piped", pipe, bash("ls | wc -l"), History{}, false},
		{"test unpiped", pipe, bash("meson test -C build"), History{}, false},
		{"tail", tail, bash("meson test -C build | tail -20"), History{}, true},
		{"gcc -c", gcc, bash("gcc -c src/basic/foo.c"), History{}, true},
		{"gcc link", gcc, bash("gcc -o app main.o"), History{}, false},
		{"tag without v", tagV, bash(`git tag -a 0.2.0 -m "Release 0.2.0"`), History{}, true},
		{"release without v", tagV, bash("gh release create 1.0 dist/app.tgz"), History{}, true},
		{"tag with v", tagV, bash("git tag v0.2.0"), History{}, false},
		{"tags listed", tagV, bash("git tag -l"), History{}, false},
		{"a commit is no tag", tagV, bash(`git commit -m "0.2.0"`), History{}, false},
		{"a tag is no commit message", commit, bash("git tag 0.2.0"), History{}, false},
		{"lint one file", lintFile, bash("golangci-lint run pkg/x/y.go"), History{}, true},
		{"lint one file via npx", lintFile, bash("npx eslint src/app.ts --fix"), History{}, true},
		{"lint the project", lintFile, bash("golangci-lint run ./..."), History{}, false},
		{"lint a directory", lintFile, bash("ruff check src/"), History{}, false},
		{"a file, no lint", lintFile, bash("python scripts/gen.py"), History{}, false},
		{"go fmt", gofmt, bash("go fmt ./..."), History{}, true},
		{"gofumpt", gofmt, bash("gofumpt -w ."), History{}, false},
		{"bare pytest", uv, bash("pytest -q"), History{}, true},
		{"python -m pytest", uv, bash("python -m pytest"), History{}, true},
		{"uv run pytest", uv, bash("uv run pytest"), History{}, false},
		{"uv run python -m pytest", uv, bash("uv run python -m pytest"), History{}, false},
		{"wip commit", commit, bash(`git commit -am "wip"`), History{}, true},
		{"conventional commit", commit, bash(`git commit -m "fix(api): handle nil"`), History{}, false},
		{"heredoc conventional commit", commit, bash("git commit -m \"$(cat <<'EOF'\nfeat: add x\n\nbody\nEOF\n)\""), History{}, false},
		{"PR title", commit, bash(`gh pr create --title "Add feature"`), History{}, true},
		{"new go file without header", header, tool("Write", `{"file_path":"/r/x.go","content":"package x"}`), History{}, true},
		{"new go file with header", header, tool("Write", `{"file_path":"/r/x.go","content":"// SPDX-License-Identifier: MIT\npackage x"}`), History{}, false},
		{"edit of an existing go file", header, tool("Edit", `{"file_path":"/r/x.go","new_string":"x"}`), History{}, false},
		{"crd: commit, api untouched", crd, bash("git commit -m 'feat: x'"), History{}, false},
		{"crd: commit after api change", crd, bash("git commit -m 'feat: x'"), History{Touched: []string{"api/v1/types.go"}}, true},
		{"an edit that adds `as any`", anyType, tool("Edit", `{"file_path":"/r/a.ts","old_string":"f(x)","new_string":"f(x as any)"}`), History{}, true},
		{"an edit that rewrites a line keeping its `as any`", anyType, tool("Edit", `{"file_path":"/r/a.ts","old_string":"  f(x as any)","new_string":"  g(x as any)"}`), History{}, false},
		{"an edit that adds a second `as any`", anyType, tool("Edit", `{"file_path":"/r/a.ts","old_string":"f(x as any)","new_string":"f(x as any, y as any)"}`), History{}, true},
		{"a multiedit that keeps them", anyType, tool("MultiEdit", `{"file_path":"/r/a.ts","edits":[{"old_string":"a as any","new_string":"b as any"},{"old_string":"c","new_string":"d"}]}`), History{}, false},
		{"pnpm test", pnpmTest, bash("pnpm test"), History{}, false},
		{"pnpm test:unit, a variant", pnpmTest, bash("pnpm test:unit"), History{}, false},
		{"jest directly", pnpmTest, bash("npx jest"), History{}, true},
		{"npm, the session away from web/", uiNpm, bash("npm install"), History{Touched: []string{"api/a.go"}}, false},
		{"npm after a write under web/", uiNpm, bash("npm install"), History{Touched: []string{"web/src/a.ts"}}, true},
		{"npm in web/", uiNpm, bash("cd web && npm install"), History{}, true},
		{"npm in webx/", uiNpm, bash("cd webx && npm install"), History{}, false},
		{"unparsed line", force, bash("git push --force 'oops"), History{}, false},
		{"lint task counts as lint", lintJob, bash("git commit -m 'feat: x'"), History{Commands: bash("npm run lint:check").Commands}, false},
		{"tox -e lint counts", lintJob, bash("git commit -m 'feat: x'"), History{Commands: bash("tox -e lint").Commands}, false},
		{"ruff check counts", lintJob, bash("git commit -m 'feat: x'"), History{Commands: bash("uv run ruff check .").Commands}, false},
		{"no lint before commit", lintJob, bash("git commit -m 'feat: x'"), History{Commands: bash("npm run build").Commands}, true},
		{"trailer in a second -m", trailer, bash(`git commit -m "fix: x" -m "Co-authored-by: Claude <noreply@anthropic.com>"`), History{}, true},
		{"trailer in a heredoc body", trailer, bash("git commit -F - <<'EOF'\nfix: x\n\nCo-Authored-By: Claude <c@a.com>\nEOF"), History{}, true},
		{"no trailer", trailer, bash(`git commit -m "fix: x" -m "Co-authored-by: Ann <a@b.c>"`), History{}, false},
		{"trailer rule, PR title", trailer, bash(`gh pr create --title "Co-authored-by: Claude"`), History{}, false},
		{"long subject", longSubject, bash(`git commit -m "` + strings.Repeat("a", 80) + `"`), History{}, true},
		{"short subject, long body line", longSubject, bash(`git commit -m "fix: x" -m "` + strings.Repeat("a", 80) + `"`), History{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.check
			c.From = Provenance{By: ByPerson}
			p, err := Prepare(c)
			if err != nil {
				t.Fatalf("Prepare: %v", err)
			}
			hit, got := p.Match(tt.act, tt.h)
			if got != tt.want {
				t.Errorf("Match = %v (%+v), want %v", got, hit, tt.want)
			}
			if got && (hit.Evidence == "" || hit.Why == "") {
				t.Errorf("hit without evidence or why: %+v", hit)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	person := Provenance{By: ByPerson}
	tests := []struct {
		name  string
		check Check
		want  string // part of the error; "" for valid
	}{
		{"valid", Check{Kind: Forbid, Command: &CommandPattern{Programs: []string{"npm"}}, From: person}, ""},
		{"no target", Check{Kind: Forbid, From: person}, "exactly one target"},
		{"two targets", Check{Kind: Forbid, Command: &CommandPattern{Programs: []string{"x"}}, Write: &WritePattern{Paths: []string{"a"}}, From: person}, "exactly one target"},
		{"bad kind", Check{Kind: "maybe", Command: &CommandPattern{Programs: []string{"x"}}, From: person}, "kind"},
		{"bad regexp", Check{Kind: Require, Message: &MessagePattern{Must: "("}, From: person}, "regular expression"},
		{"bad class", Check{Kind: Forbid, Command: &CommandPattern{Classes: []string{"deploy"}}, From: person}, "class"},
		{"require command", Check{Kind: Require, Command: &CommandPattern{Programs: []string{"x"}}, From: person}, "require applies"},
		{"before missing", Check{Kind: RequireBefore, Command: &CommandPattern{Programs: []string{"git"}}, From: person}, "before"},
		{"prefer without instead", Check{Kind: PreferInstead, Command: &CommandPattern{Programs: []string{"npm"}}, From: person}, "instead"},
		{"every write", Check{Kind: Forbid, Write: &WritePattern{}, From: person}, "every write"},
		{"no provenance", Check{Kind: Forbid, Command: &CommandPattern{Programs: []string{"npm"}}}, "from.by"},
		{"bad glob", Check{Kind: Forbid, Write: &WritePattern{Paths: []string{"a/["}}, From: person}, "glob"},
		{"a program by a wildcard alone", Check{Kind: Forbid, Command: &CommandPattern{Programs: []string{"./e2e/*"}}, From: person}, "names no program"},
		{"a program's glob", Check{Kind: Forbid, Command: &CommandPattern{Programs: []string{"e2e/test_*"}}, From: person}, ""},
		{"a text class", Check{Kind: Forbid, Write: &WritePattern{Holds: []string{"secret"}}, From: person}, ""},
		{"an unknown text class", Check{Kind: Forbid, Write: &WritePattern{Holds: []string{"profanity"}}, From: person}, "holds"},
		{"text and a class", Check{Kind: Forbid, Write: &WritePattern{Holds: []string{"secret"}, Text: "x"}, From: person}, "not both"},
		{"a message kind", Check{Kind: Forbid, Message: &MessagePattern{Kinds: []action.MessageKind{"pr-comment"}, MustNot: "x"}, From: person}, "message kind"},
		{"a branch", Check{Kind: Forbid, When: &Condition{Branch: []string{"main"}}, Command: &CommandPattern{Programs: []string{"git"}}, From: person}, ""},
		{"a branch for a write", Check{Kind: Forbid, When: &Condition{Branch: []string{"main"}}, Write: &WritePattern{Paths: []string{"a/"}}, From: person}, "command checks only"},
		{"a bad branch", Check{Kind: Forbid, When: &Condition{Branch: []string{"ma in"}}, Command: &CommandPattern{Programs: []string{"git"}}, From: person}, "not a branch"},
		{"a step's class given as a program", Check{Kind: RequireBefore, Command: &CommandPattern{Programs: []string{"gh"}, Sub: []string{"pr", "create"}}, Before: &CommandPattern{Programs: []string{"lint"}}, From: person}, "classes"},
		{"a step's class", Check{Kind: RequireBefore, Command: &CommandPattern{Programs: []string{"gh"}, Sub: []string{"pr", "create"}}, Before: &CommandPattern{Classes: []string{"lint"}}, From: person}, ""},
		{"a required class", Check{Kind: Require, Write: &WritePattern{Holds: []string{"secret"}, Text: "x"}, From: person}, "holds"},
	}
	for _, tt := range tests {
		err := Validate(tt.check)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, ErrInvalid)):
			t.Errorf("%s: got %v, want an ErrInvalid saying %q", tt.name, err, tt.want)
		}
	}
}

func TestDescribe(t *testing.T) {
	tests := []struct {
		check Check
		want  string
	}{
		{Check{Kind: PreferInstead, Instead: "pnpm", Command: &CommandPattern{Programs: []string{"npm"}}}, "forbids running `npm` (use pnpm instead)"},
		{Check{Kind: Forbid, Write: &WritePattern{Paths: []string{"generated/"}}}, "forbids writing `generated/`"},
		{Check{Kind: RequireBefore, Command: &CommandPattern{Programs: []string{"git"}, Sub: []string{"commit"}}, Before: &CommandPattern{Programs: []string{"make"}, Sub: []string{"lint"}}},
			"requires `make lint` earlier in the session before `git commit`"},
		{Check{Kind: Forbid, Command: &CommandPattern{Classes: []string{"build", "test"}, PipeTo: []string{"*"}}}, "forbids running a build or test command piped into another command"},
		{Check{Kind: Require, Message: &MessagePattern{Must: "^x", Name: "Conventional Commits"}}, "requires commit messages and PR titles to be Conventional Commits"},
	}
	for _, tt := range tests {
		if got := Describe(tt.check); got != tt.want {
			t.Errorf("Describe = %q, want %q", got, tt.want)
		}
	}
}

func TestKey(t *testing.T) {
	a := Check{Kind: Forbid, Command: &CommandPattern{Programs: []string{"npm"}}, Rule: "l1", Quote: "x", From: Provenance{By: ByReader, Version: 1}}
	b := a
	b.Rule, b.Quote, b.From = "l2", "y", Provenance{By: ByPerson}
	if Key(a) != Key(b) {
		t.Error("Key depends on the rule or provenance")
	}
	b.Command = &CommandPattern{Programs: []string{"yarn"}}
	if Key(a) == Key(b) {
		t.Error("Key ignores the target")
	}
}

// TestMatch_args: argument globs read a path as .gitignore does, a URL as
// a whole string, and "/" as the root alone.
func TestMatch_args(t *testing.T) {
	tests := []struct {
		args []string
		line string
		want bool
	}{
		{[]string{"https://github.com/*"}, "curl -sL https://github.com/org/repo/archive.tgz", true},
		{[]string{"https://github.com/*"}, "curl -sL https://gitlab.com/org/repo", false},
		{[]string{"*github.com/*"}, "curl https://api.github.com/repos/x", true},
		{[]string{"/"}, "rm -rf /", true},
		{[]string{"/"}, "rm -rf build", false},
		{[]string{"build/"}, "rm -rf build/out", true},
	}
	for _, tc := range tests {
		prog := strings.Fields(tc.line)[0]
		p, err := Prepare(Check{Kind: Forbid, Command: &CommandPattern{Programs: []string{prog}, Args: tc.args}, From: Provenance{By: ByPerson}})
		if err != nil {
			t.Fatal(err)
		}
		if _, got := p.Match(bash(tc.line), History{}); got != tc.want {
			t.Errorf("args %q on %q: %v, want %v", tc.args, tc.line, got, tc.want)
		}
	}
}

func FuzzMatch(f *testing.F) {
	f.Add("git push --force", "git", "push", "--force", "generated/", `^feat`)
	f.Add("echo x >> gen/a.go && sed -i s/a/b/ gen/b.go", "sed", "", "-i", "gen/**", `x`)
	f.Add("meson test | tail -3", "*", "*", "", "**/[a-", `(`)
	f.Add(`git commit -m "fix: x" -m "Co-authored-by: Claude"`, "git", "commit", "-m", "*", `(?i)co-authored-by`)
	f.Add(`printf 'KEY="ghp_1234567890abcdefghijklmnopqrstuvwxyzAB"' > cfg.py`, "printf", "", "", "*.py", `KEY`)
	f.Fuzz(func(t *testing.T, line, prog, sub, flag, glob, re string) {
		a := action.Shell(line, action.Env{Root: "/r"})
		h := History{Commands: a.Commands, Touched: []string{glob}}
		from := Provenance{By: ByConsultant}
		checks := []Check{
			{Kind: Forbid, Command: &CommandPattern{Programs: []string{prog}, Sub: []string{sub}, Flags: []string{flag}, Args: []string{glob}, PipeTo: []string{prog}}, From: from},
			{Kind: Forbid, Write: &WritePattern{Paths: []string{glob}, Text: re}, From: from},
			{Kind: Forbid, Write: &WritePattern{Paths: []string{glob}, Holds: []string{"secret"}}, From: from},
			{Kind: Require, Message: &MessagePattern{Must: re}, From: from},
			{Kind: Forbid, Message: &MessagePattern{MustNot: re}, From: from},
			{Kind: RequireBefore, Command: &CommandPattern{Classes: []string{"test"}}, Before: &CommandPattern{Programs: []string{prog}}, When: &Condition{Touched: []string{glob}}, From: from},
			Scope{Dir: sub, Globs: []string{glob}}.Confine(Check{Kind: Forbid, Command: &CommandPattern{Programs: []string{prog}}, From: from}),
			Scope{Dir: sub, Globs: []string{glob}}.Confine(Check{Kind: Forbid, Write: &WritePattern{Text: re}, From: from}),
		}
		for _, c := range a.Commands {
			if paths, ok := Stages(c); ok && len(paths) == 0 {
				t.Fatalf("%q stages nothing named", line)
			}
		}
		for _, c := range checks {
			p, err := Prepare(c)
			if err != nil {
				continue
			}
			hit, ok := p.Match(a, h)
			if ok && hit.Why == "" {
				t.Fatalf("hit without why: %+v", hit)
			}
			if c.Message != nil && c.Message.MustNot != "" && ok != slices.ContainsFunc(a.Messages, func(m action.Message) bool {
				mustNot := regexp.MustCompile(re)
				return mustNot.MatchString(firstLine(m.Text)) || mustNot.MatchString(m.Text) && !anchored(re)
			}) {
				t.Fatalf("must_not %q on %+v: hit %v", re, a.Messages, ok)
			}
			_ = Describe(c)
		}
		if Glob(glob, line) && !GlobTail(glob, line) {
			t.Fatalf("Glob(%q, %q) but not GlobTail", glob, line)
		}
	})
}

// TestGlobTail: a path known by its tail matches where some file ending
// with it would, its first folder standing where the pattern names one; a
// name alone matches by the pattern's last part.
func TestGlobTail(t *testing.T) {
	tests := []struct {
		patterns []string
		path     string
		want     bool
	}{
		{[]string{"packages/core/src/client/"}, "client/net.ts", true},
		{[]string{"packages/core/src/client/"}, "net.ts", false},
		{[]string{"packages/core/src/client/"}, "server/net.ts", false},
		{[]string{"packages/*/src/**/*.ts"}, "src/a/b.ts", true},
		{[]string{"packages/*/src/**/*.ts"}, "lib/a/b.ts", false},
		{[]string{"sdk/src/**/*.py"}, "core/src/models/run.py", false},
		{[]string{"frontend/**/*.test.tsx"}, "Toast.test.tsx", true},
		{[]string{"frontend/**/*.test.tsx"}, "Toast.tsx", false},
		{[]string{"frontend/**/*.test.tsx", "!frontend/legacy/*.test.tsx"}, "Toast.test.tsx", false},
		{[]string{"frontend/**/*.test.tsx", "!frontend/legacy/"}, "Toast.test.tsx", true},
		{[]string{"src/"}, "src/a.go", true},
		{[]string{"src/"}, "/etc/a.go", false},
		{[]string{"src/"}, "../src/a.go", false},
	}
	for _, tt := range tests {
		if got := GlobsTail(tt.patterns, tt.path); got != tt.want {
			t.Errorf("GlobsTail(%q, %q) = %v, want %v", tt.patterns, tt.path, got, tt.want)
		}
	}
}

// TestGlobs: a list of patterns reads as .gitignore reads one, the last
// match deciding and "!" excluding.
func TestGlobs(t *testing.T) {
	tests := []struct {
		patterns []string
		path     string
		want     bool
	}{
		{[]string{"src/**/*.ts"}, "src/a/b.ts", true},
		{[]string{"src/**/*.ts", "!*.test.ts"}, "src/a/b.test.ts", false},
		{[]string{"src/**/*.ts", "!*.test.ts"}, "src/a/b.ts", true},
		{[]string{"!*.test.ts"}, "src/a/b.ts", true},
		{[]string{"!*.test.ts"}, "src/a/b.test.ts", false},
		{[]string{"!docs/", "docs/api/"}, "docs/api/x.md", true},
		{[]string{"docs/", "!docs/api/"}, "docs/api/x.md", false},
		{[]string{"docs/", "!docs/api/"}, "docs/guide.md", true},
		{nil, "a.go", false},
	}
	for _, tt := range tests {
		if got := Globs(tt.patterns, tt.path); got != tt.want {
			t.Errorf("Globs(%q, %q) = %v, want %v", tt.patterns, tt.path, got, tt.want)
		}
	}
}

// TestInClass: one table says what tests, builds, type-checks or runs a
// project, for rules ("never pipe build output") and for Stop alike.
func TestInClass(t *testing.T) {
	for _, c := range []struct {
		line  string
		class string
		want  bool
	}{
		{"go test ./...", "test", true},
		{"npm run test:unit", "test", true},
		{"pnpm e2e", "test", true},
		{"go vet ./...", "lint", true},
		{"go vet ./...", "typecheck", true},
		{"cargo check", "typecheck", true},
		{"npm run build:prod", "build", true},
		{"docker build .", "build", true},
		{"make lint", "lint", true},
		{"pnpm nx test web", "test", true},
		{"npx nx run api:lint", "lint", true},
		{"nx typecheck", "typecheck", true},
		{"turbo run build", "build", true},
		{"pnpm nx graph", "test", false},
		{"python app.py", "run", true},
		{"python -c 'print(1)'", "run", true},
		{"python", "run", false},
		{"node --version", "run", false},
		{"curl http://localhost:8080/health", "run", true},
		{"npm start", "run", true},
		{"pnpm dev", "run", true},
		{"eslint .", "test", false},
		{"eslint .", "build", false},
		{"git status", "run", false},
	} {
		cmds := bash(c.line).Commands
		if len(cmds) != 1 {
			t.Fatalf("%q: %d commands", c.line, len(cmds))
		}
		if got := InClass(cmds[0], c.class); got != c.want {
			t.Errorf("InClass(%q, %s) = %v, want %v", c.line, c.class, got, c.want)
		}
	}
}

// TestPrepare_programByPath: a pattern that names a program by its path
// matches the command however it is invoked, as the hooks read programs
// by base name, and the check given to Prepare is left as it was.
func TestPrepare_programByPath(t *testing.T) {
	c := Check{Kind: Forbid, From: Provenance{By: ByPerson}, Command: &CommandPattern{Programs: []string{"./scripts/deploy.sh"}, Except: []*CommandPattern{{Programs: []string{"bin/deploy.sh"}, Args: []string{"dry"}}}}}
	p, err := Prepare(c)
	if err != nil {
		t.Fatal(err)
	}
	for line, want := range map[string]bool{"./scripts/deploy.sh prod": true, "bash -c 'scripts/deploy.sh prod'": true, "deploy.sh dry": false, "./deploy-all.sh": false} {
		if _, hit := p.Match(action.Shell(line, action.Env{}), History{}); hit != want {
			t.Errorf("%q: hit %v, want %v", line, hit, want)
		}
	}
	if c.Command.Programs[0] != "./scripts/deploy.sh" || c.Command.Except[0].Programs[0] != "bin/deploy.sh" {
		t.Errorf("Prepare changed the check it was given: %+v", c.Command)
	}
	// A Windows script named with its suffix, run with or without it.
	w, err := Prepare(Check{Kind: Forbid, From: Provenance{By: ByPerson}, Command: &CommandPattern{Programs: []string{"build.cmd"}, Flags: []string{"-test"}}})
	if err != nil {
		t.Fatal(err)
	}
	for line, want := range map[string]bool{`.\build.cmd -test`: true, "build.cmd -test": true, "build -test": true, "build.cmd -restore": false} {
		if _, hit := w.Match(action.Shell(line, action.Env{}), History{}); hit != want {
			t.Errorf("%q: hit %v, want %v", line, hit, want)
		}
	}
}
