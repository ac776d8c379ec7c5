package directive

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func texts(os []Object) []string {
	out := make([]string, 0, len(os))
	for _, o := range os {
		out = append(out, o.Text)
	}
	return out
}

func TestParse_Phrasings(t *testing.T) {
	tests := []struct {
		name     string
		content  string
		trigger  string
		polarity Polarity
		do, dont []string
		when     string
		unless   string
	}{
		{"use X, not Y", "Use `pnpm`, not npm or yarn", "", Prefer, []string{"pnpm"}, []string{"npm", "yarn"}, "", ""},
		{"never", "Never push directly to `main`", "", Forbid, nil, []string{"main"}, "", ""},
		{"prefer X over Y", "Prefer `select` over `include` in Prisma queries", "", Prefer, []string{"select"}, []string{"include"}, "", ""},
		{"X instead of Y", "In C# code always use `is null` or `is not null` instead of `== null` or `!= null`.", "", Prefer,
			[]string{"is null", "is not null"}, []string{"== null", "!= null"}, "", ""},
		{"instead of Y, X", "Instead of `fmt.Println`, use `slog`.", "", Prefer, []string{"slog"}, []string{"fmt.Println"}, "", ""},
		{"rather than", "Return errors rather than `panic`.", "", Prefer, []string{"Return errors"}, []string{"panic"}, "", ""},
		{"(not Y)", "Use debug builds (not `--release`) when developing.", "", Prefer, []string{"debug builds"}, []string{"--release"}, "when developing", ""},
		{"X, never Y", "Put auth checks in `page.tsx`, never in `layout.tsx`", "", Prefer, []string{"page.tsx"}, []string{"layout.tsx"}, "", ""},
		{"always X before Y", "Always run `make fmt` before committing.", "", Require, []string{"make fmt"}, nil, "before committing", ""},
		{"run X after Y", "Run `make gen` after changing any `*.sql` query file.", "", Require, []string{"make gen"}, nil, "after changing any `*.sql` query file", ""},
		{"a directive before a colon is not a label", "Never use `var`: always declare with `const` or `let`.", "", Forbid, []string{"const", "let"}, []string{"var"}, "", ""},
		{"an adverb of degree before prefer", "Strongly prefer `rg` over `grep`.", "", Prefer, []string{"rg"}, []string{"grep"}, "", ""},
		{"a sentence wrapped onto the next line", "Prefer adding cases over writing new test\n  functions.", "", Prefer, []string{"adding cases"}, []string{"new test functions"}, "", ""},
		{"what is new is kept", "Avoid creating new files.", "", Forbid, nil, []string{"new files"}, "", ""},
		{"naming convention", "Use lowercase with dashes for directory names (e.g., pages/user-settings)", "", Require, nil, nil, "", ""},
		{"subject before the modal is scope", "Every PHP class in `src/`, except interfaces, should have a matching `PHPUnit` test", "", Require, []string{"PHPUnit"}, nil, "", ""},
		{"subject before a passive modal is the object", "The `gofumpt` formatter must be used for Go code", "", Require, []string{"gofumpt"}, nil, "", ""},
		{"don't Y unless Z", "Don't create commits unless explicitly asked", "", Forbid, nil, []string{"commits"}, "", "explicitly asked"},
		{"without prior discussion", "Never introduce new composer packages without prior discussion with the team", "", Forbid, nil, []string{"introduce composer packages"}, "", "discussion with the team"},
		{"list of verbs", "Do NOT amend, squash, or rebase commits that were pushed", "", Forbid, nil, []string{"amend", "squash", "rebase commits"}, "", ""},
		{"verb and object", "Always format code and update documentation before every commit.", "", Require, []string{"format", "update documentation"}, nil, "before every commit", ""},
		{"label with code", "Slow tests: `RUN_SLOW=1 pytest ...`", "", Require, []string{"RUN_SLOW=1 pytest ..."}, nil, "", ""},
		{"code then description", "`pnpm test` - Run frontend tests", "", Require, []string{"pnpm test", "frontend tests"}, nil, "", ""},
		{"what a subject requires", "Dependencies: an update to client-side deps in `pyproject.toml` require parallel changes in `client/pyproject.toml`", "", Require, []string{"client/pyproject.toml"}, nil, "", ""},
		{"a hedged require is read as before (not \"updates in others\")", "Changes to `go.mod` in one module may require updates in others.", "", Require, []string{"go.mod"}, nil, "", ""},
		{"a map entry's description", "`scripts/` - Maintenance scripts for releases", "", Context, nil, nil, "", ""},
		{"a script that does a job", "`scripts/node_version.py` - Update the Node versions across Dockerfiles, package.json, CI", "", Require, []string{"scripts/node_version.py"}, nil, "", ""},
		{"a glossary entry names a part", "`lib` - Shared UI components.", "", Context, nil, nil, "", ""},
		{"a template variable's meaning", "`{{ cookiecutter.project_slug }}` - User's project name", "", Context, nil, nil, "", ""},
		{"a command run by its bare name", "`make` - Build everything", "", Require, []string{"make", "Build everything"}, nil, "", ""},
		{"examples of how the project is built", "The architecture follows a plugin pattern where each package manager (e.g., `bundler`, `npm_and_yarn`) implements the same interfaces.", "", Context, nil, nil, "", ""},
		{"a condition opening the steps", "**CRD Changes:** If you changed anything in the `api/` module:\n1. Run `make crd_install` to update derived CRDs", "", Require, []string{"make crd_install"}, nil, "If you changed anything in the `api/` module", ""},
		{"a condition in the heading", "Run `make crd_install` to update derived CRDs", "Guide > CRD Changes: If you changed anything in the api/ module", Require, []string{"make crd_install"}, nil, "If you changed anything in the api/ module", ""},
		{"dash alternative", "Do not edit `Cargo.toml` manually — use `cargo add`.", "", Forbid, []string{"cargo add"}, []string{"Cargo.toml"}, "", ""},
		{"tool name", "Use Zod for form validation", "", Require, []string{"Zod"}, nil, "", ""},
		{"noun phrase", "Never use raw pointers", "", Forbid, nil, []string{"raw pointers"}, "", ""},
		{"avoid; use instead", "Avoid enums; use maps instead", "", Forbid, []string{"maps"}, []string{"enums"}, "", ""},
		{"heading forbids", "Modify files under `vendor/`", "Project; Never Touch", Forbid, nil, []string{"vendor/"}, "", ""},
		{"heading forbids only the first clause", "Do not edit `openapi.json` manually — run `just gen`.", "Never", Forbid, []string{"just gen"}, []string{"openapi.json"}, "", ""},
		{"long heading is not a polarity", "Only add dependencies when needed", "Avoid duplication and minimize dependencies", Require, []string{"dependencies"}, nil, "when needed", ""},
		{"object in both sides decides nothing", "Prefer let chains (`if let` with `&&`) over nested `if let`.", "", Prefer, []string{"&&"}, nil, "", ""},
		{"e.g. inside a preference", "Use hyphens in flag names (e.g. `my-flag` instead of `my_flag`).", "", Prefer, []string{"my-flag"}, []string{"my_flag"}, "", ""},
		{"description is context", "This is a Go 1.22 service that talks to PostgreSQL.", "", Context, nil, nil, "", ""},
		{"persona is context", "You are an expert in TypeScript and React.", "", Context, nil, nil, "", ""},
		{"statement of use is a convention", "Hilt is used for dependency injection throughout the app.", "", Require, []string{"Hilt"}, nil, "", ""},
		{"convention of a subject", "PR titles follow `Module: Description` format.", "", Require, []string{"Module: Description"}, nil, "", ""},
		{"project description is context", "Kimai is a professional open source time-tracking application", "", Context, nil, nil, "", ""},
		{"repository map is context", "Key files: `transaction_manager.cpp`, `undo_buffer.cpp`", "", Context, nil, nil, "", ""},
		{"move away from forbids", "Move away from `main.tf`, `variables.tf`.", "", Forbid, nil, []string{"main.tf", "variables.tf"}, "", ""},
		{"a name in a relative clause is not the object", "Do not suggest extra null checks for fields that Pydantic already validates.", "", Forbid,
			nil, []string{"suggest extra null checks"}, "", ""},
		{"comma before another directive", "Prefer `require` over `assert`, avoid testify suites, use `require.Eventually` instead of `time.Sleep`", "", Prefer,
			[]string{"require", "require.Eventually"}, []string{"assert", "testify suites", "time.Sleep"}, "", ""},
		{"comma after a condition is not cut", "When a key is guaranteed, use `data[\"key\"]` instead of `.get(\"key\")`", "", Prefer,
			[]string{`data["key"]`}, []string{`.get("key")`}, "When a key is guaranteed,", ""},
		{"label, statement, then avoid", "**External packages**: SwiftPM-managed in `Package.swift`, avoid CocoaPods", "", Forbid, nil, []string{"CocoaPods"}, "", ""},
		{"a choice without a verb", "Refena (`refena_flutter`), not Riverpod.", "", Prefer, []string{"refena_flutter"}, []string{"Riverpod"}, "", ""},
		{"a map entry of paths is not a rule", "`hooks/` - Python scripts that run before or after generation", "", Context, nil, nil, "before or after generation", ""},
		{"a map entry that forbids itself", "`packages/types/` - Shared type definitions - this is deprecated, never modify this package", "", Forbid,
			nil, []string{"packages/types/"}, "", ""},
		{"a map entry, then never edit these", "`vendor/` — never edit these files", "", Forbid, nil, []string{"vendor/"}, "", ""},
		{"emphasis", "**Never** add `Hadoop` dependencies.", "", Forbid, nil, []string{"Hadoop"}, "", ""},
		{"chinese forbid", "不要使用 `var` 声明变量", "", Forbid, nil, []string{"var"}, "", ""},
		{"japanese forbid", "`console.log` を使わないでください", "", Forbid, nil, []string{"console.log"}, "", ""},
		{"example block is not read", "Use `app()` to resolve classes:\n\n```php\nnew Foo(); // bad\n```", "", Require, []string{"app()"}, nil, "", ""},
		{"is only describes", "Communication is only through the protocol.", "", Context, nil, nil, "", ""},
		{"can only permits", "Files marked `\"strict\"` can only import what is explicitly listed.", "", Context, nil, nil, "", ""},
		{"only still asks", "Only use `pnpm`.", "", Require, []string{"pnpm"}, nil, "", ""},
		{"a bare preference asks for nothing a plan must do", "For multi-file tests, prefer `tempDir` and `Bun.spawn`.", "", Prefer, []string{"tempDir", "Bun.spawn"}, nil, "For multi-file tests,", ""},
		{"prefer X instead still asks", "Prefer `toBeVisible` instead.", "", Require, []string{"toBeVisible"}, nil, "", ""},
		{"what a thing is for is not asked for", "Use a marker pattern for `instanceof` checks.", "", Require, []string{"marker pattern"}, nil, "", ""},
		{"a place after for is asked for", "Always update documentation for user-facing features in `packages/{package}/docs/`.", "", Require, []string{"update documentation", "packages/{package}/docs/"}, nil, "", ""},
		{"an option is not a rule", "If that tool is not available, then you can use `scripts/test.sh` for unit tests.", "", Context, nil, nil, "If that tool is not available,", ""},
		{"a relative clause describes the ruled-out object", "For host resolution, use `cfg.Auth().DefaultHost()` — not `ghinstance.Default()` which always returns `github.com`.", "",
			Require, []string{"cfg.Auth().DefaultHost()"}, []string{"ghinstance.Default()"}, "For host resolution,", ""},
		{"the project's name in the title is not an object", "Never store credentials in Dependabot Core directly.",
			"Dependabot Core AI Agent Instructions > Private Registries", Forbid, nil, []string{"store credentials"}, "", ""},
		{"a verb's noun opens the list", "Do not claim a Biome function, module, behavior, or convention exists without an exact file and line.",
			"Agent Guidelines for Contributing to Biome > Communication", Forbid, nil, []string{"claim Biome function module"}, "", ""},
		{"these for a purpose is the mapped place", "`sqlite/conformance/upstream/` - imported upstream SQLite golden tests. Do not modify these for behavior changes",
			"", Forbid, nil, []string{"sqlite/conformance/upstream/"}, "", ""},
		{"a map row asks for nothing", "| Path | What it is |\n|---|---|\n| `packages/core/` | Rust crate. No Flutter dependency. |", "", Context, nil, nil, "", ""},
		{"a table's header row asks for nothing", "| Query | No Match | Await? |\n| --- | --- | --- |\n| getBy | throw | No |", "", Context, nil, nil, "", ""},
		{"an example after instead of is a choice of its own",
			"Use the typography classes instead of hard coding classes e.g. use \"heading-default\" instead of \"text-sm font-medium\"", "",
			Prefer, []string{"typography classes", "heading-default"}, []string{"hard coding classes", "text-sm font-medium"}, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := Parse(tc.content, tc.trigger)
			if d.Polarity != tc.polarity {
				t.Errorf("polarity=%s, want %s (%+v)", d.Polarity, tc.polarity, d)
			}
			if got := texts(d.Do); !slices.Equal(got, tc.do) && !(len(got) == 0 && len(tc.do) == 0) {
				t.Errorf("do=%q, want %q", got, tc.do)
			}
			if got := texts(d.Dont); !slices.Equal(got, tc.dont) && !(len(got) == 0 && len(tc.dont) == 0) {
				t.Errorf("dont=%q, want %q", got, tc.dont)
			}
			if d.When != tc.when {
				t.Errorf("when=%q, want %q", d.When, tc.when)
			}
			if d.Unless != tc.unless {
				t.Errorf("unless=%q, want %q", d.Unless, tc.unless)
			}
			if d.Version != Version {
				t.Errorf("version=%d, want %d", d.Version, Version)
			}
		})
	}
}

func TestParse_aboutIsNotAHeading(t *testing.T) {
	d := Parse("Modify files under `vendor/`", "Project > Never Touch; about: Never")
	if d.Polarity != Forbid || len(d.Dont) != 1 {
		t.Fatalf("the heading before the about part must still forbid: %+v", d)
	}
	d = Parse("Use `pnpm`", "Tooling; about: never")
	if d.Polarity != Require {
		t.Fatalf("an about part read as a heading: %+v", d)
	}
}

func TestParse_Globs(t *testing.T) {
	d := Parse("Use table tests.", "Go testing rules; files: **/*_test.go, internal/**/*.go; Testing")
	if want := []string{"**/*_test.go", "internal/**/*.go"}; !slices.Equal(d.Globs, want) {
		t.Errorf("globs=%q, want %q", d.Globs, want)
	}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name      string
		rule      string
		candidate string
		want      Result
		object    string
	}{
		{"forbidden tool", "Use `pnpm`, not npm or yarn", "npm install lodash", Violates, "npm"},
		{"required tool", "Use `pnpm`, not npm or yarn", "pnpm add lodash", Complies, "pnpm"},
		{"npm is not pnpm", "Never use `npm`", "Run `pnpm i` first.", Avoids, "npm"},
		{"yarn add", "Use `pnpm`, not npm or yarn", "`yarn add lodash`", Violates, "yarn"},
		{"push to main", "Never push directly to `main`", "git push origin main", Violates, "main"},
		{"negated push", "Never push directly to `main`", "I won't push to main; I'll open a pull request.", Avoids, "main"},
		{"without running", "Always run `make style` before you finish.", "Hand it over without running `make style`.", Violates, "make style"},
		{"lacks the required command", "Always run `make style` before you finish.", "Hand it over now.", Lacks, "make style"},
		{"a quoted value is that value", "Mark the package `\"strict\"`.", "Add a test.", Lacks, `"strict"`},
		{"a quoted value in either quotes", "Mark the package `\"strict\"`.", "Mark it 'strict' in DEPS.list.", Complies, `"strict"`},
		{"running is not changing", "Never change the volta, yarn, or package manager setup", "Run `yarn build:dev`.", Unknown, ""},
		{"changing a ruled-out file", "Avoid changing `package.json` files on `develop`", "Bump the version in package.json.", Violates, "package.json"},
		{"naming a branch is not changing", "Avoid changing `package.json` files on `develop`", "`gh pr create --base develop --title \"fix(x): y\"`", Avoids, "package.json"},
		{"passing tests are not added tests", "Add tests for code changes.", "Commit it; the existing snapshot tests still pass.", Unknown, ""},
		{"added tests", "Add tests for code changes.", "Add a snapshot test that fails without the fix.", Complies, "tests"},
		{"placeholders alone name nothing", "Expose RPC methods as `<resource>/<method>`.", "Bump `actions/checkout@v4` to v5.", Unknown, ""},
		{"a place named in passing", "Run `just fix -p <project>` (in `codex-rs` directory) to fix lints.", "Edit codex-rs/cli/src/main.rs.", Lacks, "just fix -p <project>"},
		{"saying where a thing is does not put it there", "Build configuration for these is in `scripts/build/deps/*.ts`.", "It lives in scripts/build/deps/brotli.ts.", Unknown, ""},
		{"putting a thing where it lives", "Build configuration for these is in `scripts/build/deps/*.ts`.", "Add scripts/build/deps/zstd.ts.", Complies, "scripts/build/deps/*.ts"},
		{"without running the step", "Never add new dependencies without running `pnpm update-references`", "Add the dep to package.json and run `pnpm install`.", Lacks, "pnpm update-references"},
		{"with the step", "Never add new dependencies without running `pnpm update-references`", "Add the dep, then run `pnpm update-references`.", Complies, "pnpm update-references"},
		{"a negated relative clause asks", "Do not create a git branch that isn't prefixed with `eon/`.", "`git checkout -b eon/octocat/fix-diff`", Complies, "eon/"},
		{"a place ruled out for some things", "No one-off kernel benchmarks in `tests/`.", "`pytest tests/entrypoints/test_chat.py`", Avoids, "tests/"},
		{"those things in that place", "No one-off kernel benchmarks in `tests/`.", "Add a one-off benchmark in tests/kernels/test_bench.py.", Violates, "tests/"},
		{"the same command on another file", "With filter: `bun bd test test/js/bun/http/serve.test.ts -t \"should handle\"`", "`bun bd test test/js/node/fs/stat.test.ts`", Complies, "bun bd test test/js/bun/http/serve.test.ts -t \"should handle\""},
		{"a flag is what the command asks for", "Run `go test -race ./...` before pushing.", "`go test ./pkg/...` then `git push`", Lacks, "go test -race ./..."},
		{"refusing what the condition names", "Before proposing a PR, run these checks.", "Don't create a second PR.", Unknown, ""},
		{"a preference asks for nothing by itself", "Prefer `mount_sse_once` over `mount_sse_sequence`.", "Do it in place: `let s = strip(&s);`.", Avoids, "mount_sse_sequence"},
		{"using an example is not installing it", "Install any commands the repo relies on (for example `just`, `rg`) before running instructions here.", "Run `rg -n full_auto codex-rs/cli`.", Unknown, ""},
		{"an example's choice rules out its other side", "Import from the source files directly, not barrel files (e.g., `@acme/ui/components/button` not `@acme/ui`)", "`import { Button, Dialog } from \"@acme/ui\";`", Violates, "@acme/ui"},
		{"the longer path holds the shorter", "Import from the source files directly, not barrel files (e.g., `@acme/ui/components/button` not `@acme/ui`)", "`import { Button } from \"@acme/ui/components/button\";`", Complies, "Import"},
		{"a step in words does not take care of a ruled-out command", "Never amend commits. Always create a new commit for follow-up changes.", "`git commit -a --amend --no-edit`", Violates, "amend commits"},
		{"another indentation width", "This repository uses SwiftFormat with 2-space indentation.", "Re-indent the file with 4 spaces using Xcode's defaults.", Violates, "2-space indentation"},
		{"the same indentation width", "This repository uses SwiftFormat with 2-space indentation.", "Run `swiftformat .` so it is indented with 2 spaces.", Complies, "2-space indentation"},
		{"tabs against spaces", "Indent with 4 spaces, no tabs.", "Indent the block with tabs.", Violates, "4-space indentation"},
		{"spaces against tabs", "Use tabs for indentation.", "Indent with 4 spaces.", Violates, "tab indentation"},
		{"a refused width", "Use tabs for indentation.", "Indent with tabs, not 4 spaces.", Complies, "tab indentation"},
		{"a good example asks for nothing", "Good: `UI: Fix Grid view not refreshing after task actions`", "`git commit -m \"Fix scheduler heartbeat\"`", Unknown, ""},
		{"a place ruled out for some things, named in a path", "Never add newsfragments under `providers/` or `airflow-ctl/`", "`echo \"Fix\" > providers/google/newsfragments/51234.bugfix.rst`", Violates, "providers/"},
		{"other things in that place", "Never add newsfragments under `providers/` or `airflow-ctl/`", "Add a line to `providers/google/docs/changelog.rst`.", Avoids, "providers/"},
		{"those things elsewhere in the sentence", "No one-off kernel benchmarks in `tests/`.", "Add benchmarks/kernels/bench_rmsnorm.py, and keep the correctness checks in the existing tests/kernels suite.", Avoids, "tests/"},
		{"where applicable, and the plan does something else", "Use `ObjectDisposedException.ThrowIf` calls where applicable.", "`throw new ArgumentOutOfRangeException(nameof(x));`", Unknown, ""},
		{"where applicable, and the plan comes close", "Use `ObjectDisposedException.ThrowIf` calls where applicable.", "`if (_disposed) throw new ObjectDisposedException(nameof(Foo));`", Lacks, "ObjectDisposedException.ThrowIf"},
		{"if needed, and the plan runs only the project's program", "Run `prefect server start` in the background if needed.", "Add `import yaml` to src/prefect/cli/deployment.py.", Unknown, ""},
		{"typing into a file edits it", "Do not edit `Cargo.toml` by hand", "Open crates/cli/Cargo.toml and type `indicatif = \"0.17\"`.", Violates, "Cargo.toml"},
		{"does the required command", "Always run `make style` before you finish.", "Run `make style`, then hand it over.", Complies, "make style"},
		{"flag", "Never use `--no-verify`", "git commit --no-verify -m wip", Violates, "--no-verify"},
		{"code shape", "Never use `as any`", "const x = (y as any).apps", Violates, "as any"},
		{"pipe", "Don't pipe output through `| tail`", "go test ./... | tail -20", Violates, "| tail"},
		{"where things live is not a step", "Snippet templates live in `src/Files/SnippetTemplates/`", "Call `logger.LogInformation(x)` in the loop.", Unknown, ""},
		{"preserve asks for no step", "Keep `.github/PULL_REQUEST_TEMPLATE.md`; never replace or bypass it.", "Run `just f`, then `git commit -am \"fix\"`.", Unknown, ""},
		{"a name inside a snake_case package", "Refena (`refena_flutter`), not Riverpod.", "Add `flutter_riverpod` for the list state.", Violates, "Riverpod"},
		{"a name inside a path is not the name", "Never use Biome for formatting.", "Edit `crates/biome_js_formatter/src/lib.rs`.", Avoids, "Biome"},
		{"deleting is not running", "DO NOT delete files from `repros/` after reproducing the issue", "`uv run --extra aws repros/18012.py`", Avoids, "repros/"},
		{"deleting", "DO NOT delete files from `repros/` after reproducing the issue", "Then `rm repros/18012.py` to keep the tree clean.", Violates, "repros/"},
		{"an issue number in an example stands for any", "Always reference the issue number in commits: `Fix #12345: Description`", "`git commit -m \"Fix #54321: Make pluck respect aliases\"`", Complies, "Fix #12345: Description"},
		{"a letter for the issue number stands for any", "Start the commit title with `Refs #N:` when there is an issue.", "`git commit -m \"Refs #987: Keep the cursor on reload\"`", Complies, "Refs #N:"},
		{"a use for issues that should not crash is not a ban", "Use `logger.DPanic` for problems that are important but should not crash production", "`pm.logger.DPanic(\"unexpected state\")`", Complies, "logger.DPanic"},
		{"banned", "**`Console.Write` and `Console.WriteLine` are banned**—use proper logging", "Add `Console.WriteLine($\"x\")` in the loop.", Violates, "Console.WriteLine"},
		{"an empty initializer stands for any", "Prefer collection expressions (`[a, b]`) over `new List<T>{}`", "`return new List<string> { \"name\" };`", Violates, "new List<T>{}"},
		{"a commit message says, it does not do", "Do not add speculative retries or fallbacks.", "`git commit -m \"fix: drop the speculative retries\"`", Unknown, ""},
		{"a document to follow is not a step", "When working under src/Components, follow the instructions in `./instructions/components.md`", "Run `./src/Http/build.sh -test`.", Unknown, ""},
		{"action on a tag", "**Always** pin third-party actions to a full commit SHA, never to tags:", "Add `uses: actions/cache@v4` and `uses: actions/setup-go@v5` to the job.", Violates, "pin third-party actions"},
		{"action on a commit", "**Always** pin third-party actions to a full commit SHA, never to tags:", "`uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683`", Unknown, ""},
		{"an example asks for nothing", "For example: `core/mvcc: preserve B-tree markers`.", "`git commit -m \"fix the planner\"`", Unknown, ""},
		{"a ruled-out path inside the required one", "Blog posts must be placed in `/infra/website/docs/blog/` — do NOT create blog posts under `docs/blog/`.",
			"Create `infra/website/docs/blog/vector-search.md`.", Complies, "/infra/website/docs/blog/"},
		{"the ruled-out path itself", "Blog posts must be placed in `/infra/website/docs/blog/` — do NOT create blog posts under `docs/blog/`.",
			"Create `docs/blog/vector-search.md`.", Violates, "docs/blog/"},
		{"a runner's tool run bare", "Always prefer `bundle exec` for Ruby command-line tasks (rspec, rake, rubocop, etc.)", "`rspec spec/listeners/rule_listener_spec.rb`", Violates, "bundle exec"},
		{"a runner's tool run through it", "Always prefer `bundle exec` for Ruby command-line tasks (rspec, rake, rubocop, etc.)", "`bundle exec rspec spec/listeners/rule_listener_spec.rb`", Complies, "bundle exec"},
		{"a tool named in prose is not run", "Run Python tools through `uv run`.", "The pytest output shows two failures; fix `parse_config` in config.py.", Lacks, "uv run"},
		{"verbs joined by a slash, a quoted purpose", "Never stash/revert to \"check if they fail on main\"", "`git stash && make test` to see whether they fail on main", Violates, "stash"},
		{"a call with a call in its arguments", "NEVER create extra clients with `createAuthClient()` in tests", "`const client = createAuthClient({ plugins: [usernameClient()] });`", Violates, "createAuthClient()"},
		{"uses, without a subject", "Uses `ruff` for Python linting and formatting", "`black x.py && flake8 x.py`", Violates, "ruff"},
		{"annotation", "Never use Jackson annotations like `@JsonProperty`", "Add `@JsonProperty(\"id\")` to the field.", Violates, "@JsonProperty"},
		{"placeholders", "Format: `type(scope): message`", "git commit -m \"fix(site): correct dropdown\"", Complies, "type(scope): message"},
		{"placeholders missing", "Format: `type(scope): message`", "git commit -m \"Fixed the dropdown bug.\"", Lacks, "type(scope): message"},
		{"path glob", "Put queries in `db/queries/*.sql`; run `make gen` after.", "Add the query to `db/queries/users.sql`.", Complies, "db/queries/*.sql"},
		{"backslash path", "Edit `db\\queries\\*.sql` files", "Edit db/queries/users.sql", Complies, "db\\queries\\*.sql"},
		{"call with arguments", "Use `app()` instead of `new`", "`app(Joiner::class)->prepare()`", Complies, "app()"},
		{"new is forbidden", "Use `app()` instead of `new`", "`(new Joiner())->prepare()`", Violates, "new"},
		{"required step named after the forbidden file", "Do not edit generated `modeling_*.py` files. Run `make fix-repo`.",
			"Fix `modular_x.py`, run `make fix-repo` to regenerate `modeling_x.py`.", Complies, "make fix-repo"},
		{"forbidden file edited first", "Do not edit generated `modeling_*.py` files. Run `make fix-repo`.",
			"Patch `modeling_x.py` directly, then run the tests.", Violates, "modeling_*.py"},
		{"leave untouched", "Do not edit `CHANGELOG.md` directly.", "Create `.changelog/1.txt` and leave CHANGELOG.md untouched.", Avoids, "CHANGELOG.md"},
		{"camel case part", "No ViewModels - use native SwiftUI state", "Create `ListsViewModel: ObservableObject`.", Violates, "ViewModels"},
		{"new test function over a case", "Prefer adding cases to existing table-driven tests over writing new test\n  functions, even if the existing test needs minor adjustments.",
			"Write a new `func TestIntersectLast(t *testing.T)` in postings_test.go.", Violates, "new test functions"},
		{"a case added to the existing table", "Prefer adding cases to existing table-driven tests over writing new test\n  functions, even if the existing test needs minor adjustments.",
			"Add an entry to the case slice of the existing TestIntersect.", Complies, "adding cases"},
		{"new code file, after an adverb", "When you add new unit tests, strongly prefer to add them to existing test code files rather than creating new code files.",
			"Create src/libraries/System.Runtime/tests/VersionUtf8ParseTests.cs with a new class.", Violates, "new code files"},
		{"test added to an existing file", "When you add new unit tests, strongly prefer to add them to existing test code files rather than creating new code files.",
			"Add the test methods to the existing src/libraries/System.Runtime/tests/VersionTests.cs.", Unknown, ""},
		{"a new one", "Prefer extending an existing test file or directory over creating a new one.",
			"Add a new file tests/integration/test_having.rs with the regression test.", Violates, "new one"},
		{"a class with another base", "Errors extend `AISDKError` from `@ai-sdk/provider`", "Add `export class InvalidToolApprovalError extends Error { }`.", Violates, "AISDKError"},
		{"a class with the rule's base", "Errors extend `AISDKError` from `@ai-sdk/provider`", "Add `export class InvalidToolApprovalError extends AISDKError { }`.", Complies, "AISDKError"},
		{"a Python base among the rule's", "Inherit from `BaseTestCase` or `FeatureFlaggedTestBase`", "Write `class TopSitesTests(FeatureFlaggedTestBase):` with two tests.", Complies, "FeatureFlaggedTestBase"},
		{"a Ruby base, qualified", "Use ecosystem-specific error classes that inherit from `Dependabot::DependabotError`", "Add `class ConanError < StandardError; end` to the file fetcher.", Violates, "Dependabot::DependabotError"},
		{"a C# base", "Extend `LinterRuleBase` in `Bicep.Core/Analyzers/Linter/Rules/`.", "Add `public sealed class NoTagsRule : DiagnosticRule` to the analyzer.", Violates, "LinterRuleBase"},
		{"no class, no breach", "Extend `LinterRuleBase` in `Bicep.Core/Analyzers/Linter/Rules/`.", "Run `dotnet test` on the analyzer project.", Unknown, ""},
		{"a PR title without a type", "Follow conventional commits for PR titles", "`gh pr create --title \"Fix webhook payload\"`", Violates, "Follow conventional commits"},
		{"a conventional PR title", "Follow conventional commits for PR titles", "`gh pr create --title \"fix: webhook payload\" --body \"...\"`", Unknown, ""},
		{"a title's type in capitals", "Pull request titles must follow conventional commit conventions with a lowercase type", "`Fix: handle empty payloads in the webhook parser`", Violates, "follow conventional commit conventions"},
		{"the second commit of two", "Use conventional commits", "`git commit -m \"fix: x\" && git commit -m \"Oops\"`", Violates, "conventional commits"},
		{"a case refused", "Bug-fix PRs require a case that fails without the fix.", "Commit the fix; the snapshot tests still pass, so no new case is needed.", Violates, "case"},
		{"a test left out", "Add tests for code changes.", "Ship it without adding a test.", Violates, "tests"},
		{"a test said not to be needed", "Add tests for code changes.", "Commit; no test is needed.", Violates, "tests"},
		{"no test broke is no refusal", "Add tests for code changes.", "No tests broke; commit.", Unknown, ""},
		{"a linter silenced", "Never disable lint rules.", "Add `// eslint-disable-next-line no-console` above the log.", Violates, "disable lint rules"},
		{"a nolint comment", "Don't suppress lint warnings; fix the code.", "Put `//nolint:errcheck` on the call.", Violates, "suppress lint warnings"},
		{"the code fixed instead", "Never disable lint rules.", "Split the function so it passes `golangci-lint run`.", Unknown, ""},
		{"instead without of", "Use `RoaringBitmap` instead `HashSet<u32>`.", "`let mut visited: HashSet<u32> = HashSet::new();`", Violates, "HashSet<u32>"},
		{"where a comment goes is not what is asked", "Regression tests: add a `@see` comment with issue URL above `it()` or `describe()`",
			"`it(\"refreshes the cookie cache\", async () => { ... });` with `// fixes 4521` inside the body.", Lacks, "@see"},
		{"the comment, above the test", "Regression tests: add a `@see` comment with issue URL above `it()` or `describe()`",
			"`// @see https://github.com/org/repo/issues/4521` above `it(\"refreshes the cookie cache\", ...)`", Complies, "@see"},
		{"creating new files is not creating anything", "Avoid creating new files.", "Create the `release` branch and push it.", Unknown, ""},
		{"html tag is not a placeholder", "Always use `<script setup>`", "Write `export default { data() {} }`.", Lacks, "<script setup>"},
		{"html tag done", "Always use `<script setup>`", "Start with `<script setup>`.", Complies, "<script setup>"},
		{"name used", "Use Zod for form validation", "Define `z.object()` with `zodResolver`.", Complies, "Zod"},
		{"context rule says nothing", "This is a Go service.", "Run `go test ./...`.", Unknown, ""},
		{"reading names no action", "Never edit `CHANGELOG.md` directly.", "Read CHANGELOG.md and summarize the last release.", Unknown, ""},
		{"investigation skips nothing", "Always run `make style` before you finish.", "Trace the handler and explain the bug.", Unknown, ""},
		{"illustration is not required", "Wrap errors with context (`xerrors.Errorf(\"failed to X: %w\", err)`)", "Just `return err`.", Unknown, ""},
		{"empty candidate", "Never use `npm`", "", Unknown, ""},
		{"word boundary", "Never run `make gen`", "Run `make generate`.", Avoids, "make gen"},
		{"push to main in prose", "Never push directly to main; open a pull request.", "git push origin main", Violates, "push main"},
		{"push elsewhere", "Never push directly to main; open a pull request.", "Run gofmt and push the branch.", Unknown, ""},
		{"reading a file named like a program", "Always run `make style` before you finish.", "Read cart.go and summarize how the total is computed.", Unknown, ""},
		{"a rival formatter", "Format Go code with `gofumpt`.", "Run `gofmt -w handler.go` and push.", Violates, "gofumpt"},
		{"a rival mocking library", "Use Moq for mocking in tests.", "Use NSubstitute: `Substitute.For<ILogger>()`.", Violates, "Moq"},
		{"the rival declined", "Use `pnpm` for packages.", "Use pnpm instead of npm.", Complies, "pnpm"},
		{"a common word is not a tool", "Use Refena for state.", "Add a provider class for the settings screen.", Lacks, "Refena"},
		{"amend is rebasing", "Do NOT amend, squash, or rebase commits that were pushed", "`git commit --amend` and `git push --force`.", Violates, "amend"},
		{"straight to the condition", "Ensure you run formatting before committing.", "`git commit -am \"Add rule\"` right away.", Skips, "formatting"},
		{"without regenerating", "Run `make gen` after changing the queries.", "Skip the regeneration and run `make test` right away.", Skips, "make gen"},
		{"without any tool", "Always run `./php-cs-fixer.sh core`", "Hand it over without running any code-style tool.", Skips, "./php-cs-fixer.sh core"},
		{"by hand", "Fix linting/formatting: run `./gradlew spotlessApply`", "Reformat the files by hand and push.", Skips, "./gradlew spotlessApply"},
		{"hand-made", "Generate migrations with `bin/console doctrine:migrations:diff`", "Write a hand-made class in migrations/ with a raw `ALTER TABLE` statement.", Skips, "bin/console doctrine:migrations:diff"},
		{"skip turned around", "Run `make gen` after changing the queries.", "I won't push right away: first `git add` the queries.", Lacks, "make gen"},
		{"early return is not a skip", "Run `make gen` after changing the queries.", "Return immediately when `rows` is empty.", Lacks, "make gen"},
		{"the subject's place is not what is asked", "Every PHP class in `src/` should have a matching PHPUnit test", "Hand it over without running any tool.", Unknown, ""},
		{"shell variable unbraced", "Use `${VARIABLE}` syntax in shell steps instead of `$VARIABLE`.", "run: echo \"Releasing $VERSION\"", Violates, "$VARIABLE"},
		{"shell variable braced", "Use `${VARIABLE}` syntax in shell steps instead of `$VARIABLE`.", "run: echo \"Releasing ${VERSION}\"", Complies, "${VARIABLE}"},
		{"construct: enums", "Avoid enums; use maps instead", "Declare `enum Role { Signer, Viewer }` in the helper.", Violates, "enums"},
		{"construct: default export for named", "Favor named exports for components", "`export default function Badge() {}`", Violates, "named exports"},
		{"construct: named export is not read as compliance", "Favor named exports for components", "`export function Badge() {}`", Unknown, ""},
		{"construct: raw pointers", "Never use raw pointers", "Keep a `Node *node = new Node(key)` and `delete node` when the list is cleared.", Violates, "raw pointers"},
		{"construct: smart pointer", "Never use raw pointers", "Hold it in `std::unique_ptr<Buffer> buffer = std::make_unique<Buffer>()`.", Unknown, ""},
		{"construct: adding a package", "Never introduce new composer packages without prior discussion with the team", "Run `composer require league/csv` and parse the export with it.", Violates, "introduce composer packages"},
		{"construct: installing declined", "Do not add new dependencies.", "Parse it by hand rather than `npm install ical` — no `npm install` at all.", Unknown, ""},
		{"construct: arrow for function keyword", "Use the \"function\" keyword for pure functions", "`const getName = (first: string, last: string) => first + last`", Violates, "function"},
		{"construct: class component", "Do not generate class components.", "`class TokenUsage extends React.Component { render() {} }`", Violates, "generate class components"},
		{"construct: fully-qualified name", "Never use fully-qualified class names inline.", "Write `java.util.concurrent.ConcurrentHashMap<Long, Integer> retries` inline.", Violates, "fully-qualified class names inline"},
		{"construct: promise chain for async/await", "Use async/await for asynchronous code.", "`fetchUser(id).then(u => setUser(u))`", Violates, "async await"},
		{"a question's verbs are not steps", "Never edit `CHANGELOG.md` directly.", "Read `CHANGELOG.md` and explain how entries are collected and put in order.", Unknown, ""},
		{"checking is looking", "Look in the `internal/` directory for resources.", "Check the importer in internal/service/s3 and the import section of the docs, then answer with the syntax.", Unknown, ""},
		{"checking in code is writing it", "Use Zod for form validation", "Check `if (!name) setError(...)` by hand in the submit handler.", Skips, "Zod"},
		{"a step after the question", "Never edit `CHANGELOG.md` directly.", "Explain how entries are collected. Then edit `CHANGELOG.md` by hand.", Violates, "CHANGELOG.md"},
		{"construct: state mutated", "Never mutate state directly.", "`items.push(newItem); setItems(items);`", Violates, "mutate state"},
		{"construct: state replaced", "Never mutate state directly.", "`setItems([...items, newItem]);`", Unknown, ""},
		{"skip flag of a command", "Always run `make lint` before pushing.", "pytest --skip-slow tests/ && git push", Lacks, "make lint"},
		{"the condition not reached", "Always run `make lint` before pushing.", "go vet ./... --skip-dirs vendor", Unknown, ""},
		{"skip in a code comment", "Always run `make lint` before pushing.", "// skip blank lines\nfor _, l := range lines { if l == \"\" { continue } }", Unknown, ""},
		{"naming: directory not kebab", "Use lowercase with dashes for directory names (e.g., pages/user-settings)", "Put the dialog in a new `components/InviteMembersModal/` folder.", Violates, "kebab-case directory names"},
		{"naming: directory kebab", "Use lowercase with dashes for directory names (e.g., pages/user-settings)", "Create `components/bulk-send-dialog/index.tsx` for it.", Unknown, ""},
		{"naming: an existing directory is not named", "Use lowercase with dashes for directories.", "Edit `src/components/AuthWizard/index.tsx`.", Unknown, ""},
		{"naming: flag with underscores", "Use hyphens instead of underscores in flag names.", "Register it as `--max_session_turns`.", Violates, "kebab-case flag names"},
		{"naming: file not kebab", "Use kebab-case for file names.", "Create `src/utils/formatDate.ts` with the helper.", Violates, "kebab-case file names"},
		{"naming: function not snake", "Use snake_case for function names.", "Add `def getUser(user_id):` to the service.", Violates, "snake_case function names"},
		{"naming: type in PascalCase", "Use PascalCase for class names.", "Add `class UserService:` to the module.", Unknown, ""},
		{"naming: branch", "Name branches in kebab-case.", "`git checkout -b Feature_Login`", Violates, "kebab-case branch names"},
		{"skip inside code", "Always run `make lint` before pushing.", "Run `deploy --skip` on the branch, then push.", Lacks, "make lint"},
		{"step before the condition", "Ensure you run formatting before committing.", "Run `make format-fix`, then `git commit -am \"Add rule\"`.", Complies, "formatting"},
		{"other steps first", "Always format code before committing.", "Run `terraform fmt` and `tfdoc.py`, then commit.", Unknown, ""},
		{"trailing arguments", "Slow tests: `RUN_SLOW=1 pytest ...`", "Run `pytest tests/test_bert.py`.", Lacks, "RUN_SLOW=1 pytest ..."},
		{"suffix is another word", "Slow tests should use `.test_slow` instead of `.test`.", "Save it as `join_spill.test_slow`.", Complies, ".test_slow"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := Parse(tc.rule, "")
			f := Check(d, tc.candidate)
			if f.Result != tc.want || f.Object.Text != tc.object {
				t.Errorf("Check = %s on %q, want %s on %q (directive %+v)", f.Result, f.Object.Text, tc.want, tc.object, d)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"Use `pnpm`, not npm or yarn", "Never push directly to main", "Prefer X over Y (e.g. `a` instead of `b`)",
		"**Never** add `Hadoop` dependencies.", "`a` - b", "Label: `x`", "不要使用 `var`", "<x>`", "```\ncode\n```",
		"Use `type(scope): message` and `<name>` with `{pkg}`...", "\x01\x02`\"", "Instead of",
		"`packages/types/` - types - never modify this package", "Never stash/revert to \"check if it fails\"",
		"Always prefer `bundle exec` for Ruby CLI tasks", "Run: `yarn test lib/path/to/x.test.tsx:LINE_NO`",
		"For example: `Fix #12345: Description`", "Use `x` for issues that should not crash, avoid `y`, use `z`",
		"Errors extend `AISDKError` from `@ai-sdk/provider`", "**CRD:** If you changed `api/`:\n1. Run `make crd`",
		"Strongly prefer adding to existing files rather than creating new code\n  files", "Follow conventional commits",
		"`scripts/x.py` - Update versions", "Never disable lint rules", "Always test screens with `PageTestHarness`.",
	} {
		f.Add(s, "Don't > Never; files: **/*.go", "git push origin main --no-verify; then `npm i`")
		f.Add(s, "Before committing", "Commit it right away without running anything; return immediately")
		f.Add(s, "Guide > CRD: If you changed anything in the api/ module", "`class X extends Error {}`; `gh pr create --title \"Fix x\"`; no new test is needed")
		f.Add(s, "", "Wrap it in `LegacyBrowserHarness` and a `Harness`.")
	}
	f.Fuzz(func(t *testing.T, rule, trigger, candidate string) {
		d := Parse(rule, trigger)
		switch d.Polarity {
		case Context, Require, Forbid, Prefer:
		default:
			t.Fatalf("polarity %q", d.Polarity)
		}
		if d.Polarity == Context && (len(d.Do) > 0 || len(d.Dont) > 0) {
			t.Fatalf("context with objects: %+v", d)
		}
		for _, o := range append(append([]Object(nil), d.Do...), d.Dont...) {
			if strings.TrimSpace(o.Text) == "" {
				t.Fatalf("empty object in %+v", d)
			}
			if utf8.ValidString(rule) && !utf8.ValidString(o.Text) {
				t.Fatalf("object %q is not valid UTF-8", o.Text)
			}
		}
		f := Check(d, candidate)
		if f.Rival != "" && (f.Result != Lacks || !strings.Contains(candidate, f.Rival)) {
			t.Fatalf("rival %q: not a lack, or not the candidate's words (%+v)", f.Rival, f)
		}
		switch f.Result {
		case Unknown, Complies, Violates, Lacks, Avoids:
		case Skips:
			if f.Evidence == "" || !strings.Contains(strings.ToLower(candidate), strings.ToLower(f.Evidence)) {
				t.Fatalf("skip %+v: the evidence is not the candidate's words", f)
			}
		default:
			t.Fatalf("result %q", f.Result)
		}
		if f.Result != Unknown && f.Object.Text == "" {
			t.Fatalf("finding %+v without an object", f)
		}
	})
}

func TestCheck_conditionOnWhatChanged(t *testing.T) {
	d := Parse("Run `make crd_install` to update derived CRDs", "Guide > CRD Changes: If you changed anything in the api/ module")
	tests := []struct {
		name, situation, candidate string
		want                       Result
	}{
		{"neither names the directory", "Raise the log level of the topic operator's batch message.",
			"Change `LOGGER.debugOp(…)` in topic-operator/src/main/java/BatchingTopicController.java and commit.", Unknown},
		{"the plan changes it", "Add a field to the node pool spec.",
			"Edit api/src/main/java/io/strimzi/api/KafkaNodePoolSpec.java and commit.", Lacks},
		{"the situation says it changed", "I added a field to api/src/main/java/io/strimzi/api/KafkaNodePoolSpec.java.",
			"Hand-edit packaging/install/045-Crd-kafkanodepool.yaml and commit it.", Lacks},
		{"the step is run", "I added a field to api/src/main/java/io/strimzi/api/KafkaNodePoolSpec.java.",
			"Run `make crd_install` and commit the regenerated CRDs.", Complies},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Read(tt.candidate, nil).In(tt.situation).Check(d); got.Result != tt.want {
				t.Fatalf("Check = %+v, want %s", got, tt.want)
			}
		})
	}
}

func TestParse_ConcurrentUse(t *testing.T) {
	done := make(chan Directive, 8)
	for range 8 {
		go func() { done <- Parse("Use `pnpm`, not npm or yarn", "Tooling") }()
	}
	first := <-done
	for range 7 {
		if d := <-done; !slices.Equal(texts(d.Do), texts(first.Do)) || !slices.Equal(texts(d.Dont), texts(first.Dont)) {
			t.Fatalf("concurrent Parse differs: %+v vs %+v", d, first)
		}
	}
}

// BenchmarkCheck measures reading one candidate against the five rules
// appraise reads at most, each parsed once as the knowledge base stores it.
func BenchmarkCheck(b *testing.B) {
	rules := []Directive{
		Parse("Use `pnpm`, not npm or yarn", "Tooling"),
		Parse("Never push directly to `main`; open a pull request.", "Git"),
		Parse("Format: `type(scope): message`", "Commits"),
		Parse("Do not edit generated `modeling_*.py` files. Run `make fix-repo`.", "Models"),
		Parse("Always run `make style` before you finish.", "Quick start"),
	}
	candidate := "Run `npm install lodash`, then `git commit -m \"fix(ui): dropdown\"` and push the branch without running the formatter."
	var patterns Patterns
	for b.Loop() {
		r := Read(candidate, &patterns)
		for _, d := range rules {
			r.Check(d)
		}
	}
}

// BenchmarkRead_long reads the largest candidate Read takes (16 KiB) in the
// shapes that cost most: one run of words without a space (each word asks
// whether it is inside a path) and a text full of quoted strings. Reading
// stays linear in the candidate: compare with the prose case in the same
// run.
func BenchmarkRead_long(b *testing.B) {
	d := Parse("Never use `foo`; do not add speculative retries", "")
	for _, tc := range []struct{ name, text string }{
		{"prose", strings.Repeat("fix it ", maxCandidateBytes/7)},
		{"no-space-run", strings.Repeat("a,", maxCandidateBytes/2)},
		{"quotes", strings.Repeat(`"a" `, maxCandidateBytes/4)},
	} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				Read(tc.text, nil).Check(d)
			}
		})
	}
}

// TestCheck_rival: a plan that lacks a required name but writes another
// of the same kind in its place names a rival; one that only lacks it, or
// writes a name that holds it, does not.
func TestCheck_rival(t *testing.T) {
	tests := []struct {
		rule, candidate, rival string
	}{
		{"Always test screens with `PageTestHarness`.", "Wrap the screen in `LegacyBrowserHarness` and assert on the title.", "LegacyBrowserHarness"},
		{"Always return errors as `core::AppError`.", "Return a `ParseError` from the helper.", "ParseError"},
		{"Always test screens with `PageTestHarness`.", "Assert on the title with plain asserts.", ""},
		{"Always test screens with `PageTestHarness`.", "Extend `PageTestHarnessBase` for the new screen.", ""},
		{"Always use `pnpm`.", "Run `npm install`.", ""},
		{"Logs go through `slog`.", "Add a `TraceLogger` call.", ""},
	}
	for _, tc := range tests {
		f := Check(Parse(tc.rule, ""), tc.candidate)
		if f.Rival != tc.rival || tc.rival != "" && f.Result != Lacks {
			t.Errorf("%q against %q: %s, rival %q; want rival %q", tc.candidate, tc.rule, f.Result, f.Rival, tc.rival)
		}
	}
}
