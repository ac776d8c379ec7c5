package hook

import (
	"path"
	"slices"
	"strings"

	"github.com/innate-mcp/innate-mcp/action"
	"github.com/innate-mcp/innate-mcp/runlog"
)

// runKind is what a verifying command checks of a change.
type runKind string

const (
	runTest      runKind = "test"
	runBuild     runKind = "build"
	runTypeCheck runKind = "type check"
	runProgram   runKind = "run"
)

// verifier says which command lines verify a change: a program, and the
// leading words (its subcommand) it must be given; an empty sub matches
// the program with any words.
type verifier struct {
	program string
	sub     []string
	kind    runKind
}

// verifiers are the commands that test, build, type-check or run a
// project, as their tools spell them. General knowledge of common tools;
// a linter is not among them (it checks style, not behaviour), nor is a
// package install.
var verifiers = []verifier{
	{"go", []string{"test"}, runTest},
	{"go", []string{"build"}, runBuild},
	{"go", []string{"vet"}, runTypeCheck},
	{"go", []string{"run"}, runProgram},
	{"cargo", []string{"test"}, runTest},
	{"cargo", []string{"nextest"}, runTest},
	{"cargo", []string{"build"}, runBuild},
	{"cargo", []string{"check"}, runTypeCheck},
	{"cargo", []string{"run"}, runProgram},
	{"pytest", nil, runTest},
	{"py.test", nil, runTest},
	{"unittest", nil, runTest},
	{"tox", nil, runTest},
	{"nox", nil, runTest},
	{"jest", nil, runTest},
	{"vitest", nil, runTest},
	{"mocha", nil, runTest},
	{"playwright", []string{"test"}, runTest},
	{"cypress", []string{"run"}, runTest},
	{"rspec", nil, runTest},
	{"phpunit", nil, runTest},
	{"ctest", nil, runTest},
	{"dotnet", []string{"test"}, runTest},
	{"dotnet", []string{"build"}, runBuild},
	{"dotnet", []string{"publish"}, runBuild},
	{"dotnet", []string{"run"}, runProgram},
	{"mvn", []string{"test"}, runTest},
	{"mvn", []string{"verify"}, runTest},
	{"mvn", []string{"compile"}, runBuild},
	{"mvn", []string{"package"}, runBuild},
	{"mvn", []string{"install"}, runBuild},
	{"gradle", []string{"test"}, runTest},
	{"gradle", []string{"check"}, runTest},
	{"gradle", []string{"build"}, runBuild},
	{"gradle", []string{"assemble"}, runBuild},
	{"gradlew", []string{"test"}, runTest},
	{"gradlew", []string{"check"}, runTest},
	{"gradlew", []string{"build"}, runBuild},
	{"gradlew", []string{"assemble"}, runBuild},
	{"swift", []string{"test"}, runTest},
	{"swift", []string{"build"}, runBuild},
	{"mix", []string{"test"}, runTest},
	{"mix", []string{"compile"}, runBuild},
	{"deno", []string{"test"}, runTest},
	{"deno", []string{"check"}, runTypeCheck},
	{"deno", []string{"run"}, runProgram},
	{"bun", []string{"test"}, runTest},
	{"meson", []string{"test"}, runTest},
	{"meson", []string{"compile"}, runBuild},
	{"ninja", nil, runBuild},
	{"cmake", []string{"--build"}, runBuild},
	{"make", nil, runBuild},
	{"gmake", nil, runBuild},
	{"tsc", nil, runTypeCheck},
	{"vue-tsc", nil, runTypeCheck},
	{"mypy", nil, runTypeCheck},
	{"pyright", nil, runTypeCheck},
	{"flow", nil, runTypeCheck},
	{"vite", []string{"build"}, runBuild},
	{"next", []string{"build"}, runBuild},
	{"webpack", nil, runBuild},
	{"rollup", nil, runBuild},
	{"esbuild", nil, runBuild},
	{"docker", []string{"build"}, runBuild},
	{"python", nil, runProgram},
	{"python3", nil, runProgram},
	{"py", nil, runProgram},
	{"node", nil, runProgram},
	{"tsx", nil, runProgram},
	{"ts-node", nil, runProgram},
	{"ruby", nil, runProgram},
	{"julia", nil, runProgram},
	{"php", nil, runProgram},
	{"curl", nil, runProgram},
	{"wget", nil, runProgram},
	{"http", nil, runProgram},
}

// packageManagers run a project's scripts (`npm test`, `npm run build`,
// `pnpm build`, `yarn typecheck`).
var packageManagers = map[string]bool{"npm": true, "pnpm": true, "yarn": true, "bun": true}

// scriptKinds read a package script's name by its first word: test:unit
// is a test, build:prod a build.
var scriptKinds = []struct {
	prefix string
	kind   runKind
}{
	{"test", runTest}, {"e2e", runTest}, {"cy", runTest},
	{"build", runBuild}, {"compile", runBuild},
	{"typecheck", runTypeCheck}, {"type-check", runTypeCheck}, {"types", runTypeCheck}, {"tsc", runTypeCheck}, {"check", runTypeCheck},
	{"start", runProgram}, {"dev", runProgram}, {"serve", runProgram}, {"preview", runProgram},
}

// verifies reports what a command verifies, if anything.
func verifies(c action.Command) (runKind, bool) {
	if packageManagers[c.Program] {
		return scriptKind(c)
	}
	if strings.HasPrefix(c.Text, "./") && !strings.HasSuffix(c.Program, ".sh") {
		return runProgram, true // a program the project built
	}
	for _, v := range verifiers {
		if v.program != c.Program {
			continue
		}
		if len(v.sub) == 0 {
			if v.kind == runProgram && len(c.Positionals()) == 0 && c.Value("-c", "-e", "--eval") == "" {
				continue // an interpreter's prompt or its version, not a run
			}
			return v.kind, true
		}
		if sub := c.Sub(len(v.sub)); slices.EqualFunc(sub, v.sub, strings.EqualFold) {
			return v.kind, true
		}
	}
	return "", false
}

// scriptKind reads `npm test`, `npm run build`, `pnpm typecheck`.
func scriptKind(c action.Command) (runKind, bool) {
	sub := c.Sub(2)
	if len(sub) == 0 {
		return "", false
	}
	name := sub[0]
	if name == "run" || name == "run-script" {
		if len(sub) < 2 {
			return "", false
		}
		name = sub[1]
	}
	if name == "t" {
		name = "test"
	}
	for _, s := range scriptKinds {
		if name == s.prefix || strings.HasPrefix(name, s.prefix+":") || strings.HasPrefix(name, s.prefix+"-") {
			return s.kind, true
		}
	}
	return "", false
}

// verifyingRun is a command of the turn that tested, built, type-checked
// or ran the project, and what its output showed.
type verifyingRun struct {
	kind    runKind
	command string
	failed  bool
	failure string // the line that says it failed
	// scope is what it covers, relative to the root: directories, with
	// "/..." for a whole tree; nil for everything.
	scope []string
}

// runTools are the tools, other than the shell, that run the program the
// agent changed: a browser driven through MCP opening or exercising the
// app. A tool name holding one of the family words and one of the verbs.
var runTools = struct{ families, verbs []string }{
	families: []string{"playwright", "puppeteer", "browser", "chrome-devtools", "chrome_devtools"},
	verbs:    []string{"navigate", "evaluate", "click", "fill", "type", "press", "select", "new_page"},
}

func runTool(name string) bool {
	n := strings.ToLower(name)
	has := func(words []string) bool {
		return slices.ContainsFunc(words, func(w string) bool { return strings.Contains(n, w) })
	}
	return strings.HasPrefix(n, "mcp__") && has(runTools.families) && has(runTools.verbs)
}

// readRuns reads the verifying commands of a tool call, Bash (a, as the
// call was read) or a browser tool, and the call's output. The output is
// read only when the call verifies something; a failure in it fails every
// command of the call.
func readRuns(c ToolCall, a action.Action) []verifyingRun {
	var out []verifyingRun
	if runTool(c.Name) {
		out = append(out, verifyingRun{kind: runProgram, command: c.Name})
	} else if c.Name == "Bash" {
		for _, cmd := range a.Commands {
			if k, ok := verifies(cmd); ok {
				out = append(out, verifyingRun{kind: k, command: cmd.Text, scope: scopeOf(cmd, k)})
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	failure, failed := runlog.Errored(c.Output)
	if c.IsError && !failed {
		failed, failure = true, "the command exited with an error"
	}
	for i := range out {
		out[i].failed, out[i].failure = failed, failure
	}
	return out
}

// scopeOf is what a verifying command covers where its words show it: the
// packages `go test` is given, or the directory a `cd` moved to. nil
// (everything) where they do not: where the directory it ran in is not
// known for sure, a build (it compiles what the code it builds imports),
// and a test name (it cannot be mapped to files).
func scopeOf(c action.Command, k runKind) []string {
	dir := c.Dir
	if !c.DirFixed || outside(dir) {
		return nil
	}
	if c.Program == "go" && k == runTest {
		var pkgs []string
		pos := c.Positionals()
		if len(pos) > 0 {
			pos = pos[1:] // "test"
		}
		for _, p := range pos {
			if !strings.HasPrefix(p, ".") {
				return scopeDir(dir) // an import path: read it as the module's
			}
			pkgs = append(pkgs, goPattern(dir, p))
		}
		if len(pkgs) == 0 {
			return []string{goPattern(dir, ".")}
		}
		return pkgs
	}
	return scopeDir(dir)
}

// goPattern is a relative package pattern of `go test` ("./...",
// "./pkg/x") as a scope of the root.
func goPattern(dir, p string) string {
	tree := p == "..." || strings.HasSuffix(p, "/...")
	d := path.Join(dir, strings.TrimSuffix(strings.TrimSuffix(p, "..."), "/"))
	if d == "" {
		d = "."
	}
	if tree {
		return d + "/..."
	}
	return d
}

func scopeDir(dir string) []string {
	if dir == "" {
		return nil
	}
	return []string{dir + "/..."}
}

// outside reports whether a path the action package made relative to the
// root is in fact outside it (or unknown): absolute, a Windows drive, "..",
// "~" or "?".
func outside(p string) bool {
	return path.IsAbs(p) || strings.HasPrefix(p, "..") || strings.HasPrefix(p, "~") || p == "?" ||
		len(p) >= 2 && p[1] == ':'
}

// covers reports whether a scope covers a file of the root.
func covers(scope []string, file string) bool {
	if scope == nil || file == "" || outside(file) {
		return true
	}
	d := path.Dir(file)
	for _, s := range scope {
		if tree, ok := strings.CutSuffix(s, "/..."); ok {
			if tree == "." || d == tree || strings.HasPrefix(d, tree+"/") {
				return true
			}
			continue
		}
		if d == path.Clean(s) {
			return true
		}
	}
	return false
}
