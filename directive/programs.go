package directive

import (
	"regexp"
	"strings"

	"github.com/innate-mcp/innate-mcp/check"
)

// knownPrograms are command-line programs that rules name as bare words
// ("use pnpm", "never use head or tail"): a rule's object is compiled into
// a command check only when it names one of these or is a code span that
// parses as a command. They are the programs a plan runs by name
// (programs) and more that are also English words (head, find, open),
// which a plan's prose does not read as commands. General knowledge of the
// shell and of common toolchains, not drawn from any evaluation set; add a
// program when agents commonly run it.
var knownPrograms = func() map[string]bool {
	m := set(
		"head", "tail", "grep", "egrep", "rg", "ag", "find", "fd", "xargs", "cat", "less", "more",
		"ln", "chown", "touch", "tar", "zip", "unzip", "jq", "yq", "kill", "pkill", "killall", "tee",
		"vim", "vi", "nano", "emacs", "open", "glab", "hub", "svn", "pnpx", "bunx", "tsx", "ts-node",
		"nodemon", "biome", "oxlint", "dprint", "mocha", "playwright", "cypress", "webpack", "vite", "esbuild", "rollup", "parcel",
		"turbo", "nx", "lerna", "next", "expo", "ng", "nvm", "volta", "pip3", "pipenv", "conda", "mamba",
		"pdm", "hatch", "rye", "tox", "nox", "isort", "flake8", "pylint", "mypy", "pyright", "autopep8", "yapf",
		"coverage", "unittest", "nose", "nose2", "pyenv", "jupyter", "goimports", "golangci-lint", "staticcheck", "rustc", "rustfmt", "clippy",
		"mvnw", "sbt", "java", "javac", "kotlinc", "msbuild", "nuget", "gmake", "cmake", "meson", "ninja", "bazel",
		"gcc", "g++", "cc", "c++", "clang", "clang++", "clang-format", "ruby", "gem", "bundler", "rubocop", "phpunit",
		"artisan", "mix", "elixir", "swiftformat", "swiftlint", "pod", "fvm", "docker-compose", "podman", "tofu", "pulumi", "aws",
		"gcloud", "az", "redis-cli", "mongosh", "prisma", "supabase", "firebase", "vercel", "netlify", "wrangler",
	)
	for p := range programs {
		m[p] = true
	}
	return m
}()

// commandFamilies are command-line tools that do the same job: a rule that
// asks for one ("use pnpm", "format with gofumpt") is broken by running
// another ("npm install", "go fmt"). Only programs, only families whose
// members replace each other; general knowledge like toolFamilies.
var commandFamilies = [][]string{
	{"npm", "yarn", "pnpm", "bun"},                     // JavaScript package managers
	{"pip", "pipenv", "poetry", "uv", "conda", "pdm"},  // Python package managers
	{"gofmt", "gofumpt"},                               // Go formatters
	{"prettier", "biome", "dprint"},                    // JavaScript formatters
	{"black", "autopep8", "yapf", "ruff-format"},       // Python formatters
	{"eslint", "biome", "oxlint"},                      // JavaScript linters
	{"flake8", "pylint", "ruff"},                       // Python linters
	{"jest", "vitest", "mocha"},                        // JavaScript test runners
	{"pytest", "unittest", "nose", "nose2"},            // Python test runners
	{"docker", "podman"},                               // containers
	{"mvn", "gradle"},                                  // JVM builds
	{"cmake", "meson", "bazel"},                        // native builds
	{"webpack", "vite", "esbuild", "rollup", "parcel"}, // bundlers
	{"swiftformat", "swift-format"},                    // Swift formatters
	{"rg", "grep", "egrep", "ag"},                      // search
	{"fd", "find"},                                     // file finding
	{"terraform", "tofu"},                              // infrastructure as code
}

// installCommands are how each package manager installs a package: a rule
// that asks for one manager's install command ("use `uv add <package>` to
// install dependencies") is broken by another manager's ("python -m pip
// install pillow"). General knowledge of the package managers of
// commandFamilies.
var installCommands = map[string][][]string{
	"npm": {{"install"}, {"i"}, {"add"}}, "yarn": {{"add"}}, "pnpm": {{"add"}, {"install"}, {"i"}}, "bun": {{"add"}, {"install"}, {"i"}},
	"pip": {{"install"}}, "pipenv": {{"install"}}, "poetry": {{"add"}}, "conda": {{"install"}}, "pdm": {{"add"}}, "uv": {{"add"}, {"pip", "install"}},
}

// verbCommands are the commands a verb of a rule names when it governs a
// flag ("never push with `--force`": git push). General git vocabulary.
var verbCommands = map[string][]string{
	"push":       {"git", "push"},
	"pushing":    {"git", "push"},
	"commit":     {"git", "commit"},
	"committing": {"git", "commit"},
	"merge":      {"git", "merge"},
	"rebase":     {"git", "rebase"},
}

// A phase is a git or GitHub act a step must come before: the words that
// name it, and the command that does it.
type phase struct {
	re      *lazyRegexp
	program string
	sub     []string
}

// phases are the moments "before X" (or "when committing") names, with
// the command that is that moment: "Run `make lint` before committing"
// asks for make lint before git commit.
var phases = []phase{
	{lazyRE(`(?i)\bbefore\s+(?:you\s+|each\s+|every\s+|any\s+|a\s+|making\s+a\s+)?(?:git\s+)?commit(?:ting|s)?\b|\b(?:when|whenever|on|upon)\s*:?\s+(?:you\s+)?(?:any\s+|every\s+|each\s+|a\s+)?(?:git\s+)?commit(?:ting|s)?\b`), "git", []string{"commit"}},
	{lazyRE(`(?i)\bbefore\s+(?:you\s+|each\s+|every\s+|any\s+|a\s+)?(?:git\s+)?push(?:ing|es)?\b`), "git", []string{"push"}},
	{lazyRE(`(?i)\bbefore\s+(?:you\s+)?(?:open(?:ing)?|creat(?:e|ing)|submit(?:ting)?|rais(?:e|ing))\s+(?:a\s+|the\s+|any\s+)?(?:pr|pull\s+request)s?\b`), "gh", []string{"pr", "create"}},
}

// phaseFiles names the files a step before a commit or a push is asked
// for ("run `gofmt -w` before committing Go files"): the step is missing
// only when the session wrote one of them.
var phaseFiles = lazyRE(`(?i)\bbefore\s+(?:you\s+)?(?:commit(?:ting)?|push(?:ing)?)\s+(?:any\s+|the\s+|your\s+)?([a-z][\w#+]*)\s+(?:files?|code|sources?|changes)\b`)

// languageFiles are the files of a language as rules name it. General
// knowledge of the field; add a language when a rule names one.
var languageFiles = map[string][]string{
	"go": {"*.go"}, "golang": {"*.go"}, "python": {"*.py"}, "rust": {"*.rs"},
	"typescript": {"*.ts", "*.tsx", "*.mts", "*.cts"}, "ts": {"*.ts", "*.tsx", "*.mts", "*.cts"},
	"javascript": {"*.js", "*.jsx", "*.mjs", "*.cjs"}, "js": {"*.js", "*.jsx", "*.mjs", "*.cjs"},
	"java": {"*.java"}, "kotlin": {"*.kt", "*.kts"}, "swift": {"*.swift"}, "ruby": {"*.rb"},
	"php": {"*.php"}, "c#": {"*.cs"}, "csharp": {"*.cs"}, "elixir": {"*.ex", "*.exs"},
	"dart": {"*.dart"}, "scala": {"*.scala"}, "terraform": {"*.tf"}, "c": {"*.c", "*.h"},
	"c++": {"*.cc", "*.cpp", "*.cxx", "*.h", "*.hh", "*.hpp"}, "cpp": {"*.cc", "*.cpp", "*.cxx", "*.h", "*.hh", "*.hpp"},
	"shell": {"*.sh", "*.bash"}, "sql": {"*.sql"}, "proto": {"*.proto"}, "protobuf": {"*.proto"},
	"lua": {"*.lua"}, "zig": {"*.zig"}, "haskell": {"*.hs"}, "clojure": {"*.clj", "*.cljs", "*.cljc"},
}

// onPhaseFiles makes the steps a sentence asks for before a commit or a
// push of one language's files apply once the session wrote such a file.
func onPhaseFiles(s string, cs []check.Check) []check.Check {
	m := phaseFiles.FindStringSubmatch(s)
	if m == nil {
		return cs
	}
	globs := languageFiles[strings.ToLower(m[1])]
	if globs == nil {
		return cs
	}
	for i, c := range cs {
		if c.Kind == check.RequireBefore && c.When == nil {
			cs[i].When = &check.Condition{Touched: globs}
		}
	}
	return cs
}

// namespacedScripts are the runners of a project's scripts whose names
// take variants after a colon (`test:unit`, `lint:fix`), by convention.
var namespacedScripts = set("npm", "pnpm", "yarn", "bun", "deno", "composer")

// toolThings are nouns that a program's name qualifies when it stands
// before them in prose ("Maven plugins", "npm packages", "Docker
// images"): what a rule says of them is not said of running the program.
// General vocabulary of toolchains, in the singular (a plural too short
// to read by its form stays): a plural noun
// qualified so is read as such by its form (pluralNoun).
var toolThings = set(
	"plugin", "dependency", "package", "structure", "project", "module", "file", "config", "configuration",
	"image", "container", "script", "workspace", "version", "cache", "registry", "lockfile", "setting",
	"wrapper", "daemon", "api", "apis", "extension", "layout",
)

// attributive reports whether a program's name, as a word in prose,
// qualifies the noun after it ("new Docker images") rather than naming
// the program.
func attributive(s, name string) bool {
	re, err := regexp.Compile(`(?i)\b` + regexp.QuoteMeta(name) + `\s+([a-z]+)\b`)
	if err != nil {
		return false
	}
	for _, m := range re.FindAllStringSubmatch(s, -1) {
		if w := strings.ToLower(m[1]); !toolThings[w] && !pluralNoun(w) {
			return false
		}
	}
	return re.MatchString(s)
}

// pluralNoun reports whether a word reads as a plural noun ("callbacks",
// "signals"): a program's name before one names the program's things; a
// subcommand or an argument after it is not written so in prose.
func pluralNoun(w string) bool {
	return len(w) > 4 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is")
}
