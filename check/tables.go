package check

import (
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/innate-mcp/innate-mcp/action"
	"github.com/innate-mcp/innate-mcp/internal/clip"
	"github.com/innate-mcp/innate-mcp/sanitize"
)

// commandShape is a program with its leading subcommand words ("go",
// "test"); an empty Sub matches the program alone.
type commandShape struct {
	Program string
	Sub     []string
}

// argPrograms do their job only when given something to work on (a script,
// a URL, `-c CODE`): `python` alone is a prompt, `python app.py` a run.
var argPrograms = map[string]bool{
	"python": true, "python3": true, "py": true, "node": true, "tsx": true, "ts-node": true, "ruby": true,
	"julia": true, "php": true, "curl": true, "wget": true, "http": true,
}

// classes are kinds of commands that rules name by what they do ("build or
// test commands"): general knowledge of common toolchains. Add a command
// when it is a common way to run a project's tests or build.
var classes = map[string][]commandShape{
	"test": {
		{"pytest", nil}, {"jest", nil}, {"vitest", nil}, {"mocha", nil}, {"rspec", nil}, {"phpunit", nil},
		{"ctest", nil}, {"tox", nil}, {"nox", nil}, {"karma", nil}, {"ava", nil}, {"playwright", []string{"test"}},
		{"go", []string{"test"}}, {"cargo", []string{"test"}}, {"cargo", []string{"nextest"}},
		{"python", []string{"manage.py", "test"}}, {"python3", []string{"manage.py", "test"}},
		{"npm", []string{"test"}}, {"npm", []string{"t"}}, {"npm", []string{"run", "test"}},
		{"pnpm", []string{"test"}}, {"pnpm", []string{"run", "test"}}, {"yarn", []string{"test"}}, {"yarn", []string{"run", "test"}},
		{"bun", []string{"test"}}, {"deno", []string{"test"}}, {"meson", []string{"test"}}, {"dotnet", []string{"test"}},
		{"mvn", []string{"test"}}, {"mvn", []string{"verify"}}, {"gradle", []string{"test"}}, {"gradlew", []string{"test"}},
		{"make", []string{"test"}}, {"make", []string{"check"}}, {"swift", []string{"test"}}, {"mix", []string{"test"}},
		{"flutter", []string{"test"}}, {"dart", []string{"test"}}, {"rake", []string{"test"}}, {"rails", []string{"test"}},
		{"unittest", nil}, {"nose2", nil}, {"py.test", nil}, {"cypress", []string{"run"}}, {"gradle", []string{"check"}},
		{"gradlew", []string{"check"}},
	},
	"build": {
		{"go", []string{"build"}}, {"cargo", []string{"build"}}, {"npm", []string{"run", "build"}}, {"pnpm", []string{"build"}},
		{"pnpm", []string{"run", "build"}}, {"yarn", []string{"build"}}, {"yarn", []string{"run", "build"}}, {"bun", []string{"run", "build"}},
		{"make", nil}, {"gmake", nil}, {"meson", []string{"compile"}}, {"ninja", nil}, {"cmake", []string{"--build"}},
		{"dotnet", []string{"build"}}, {"msbuild", nil}, {"mvn", []string{"compile"}}, {"mvn", []string{"package"}},
		{"mvn", []string{"install"}}, {"gradle", []string{"build"}}, {"gradle", []string{"assemble"}}, {"gradlew", []string{"build"}},
		{"gradlew", []string{"assemble"}}, {"tsc", nil}, {"webpack", nil}, {"vite", []string{"build"}}, {"next", []string{"build"}},
		{"swift", []string{"build"}}, {"xcodebuild", nil}, {"bazel", []string{"build"}}, {"zig", []string{"build"}},
		{"dotnet", []string{"publish"}}, {"mix", []string{"compile"}}, {"rollup", nil}, {"esbuild", nil},
		{"docker", []string{"build"}}, {"bun", []string{"build"}},
	},
	"format": {
		{"black", nil}, {"ruff", []string{"format"}}, {"prettier", nil}, {"gofmt", nil}, {"gofumpt", nil}, {"go", []string{"fmt"}},
		{"rustfmt", nil}, {"cargo", []string{"fmt"}}, {"clang-format", nil}, {"isort", nil}, {"autopep8", nil}, {"yapf", nil},
		{"biome", []string{"format"}}, {"dprint", []string{"fmt"}}, {"swiftformat", nil}, {"swift-format", nil}, {"mix", []string{"format"}},
		{"dotnet", []string{"format"}}, {"terraform", []string{"fmt"}}, {"ktfmt", nil}, {"standardrb", nil},
		{"git", []string{"clang-format"}},
	},
	"lint": {
		{"ruff", []string{"check"}}, {"flake8", nil}, {"pylint", nil}, {"eslint", nil}, {"golangci-lint", nil}, {"staticcheck", nil},
		{"go", []string{"vet"}}, {"cargo", []string{"clippy"}}, {"clippy", nil}, {"shellcheck", nil}, {"rubocop", nil},
		{"biome", []string{"lint"}}, {"biome", []string{"check"}}, {"oxlint", nil}, {"swiftlint", nil}, {"ktlint", nil}, {"hadolint", nil},
		{"stylelint", nil}, {"markdownlint", nil},
	},
	"typecheck": {
		{"mypy", nil}, {"pyright", nil}, {"tsc", nil}, {"vue-tsc", nil}, {"basedpyright", nil}, {"flow", nil},
		{"go", []string{"vet"}}, {"cargo", []string{"check"}}, {"deno", []string{"check"}},
	},
	// install: adding a package to the project (only with a package
	// named: see argClasses); publish: publishing one.
	"install": {
		{"npm", []string{"install"}}, {"npm", []string{"i"}}, {"npm", []string{"add"}}, {"yarn", []string{"add"}},
		{"pnpm", []string{"add"}}, {"pnpm", []string{"install"}}, {"pnpm", []string{"i"}}, {"bun", []string{"add"}},
		{"bun", []string{"install"}}, {"bun", []string{"i"}}, {"pip", []string{"install"}}, {"pipenv", []string{"install"}},
		{"poetry", []string{"add"}}, {"conda", []string{"install"}}, {"pdm", []string{"add"}}, {"uv", []string{"add"}},
		{"uv", []string{"pip", "install"}}, {"cargo", []string{"add"}}, {"go", []string{"get"}}, {"dotnet", []string{"add"}},
		{"bundle", []string{"add"}}, {"gem", []string{"install"}}, {"composer", []string{"require"}}, {"mix", []string{"deps.get"}},
	},
	"publish": {
		{"npm", []string{"publish"}}, {"pnpm", []string{"publish"}}, {"yarn", []string{"publish"}}, {"bun", []string{"publish"}},
		{"gem", []string{"push"}}, {"cargo", []string{"publish"}}, {"poetry", []string{"publish"}}, {"uv", []string{"publish"}},
		{"flit", []string{"publish"}}, {"hatch", []string{"publish"}}, {"twine", []string{"upload"}}, {"rake", []string{"release"}},
		{"dotnet", []string{"nuget", "push"}},
	},
	// run: running the program or an endpoint of it.
	"run": {
		{"go", []string{"run"}}, {"cargo", []string{"run"}}, {"dotnet", []string{"run"}}, {"deno", []string{"run"}},
		{"npm", []string{"start"}}, {"python", nil}, {"python3", nil}, {"py", nil}, {"node", nil},
		{"tsx", nil}, {"ts-node", nil}, {"ruby", nil}, {"julia", nil}, {"php", nil},
		{"curl", nil}, {"wget", nil}, {"http", nil},
	},
}

func classNames() []string {
	var out []string
	for k := range classes {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// textClasses are kinds of text that rules name by what they are ("never
// hardcode API keys"), which no regular expression tells reliably: words
// name the class for a person; find finds the first one in a text and says
// what it found, in words that do not repeat it.
var textClasses = map[string]textClass{
	"secret": {
		words: "a literal credential (an API key, token, password or private key)",
		find: func(text string) (string, bool) {
			r, ok := sanitize.Credential(text)
			if !ok {
				return "", false
			}
			return "a literal credential (" + r.Kind + ")", true
		},
	},
	"generated": {
		words: "a generated file's mark (\"Code generated … DO NOT EDIT\", \"@generated\")",
		find: func(text string) (string, bool) {
			if generatedMark.MatchString(clip.Bytes(text, 2048)) {
				return "a generated file's mark", true
			}
			return "", false
		},
		// The text an edit replaces (action.Write.Was) holding the mark
		// shows the file is generated too: editing it is what is ruled
		// out.
		old: true,
	},
}

// generatedMark is the mark generators put in a comment at the head of
// what they write: Go's "Code generated … DO NOT EDIT." line,
// "@generated" (protoc, Buck, Rust, many more), C#'s "<auto-generated>",
// and the spelled-out forms. A generator's own source, which writes the
// mark inside a string, does not hold it in a comment.
var generatedMark = regexp.MustCompile(`(?im)^[ \t]*(?://+|#+|/\*+|\*|--|;+|<!--|%+)[ \t]*(?:code generated\b.*\bdo not edit\b|.*@generated\b|<auto-generated\b|this file (?:is|was|has been) (?:automatically |auto-?)?generated\b|.*\bauto-?generated\b.*\bdo not (?:edit|modify)\b)`)

type textClass struct {
	words string
	find  func(text string) (string, bool)
	// old: the class in the text an edit replaces counts too (by
	// default it does not: a credential already there is not the
	// agent's, and an edit that keeps it adds nothing).
	old bool
}

func textClassNames() []string {
	out := make([]string, 0, len(textClasses))
	for k := range textClasses {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// targetRunners run a project's own tasks by name (`make lint`, `npm run
// format`, `tox -e lint`, `just test`): a task whose name holds a class's
// stem does that class's job. General knowledge of task runners.
var targetRunners = []commandShape{
	{"make", nil}, {"gmake", nil}, {"just", nil}, {"task", nil}, {"mage", nil}, {"rake", nil}, {"invoke", nil},
	{"npm", []string{"run"}}, {"pnpm", []string{"run"}}, {"yarn", []string{"run"}}, {"bun", []string{"run"}},
	{"pnpm", nil}, {"yarn", nil}, {"tox", []string{"-e"}}, {"nox", []string{"-s"}}, {"hatch", []string{"run"}},
	{"cargo", []string{"make"}}, {"uv", []string{"run"}}, {"poetry", []string{"run"}}, {"pdm", []string{"run"}},
	// Monorepo task runners: `nx test`, `nx run app:lint`, `turbo run build`.
	{"nx", nil}, {"nx", []string{"run"}}, {"turbo", nil}, {"turbo", []string{"run"}},
}

// classStems are what a task's name holds when it does a class's job.
var classStems = map[string][]string{
	"format":    {"fmt", "format"},
	"lint":      {"lint", "check"},
	"typecheck": {"typecheck", "type-check", "types", "mypy", "pyright", "tsc"},
	"test":      {"test", "e2e"},
	"build":     {"build", "compile"},
	"run":       {"start", "dev", "serve", "preview"},
}

// runsTask reports whether a command runs a project task whose name holds
// one of a class's stems ("make lint", "npm run lint:check", "tox -e
// format", "just test-unit").
// runnerBinary reads the rest of a package manager's command as a task
// runner's (`pnpm nx test web` as `nx test web`), when the task it names is
// one: nothing else runs through it.
func runnerBinary(c action.Command, task string) (action.Command, bool) {
	if task == c.Program || !slices.ContainsFunc(targetRunners, func(r commandShape) bool { return r.Program == task }) {
		return action.Command{}, false
	}
	for i, a := range c.Args {
		if a.Known && a.Value == task {
			return action.Command{Program: task, Args: c.Args[i+1:], Text: c.Text}, true
		}
	}
	return action.Command{}, false
}

func runsTask(c action.Command, class string) bool {
	stems := classStems[class]
	if len(stems) == 0 {
		return false
	}
	for _, r := range targetRunners {
		if c.Program != r.Program {
			continue
		}
		var task string
		if len(r.Sub) == 1 && strings.HasPrefix(r.Sub[0], "-") {
			task = c.Value(r.Sub[0]) // tox -e lint
		} else {
			sub := c.Sub(len(r.Sub) + 1)
			if len(sub) != len(r.Sub)+1 || !slices.Equal(sub[:len(r.Sub)], r.Sub) {
				continue
			}
			task = sub[len(r.Sub)]
		}
		if (task == "exec" || task == "dlx" || task == "x") && c.Program != "make" {
			// `pnpm -C web exec tsc`: the tool the runner executes.
			if pos := c.Positionals(); len(pos) > 1 && pos[0] == task {
				task = pos[1]
			}
		}
		if inner, ok := runnerBinary(c, task); ok {
			// `pnpm nx test web`: the package manager runs a task
			// runner's binary, which runs the task.
			return runsTask(inner, class)
		}
		task = strings.ToLower(task)
		if class == "lint" && slices.ContainsFunc(classStems["typecheck"], func(st string) bool { return strings.Contains(task, st) }) {
			continue // `pnpm typecheck` holds "check", and lints nothing
		}
		for _, st := range stems {
			if strings.Contains(task, st) {
				return true
			}
		}
	}
	return false
}

// InClass reports whether a command is of a class: test, build, format,
// lint, typecheck or run. "make" with no subcommand, or with a target
// other than test's, is a build. A command may be of several classes
// (`go vet` lints and type-checks).
func InClass(c action.Command, class string) bool {
	if runsTask(c, class) {
		return true
	}
	for _, s := range classes[class] {
		if !c.Runs(s.Program) {
			continue
		}
		if s.Program == "cmake" && len(s.Sub) > 0 {
			if c.Has(s.Sub[0]) {
				return true
			}
			continue
		}
		sub := c.Sub(len(s.Sub))
		if c.Program != s.Program {
			continue
		}
		if len(s.Sub) == 0 && argPrograms[s.Program] && len(c.Positionals()) == 0 && c.Value("-c", "-e", "--eval") == "" {
			continue
		}
		if slices.Equal(sub, s.Sub) {
			// An install with no package named installs what the project
			// already has: it adds nothing.
			return !argClasses[class] || len(c.Positionals()) > len(s.Sub)
		}
	}
	return false
}

// names are the other names a command goes by: `go fmt` is gofmt, `cargo
// fmt` rustfmt, `python3` python, `pip3` pip. General knowledge; add one
// when a tool is commonly run under two names.
var names = []struct {
	shape commandShape
	name  string
}{
	{commandShape{"go", []string{"fmt"}}, "gofmt"},
	{commandShape{"go", []string{"vet"}}, "govet"},
	{commandShape{"cargo", []string{"fmt"}}, "rustfmt"},
	{commandShape{"git", []string{"clang-format"}}, "clang-format"},
	{commandShape{"cargo", []string{"clippy"}}, "clippy"},
	{commandShape{"python3", nil}, "python"},
	{commandShape{"py", nil}, "python"},
	{commandShape{"pip3", nil}, "pip"},
	{commandShape{"nodejs", nil}, "node"},
	{commandShape{"docker-compose", nil}, "docker"},
	{commandShape{"podman-compose", nil}, "podman"},
	{commandShape{"gradlew", nil}, "gradle"},
	{commandShape{"mvnw", nil}, "mvn"},
	{commandShape{"ruff", []string{"format"}}, "ruff-format"},
	{commandShape{"npm", []string{"exec"}}, "npx"},
	{commandShape{"yarnpkg", nil}, "yarn"},
}

// identities are the names a command runs as: its program, the names it
// goes by, and the wrappers and runners it runs through (first words).
func identities(c action.Command) []string {
	ids := []string{c.Program}
	for _, n := range names {
		if c.Program == n.shape.Program && slices.Equal(c.Sub(len(n.shape.Sub)), n.shape.Sub) {
			ids = append(ids, n.name)
		}
	}
	for _, v := range c.Via {
		w := v
		for i := 0; i < len(v); i++ {
			if v[i] == ' ' {
				w = v[:i]
				break
			}
		}
		ids = append(ids, w)
		if python(w) {
			ids = append(ids, "python")
		}
	}
	return ids
}

func python(p string) bool {
	return p == "python3" || p == "py" || len(p) > 7 && p[:7] == "python3"
}

// flagAliases are flags written two ways: a check that names one matches
// the other. Keyed by program, general knowledge.
var flagAliases = map[string][][]string{
	"git":    {{"--force", "-f"}, {"--no-verify", "-n"}, {"--all", "-a", "-A"}, {"--message", "-m"}, {"--hard"}, {"--signoff", "-s"}},
	"rm":     {{"--recursive", "-r", "-R"}, {"--force", "-f"}},
	"npm":    {{"--save-dev", "-D"}, {"--global", "-g"}, {"--force", "-f"}, {"--legacy-peer-deps"}},
	"pnpm":   {{"--save-dev", "-D"}, {"--global", "-g"}},
	"yarn":   {{"--dev", "-D"}},
	"pip":    {{"--upgrade", "-U"}, {"--requirement", "-r"}},
	"cp":     {{"--recursive", "-r", "-R"}, {"--force", "-f"}},
	"docker": {{"--force", "-f"}},
}

// hasFlag reports whether a command is given a flag or one of its aliases.
func hasFlag(c action.Command, flag string) bool {
	if c.Has(flag) {
		return true
	}
	for _, set := range flagAliases[c.Program] {
		if !slices.Contains(set, flag) {
			continue
		}
		for _, f := range set {
			if f != flag && c.Has(f) {
				return true
			}
		}
	}
	return false
}

// multiTarget are the programs that run several targets, tasks or phases
// given in one command (`make fmt lint`, `mvn clean verify`, `task lint
// test`): a pattern's one subcommand is any of them.
var multiTarget = map[string]bool{
	"make": true, "gmake": true, "mvn": true, "mvnw": true, "gradle": true, "gradlew": true,
	"task": true, "just": true, "ninja": true, "rake": true, "ant": true,
}

// argClasses are the classes a command is of only with an argument past
// its subcommand: `npm install lodash` adds a package, `npm install` does
// not.
var argClasses = map[string]bool{"install": true}

// docExts and docNames are the files that document rather than run, and
// agentDirs hold coding agents' and editors' own state and instructions:
// an edit of them alone needs no test.
var (
	docExts   = []string{".md", ".mdx", ".markdown", ".rst", ".adoc", ".org"}
	docNames  = []string{"LICENSE", "LICENCE", "CHANGELOG", "AUTHORS", "NOTICE", "CONTRIBUTORS"}
	agentDirs = []string{".claude", ".cursor", ".specstory", ".taskmaster", ".windsurf", ".kiro", ".codex", ".gemini", ".aider", ".vscode", ".idea", ".innate-mcp"}
)

// IsDoc reports whether a file of the root is documentation or an agent's
// own state rather than code: an edit of it alone needs no test.
func IsDoc(p string) bool {
	if p == "" {
		return false
	}
	if first, _, _ := strings.Cut(p, "/"); slices.Contains(agentDirs, first) {
		return true
	}
	base := path.Base(p)
	ext := strings.ToLower(path.Ext(base))
	return slices.Contains(docExts, ext) || slices.Contains(docNames, strings.ToUpper(strings.TrimSuffix(base, path.Ext(base))))
}
