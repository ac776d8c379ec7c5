package directive

import (
	"slices"
	"strings"

	"github.com/innate-mcp/innate-mcp/check"
)

// toolFamilies are tools that do the same job: a rule that asks for one
// ("use pnpm", "format with gofumpt", "use Moq for mocking") is broken by a
// plan that uses another of its family (npm, gofmt, NSubstitute), even when
// the rule does not name the other. The list is general knowledge of common
// tools, not drawn from any evaluation set; add a family or a member when
// it is common vocabulary of the field.
var toolFamilies = [][]string{
	{"npm", "yarn", "pnpm", "bun"},                                             // JavaScript package managers
	{"pip", "pipenv", "poetry", "uv", "conda", "pdm", "hatch"},                 // Python package managers
	{"gofmt", "gofumpt", "goimports"},                                          // Go formatters
	{"prettier", "biome", "dprint"},                                            // JavaScript formatters
	{"black", "autopep8", "yapf", "ruff-format"},                               // Python formatters
	{"eslint", "biome", "oxlint", "jshint", "tslint"},                          // JavaScript linters
	{"flake8", "pylint", "ruff", "pyflakes"},                                   // Python linters
	{"jest", "vitest", "mocha", "jasmine", "ava"},                              // JavaScript test runners
	{"pytest", "unittest", "nose", "nose2"},                                    // Python test runners
	{"junit", "testng", "spock"},                                               // JVM test frameworks
	{"xunit", "nunit", "mstest"},                                               // .NET test frameworks
	{"moq", "nsubstitute", "fakeiteasy", "rhinomocks"},                         // .NET mocking
	{"mockito", "easymock", "jmockit", "mockk"},                                // JVM mocking
	{"sinon", "testdouble"},                                                    // JavaScript mocking
	{"playwright", "cypress", "puppeteer", "selenium", "webdriverio"},          // browser testing
	{"hilt", "dagger", "koin", "kodein"},                                       // Android dependency injection
	{"riverpod", "getx", "refena", "mobx", "redux"},                            // Flutter state management
	{"redux", "zustand", "mobx", "recoil", "jotai", "valtio", "pinia", "vuex"}, // web state management
	{"axios", "ky", "superagent"},                                              // JavaScript HTTP clients
	{"prisma", "typeorm", "sequelize", "drizzle", "knex", "mikro-orm"},         // JavaScript ORMs
	{"sqlalchemy", "peewee"},                                                   // Python ORMs
	{"gorm", "sqlx", "sqlc", "bun"},                                            // Go database layers
	{"zod", "yup", "joi", "valibot", "ajv", "superstruct"},                     // JavaScript schema validation
	{"pydantic", "marshmallow", "cerberus"},                                    // Python validation
	{"webpack", "vite", "esbuild", "rollup", "parcel", "turbopack", "rspack"},  // bundlers
	{"docker", "podman"},                                                       // containers
	{"zap", "logrus", "zerolog", "slog"},                                       // Go logging
	{"anyhow", "eyre"},                                                         // Rust application errors
	{"maven", "gradle", "sbt"},                                                 // JVM builds
	{"cmake", "meson", "bazel"},                                                // native builds
	{"rspec", "minitest"},                                                      // Ruby tests
	{"jackson", "gson", "moshi"},                                               // JVM JSON
	{"swiftformat", "swift-format"},                                            // Swift formatters
	{"ktlint", "ktfmt", "spotless"},                                            // Kotlin formatters
	{"tailwind", "bootstrap", "bulma", "styled-components"},                    // CSS approaches
	{"flask", "django", "fastapi", "starlette"},                                // Python web
	{"fastify", "nestjs"},                                                      // Node web
	{"terraform", "pulumi", "cloudformation", "opentofu"},                      // infrastructure as code
	{"github-actions", "circleci", "travis", "jenkins"},                        // CI services
	{"unittest.mock", "pytest-mock"},                                           // Python mocking
	{"enzyme", "testing-library"},                                              // React testing

	{"rxjava"}, // Kotlin async
	{"fvm", "asdf", "nvm", "pyenv", "rbenv", "rustup", "sdkman"}, // toolchain managers
}

// familyOf maps a tool (lower case) to the indexes of its families.
var familyOf = func() map[string][]int {
	m := map[string][]int{}
	for i, f := range toolFamilies {
		for _, t := range f {
			m[t] = append(m[t], i)
		}
	}
	return m
}()

// toolsIn returns the known tools named in text, lower case, each once.
func toolsIn(text string) []string {
	var out []string
	for _, w := range toolWord.FindAllString(text, -1) {
		w = strings.ToLower(w)
		if _, ok := familyOf[w]; ok && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// rival returns a tool of the candidate that does the job of the required
// one (same family, another tool), or "".
func rival(required string, candidate []string) string {
	fams := familyOf[required]
	for _, c := range candidate {
		if c == required {
			return ""
		}
	}
	for _, c := range candidate {
		for _, f := range familyOf[c] {
			for _, g := range fams {
				if f == g {
					return c
				}
			}
		}
	}
	return ""
}

var toolWord = lazyRE(`[A-Za-z][A-Za-z0-9.-]*[A-Za-z0-9]|[A-Za-z]{2}`)

// runners are the commands that run an ecosystem's tools inside the
// project's environment, with the tools they run: a rule that asks for
// one ("Always prefer `bundle exec` for Ruby CLI tasks", "run Python through
// `uv run`") is broken by a plan that runs one of those tools bare
// (`rspec spec/x_spec.rb`). General knowledge, like toolFamilies.
var runners = []struct {
	prefixes []string // how the runner is written, lower case
	tools    []string // what it runs
}{
	{[]string{"bundle exec", "bin/rails", "bin/rake"}, []string{"rspec", "rake", "rubocop", "rails", "srb", "tapioca", "cucumber"}},
	{[]string{"uv run", "poetry run", "pipenv run", "hatch run", "pdm run", "rye run"}, []string{"pytest", "mypy", "ruff", "black", "isort", "flake8", "pylint", "python", "python3", "tox", "coverage", "pyright"}},
	{[]string{"npx", "pnpm exec", "pnpm dlx", "yarn", "bunx", "npm exec", "pnpm", "bun x"}, []string{"jest", "vitest", "eslint", "prettier", "tsc", "playwright", "mocha", "tsx", "ts-node"}},
}

// runnerTools maps a runner, as a rule writes it, to the tools it runs.
var runnerTools = func() map[string][]string {
	m := map[string][]string{}
	for _, r := range runners {
		for _, p := range r.prefixes {
			m[p] = r.tools
		}
	}
	return m
}()

// bareRun returns a tool the candidate runs bare, outside the runner that
// the required object names, or "". A tool counts when a code span or a
// line opens with it.
func bareRun(required, text string) string {
	tools := runnerTools[strings.ToLower(strings.TrimSpace(required))]
	if tools == nil {
		return ""
	}
	for _, m := range commandStart.FindAllStringSubmatch(text, -1) {
		if slices.Contains(tools, strings.ToLower(m[1])) {
			return m[1]
		}
	}
	return ""
}

// commandStart is a command at the start of a code span or of a line,
// with its first word.
var commandStart = lazyRE("(?m)(?:`|^\\s*\\$?\\s*)([A-Za-z][\\w.-]*)\\s+[\\w./:-]")

// outsideWords end the words before the runner a clause says its commands
// must go through: "Never run Python without uv", "never run `pytest`
// outside `uv run`", "not via poetry".
var outsideWords = lazyRE("(?i)\\b(?:without|outside(?:\\s+of)?|not\\s+(?:through|via|using)|except\\s+(?:through|via))\\s+(?:the\\s+|an?\\s+)?`?([a-z][\\w./-]*(?:\\s+(?:run|exec|x|dlx))?)`?")

// runnerOutside returns the runner a clause rules its commands out
// without, as the runners table writes it ("uv run"), or by its program
// alone ("uv", any of its forms), or "".
func runnerOutside(clause string) string {
	m := outsideWords.FindStringSubmatch(clause)
	if m == nil {
		return ""
	}
	r := strings.TrimRight(strings.ToLower(m[1]), "./-")
	if _, ok := runnerTools[r]; ok {
		return r
	}
	first, _, _ := strings.Cut(r, " ")
	for p := range runnerTools {
		if p == first || strings.HasPrefix(p, first+" ") {
			return first
		}
	}
	return ""
}

// outsideRunner narrows a forbidding clause's command checks to commands
// run outside the runner it names: what goes through the runner is what
// the rule asks for, and the runner itself is no object of the ban.
func outsideRunner(clause string, cs []check.Check) []check.Check {
	r := runnerOutside(clause)
	if r == "" {
		return cs
	}
	prog, verb, _ := strings.Cut(r, " ")
	out := cs[:0]
	for _, c := range cs {
		if c.Command == nil || c.Kind == check.RequireBefore {
			out = append(out, c)
			continue
		}
		if slices.Contains(c.Command.Programs, prog) && (verb == "" || len(c.Command.Sub) == 0 || c.Command.Sub[0] == verb) {
			continue // the runner named as the way, not as what is banned
		}
		p := *c.Command
		p.NotVia = append(slices.Clone(p.NotVia), r)
		c.Command = &p
		out = append(out, c)
	}
	return out
}
