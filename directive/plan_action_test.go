package directive

import (
	"slices"
	"strings"
	"testing"

	"github.com/innate-mcp/innate-mcp/action"
	"github.com/innate-mcp/innate-mcp/check"
)

func TestPlanAction(t *testing.T) {
	tests := []struct {
		plan string
		want []string // programs run
	}{
		{"Install lodash with `npm install lodash`, then run `npm test`.", []string{"npm", "npm"}},
		{"I won't run `npm install`; use `pnpm add lodash` instead.", []string{"pnpm"}},
		{"npm install lodash", []string{"npm"}},
		{"Steps:\n```bash\nmake lint\ngit commit -m 'feat: x'\n```", []string{"make", "git"}},
		{"$ go fmt ./...", []string{"go"}},
		{"Call `useEffect` and `console.log` the result.", nil},
		{"Rename the `Total` field.", nil},
	}
	for _, tt := range tests {
		a := PlanAction(tt.plan)
		var got []string
		for _, c := range a.Commands {
			got = append(got, c.Program)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("PlanAction(%q) runs %q, want %q", tt.plan, got, tt.want)
		}
	}
}

// TestPlanAction_writes: the code a plan shows is the new text of the
// files it names, or of a file not known when it names none; code in a
// negated clause, paths and command lines are not.
func TestPlanAction_writes(t *testing.T) {
	tests := []struct {
		plan      string
		paths     []string
		text, not string
	}{
		{"In lib/web/page.html.heex add `<!-- banner -->` above the header.", []string{"lib/web/page.html.heex"}, "<!-- banner -->", ""},
		{"Change `def total(x: any)` in src/cart.ts.", []string{"src/cart.ts"}, "def total(x: any)", ""},
		{"Edit `src/cart.ts` and run `npm test`.", nil, "", ""},
		// The clause opened by "instead of" is negated to its end: nothing.
		{"Instead of `<!-- x -->`, write `<%!-- x --%>` in page.heex.", nil, "", ""},
		{"Write `<%!-- x --%>` in lib/page.heex; never `<!-- x -->`.", []string{"lib/page.heex"}, "<%!-- x --%>", "<!-- x -->"},
		// A span may run over the lines of one paragraph, not past it.
		{"In src/a.go add `if x {\n\tpanic(1)\n}` at the end.", []string{"src/a.go"}, "panic(1)", ""},
		{"Edit src/a.go: a `stray tick.\n\nThen x` here.", nil, "", ""},
		// Code shown for no file is written to a file not known at all.
		{"Add a `console.log` call.", []string{""}, "console.log", ""},
	}
	for _, tt := range tests {
		a := PlanAction(tt.plan)
		var paths []string
		for _, w := range a.Writes {
			if w.By == PlanFile {
				continue // TestPlanAction_files
			}
			paths = append(paths, w.Path)
			if w.By != PlanWrite || !strings.Contains(w.Text, tt.text) || tt.not != "" && strings.Contains(w.Text, tt.not) {
				t.Errorf("PlanAction(%q) writes %q by %s with %q", tt.plan, w.Path, w.By, w.Text)
			}
		}
		if !slices.Equal(paths, tt.paths) {
			t.Errorf("PlanAction(%q) writes %q, want %q", tt.plan, paths, tt.paths)
		}
	}
}

// TestPlanAction_files: the files a plan says it makes are new files of
// its action, whoever reads them; a file it reads, names as a place,
// changes, or leaves alone is not.
func TestPlanAction_files(t *testing.T) {
	tests := []struct {
		plan string
		want []string // paths of new files, "~" marking a path's tail
	}{
		{"Create `tools/repro_cache.py` with the failing case.", []string{"~tools/repro_cache.py"}},
		{"Create `src/tools/repro_cache.py` with the failing case.", []string{"src/tools/repro_cache.py"}},
		{"Write the script to scripts/check_links.sh and run it.", []string{"~scripts/check_links.sh"}},
		{"Add docs/guide/setup.md describing the install.", []string{"docs/guide/setup.md"}},
		{"Add a case to tests/unit/parse_test.go.", nil},
		{"Add the import at the top of src/app/main.ts.", nil},
		{"Create web/src/badge.ts next to web/src/card.ts.", []string{"web/src/badge.ts"}},
		{"Change the timeout in config/app.yaml.", nil},
		{"Open pkg/db/conn.go and add a retry loop.", nil},
		{"Copy the fixture from testdata/a.json and create testdata/b.json.", []string{"~testdata/b.json"}},
		{"Don't create lib/legacy.rb; extend lib/core.rb instead.", nil},
		{"Add `import x from '../server/net'` at the top.", nil},
		{"Create the folder build/out/ for the artefacts.", nil},
	}
	for _, tt := range tests {
		var got []string
		for _, w := range PlanAction(tt.plan).Writes {
			if w.By != PlanFile {
				continue
			}
			if !w.New || w.TextKnown {
				t.Errorf("PlanAction(%q): %+v is no new file of unknown text", tt.plan, w)
			}
			p := w.Path
			if w.PathTail {
				p = "~" + p
			}
			got = append(got, p)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("PlanAction(%q) makes %q, want %q", tt.plan, got, tt.want)
		}
	}
}

// TestPlanActionIn: code a plan shows without naming a file is written to
// the files its situation names; a plan that names its file keeps it.
func TestPlanActionIn(t *testing.T) {
	a := PlanActionIn("`async def test_turn_on(hass, entry):` followed by the body.", "I'm adding a test in tests/components/light/test_init.py")
	if len(a.Writes) != 1 || a.Writes[0].Path != "tests/components/light/test_init.py" || !strings.Contains(a.Writes[0].Text, "def test_turn_on") {
		t.Errorf("writes: %+v", a.Writes)
	}
	a = PlanActionIn("In lib/page.heex add `<!-- x -->`.", "editing tests/a_test.py")
	if len(a.Writes) != 1 || a.Writes[0].Path != "lib/page.heex" {
		t.Errorf("a plan naming its file: %+v", a.Writes)
	}
	if a.Writes[0].NameOnly {
		t.Errorf("a path read as a name alone: %+v", a.Writes)
	}
	a = PlanActionIn("Call `jest.fn()` at the top.", "I'm writing a new Toast.test.tsx")
	if len(a.Writes) != 1 || a.Writes[0].Path != "Toast.test.tsx" || !a.Writes[0].NameOnly {
		t.Errorf("a file named without its directory: %+v", a.Writes)
	}
	if a := PlanActionIn("Run the tests.", "tests/a_test.py"); len(a.Writes) != 0 {
		t.Errorf("a plan with no code writes %+v", a.Writes)
	}
}

// TestPathCheck_codeIsNeither: a verb inside a code span is code, not the
// clause's verb, and a call is not a path; a route group is.
func TestPathCheck_codeIsNeither(t *testing.T) {
	for clause, want := range map[string]string{
		"must not call `session.commit(`":            "",
		"**`Console.Write` is banned**":              "",
		"Never commit `.env` files":                  "commit",
		"Don't edit `db/schema.rb` by hand":          "edit",
		"Never `git commit` without a signed-off-by": "",
	} {
		if got := writeVerbIn(clause); got != want {
			t.Errorf("writeVerbIn(%q) = %q, want %q", clause, got, want)
		}
	}
	for p, want := range map[string]bool{
		"session.commit(":     false,
		"resetAll()":          false,
		"app/(auth)/":         true,
		"src/app/(marketing)": true,
		"db/schema.rb":        true,
	} {
		if _, ok := globOf(p); ok != want {
			t.Errorf("globOf(%q): %v, want %v", p, ok, want)
		}
	}
}

// TestForbiddenCommand_match: what a ruled-out command span matches, as
// the hook matches a parsed shell line: the command with its runner, its
// literal arguments and the flag a clause gives it, and not the command
// alone.
func TestForbiddenCommand_match(t *testing.T) {
	tests := []struct {
		rule, line string
		want       bool
	}{
		{"Run tests with `pytest`. Do not run `uv run pytest`.", "uv run pytest tests/", true},
		{"Run tests with `pytest`. Do not run `uv run pytest`.", "pytest tests/test_x.py", false},
		{"Never run `git add .`; stage specific files.", "git add .", true},
		{"Never run `git add .`; stage specific files.", "git add src/a.go src/b.go", false},
		{"Never run `git add -A`.", "git add --all", true},
		{"Never pass `--no-verify` to `git commit`.", `git commit --no-verify -m "feat: x"`, true},
		{"Never pass `--no-verify` to `git commit`.", `git commit -m "feat: x"`, false},
		{"Never run `go test` with `-count=1`.", "go test -count 1 ./...", true},
		{"Never run `go test` with `-count=1`.", "go test ./...", false},
		{"Avoid these errors by running the tests with `make test`.", "make test", false},
		{"Name branches by the convention `agent/<topic>`.", "git checkout -b feature/retry-logic", true},
		{"Name branches by the convention `agent/<topic>`.", "git switch -c agent/fix-timeout", false},
		{"Branch naming rule: `feature/short-name`, `bugfix/issue-name`", "git checkout -b ocspCheckStuff", true},
		{"Branch naming rule: `feature/short-name`, `bugfix/issue-name`", "git worktree add -b bugfix/ocsp-timeout ../wt", false},
		{"Branch naming rule: `feature/short-name`, `bugfix/issue-name`", "git checkout main", false},
		{"Branch naming rule: `feature/short-name`, `bugfix/issue-name`", "git branch -d old-stuff", false},
		{"Use Conventional Commits for every commit message.", "git checkout -b my-branch", false},
		{"Every commit must carry a sign-off: `git commit -s`", `git commit -m "fix: x"`, true},
		{"Every commit must carry a sign-off: `git commit -s`", `git commit -sm "fix: x"`, false},
		{"Every commit must carry a sign-off: `git commit -s`", `git commit --signoff -m "fix: x"`, false},
		{"Always run `go test` with `-race`.", "go test ./...", true},
		{"Always run `go test` with `-race`.", "go test -race ./...", false},
		{"Never add new dependencies unless explicitly requested.", "cargo add serde_yaml", true},
		{"Never add new dependencies unless explicitly requested.", "npm install", false},
		{"Never add new dependencies unless explicitly requested.", "uv pip install requests", true},
		{"Never bump the version or publish the gem.", "bundle exec rake release", true},
		{"Never bump the version or publish the gem.", "gem build boxwerk.gemspec", false},
	}
	for _, tt := range tests {
		got := false
		act := action.Shell(tt.line, action.Env{})
		for _, c := range Compile(tt.rule, "") {
			p, err := check.Prepare(c)
			if err != nil {
				t.Fatalf("%q: %v", tt.rule, err)
			}
			if _, hit := p.Match(act, check.History{}); hit {
				got = true
			}
		}
		if got != tt.want {
			t.Errorf("%q on %q: match %v, want %v", tt.rule, tt.line, got, tt.want)
		}
	}
}

// TestCodeObject_fileOrMember: a dotted span is a file unless it reads as
// a member of a language's global.
func TestCodeObject_fileOrMember(t *testing.T) {
	for span, want := range map[string]Kind{
		"app.py": KindPath, "db.json": KindPath, ".env.local": KindPath, "docs/api.md": KindPath,
		"console.log": KindCode, "process.env": KindCode, "Date.now": KindCode, "Array.map": KindCode,
	} {
		if got := codeObject(span).Kind; got != want {
			t.Errorf("codeObject(%q) = %s, want %s", span, got, want)
		}
	}
}

// FuzzPlanAction: any plan reads without panic, and each file it makes is
// one of its own paths, new, of no known text.
func FuzzPlanAction(f *testing.F) {
	f.Add("Create `tools/x.py` next to tools/y.py, then run `go test ./...`.", "editing pkg/a.go")
	f.Add("Add `if x {\n\tpanic(1)\n}` in src/a.go; don't create lib/b.rb.", "")
	f.Add("Write the script to repros/a.py. `stray", "repros/")
	f.Fuzz(func(t *testing.T, plan, situation string) {
		a := PlanActionIn(plan, situation)
		for _, w := range a.Writes {
			if w.By == PlanFile && (!w.New || w.TextKnown || w.Path == "" || !strings.Contains(plan, w.Path)) {
				t.Fatalf("PlanActionIn(%q): file %+v", plan, w)
			}
		}
	})
}

// TestImperativeCheck: the imperative rule's check reads a commit
// message's first word after any Conventional Commits type.
func TestImperativeCheck(t *testing.T) {
	c, ok := imperativeCheck("Use the imperative mood in commit messages.", "")
	if !ok {
		t.Fatal("no check")
	}
	c.From = check.Provenance{By: check.ByReader, Version: Version}
	p, err := check.Prepare(c)
	if err != nil {
		t.Fatal(err)
	}
	for msg, want := range map[string]bool{
		"Added PATCH endpoint": true, "feat: added x": true, "fix(api)!: fixing y": true, "Updates the docs": true,
		"Simplified config": true, "Dropped support": true,
		"Add PATCH endpoint": false, "feat(api): add x": false, "Embed fonts": false, "Addition of tests": false,
		"Address review": false, "Merge branch 'main'": false,
	} {
		a := action.Shell(`git commit -m "`+msg+`"`, action.Env{Root: "/r"})
		if _, got := p.Match(a, check.History{}); got != want {
			t.Errorf("%q: %v, want %v", msg, got, want)
		}
	}
}
