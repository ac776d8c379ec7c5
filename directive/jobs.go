// What a requiring sentence asks for a job or a step: the project command
// a job must go through, the one command or alternatives a step names,
// the install commands a package manager rules out.

package directive

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/innate-mcp/innate-mcp/check"
)

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

// nounBefore and nounAfter mark a job's bare word used as a noun: after a
// determiner ("the same format as PR titles", "a lint"), or before what
// governs a noun ("the format of the entry"): English grammar's closed
// classes, not any rule's words.
var (
	nounBefore = lazyRE(`(?i)\b(?:the|a|an|this|that|these|those|same|its|their|our|your|each|every|any|which|whose|following)\s+$`)
	nounAfter  = lazyRE(`(?i)^\s*(?:as|of|like)\b`)
)

// namesJob reports whether a sentence names the job j does, as a verb or
// its forms ("format the code", "formatted", "a formatter"): a bare word
// used as a noun names a shape, not the job ("messages in the same format
// as PR titles").
func namesJob(re *lazyRegexp, s string) bool {
	for _, loc := range re.FindAllStringIndex(s, -1) {
		// A bare word ends in none of the endings the patterns allow
		// (-s, -ed, -ing, -er): "format", "lint", "type-check".
		w := s[loc[0]:loc[1]]
		bare := !strings.ContainsAny(strings.ToLower(w[len(w)-1:]), "sdgr")
		if bare && (nounBefore.MatchString(s[:loc[0]]) || nounAfter.MatchString(s[loc[1]:])) {
			continue
		}
		return true
	}
	return false
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
			if namesJob(j.re, part) {
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
	if n := len(cmd.Sub); n > 0 && len(cmd.Programs) == 1 && namespacedScripts[cmd.Programs[0]] && !strings.ContainsAny(cmd.Sub[n-1], ":-") {
		// The project's variants of its script are the same command:
		// `yarn test:unit` for `yarn test`, `npm run lint:fix` and `npm run
		// lint-api` for `npm run lint`.
		for _, sep := range []string{":", "-"} {
			v := *cmd
			v.Sub = append(slices.Clone(cmd.Sub[:n-1]), cmd.Sub[n-1]+sep+"*")
			except = append(except, &v)
		}
	}
	// The other commands of the same program the sentence names, outside
	// what it rules out, are the job's too: "Formatting: `yarn fmt:check`
	// / `yarn fmt:write`".
	negated := negatedClauses(s)
	for _, span := range codeSpan.FindAllString(jobClause(s, at), -1) {
		alt, ok := spanCommand(span)
		if !ok || strings.Trim(span, "`") == strings.Trim(o.Text, "`") || len(cmd.Programs) != 1 || alt.Program != cmd.Programs[0] {
			continue
		}
		if slices.ContainsFunc(negated, func(c string) bool { return strings.Contains(c, span) }) {
			continue
		}
		if sub := alt.Sub(len(cmd.Sub)); len(sub) > 0 && !slices.ContainsFunc(except, func(e *check.CommandPattern) bool { return subsCover(e.Sub, sub) }) {
			except = append(except, &check.CommandPattern{Programs: cmd.Programs, Sub: sub})
		}
	}
	return check.Check{Kind: check.PreferInstead, Instead: strings.Trim(o.Text, "`"),
		Command:    &check.CommandPattern{Classes: jobs, Except: except},
		RemindOnly: languageJob.MatchString(before + " " + after)}, true
}

// jobClause is the clause of s around byte at: between the clause ends
// (jobClauseEnd) before and after it.
func jobClause(s string, at int) string {
	start, end := 0, len(s)
	for _, b := range jobClauseEnd.FindAllStringIndex(s, -1) {
		if b[1] <= at {
			start = b[1]
		} else if b[0] > at {
			end = b[0]
			break
		}
	}
	return s[start:end]
}

// subsCover reports whether a pattern's subcommand words cover sub's, as
// a check reads them (a "*" in a word matches any text: "lint-*" covers
// "lint-api").
func subsCover(pattern, sub []string) bool {
	if len(pattern) != len(sub) {
		return false
	}
	for i, w := range pattern {
		if ok, _ := path.Match(w, sub[i]); !ok {
			return false
		}
	}
	return true
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

// requiredFlags compiles the flags a sentence that obliges ("always",
// "must") requires of a command it names: "Every commit must carry a
// sign-off: `git commit -s`", "Always run `go test` with `-race`". The
// command, a program with its subcommand, run without one of them breaks
// the rule. A condition or purpose the check cannot tell ("when
// debugging") makes it a reminder; a command without a subcommand, or a
// flag with a placeholder, gives none. In a sentence about a phase
// ("before pushing") only the phase's own command counts: "run `go test
// -race` before pushing" asks for a step, not for every run of go test.
func requiredFlags(s string, d Directive, phase *check.CommandPattern) []check.Check {
	if !obligation.MatchString(s) {
		return nil
	}
	objs := d.Do
	if slices.ContainsFunc(objs, func(o Object) bool { return o.Kind == KindFlag }) && !slices.ContainsFunc(objs, func(o Object) bool { return o.Kind == KindCode }) {
		// "Always use `--tl:off` for `dotnet test`": a reading of the
		// sentence as a requirement keeps only the flag; its commands
		// are the sentence's code spans (as lackedFlags reads them).
		objs = codeObjects(s)
	}
	flagOf, bound, without := boundFlags(s, objs)
	var out []check.Check
	for i, o := range objs {
		if o.Example || o.Kind != KindCode || bound[i] {
			continue
		}
		p := codeCommand(o.Text, "run")
		if f, ok := flagOf[i]; ok && without[i] && p != nil && phase == nil && !placeholder(f) {
			// "Always run `vitest` without `--watch`": the command with
			// the flag is what is ruled out.
			remind := conditionQualifies(d.When) || qualified(s, []string{strings.Trim(o.Text, "`"), f})
			out = append(out, check.Check{Kind: check.Forbid, RemindOnly: remind,
				Command: &check.CommandPattern{Programs: p.Programs, Sub: p.Sub, Flags: append(spanFlags(o.Text), f)}})
			continue
		}
		if p == nil || len(p.Sub) == 0 || openArgs(o.Text) {
			continue
		}
		if phase != nil && !(slices.Equal(p.Programs, phase.Programs) && slices.Equal(p.Sub, phase.Sub)) {
			continue
		}
		flags := spanFlags(o.Text)
		if f, ok := flagOf[i]; ok && !without[i] {
			flags = append(flags, f)
		}
		if len(flags) == 0 || slices.ContainsFunc(flags, placeholder) {
			continue
		}
		remind := conditionQualifies(d.When) || qualified(s, []string{strings.Trim(o.Text, "`")})
		out = append(out, check.Check{Kind: check.Forbid, RemindOnly: remind,
			Command: &check.CommandPattern{Programs: p.Programs, Sub: p.Sub, Lacks: flags}})
	}
	return out
}

// spanFlags are the flags a command span gives, each with its value when
// joined by "=" (`--base=main`).
func spanFlags(code string) []string {
	var out []string
	for _, w := range strings.Fields(strings.Trim(strings.TrimSpace(code), "`")) {
		if len(w) > 1 && w[0] == '-' && w != "--" {
			out = append(out, w)
		}
	}
	return out
}

// lackedFlags compiles a command a negated sentence rules out unless given
// a flag ("never run `npm install` without `--save-exact`"): the command
// lacking it. The command and its flag are bound as everywhere
// (boundFlags), over the sentence's code spans, since a reading of the
// sentence as a requirement keeps only the flag; a condition makes it a
// reminder.
func lackedFlags(s string, d Directive) []check.Check {
	if !prohibition.MatchString(s) {
		return nil
	}
	objs := codeObjects(s)
	flagOf, _, without := boundFlags(s, objs)
	var out []check.Check
	for i, o := range objs {
		f, ok := flagOf[i]
		if !ok || !without[i] || placeholder(f) || openArgs(o.Text) {
			continue
		}
		p := codeCommand(o.Text, "run")
		if p == nil {
			continue
		}
		p.Lacks = append(p.Lacks, f)
		remind := conditionQualifies(d.When) || qualified(s, []string{o.Text, f})
		out = append(out, check.Check{Kind: check.Forbid, RemindOnly: remind, Command: p})
	}
	return out
}

// codeObjects are a sentence's code spans as objects, a span that opens
// with a dash a flag.
func codeObjects(s string) []Object {
	var out []Object
	for _, m := range codeSpan.FindAllString(s, -1) {
		t := strings.Trim(m, "`")
		k := KindCode
		if strings.HasPrefix(t, "-") {
			k = KindFlag
		}
		out = append(out, Object{Text: t, Kind: k})
	}
	return out
}
