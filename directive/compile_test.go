package directive

import (
	"slices"
	"testing"

	"github.com/innate-mcp/innate-mcp/check"
)

// TestCompile: what each kind of rule compiles to, in words (check.Describe);
// lines that are not rules, and rules with nothing structural to check,
// compile to nothing.
func TestCompile(t *testing.T) {
	tests := []struct {
		rule, trigger string
		want          []string
	}{
		{"Use pnpm, never npm or yarn.", "", []string{"forbids running `npm|yarn|bun` (use pnpm instead)"}},
		{"Never edit files under generated/ — they are produced by `make gen`.", "", []string{"forbids writing `generated/`"}},
		{"Use Conventional Commits for every commit message.", "", []string{"requires commit messages to be a Conventional Commit (type(scope): description)"}},
		{"Follow conventional commits for PR titles.", "", []string{"requires PR titles to be a Conventional Commit (type(scope): description)"}},
		{"Run `make lint` before committing.", "", []string{"requires `make lint` earlier in the session before `git commit`"}},
		// A command item under a lead-in or heading that names the phase.
		{"`npm test` (every test must pass)", "Guide > Before pushing, run these", []string{"requires `npm test` earlier in the session before `git push`"}},
		{"`cargo clippy --all-targets`", "Before each commit", []string{"requires `cargo clippy --all-targets` earlier in the session before `git commit`"}},
		{"`npm test` (every test must pass)", "Guide > Testing", nil},
		{"Tests live in `tests/` next to the code", "Before committing", nil},
		// A job's word as a noun names a shape, not the job.
		{"Always format the code before committing.", "", []string{"requires a format command earlier in the session before `git commit`"}},
		{"Write commit messages in the same format as PR titles when you commit.", "", nil},
		{"Before committing, check the format of the changelog entry.", "", nil},
		{"Always run `go test ./...` before you push.", "", []string{"requires `go test` earlier in the session before `git push`"}},
		{"Always run the tests (e.g. `go test ./...`) before you push.", "", nil},
		{"Never use head, tail, or pipe the output of build or test commands.", "", []string{
			"forbids running `head|tail`", "forbids running a build or test command piped into another command"}},
		{"Never compile individual files.", "", []string{"forbids running `gcc|g++|cc|c++|clang|clang++ -c`"}},
		// A job done on single files: its command given a source file.
		{"Don't lint individual files; lint the whole project.", "", []string{"forbids running a lint command on `*.bash`, `*.c`, `*.cc` or 37 more"}},
		{"Never run tests on single files.", "", []string{"forbids running a test command on `*.bash`, `*.c`, `*.cc` or 37 more"}},
		{"Do not type-check files one by one.", "", []string{"forbids running a typecheck command on `*.bash`, `*.c`, `*.cc` or 37 more"}},
		{"Run tests on single files while you iterate.", "", nil},
		// Pull requests, merges and issues named in words; a condition
		// narrows to a reminder, while "without approval" is what the ask does.
		{"Never open pull requests unless the user asks.", "", []string{"forbids running `gh pr create`", "forbids running `hub pull-request`"}},
		{"Do not create a PR until all tests pass.", "", []string{"forbids running `gh pr create`; reminds only", "forbids running `hub pull-request`; reminds only"}},
		{"Never open a PR without the user's approval.", "", []string{"forbids running `gh pr create`", "forbids running `hub pull-request`"}},
		{"Don't merge PRs yourself.", "", []string{"forbids running `gh pr merge`"}},
		{"Do not bypass branch protection.", "", []string{"forbids running `gh pr merge --admin`"}},
		{"Open a pull request when the feature is done.", "", nil},
		// A flag a command must not run without, or with.
		{"Never run `pip install` without `--require-hashes`.", "", []string{"forbids running `pip install` without `--require-hashes`"}},
		{"Don't call `git rebase` without the `--autosquash` flag when cleaning up a branch.", "", []string{"forbids running `git rebase` without `--autosquash`; reminds only"}},
		{"Always run `vitest` without `--watch`.", "", []string{"forbids running `vitest --watch`", "forbids running `jest|mocha` (use vitest instead)"}},
		// A change to a tool is not running it; a placeholder right after
		// the program leaves the command open (a reminder only); a
		// script's colon variants are the script.
		{"Never update the webpack or babel configuration unless asked.", "", nil},
		// A table of commands and what they do is a map; a row that
		// directs is a rule.
		{"| Command | What it does |\n| --- | --- |\n| `pnpm install` | Install the dependencies |\n| `pnpm test` | Run the unit tests |", "", nil},
		{"| Tool | Rule |\n| --- | --- |\n| `gofmt` | Never use `gofmt`; use gofumpt |", "", []string{"forbids running `gofmt`"}},
		{"Don't use `deno <file>` directly; use `deno task dev`.", "", []string{"forbids running `deno`; reminds only"}},
		{"Run the tests with `pnpm test` so that the tests pass.", "", []string{
			"forbids running a test command other than `pnpm test`, `pnpm test:*` or `pnpm test-*` (use pnpm test instead)"}},
		{"Use gofumpt for formatting Go code.", "", []string{"forbids running `gofmt` (use gofumpt instead)"}},
		{"Never push with `--force`.", "", []string{"forbids running `git push --force`"}},
		// A flag named outside a code span, beside a command in one.
		{"Don't use --no-verify with `git commit`.", "", []string{"forbids running `git commit --no-verify`"}},
		{"Never force push.", "", []string{"forbids running `git push --force`"}},
		{"Don't push directly to main.", "", []string{"forbids running `git push` on `main`, `master`, `HEAD:main` or `HEAD:master`"}},
		{"Do not modify `package-lock.json` by hand", "", []string{"forbids writing `package-lock.json`"}},
		{"Do not edit the `dist` folder; edit `src/` and run `npm run build` instead.", "", []string{"forbids writing `dist/`"}},
		{"Never commit `.env` files", "", []string{"forbids running `git add` on `.env`"}},
		// A glob keeps its stars; emphasis around a path does not.
		{"Never commit certificates (`*.pem`, `*.p12`).", "", []string{"forbids running `git add` on `*.pem`", "forbids running `git add` on `*.p12`"}},
		{"Never edit **generated/**", "", []string{"forbids writing `generated/`"}},
		{"Do not modify `src/gen/**` by hand", "", []string{"forbids writing `src/gen/`"}},
		{"Never edit `**` by hand", "", nil},
		// A program's name that qualifies a noun names its things, not the
		// program; what a program is for is not ruled out with it.
		{"Keep the number of Docker images small; no new Docker images without a reason.", "", nil},
		{"Module names in this repo do not follow the Maven project names.", "", nil},
		{"Always use npm workspaces for shared code.", "", nil},
		{"Don't use yarn for installing packages.", "", []string{"forbids running `yarn`"}},
		// Work on main, in any of the usual words.
		{"Don't ever commit to main.", "", []string{"forbids running `git push` on `main`, `master`, `HEAD:main` or `HEAD:master`", "forbids running `git commit` on branch `main` or `master`"}},
		{"Use topic branches, never directly on the master branch", "", []string{"forbids running `git push` on `main`, `master`, `HEAD:main` or `HEAD:master`", "forbids running `git commit` on branch `main` or `master`"}},
		{"Do not use the main branch for experiments.", "", nil},
		// A quoted string in a code span is a value, not a command; the
		// job a rule names is done by each command the clause names for it
		// and by the script's variants; no need is no prohibition.
		{"Never list `\"lodash\"` in dependencies: `lodash` is vendored.", "", nil},
		{"Formatting: `yarn fmt:check` / `yarn fmt:write`.", "", []string{"forbids running a format command other than `yarn fmt:check` or `yarn fmt:write` (use yarn fmt:check instead)"}},
		{"- Lint: run `npm run lint` (`npm run lint-css` for styles).", "", []string{"forbids running a lint command other than `npm run lint`, `npm run lint:*` or `npm run lint-*` (use npm run lint instead)"}},
		{"The dev server starts itself, so there is no need to run `npm start` before `npm test`.", "", nil},
		// A member of a language's global is code, not a file; a span that
		// opens with a keyword is code, not a command.
		{"Do not use `Date.now`; inject a clock.", "", []string{"forbids writing /\\bDate\\.now\\b/ in any file but `*.md`, `*.mdx`, `*.markdown` and 5 more"}},
		{"Never use `new Date` in reducers.", "", nil},
		// "(i.e. …)" names the object, a label names the messages, and a
		// quoted string's colon ends no clause.
		{"- **Commit messages:** never add a sign-off line (i.e. no \"Signed-off-by: bot\" trailer).", "", []string{"forbids commit messages matching /(?i)\\bSigned-off-by: bot\\b/"}},
		// Paths a negated clause implies: listed after its colon, named by
		// the sentence before, or the line's label.
		{"Never touch vendored code: `third_party/`, `vendor/`.", "", []string{"forbids writing `third_party/`", "forbids writing `vendor/`"}},
		{"Fixtures are `*.golden` files. Never edit them by hand.", "", []string{"forbids writing `*.golden`"}},
		{"`.nvmrc` - pins the Node version; never edit it by hand", "", []string{"forbids writing `.nvmrc`"}},
		// A construct written up to an elided part.
		{"Never write `#[allow(clippy::...)]` attributes.", "", []string{"forbids writing /#\\[allow\\(clippy::/ in any file but `*.md`, `*.mdx`, `*.markdown` and 5 more"}},
		{"Never open an issue.", "", []string{"forbids running `gh issue create`"}},
		// Auto-merge; a pull request's base, where the sentence is about
		// pull requests; any member of a name.
		{"Never turn on auto-merge.", "", []string{"forbids running `gh pr merge --auto`"}},
		{"Open pull requests against `develop`, never directly into `main`.", "", []string{"forbids running `gh pr create --base=main`", "forbids running `gh pr create --base=master`"}},
		// A command written in prose; a runner the clause says commands
		// must go through is the way, not what is banned.
		{"Don't run npm install", "", []string{"forbids running `npm install`"}},
		{"Never run npm scripts directly.", "", nil},
		{"Never run Python without uv.", "", []string{"forbids running `python` run without `uv`"}},
		{"Never run `pytest` outside `uv run`.", "", []string{"forbids running `pytest` run without `uv run`"}},
		// The imperative mood of commit messages; a rule that names no
		// messages, or rules the mood out, gives no check.
		{"Commit messages use imperative present tense (e.g., \"Add feature\", \"Fix bug\")", "", []string{"requires commit messages to be in the imperative (\"Add x\", not \"Added x\")"}},
		{"Write in the imperative mood.", "", nil},
		{"Write in the imperative mood.", "Guide > Commit messages", []string{"requires commit messages to be in the imperative (\"Add x\", not \"Added x\")"}},
		{"Do not use the imperative mood in commit messages.", "", nil},
		// Generated files named as such: a write of a file that carries a
		// generator's mark.
		{"Do not edit generated files.", "", []string{"forbids writing a generated file's mark (\"Code generated … DO NOT EDIT\", \"@generated\") in any file"}},
		{"Generated code must never be edited manually.", "", []string{"forbids writing a generated file's mark (\"Code generated … DO NOT EDIT\", \"@generated\") in any file"}},
		{"Never change generated snapshots without review", "", nil},
		// A flag a requirement gives to a list of commands, given to each.
		{"Always use `--tl:off` for `dotnet build` and `dotnet test` (disables terminal logger).", "", []string{"forbids running `dotnet build` without `--tl:off`", "forbids running `dotnet test` without `--tl:off`"}},
		// A step before a commit of one language's files is missing once
		// the session wrote one.
		{"Run `gofmt -w` before committing Go files", "", []string{"requires `gofmt -w` earlier in the session before `git commit`, when the session changed `*.go`"}},
		// A quoted text ruled out under a heading about commits is ruled
		// out of commit messages, as a word, not inside other words.
		{`No "Co-Authored-By: Claude" attribution`, "Rules > Git Commits", []string{"forbids commit messages matching /(?i)\\bCo-Authored-By: Claude\\b/"}},
		{"No `WIP` commits", "Commit messages", []string{"forbids commit messages matching /(?i)\\bWIP\\b/"}},
		// An elision in a quoted text stands for any text.
		{"Never add a `Co-Authored-By: Claude ...` or any `Co-Authored-By: ... @anthropic.com` trailer to commit messages or PR descriptions.", "", []string{"forbids commit messages and PR descriptions matching /(?i)\\bCo-Authored-By: Claude\\b/", "forbids commit messages and PR descriptions matching /(?i)\\bCo-Authored-By:.*?@anthropic\\.com\\b/"}},
		{`No "Co-Authored-By: Claude" attribution`, "Rules > Testing", nil},
		// A line opening with a cross is an item under "Don't"; it never
		// asks for what it names; "without" under such a heading says how.
		{"❌ Run npm install", "", []string{"forbids running `npm install`"}},
		{"🚫 Edit `dist/`", "", []string{"forbids writing `dist/`"}},
		{"❌ Bad: `npm install`", "", nil},
		{"Run Python without uv", "Rules > Don't", []string{"forbids running `python` run without `uv`"}},
		// A sentence about pull requests whose clause says push rules out
		// the push, not the pull request it asks for.
		{"Always use pull requests for changes (never push directly to main)", "", []string{"forbids running `git push` on `main`, `master`, `HEAD:main` or `HEAD:master`"}},
		{"Never use `Log.*`; log through Timber.", "", []string{"forbids writing /\\bLog\\.\\w/ in any file but `*.md`, `*.mdx`, `*.markdown` and 5 more"}},
		// A program's name before a plural noun names its things; an
		// everyday word names a program only in a code span; a rule's
		// leading "*/" is any depth, as its examples mean it.
		{"Never use Rails callbacks for business logic.", "", nil},
		{"Avoid passing `--no-build` unless you have just built the project.", "", []string{"forbids running any command with `--no-build`"}},
		{"Never edit `*/mocks/mocks.go` by hand; run `make mocks`.", "", []string{"forbids writing `**/mocks/mocks.go`"}},
		// What a judgement picks out ("unnecessary") only reminds.
		{"Avoid unnecessary use of `fmt.Sprintf`; join the strings plainly.", "", []string{"forbids writing /\\bfmt\\.Sprintf\\b/ in any file but `*.md`, `*.mdx`, `*.markdown` and 5 more; reminds only"}},
		{"Avoid `fmt.Sprintf`; join the strings plainly.", "", []string{"forbids writing /\\bfmt\\.Sprintf\\b/ in any file but `*.md`, `*.mdx`, `*.markdown` and 5 more"}},
		// "X alone": X with more is not ruled out.
		{"Don't trust `make deploy <env>` alone.", "", []string{"forbids running `make deploy`; reminds only"}},
		// Text a clause rules out of commit messages or PR titles: the
		// message must not hold it, anywhere; a command, a flag, a path or
		// a placeholder is not message text.
		{"Never put `[skip ci]` in commit messages.", "", []string{"forbids commit messages matching /(?i)\\[skip ci\\]/"}},
		{"Do not include `Generated with Claude Code` in commit messages or PR descriptions.", "", []string{"forbids commit messages and PR descriptions matching /(?i)\\bGenerated with Claude Code\\b/"}},
		{"Don't use `git commit --no-verify` in commits.", "", []string{"forbids running `git commit --no-verify`; reminds only"}},
		{"Never write `<type>: <subject>` literally in commit messages.", "", nil},
		{"Don't include `node_modules` in commits.", "", nil},
		{"Never mention `WIP` in PR descriptions.", "", []string{"forbids PR descriptions matching /(?i)\\bWIP\\b/"}},
		{"Never put `WIP` in PR titles.", "", []string{"forbids PR titles matching /(?i)\\bWIP\\b/"}},
		{"Always use `uv run` to run Python commands", "", []string{
			"forbids running `pytest|mypy|ruff|black|isort|flake8|pylint|python|python3|tox|coverage|pyright` run without `uv run`"}},
		{"Run tests with `uv run pytest`.", "", []string{"forbids running `pytest` run without `uv run`"}},
		{"Use `uv add <package>` to install dependencies.", "", []string{
			"forbids running `pip install` (use uv add <package> instead)", "forbids running `pipenv install` (use uv add <package> instead)",
			"forbids running `poetry add` (use uv add <package> instead)", "forbids running `conda install` (use uv add <package> instead)",
			"forbids running `pdm add` (use uv add <package> instead)"}},
		{"When installing packages from a Git repository, use `uv pip install git+<url>`.", "", []string{
			"forbids running `pip install` (use uv pip install git+<url> instead); reminds only", "forbids running `pipenv install` (use uv pip install git+<url> instead); reminds only",
			"forbids running `poetry add` (use uv pip install git+<url> instead); reminds only", "forbids running `conda install` (use uv pip install git+<url> instead); reminds only",
			"forbids running `pdm add` (use uv pip install git+<url> instead); reminds only"}},
		{"RULE: No `any` type | WHEN: Writing TypeScript | DO: Create proper interfaces", "", []string{
			"forbids writing /(?m):\\s*any\\s*(?:[;,)=|&>\\]{}]|$)|\\bas\\s+any\\b|<any\\b|\\bany\\[\\]|,\\s*any>/ in `*.ts`, `*.tsx`, `*.mts`, `*.cts`"}},
		{"No `Any` types - use proper type hints.", "", nil},
		{"Before committing, run `npm run lint && npm test`.", "", []string{
			"requires `npm run lint` earlier in the session before `git commit`", "requires `npm test` earlier in the session before `git commit`"}},
		{"When committing, run `make fmt`.", "", []string{"requires `make fmt` earlier in the session before `git commit`"}},
		{"Format the code using `tox -e format` and run the linting and type checking using `tox -e lint`.", "", []string{
			"forbids running a format command other than `tox` (use tox -e format instead)",
			"forbids running a lint or typecheck command other than `tox` (use tox -e lint instead)"}},
		{"Use `make test` to run the tests.", "", []string{"forbids running a test command other than `make test` (use make test instead)"}},
		{"Code is always formatted, linted and type checked before committing.", "", []string{
			"requires a format command earlier in the session before `git commit`", "requires a lint command earlier in the session before `git commit`",
			"requires a typecheck command earlier in the session before `git commit`"}},
		{"Always run the tests before you push.", "", []string{"requires a test command earlier in the session before `git push`"}},
		{"Write tests before committing.", "", nil},
		{"Prefer `rg` over `grep`.", "", []string{"forbids running `grep|egrep|ag` (use rg instead)"}},
		{"Edit files in `src/`", "Don't", []string{"forbids writing `src/`"}},
		// Not rules, or nothing structural to check: no check.
		{"Always run `meson compile -C build <target>` to build.", "", nil},
		{"Keep functions small and focused.", "", nil},
		// Flags alone name no program: no command to prefer.
		{"Always pass `-count 1` when you run the tests.", "", nil},
		{"Uses `s3://bucket/latest/` for current version", "", nil},
		{"`deco login` - Authenticate with deco.chat", "", nil},
		{"warning CS8618: Non-nullable property 'Name' must contain a non-null value when exiting constructor. Consider declaring the property as nullable.", "", nil},
		{"Store chat exports in `data/chat_exports`", "", nil},
		{"Use Material-UI (`@mui/material`) for all UI components", "", nil},
		{"DATABASE_URL, REDIS_URL, SECRET_KEY", "", nil},
		{"Don't use npm to publish; CI does it.", "", []string{"forbids running `npm`; reminds only"}},
		{"Never run `rm -rf` on the project root.", "", []string{"forbids running `rm -rf`; reminds only"}},
		{"Never use `console.log` in production code", "", nil},
		{"Note that `SpoutSDK` may not be directly installable via `pip` or `uv pip`.", "", nil},
		{"The `dist` folder is not edited by hand.", "", nil},
		{"No edits under `vendor/`.", "", []string{"forbids writing `vendor/`"}},
		{"Use pnpm or bun, not npm.", "", []string{"forbids running `npm|yarn` (use pnpm or bun instead)"}},
		// A command and the flag a clause gives it are one pattern, in
		// either order; what follows the flag may narrow it to a reminder.
		{"Never run `git push` with `--force`.", "", []string{"forbids running `git push --force`"}},
		{"Never pass `--no-verify` to `git commit`.", "", []string{"forbids running `git commit --no-verify`"}},
		{"Do not call `pytest` with `-x`.", "", []string{"forbids running `pytest -x`"}},
		{"Never run `go test` with `-count=1` on the whole tree.", "", []string{"forbids running `go test -count=1`; reminds only"}},
		{"Don't use `--no-verify`.", "", []string{"forbids running any command with `--no-verify`"}},
		// A job's command is read next to its job, in its own clause, as
		// the command without its options; a narrower use (one test, a
		// synopsis with a placeholder), the help of a command and another
		// language's job give no check or only a reminder.
		{"Use `mix help test` for full documentation on running tests.", "", nil},
		{"Run a single test with `cargo test <case>`.", "", nil},
		{"Run the tests in a specific file with `mix test test/my_test.exs`.", "", nil},
		{"Run `prettier -w` to format the code.", "", []string{"forbids running a format command other than `prettier` (use prettier -w instead)"}},
		{"Use `make fmt` to format Go code.", "", []string{"forbids running a format command other than `make fmt` (use make fmt instead); reminds only"}},
		{"Use `npm run build` to build, and read the docs on running tests.", "", nil},
		// A flag in upper case is a flag, not a placeholder; a literal
		// argument of a ruled-out command is part of it.
		{"Never run `git add -A`.", "", []string{"forbids running `git add -A`"}},
		{"Never run `git add .`; stage specific files.", "", []string{"forbids running `git add` on `.`"}},
		// An aside that names the enforcing tool rules nothing out; one
		// that negates is the rule; an aside may stand before a purpose
		// that narrows.
		{"Avoid force unwrapping (enforced by SwiftLint).", "", nil},
		{"Use pnpm (never npm).", "", []string{"forbids running `npm`"}},
		{"Use `uv` (not `pip`) for Python tool installs in CI.", "", []string{"forbids running `pip|pipenv|poetry|conda|pdm` (use uv instead); reminds only"}},
		// A narrowed use of a construct, when the cue stands apart.
		{"Don't: use `pub(crate)` methods in tests as shortcuts around the public API.", "", nil},
		// A later phase of the lifecycle runs the tests too; a line that
		// introduces examples ends what the rule asks; a phrase is no
		// command; a negation in another clause does not forbid the command.
		{"All tests must pass with `mvn test`.", "", []string{
			"forbids running a test command other than `mvn test`, `mvn package`, `mvn verify`, `mvn install` or `mvn deploy` (use mvn test instead)"}},
		{"Use `bun` to run TS directly, for example:\n\n* `bun src/cli.ts --help`", "", []string{"forbids running `npm|yarn|pnpm` (use bun instead); reminds only"}},
		{"Use descriptive commit messages following this format: <type>(<scope>): <summary>", "", nil},
		{"Add the license header by running `mvn license:update` before committing (the build fails if a file doesn't have it).", "", []string{
			"requires `mvn license:update` earlier in the session before `git commit`"}},
		// Commits, pushes, publishing and new dependencies named in words;
		// a passive prohibition rules out its subject.
		{"Do not perform any git commits, pushes, or version control actions.", "", []string{"forbids running `git commit`", "forbids running `git push`"}},
		{"Never push unless explicitly asked.", "", []string{"forbids running `git push`"}},
		{"Never commit without running the tests.", "", nil},
		{"Never bump the version or publish the gem.", "", []string{"forbids running a publish command"}},
		{"Never add new dependencies unless explicitly requested.", "", []string{"forbids running an install command"}},
		{"No external dependencies in the main library.", "", []string{"forbids running an install command; reminds only"}},
		{"Use pnpm to install packages.", "", []string{"forbids running `npm|yarn|bun` (use pnpm instead)"}},
		{"Direct pushes to `main` are never allowed.", "", []string{"forbids running `git push` on `main`, `master`, `HEAD:main` or `HEAD:master`"}},
		{"Don't publish secrets in logs.", "", nil},
		// "In place of" prefers; a sentence that asks for one thing and
		// rules out another compiles what it rules out; a program named by
		// its path.
		{"Use `rg` in place of `grep`.", "", []string{"forbids running `grep|egrep|ag` (use rg instead)"}},
		{"Use the task scripts; do not run `./gradlew` by hand.", "", []string{"forbids running `gradlew`"}},
		// A branch name's template: literal words kept, placeholders any
		// text, alternatives either; a branch named as an example is none.
		{"Name branches by the convention `agent/<topic>`.", "", []string{"requires branch names to be in the form agent/<topic>"}},
		{"Branch naming rule: `feature/short-name`, `bugfix/issue-name`", "", []string{"requires branch names to be in the form feature/short-name or bugfix/issue-name"}},
		// Names without a template's words: a naming verb, or names as the subject.
		{"Name branches `feature/<short-description>` or `fix/<short-description>`.", "", []string{"requires branch names to be in the form feature/<short-description> or fix/<short-description>"}},
		{"Use `type/short-description` for branch names.", "", []string{"requires branch names to be in the form type/short-description"}},
		{"Create a branch for each feature.", "", nil},
		// Tags: a version's shape, or the start a prefix cue names.
		{"Tag each release with a `v` prefix (v2.3.0).", "", []string{"requires tag names to be in the form v…"}},
		{"Tags follow `vX.Y.Z`.", "", []string{"requires tag names to be in the form vX.Y.Z"}},
		{"Release tags are named `release-<major>.<minor>`.", "", []string{"requires tag names to be in the form release-<major>.<minor>"}},
		{"Never tag releases without approval.", "", nil},
		{"Tag the release with `git tag -s`.", "", nil},
		{"Commits and tags follow `vX.Y.Z`.", "", nil},
		{"Create a branch `feature/login` for this work.", "", nil},
		// A flag an obliging sentence requires of a command it names; a
		// step before a phase asks for the step, not for every run.
		{"Every commit must carry a sign-off: `git commit -s`", "", []string{"forbids running `git commit` without `-s`"}},
		{"Always run `go test` with `-race`.", "", []string{"forbids running `go test` without `-race`"}},
		{"Run `pytest -x` to stop at the first failure.", "", nil},
		{"Always run `go test -race ./...` before pushing.", "", []string{"requires `go test -race` earlier in the session before `git push`"}},
		// What is used is not what is committed.
		{"Don't use `.only` or `.skip` in committed code.", "", nil},
		// Words joined by a slash are alternatives, not a path.
		{"**NO Claude/AI references in git commits**", "", nil},
		// The one command a step sentence names; alternatives of one
		// program are one step.
		{"Validate: `task validate` runs format + lint + test — always run before commits.", "", []string{"requires `task validate` earlier in the session before `git commit`"}},
		{"Use `task format` / `task format-check` before commits.", "", []string{"requires `task format*` earlier in the session before `git commit`"}},
		// Each command's job is read in its own clause.
		{"Build with `make build`; run the tests with `make test`.", "", []string{
			"forbids running a test command other than `make test` (use make test instead)"}},
		{"Format with `make fmt`; run the tests with `make test`.", "", []string{
			"forbids running a format command other than `make fmt` (use make fmt instead)",
			"forbids running a test command other than `make test` (use make test instead)"}},
	}
	for _, tt := range tests {
		var got []string
		for _, c := range Compile(tt.rule, tt.trigger) {
			got = append(got, check.Describe(c))
			if c.From.By != check.ByReader || c.From.Version != Version || c.Quote == "" {
				t.Errorf("%q: provenance or quote missing: %+v", tt.rule, c)
			}
			if err := check.Validate(c); err != nil {
				t.Errorf("%q: invalid check: %v", tt.rule, err)
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("Compile(%q)\n got %q\nwant %q", tt.rule, got, tt.want)
		}
	}
}

func TestNotARule(t *testing.T) {
	tests := map[string]string{
		"`deco login` - Authenticate with deco.chat":                    "map entry",
		"`make dev`: start the dev server":                              "map entry",
		"Environment: `DATABASE_URL`, `REDIS_URL`, `SECRET_KEY`":        "list of names",
		"warning CS8618: Non-nullable property 'Name' must contain a x": "pasted output",
		"error[E0382]: borrow of moved value: `v`":                      "pasted output",
		"src/main.rs:12:5: unused variable":                             "pasted output",
		"Uses `s3://releases/latest/` for the current version.":         "description",
		"Use pnpm, never npm.":                                          "",
		"Never edit `generated/`.":                                      "",
		"Store chat exports in `data/chat_exports`.":                    "",
		"`pnpm` only: never npm or yarn.":                               "",
	}
	for line, want := range tests {
		if got := NotARule(line); got != want {
			t.Errorf("NotARule(%q) = %q, want %q", line, got, want)
		}
	}
}

func FuzzCompile(f *testing.F) {
	for _, s := range []string{"Use pnpm, never npm.", "Never edit `gen/` files", "Run `make lint` before committing.",
		"Never pipe test output into `tail`", "Use Conventional Commits (`feat`, `fix`, `chore`)", "`x` - y", "Never push with `--force`",
		"Never run `git push` --force.", "Don't use --no-verify with `git commit`."} {
		f.Add(s, "")
	}
	f.Fuzz(func(t *testing.T, rule, trigger string) {
		for _, c := range compile(rule, trigger) {
			if err := check.Validate(c); err != nil {
				t.Fatalf("Compile(%q) gave an invalid check: %v", rule, err)
			}
		}
	})
}
