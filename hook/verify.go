package hook

import (
	"path"
	"slices"
	"strings"

	"github.com/innate-mcp/innate-mcp/action"
	"github.com/innate-mcp/innate-mcp/check"
	"github.com/innate-mcp/innate-mcp/runlog"
)

// verifyClasses are the classes of commands (check.InClass: one table of
// what tests, builds, type-checks or runs a project) that verify a change,
// in the order they are tried. A linter is not among them: it checks
// style, not behaviour.
var verifyClasses = []string{"test", "typecheck", "build", "run"}

// verifies returns the class of a command that verifies a change, if any.
func verifies(c action.Command) (string, bool) {
	if strings.HasPrefix(c.Text, "./") && !strings.HasSuffix(c.Program, ".sh") {
		return "run", true // a program the project built
	}
	for _, class := range verifyClasses {
		if check.InClass(c, class) {
			return class, true
		}
	}
	return "", false
}

// verifyingRun is a command of the turn that tested, built, type-checked
// or ran the project, and what its output showed.
type verifyingRun struct {
	class   string // test, typecheck, build or run
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
		out = append(out, verifyingRun{class: "run", command: c.Name})
	} else if c.Name == "Bash" {
		for _, cmd := range a.Commands {
			if k, ok := verifies(cmd); ok {
				out = append(out, verifyingRun{class: k, command: cmd.Text, scope: scopeOf(cmd, k)})
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
func scopeOf(c action.Command, class string) []string {
	dir := c.Dir
	if !c.DirFixed || !action.InRoot(dir) {
		return nil
	}
	if c.Program == "go" && class == "test" {
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

// covers reports whether a scope covers a file of the root.
func covers(scope []string, file string) bool {
	if scope == nil || file == "" || !action.InRoot(file) {
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
