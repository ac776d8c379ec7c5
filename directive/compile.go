package directive

import (
	"regexp"
	"slices"
	"strings"

	"github.com/innate-mcp/innate-mcp/check"
	"github.com/innate-mcp/innate-mcp/terms"
)

// Compile reads a rule's content and trigger (as Parse takes them) into
// the checks that enforce it on an agent's actions, and emits none where
// the rule cannot be read unambiguously: a description, a map or glossary
// entry, an example or pasted output compiles to nothing, and so does a
// rule whose requirement is not a command, a path or a commit message.
// The checks quote the rule and name the reader (check.ByReader, Version)
// as their provenance; their Rule is left for the caller. Safe for
// concurrent use.
func Compile(content, trigger string) []check.Check {
	text := statement(content)
	if text == "" {
		return nil
	}
	heading, scope := readTrigger(trigger)
	var out []check.Check
	switch NotARule(content) {
	case "":
		rc := ruleContext{rule: cleanMarkdown(text)}
		if len(heading) > 0 {
			rc.heading = heading[len(heading)-1]
		}
		for _, s := range sentences(rc.rule) {
			out = append(out, compileSentence(s, rc, Parse(s, trigger))...)
			if introducesExamples.MatchString(s) {
				// "Use `bun` to run TS directly, for example:" — what
				// follows illustrates this sentence; it asks nothing more.
				break
			}
		}
	case listOfNames:
		// A labelled line may still give a message's shape: "Commit
		// subjects: `[PROJ-42] summary`".
		clean := cleanMarkdown(text)
		if c, ok := templateCheck(clean, clean); ok {
			out = append(out, c)
		}
	default:
		return nil
	}
	out = mergePrefers(out)
	quote := quoteOf(content)
	seen := map[string]bool{}
	var kept []check.Check
	for _, c := range out {
		c = scope.Confine(c)
		c.Quote, c.From = quote, check.Provenance{By: check.ByReader, Version: Version}
		if check.Validate(c) != nil {
			continue
		}
		k := check.Key(c)
		if seen[k] {
			continue
		}
		seen[k] = true
		kept = append(kept, c)
	}
	return kept
}

// introducesExamples ends a sentence that the rule's next lines
// illustrate.
var introducesExamples = lazyRE(`(?i)(?:for example|for instance|e\.g\.?|such as|as follows|like this|examples?)\s*:\s*$`)

// quoteOf is the rule as a user is shown it: its first lines, at most 300
// bytes.
func quoteOf(content string) string {
	q := strings.TrimSpace(content)
	if len(q) > 300 {
		cut := 300
		for cut > 0 && q[cut]&0xC0 == 0x80 {
			cut--
		}
		q = strings.TrimSpace(q[:cut]) + "…"
	}
	return q
}

// ruleSentenceEnd ends a sentence of a rule: a full stop, question or exclamation mark
// before white space and a capital, a backtick or a digit, or a line
// break.
var ruleSentenceEnd = lazyRE("[.!?]\\s+[A-Z`\\d\"']|\\n+")

// sentences splits a rule into its sentences.
func sentences(text string) []string {
	var out []string
	start := 0
	for _, loc := range ruleSentenceEnd.FindAllStringIndex(text, -1) {
		end := loc[0] + 1
		if text[loc[0]] == '\n' {
			end = loc[0]
		}
		if s := strings.TrimSpace(text[start:end]); s != "" {
			out = append(out, s)
		}
		start = loc[1] - 1
		if text[loc[1]-1] == '\n' {
			start = loc[1]
		}
	}
	if s := strings.TrimSpace(text[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

// ruleContext is what a sentence is compiled in: the whole rule, and the
// heading it stands under, the innermost.
type ruleContext struct {
	rule, heading string
}

// compileSentence compiles one sentence of a rule, read by Parse into d.
func compileSentence(s string, rc ruleContext, d Directive) []check.Check {
	var out []check.Check
	if c, ok := conventionalCheck(s); ok {
		out = append(out, c)
	} else if c, ok := templateCheck(s, rc.rule); ok {
		out = append(out, c)
	}
	switch d.Polarity {
	case Forbid, Prefer:
		out = append(out, compileForbidden(s, rc, d)...)
	}
	switch d.Polarity {
	case Require, Prefer:
		out = append(out, compileRequired(s, d)...)
	case Context:
		// "Code is always formatted and linted before committing": a
		// requirement in the passive voice.
		if obligation.MatchString(s) {
			out = append(out, compileRequired(s, d)...)
		}
	}
	return out
}

// obligation marks a sentence that requires, whatever its voice.
var obligation = lazyRE(`(?i)\b(?:always|must|has to|have to|needs? to|is required|are required|shall)\b`)

// compileForbidden compiles what a forbidding (or preferring) sentence
// rules out: commands, flags, programs, paths written, and the command
// constructs it names in words.
func compileForbidden(s string, rc ruleContext, d Directive) []check.Check {
	if d.Polarity == Forbid && negationCue.MatchString(strings.ToLower(s)) && !prohibition.MatchString(s) {
		// "may not be installable via pip", "is not used": a negation
		// that describes, not one that forbids.
		return nil
	}
	kind, instead := check.Forbid, ""
	if d.Polarity == Prefer {
		for _, o := range d.Do {
			if !o.Example {
				kind, instead = check.PreferInstead, o.Text
				break
			}
		}
	}
	mk := func(p *check.CommandPattern) check.Check {
		return check.Check{Kind: kind, Command: p, Instead: instead}
	}
	var out []check.Check
	clause := negatedClause(s)
	var progs []string
	flagOf, bound := boundFlags(s, d.Dont)
	negated := negatedClauses(s)
	for i, o := range d.Dont {
		if o.Example || o.Of != "" || bound[i] {
			continue
		}
		if d.Polarity == Forbid && len(negated) > 0 && !slices.ContainsFunc(negated, func(c string) bool { return strings.Contains(c, o.Text) }) {
			// "… by running `mvn license:update-file-header` before
			// committing (… the build fails if a file doesn't include …)":
			// the negation governs another clause, not the command.
			continue
		}
		if f, ok := flagOf[i]; ok {
			// A command with the flag the clause gives it: that pair is
			// what is ruled out, and what follows the flag may narrow it
			// further ("with `-count=1` on the whole tree").
			p := codeCommand(o.Text, o.Verb)
			if p == nil && isProgram(o.Text) {
				p = &check.CommandPattern{Programs: []string{strings.ToLower(o.Text)}}
			}
			if p != nil {
				p.Flags = append(p.Flags, f)
				c := mk(p)
				c.RemindOnly = qualified(clause, []string{f}) || openCommand(o.Text)
				out = append(out, c)
			}
			continue
		}
		if c, ok := textCheck(o); ok {
			out = append(out, c)
			continue
		}
		switch {
		case o.Kind == KindFlag:
			if p := flagPattern(o, s); p != nil {
				out = append(out, mk(p))
			}
		case isProgram(o.Text):
			if changes[o.Verb] {
				// "Never change the volta or yarn setup": what is ruled out
				// is a change to the tool, not running it.
				continue
			}
			if o.Kind != KindCode && inParens(s, o.Text) {
				// "Avoid force unwrapping (enforced by SwiftLint)": an aside
				// names the tool that enforces the rule, not what it rules
				// out.
				continue
			}
			progs = append(progs, strings.ToLower(o.Text))
		case o.Kind == KindCode:
			if p := codeCommand(o.Text, o.Verb); p != nil {
				p = throughRunner(o.Text, p)
				p.Args = literalArgs(o.Text, p)
				c := mk(p)
				// `bun <file>` read as any bun command would also rule out
				// what the rule asks for (`bun bd <command>`): a placeholder
				// right after the program leaves the command open.
				c.RemindOnly = qualified(clause, []string{strings.Trim(o.Text, "`")}) || openCommand(o.Text)
				out = append(out, c)
				continue
			}
			if c, ok := pathCheck(o.Text, firstNonEmpty(o.Verb, writeVerbIn(clause))); ok {
				out = append(out, c)
				continue
			}
			if d.Polarity == Forbid {
				// The clause the span stands in: the negated clause, or the
				// sentence when the cue stands apart ("Don't: use `X` …").
				oc := clause
				if !strings.Contains(clause, o.Text) {
					oc = s
				}
				if c, ok := messageCheck(o, oc); ok {
					out = append(out, c)
				} else if c, ok := constructCheck(o, oc, rc.heading); ok {
					out = append(out, c)
				}
			}
		case o.Kind == KindPath:
			if c, ok := pathCheck(o.Text, firstNonEmpty(o.Verb, writeVerbIn(clause))); ok {
				out = append(out, c)
			}
		}
	}
	if len(progs) > 0 {
		c := mk(&check.CommandPattern{Programs: progs})
		c.RemindOnly = qualified(clause, progs)
		out = append(out, c)
	}
	if d.Polarity == Forbid {
		// Paths the negated clause names, which Parse may have read as a
		// phrase ("edit files under generated/").
		if v := writeVerbIn(clause); v != "" {
			for _, p := range pathsIn(clause) {
				if governedByOther(d.Dont, p, v) {
					// "Don't use `.only` in committed code": what is used
					// is not what is committed.
					continue
				}
				if c, ok := pathCheck(p, v); ok {
					out = append(out, c)
				}
			}
		}
		for _, k := range commandConstructs {
			loc := k.named.FindStringIndex(clause)
			if loc == nil {
				continue
			}
			if k.pattern != nil {
				if p := k.pattern(clause); p != nil {
					out = append(out, check.Check{Kind: check.Forbid, Command: p})
				}
				continue
			}
			after := clause[loc[1]:]
			remind := narrowed.MatchString(after) && !unlessAsked.MatchString(after)
			for _, p := range k.patterns {
				out = append(out, check.Check{Kind: check.Forbid, Command: p, RemindOnly: remind})
			}
		}
	}
	return out
}

// unlessAsked is a condition the hook's ask itself meets: "unless
// explicitly requested" (asking the user is the request).
var unlessAsked = lazyRE(`(?i)^\W*unless\s+(?:explicitly\s+|specifically\s+|you\s+are\s+|the\s+user\s+)*(?:asked|requested|instructed|told|approved)`)

// inParens reports whether text's first occurrence in s stands inside
// parentheses.
func inParens(s, text string) bool {
	i := strings.Index(s, text)
	if i < 0 {
		return false
	}
	open := strings.LastIndexByte(s[:i], '(')
	if open < 0 || strings.Count(s[:i], "(") <= strings.Count(s[:i], ")") {
		return false
	}
	// "Use pnpm (never npm)": an aside that negates is the rule itself.
	return !negationCue.MatchString(strings.ToLower(s[open:i]))
}

// governedByOther reports whether Parse read the span p as an object of a
// verb other than v.
func governedByOther(objs []Object, p, v string) bool {
	return slices.ContainsFunc(objs, func(o Object) bool {
		return strings.Trim(o.Text, "`") == strings.Trim(p, "`") && o.Verb != "" && !strings.EqualFold(o.Verb, v)
	})
}

// compileRequired compiles what a requiring sentence asks for: a step
// before a commit, a push or a pull request; a tool of a family whose
// other members it rules out; a runner without which its tools must not
// run.
func compileRequired(s string, d Directive) []check.Check {
	var out []check.Check
	var phase *check.CommandPattern
	for _, ph := range phases {
		if ph.re.MatchString(s) {
			phase = &check.CommandPattern{Programs: []string{ph.program}, Sub: ph.sub}
			break
		}
	}
	var asked []string
	for _, o := range d.Do {
		if !o.Example {
			asked = append(asked, strings.ToLower(o.Text))
		}
	}
	if phase != nil && !slices.ContainsFunc(d.Do, func(o Object) bool { return o.Kind == KindCode || isProgram(o.Text) }) {
		// "`task validate` runs format + lint + test — always run before
		// commits": the one command the sentence names does the jobs.
		if st := soleCommand(s, phase); st != nil {
			return append(out, check.Check{Kind: check.RequireBefore, Command: phase, Before: st})
		}
		// "Always run the tests before committing", "code is formatted and
		// linted before pushing": a command of each job, or a project task
		// named for it, must come first.
		for _, j := range jobWords {
			if j.re.MatchString(s) {
				out = append(out, check.Check{Kind: check.RequireBefore, Command: phase, Before: &check.CommandPattern{Classes: []string{j.class}}})
			}
		}
		return out
	}
	merged := alternativeSteps(s, d.Do)
	for i, o := range d.Do {
		if o.Example || o.Of != "" || o.Kind != KindCode && !isProgram(o.Text) {
			continue // a phrase ("descriptive commit messages") is no command
		}
		cmd := codeCommand(o.Text, o.Verb)
		if cmd == nil && isProgram(o.Text) {
			cmd = &check.CommandPattern{Programs: []string{strings.ToLower(o.Text)}}
		}
		if alt, ok := merged[i]; ok && phase != nil {
			if alt != nil {
				out = append(out, check.Check{Kind: check.RequireBefore, Command: phase, Before: alt})
			}
			continue
		}
		if phase != nil {
			steps := []*check.CommandPattern{cmd}
			if cmd == nil {
				steps = chainCommands(o.Text)
			}
			for _, st := range steps {
				if st != nil && !slices.Contains(st.Programs, phase.Programs[0]) {
					out = append(out, check.Check{Kind: check.RequireBefore, Command: phase, Before: st})
				}
			}
			continue
		}
		if cmd == nil {
			continue
		}
		// `uv run pytest`, `bundle exec rspec`: the tool only through its
		// runner; a bare runner (`uv run`) rules out its tools run bare.
		if c, ok := runnerCheck(o.Text); ok {
			out = append(out, c)
			continue
		}
		if c, ok := installRivals(cmd, o.Text, asked, s); ok {
			if conditionQualifies(d.When) {
				for i := range c {
					c[i].RemindOnly = true
				}
			}
			out = append(out, c...)
			continue
		}
		if c, ok := jobCheck(s, o, cmd); ok {
			if conditionQualifies(d.When) {
				c.RemindOnly = true
			}
			out = append(out, c)
			continue
		}
		if len(cmd.Programs) == 1 && len(cmd.Sub) == 0 && len(cmd.Flags) == 0 && (o.Verb == "" || o.Verb == "use" || o.Verb == "prefer" || o.Verb == "always") {
			tool := cmd.Programs[0]
			var rivals []string
			for _, f := range commandFamilies {
				if !slices.Contains(f, tool) {
					continue
				}
				for _, r := range f {
					if r != tool && !slices.Contains(asked, r) && !slices.Contains(rivals, r) && !mentionedPositively(s, r) {
						rivals = append(rivals, r)
					}
				}
			}
			if len(rivals) > 0 {
				out = append(out, check.Check{Kind: check.PreferInstead, Instead: tool, Command: &check.CommandPattern{Programs: rivals},
					RemindOnly: qualified(s, []string{tool})})
			}
		}
	}
	return out
}

// soleCommand is the one code span of a sentence that reads as a command
// of a known program other than the phase's, or nil.
func soleCommand(s string, phase *check.CommandPattern) *check.CommandPattern {
	var found *check.CommandPattern
	for _, m := range codeSpan.FindAllString(s, -1) {
		// A short span in a sentence that asks for a step is read as the
		// command it names, known program or the project's own task.
		if len(strings.Fields(m)) > 4 {
			continue
		}
		p := codeCommand(m, "run")
		if p == nil || slices.Contains(p.Programs, phase.Programs[0]) {
			continue
		}
		if found != nil {
			return nil
		}
		found = &check.CommandPattern{Programs: p.Programs, Sub: p.Sub}
	}
	return found
}

// alternativeSteps reads the commands a sentence offers as alternatives
// ("use `task format` / `task format-check` before commits"): by index in
// do, the step either one satisfies (the same program, the subcommand
// their common start, `format*`) at the first and nil at the others. Two
// alternatives of different programs, or without a common start, give
// nil at both: one of them is asked for, and the reader cannot say
// which.
func alternativeSteps(s string, do []Object) map[int]*check.CommandPattern {
	out := map[int]*check.CommandPattern{}
	for i := 0; i+1 < len(do); i++ {
		a, b := do[i], do[i+1]
		if a.Kind != KindCode || b.Kind != KindCode {
			continue
		}
		ia, ib := strings.Index(s, "`"+a.Text+"`"), strings.Index(s, "`"+b.Text+"`")
		if ia < 0 || ib < ia || !orBetween.MatchString(s[ia+len(a.Text)+2:ib]) {
			continue
		}
		pa, pb := codeCommand(a.Text, "run"), codeCommand(b.Text, "run")
		out[i], out[i+1] = nil, nil
		if pa == nil || pb == nil || !slices.Equal(pa.Programs, pb.Programs) || len(pa.Sub) != len(pb.Sub) || len(pa.Sub) == 0 {
			continue
		}
		n := len(pa.Sub) - 1
		if !slices.Equal(pa.Sub[:n], pb.Sub[:n]) {
			continue
		}
		x, y := pa.Sub[n], pb.Sub[n]
		k := 0
		for k < len(x) && k < len(y) && x[k] == y[k] {
			k++
		}
		if k < 3 {
			continue
		}
		sub := append(slices.Clone(pa.Sub[:n]), x[:k]+"*")
		out[i] = &check.CommandPattern{Programs: pa.Programs, Sub: sub}
		i++
	}
	return out
}

// orBetween joins two alternatives: "`a` / `b`", "`a` or `b`".
var orBetween = lazyRE(`^\s*(?:/|or|\|)\s*$`)

// jobWords name the jobs a rule asks a project's own command for
// ("Format the code using `tox -e format`", "Use `make test` to run the
// tests"), with the class of commands (check's classes) that do that job.
var jobWords = []struct {
	re    *lazyRegexp
	class string
}{
	{lazyRE(`(?i)\bformat(?:s|ted|ting|ter)?\b`), "format"},
	{lazyRE(`(?i)\blint(?:s|ed|ing|er)?\b`), "lint"},
	{lazyRE(`(?i)\btype[- ]?check(?:s|ed|ing|er)?\b|\bstatic(?:ally)? type`), "typecheck"},
	{lazyRE(`(?i)\b(?:run(?:ning)?|execut(?:e|ing))\s+(?:the\s+|all\s+|unit\s+)*tests?\b|\btest(?:ing|s)?\s+(?:with|using|via)\b|\btests?\s+(?:must\s+|should\s+)?pass\b|\bpassing\s+tests\b`), "test"},
}

// jobCheck compiles a project's own command a rule asks for a job ("Format
// the code using `tox -e format`"): the other commands of that job
// (`ruff format`, `black`) run directly break it. Only a project command
// (a program with a subcommand or flags: `make lint`, `npm run test`, `tox
// -e lint`) counts; a tool asked for by name goes by its family.
func jobCheck(s string, o Object, cmd *check.CommandPattern) (check.Check, bool) {
	if len(cmd.Sub) == 0 && len(cmd.Flags) == 0 || slices.Contains(cmd.Sub, "help") || slices.Contains(cmd.Flags, "--help") {
		return check.Check{}, false // `mix help test` documents the job; it does not do it
	}
	if openArgs(o.Text) {
		// `cargo test <module_or_case>`: how to run one case, not the
		// command every run of the job must be.
		return check.Check{}, false
	}
	at := strings.Index(s, o.Text)
	if at < 0 {
		return check.Check{}, false
	}
	before := strings.TrimRight(s[:at], "`")
	if i := strings.LastIndexByte(before, '`'); i >= 0 {
		before = before[i+1:] // since the previous code span
	}
	if b := jobClauseEnd.FindAllStringIndex(before, -1); len(b) > 0 {
		before = before[b[len(b)-1][1]:] // since the clause began
	}
	after := s[at+len(o.Text):]
	after = strings.TrimLeft(after, "`")
	if i := strings.IndexByte(after, '`'); i >= 0 {
		after = after[:i]
	}
	if b := jobClauseEnd.FindStringIndex(after); b != nil {
		// "Build with `make build`; run the tests with `make test`": the
		// next clause's job is the next command's.
		after = after[:b[0]]
	}
	// The job is named next to the command ("Use `make test` to run the
	// tests"), not somewhere later in the clause ("`mix help test` for
	// full documentation on running tests").
	before, after = lastWords(before, 6), firstWords(after, 5)
	if narrowedJob.MatchString(before) || narrowedJob.MatchString(after) {
		return check.Check{}, false // "Run a single test with …", "tests in a specific file"
	}
	var jobs []string
	for _, part := range []string{before, after} {
		for _, j := range jobWords {
			if j.re.MatchString(part) {
				jobs = append(jobs, j.class)
			}
		}
		if len(jobs) > 0 {
			break
		}
	}
	if len(jobs) == 0 {
		return check.Check{}, false
	}
	// The command with its subcommand is the one asked for; its flags are
	// options of it (`mix test --max-failures n`, `prettier -w`).
	cmd = &check.CommandPattern{Programs: cmd.Programs, Sub: cmd.Sub}
	except := []*check.CommandPattern{cmd}
	if len(cmd.Programs) == 1 && len(cmd.Sub) == 1 {
		// `mvn verify` runs `mvn test` too: the later phases of a build
		// tool's lifecycle do the job asked for.
		for _, later := range laterPhases[cmd.Programs[0]+" "+cmd.Sub[0]] {
			except = append(except, &check.CommandPattern{Programs: cmd.Programs, Sub: []string{later}})
		}
	}
	if n := len(cmd.Sub); n > 0 && len(cmd.Programs) == 1 && namespacedScripts[cmd.Programs[0]] && !strings.Contains(cmd.Sub[n-1], ":") {
		// The project's variants of its script are the same command:
		// `yarn test:unit` for `yarn test`, `npm run lint:fix` for `npm run lint`.
		v := *cmd
		v.Sub = append(slices.Clone(cmd.Sub[:n-1]), cmd.Sub[n-1]+":*")
		except = append(except, &v)
	}
	return check.Check{Kind: check.PreferInstead, Instead: strings.Trim(o.Text, "`"),
		Command:    &check.CommandPattern{Classes: jobs, Except: except},
		RemindOnly: languageJob.MatchString(before + " " + after)}, true
}

// laterPhases are, for a build tool's phase, the phases that run it too.
// General knowledge of Maven's and Gradle's lifecycles.
var laterPhases = map[string][]string{
	"mvn test":      {"package", "verify", "install", "deploy"},
	"mvnw test":     {"package", "verify", "install", "deploy"},
	"gradle test":   {"check", "build"},
	"gradlew test":  {"check", "build"},
	"mvn verify":    {"install", "deploy"},
	"mvnw verify":   {"install", "deploy"},
	"gradle check":  {"build"},
	"gradlew check": {"build"},
}

// narrowedJob marks a job a rule names for some of its runs only: one
// test, a file's tests.
var narrowedJob = lazyRE(`(?i)\b(?:single|specific|individual|particular|one|failing|failed|selected|certain)\b`)

// languageJob is a job of one language's code ("to format Go code", "lint
// Python files"): other languages' tools for that job break nothing, and
// the check, which cannot tell, only reminds.
var languageJob = lazyRE(`(?i)\b(?:format|lint|test|type-?check)\w*\s+(?:the\s+|all\s+|your\s+)?(?:go|golang|python|rust|java|kotlin|swift|c\+\+|c#|typescript|javascript|ruby|php|elixir|dart|terraform|shell|markdown|css|html|sql|yaml|json|lua|scala|haskell|zig)\b`)

// lastWords and firstWords are the last and first n words of s.
func lastWords(s string, n int) string {
	f := strings.Fields(s)
	return strings.Join(f[max(0, len(f)-n):], " ")
}

func firstWords(s string, n int) string {
	f := strings.Fields(s)
	return strings.Join(f[:min(n, len(f))], " ")
}

// openArgs reports whether a command span has a placeholder past its
// program (`cargo test <case>`, `npm run test -- {file}`).
func openArgs(code string) bool {
	f := strings.Fields(strings.Trim(strings.TrimSpace(code), "`"))
	return len(f) > 1 && slices.ContainsFunc(f[1:], placeholder)
}

// jobClauseEnd ends the clause around a command a rule asks for a job. A
// dash does not: what follows "`yarn lint` - " says what the command is
// for.
var jobClauseEnd = lazyRE(`(?i);|\.(?:\s|$)|,\s*(?:and|then|but|or)\b`)

// installRivals compiles a package manager's install command a rule asks
// for ("use `uv add <package>` to install dependencies") into checks
// against the other managers' install commands ("pip install x", "poetry
// add x"), unless the rule names them as allowed too.
func installRivals(cmd *check.CommandPattern, text string, asked []string, s string) ([]check.Check, bool) {
	if len(cmd.Programs) != 1 {
		return nil, false
	}
	tool := cmd.Programs[0]
	installs := false
	for _, sub := range installCommands[tool] {
		if len(cmd.Sub) >= len(sub) && slices.Equal(cmd.Sub[:len(sub)], sub) {
			installs = true
		}
	}
	if !installs {
		return nil, false
	}
	var out []check.Check
	for _, f := range commandFamilies {
		if !slices.Contains(f, tool) {
			continue
		}
		for _, r := range f {
			if r == tool || slices.ContainsFunc(asked, func(a string) bool { return strings.HasPrefix(a, r+" ") || a == r }) || mentionedPositively(withoutAsked(s, asked), r) {
				continue
			}
			for _, sub := range installCommands[r] {
				out = append(out, check.Check{Kind: check.PreferInstead, Instead: strings.Trim(text, "`"),
					Command: &check.CommandPattern{Programs: []string{r}, Sub: sub}})
			}
		}
	}
	return out, len(out) > 0
}

// withoutAsked is a sentence without the commands it asks for (`uv pip
// install` names pip only as part of uv's command).
func withoutAsked(s string, asked []string) string {
	for _, a := range asked {
		s = strings.ReplaceAll(strings.ToLower(s), strings.ToLower(a), " ")
	}
	return s
}

// mentionedPositively reports whether a sentence names a tool outside a
// negation ("use pnpm or bun": bun is allowed too).
func mentionedPositively(s, tool string) bool {
	lower := strings.ToLower(s)
	re := regexp.MustCompile(`\b` + regexp.QuoteMeta(tool) + `\b`)
	for _, loc := range re.FindAllStringIndex(lower, -1) {
		if !negationBefore(lower[:loc[0]]) {
			return true
		}
	}
	return false
}

// negationBefore reports whether the clause leading to a point negates.
var negationCue = lazyRE(`\b(?:never|not|no|don'?t|avoid|instead of|rather than|over|without|nor)\b`)

func negationBefore(s string) bool {
	if i := strings.LastIndexAny(s, ";.!?"); i >= 0 {
		s = s[i+1:]
	}
	return negationCue.MatchString(s)
}

// qualified reports whether a clause restricts its programs to a purpose
// or a target the check could not tell ("Don't use npm to publish"; "never
// run `rm -rf` on the project root"), so that forbidding the whole program
// would be a guess. A purpose that is the tools' own job ("to install
// packages", "for formatting", "in this project") restricts nothing.
func qualified(clause string, progs []string) bool {
	lower := strings.ToLower(clause)
	for _, p := range progs {
		// An aside may stand between ("`uv` (not `pip`) for tool installs").
		re := regexp.MustCompile(regexp.QuoteMeta(p) + "`?\\)?" + `(?:\s*\([^()]*\))?\s+(?:to|for|when|in|on|with|inside|within|against)\s+((?:[a-z-]+\s+){0,3}[a-z-]+)`)
		for _, m := range re.FindAllStringSubmatch(lower, -1) {
			words := strings.Fields(m[1])
			n := 0
			for _, w := range words {
				if determiners[w] {
					continue
				}
				if !genericJob[w] && !knownPrograms[w] {
					return true
				}
				if n++; n == 2 {
					break
				}
			}
		}
	}
	return false
}

// conditionQualifies reports whether a rule's condition narrows it to a
// case the check could not tell ("when installing packages from a Git
// repository"), beyond the tools' own job ("when installing packages with
// uv").
func conditionQualifies(when string) bool {
	words := strings.Fields(strings.ToLower(when))
	for i, w := range words {
		w = strings.Trim(w, ".,;:`'\"()")
		switch {
		case i == 0 && (w == "when" || w == "whenever" || w == "if" || w == "before" || w == "after"):
		case w == "from" || w == "except" || w == "unless" || w == "only":
			return true
		case determiners[w] || w == "with" || w == "using" || w == "via" || w == "in" || w == "to" || w == "into" || w == "for" || w == "you" || w == "we":
		case !genericJob[w] && !knownPrograms[w]:
			return true
		}
	}
	return false
}

// determiners are skipped in a purpose ("for the project", "in all
// packages").
var determiners = set("the", "a", "an", "all", "any", "every", "each", "this", "these", "our", "your", "its", "new", "of")

// genericJob are the words of a purpose that is a tool's whole job.
var genericJob = set("install", "installing", "installation", "manage", "managing", "management", "package", "packages",
	"dependency", "dependencies", "deps", "format", "formatting", "lint", "linting", "test", "testing", "tests", "build",
	"building", "builds", "run", "running", "scripts", "script", "everything", "this", "python", "javascript", "typescript",
	"node", "go", "rust", "all", "any", "add", "adding", "search", "searching", "find", "finding", "code", "commands",
	"command", "project", "projects", "repo", "repository", "codebase", "local", "development", "dev", "ci", "and", "or")

// prohibition is a negation that forbids: "never", "don't", "do not",
// "must not", "avoid", "no X" opening a clause, "not allowed"; as opposed
// to one that describes ("is not", "may not be", "cannot").
var prohibition = lazyRE(`(?i)\b(?:never|don'?t|do\s+not|does\s+not\s+need|must\s+not|mustn'?t|should\s+not|shouldn'?t|shall\s+not|will\s+not|won'?t|avoid(?:ing)?|refrain\s+from|stop|not\s+allowed|forbidden|prohibited|disallowed|instead\s+of|rather\s+than)\b|(?:^|[:;(—–]\s*|\.\s+|^\W*)no\s+\S`)

// negatedClause is the part of a sentence a negation governs: from the
// cue to the next clause boundary ("Never edit files under generated/;
// instead edit templates/" → "Never edit files under generated/"). A
// sentence without a cue (an item under a "Don't" heading) is whole.
func negatedClause(s string) string {
	// terms.LowerASCII keeps byte offsets (strings.ToLower changes lengths:
	// an invalid byte becomes U+FFFD).
	loc := negationCue.FindStringIndex(terms.LowerASCII(s))
	if loc == nil {
		return s
	}
	if passive.MatchString(s[loc[1]:]) {
		// "Direct pushes to `main` are never allowed": the negation
		// governs the subject before it.
		start := 0
		if b := clauseBoundary.FindAllStringIndex(s[:loc[0]], -1); len(b) > 0 {
			start = b[len(b)-1][1]
		}
		return s[start:loc[1]]
	}
	rest := s[loc[0]:]
	if b := clauseBoundary.FindStringIndex(rest[loc[1]-loc[0]:]); b != nil {
		rest = rest[:loc[1]-loc[0]+b[0]]
	}
	return rest
}

// negatedClauses are the parts of a sentence its negations govern, each
// from its cue to the next clause boundary; a cue that a colon follows
// ("Don't: use `X` …") governs the clause after the colon. None when the
// sentence has no cue.
func negatedClauses(s string) []string {
	lower := terms.LowerASCII(s)
	var out []string
	for _, loc := range anyNegation.FindAllStringIndex(lower, -1) {
		rest := s[loc[1]:]
		if strings.HasPrefix(strings.TrimLeft(rest, "*_ "), ":") {
			rest = rest[strings.IndexByte(rest, ':')+1:]
		}
		if b := clauseBoundary.FindStringIndex(rest); b != nil {
			rest = rest[:b[0]]
		}
		if b := byMeans.FindStringIndex(rest); b != nil {
			// "Avoid these errors by running `make test`": the means is
			// asked for, not avoided.
			rest = rest[:b[0]]
		}
		out = append(out, s[loc[0]:loc[1]]+rest)
	}
	return out
}

// byMeans opens the means of a negated clause: "avoid X by running Y".
var byMeans = lazyRE(`(?i)\bby\s+(?:\w+ing|using)\b`)

// anyNegation is negationCue with the negations that describe
// ("doesn't", "isn't", "cannot"): where a sentence negates at all.
var anyNegation = lazyRE(`\b(?:never|not|no|don'?t|doesn'?t|isn'?t|aren'?t|won'?t|can'?t|cannot|shouldn'?t|mustn'?t|avoid|instead of|rather than|over|without|nor)\b`)

// passive follows a negation that rules out its sentence's subject: "X
// are never allowed", "X is not permitted".
var passive = lazyRE(`(?i)^\s+(?:be\s+)?(?:allowed|permitted|accepted|acceptable|ok|okay|tolerated)\b`)

var clauseBoundary = lazyRE(`(?i);|\s[—–]\s|\s-\s|,\s*(?:and\s+)?(?:use|prefer|run|call|edit)\b|,?\s+(?:instead|rather|but|except|unless|otherwise)\b|:\s|\.\s`)
