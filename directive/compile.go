package directive

import (
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
// concurrent use, and it never panics: a line it fails on (a defect,
// which FuzzCompile hunts through compile) gets no check, as a line it
// cannot read does.
func Compile(content, trigger string) (out []check.Check) {
	defer func() {
		if recover() != nil {
			out = nil
		}
	}()
	return compile(content, trigger)
}

// compile is Compile without its guard.
func compile(content, trigger string) []check.Check {
	text := statement(content)
	if text == "" {
		return nil
	}
	heading, scope := readTrigger(trigger)
	text = underPhase(text, heading)
	var out []check.Check
	switch NotARule(content) {
	case "":
		rc := ruleContext{rule: cleanMarkdown(text)}
		if len(heading) > 0 {
			rc.heading = heading[len(heading)-1]
		}
		for _, s := range sentences(rc.rule) {
			out = append(out, compileSentence(s, rc, Parse(s, trigger))...)
			rc.prev = s
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
	// prev is the sentence of the rule before the one compiled.
	prev string
}

// compileSentence compiles one sentence of a rule, read by Parse into d.
func compileSentence(s string, rc ruleContext, d Directive) []check.Check {
	var out []check.Check
	if c, ok := conventionalCheck(s); ok {
		out = append(out, c)
	} else if c, ok := templateCheck(s, rc.rule); ok {
		out = append(out, c)
	} else if c, ok := imperativeCheck(s, rc.heading); ok {
		out = append(out, c)
	}
	switch {
	case d.Polarity == Forbid || d.Polarity == Prefer:
		out = append(out, judged(s, compileForbidden(s, rc, d))...)
	case d.Polarity == Require && negationCue.MatchString(terms.LowerASCII(s)) && (len(d.Dont) > 0 || namesConstruct(negatedClause(s))):
		// "Use the task scripts; do not run `./gradlew` by hand": a
		// sentence that asks for one thing and rules out another.
		f := d
		f.Polarity, f.Do = Forbid, nil
		out = append(out, compileForbidden(s, rc, f)...)
	}
	if glyphPolarity(s) == Forbid {
		// A crossed line ("❌ Bad: `npm install`") never asks for what
		// it names.
		return out
	}
	switch d.Polarity {
	case Require, Prefer:
		out = append(out, onPhaseFiles(s, compileRequired(s, d))...)
	case Context:
		// "Code is always formatted and linted before committing": a
		// requirement in the passive voice.
		if obligation.MatchString(s) {
			out = append(out, onPhaseFiles(s, compileRequired(s, d))...)
		}
	}
	return out
}

// judged makes reminders of the checks of a sentence that rules out only
// what a judgement picks out ("avoid unnecessary use of `fmt.Sprintf`",
// "no excessive logging"): a call that uses the thing cannot show it is
// the unnecessary use.
func judged(s string, cs []check.Check) []check.Check {
	if judgement.MatchString(negatedClause(s)) {
		for i := range cs {
			cs[i].RemindOnly = true
		}
	}
	return cs
}

// judgement qualifies what a rule rules out by a judgement of it.
var judgement = lazyRE(`(?i)\b(?:unnecessar(?:y|ily)|unneeded|needless(?:ly)?|excessive(?:ly)?|redundant|superfluous|gratuitous|extraneous|overly|too (?:many|much|long))\b`)

// obligation marks a sentence that requires, whatever its voice.
var obligation = lazyRE(`(?i)\b(?:always|must|has to|have to|needs? to|is required|are required|shall)\b`)

// compileForbidden compiles what a forbidding (or preferring) sentence
// rules out: commands, flags, programs, paths written, and the command
// constructs it names in words.
func compileForbidden(s string, rc ruleContext, d Directive) []check.Check {
	if onlyNoObligation(s) {
		// "there is no need to rebuild before `make test`": no
		// obligation is no prohibition.
		return nil
	}
	if d.Polarity == Forbid && negationCue.MatchString(strings.ToLower(s)) && !prohibition.MatchString(s) && !forbidHeadingItem(s, rc) {
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
	flagOf, bound, without := boundFlags(s, d.Dont)
	negated := governingNegations(s)
	for i, o := range d.Dont {
		if o.Example || o.Of != "" || bound[i] {
			continue
		}
		if d.Polarity == Forbid && len(negated) > 0 && !slices.ContainsFunc(negated, func(c string) bool { return containsObject(c, o) }) {
			// "… by running `mvn license:update-file-header` before
			// committing (… the build fails if a file doesn't include …)":
			// the negation governs another clause, not the command.
			continue
		}
		if without[i] {
			continue // the command lacking its flag: lackedFlags
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
		if p := phraseCommand(o); p != nil {
			// "Don't run npm install": a command written in prose.
			c := mk(p)
			c.RemindOnly = qualified(clause, []string{o.Text})
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
			if o.Kind != KindCode && attributive(s, o.Text) {
				// "no new Docker images", "avoid npm packages that are not
				// maintained": the tool's things, not the tool, are ruled out.
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
				if l := label(s); l != "" && !messageWords.MatchString(oc) && !prTitleWords.MatchString(oc) {
					// "**PR titles:** no `[WIP]`": the label says which
					// messages.
					oc = l + ": " + oc
				} else if commitHeading.MatchString(rc.heading) && !messageWords.MatchString(oc) && !prTitleWords.MatchString(oc) {
					// Under "## Git Commits": `No "Co-Authored-By:
					// Claude" attribution` is about commit messages.
					oc = "commit messages: " + oc
				}
				if c, ok := messageCheck(o, oc); ok {
					out = append(out, c)
				} else if c, ok := constructCheck(o, oc, rc.heading); ok {
					out = append(out, c)
				}
			}
		case o.Kind == KindPath:
			if p := codeCommand(o.Text, o.Verb); p != nil && (o.Verb == "call" || o.Verb == "run" || o.Verb == "execute" || o.Verb == "invoke") {
				// "Do not run `./gradlew` by hand": a program by its path.
				c := mk(p)
				c.RemindOnly = qualified(clause, []string{strings.Trim(o.Text, "`")})
				out = append(out, c)
				continue
			}
			if c, ok := pathCheck(o.Text, firstNonEmpty(o.Verb, writeVerbIn(clause))); ok {
				out = append(out, c)
			}
		}
	}
	out = append(out, lackedFlags(s, d)...)
	if len(progs) > 0 {
		c := mk(&check.CommandPattern{Programs: progs})
		c.RemindOnly = qualified(clause, progs)
		out = append(out, c)
	}
	if d.Polarity == Forbid {
		// Paths the negated clause names, which Parse may have read as a
		// phrase ("edit files under generated/").
		if v := writeVerbIn(clause); v != "" {
			paths := pathsIn(clause)
			if len(paths) == 0 {
				paths = impliedPaths(s, clause, rc)
			}
			for _, p := range paths {
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
		for _, k := range writeConstructs {
			if c, ok := k.compile(s, clause); ok {
				out = append(out, c)
			}
		}
	}
	// A way of running commands the negated clause names, in a
	// preference too ("use topic branches, not directly the main
	// branch").
	for _, k := range commandConstructs {
		loc := k.named.FindStringIndex(clause)
		if loc == nil {
			continue
		}
		if len(progs) > 0 && purpose.MatchString(clause[:loc[0]]) {
			// "Don't use pip when installing packages": the program is
			// ruled out; what it is for is where.
			continue
		}
		if k.mainBranch && prWords.MatchString(s) && !gitVerb.MatchString(clause[loc[0]:loc[1]]) {
			// A pull request's target, not a push or a commit: the
			// clause names main alone ("open PRs against `develop`,
			// never directly into `main`"); one that says push or
			// commit ("use pull requests (never push directly to
			// main)") rules out that.
			for _, p := range prBase {
				out = append(out, check.Check{Kind: check.Forbid, Command: p})
			}
			continue
		}
		if k.pattern != nil {
			if p := k.pattern(clause); p != nil {
				c := check.Check{Kind: check.Forbid, Command: p}
				if len(k.branch) > 0 {
					c.When = &check.Condition{Branch: k.branch}
				}
				out = append(out, c)
			}
			continue
		}
		after := clause[loc[1]:]
		remind := narrowed.MatchString(after) && !unlessAsked.MatchString(after)
		for _, p := range k.patterns {
			out = append(out, check.Check{Kind: check.Forbid, Command: p, RemindOnly: remind})
		}
	}
	// The runner may stand past the clause's end ("run Python | without
	// uv"): read from the clause on.
	from := clause
	if i := strings.Index(s, clause); i >= 0 {
		from = s[i:]
	}
	return outsideRunner(from, out)
}

// impliedPaths are the paths a negated clause that names none rules out:
// those listed after the colon that ends it ("Never touch vendored code:
// `third_party/`, `vendor/`"); those of the sentence before, which a
// pronoun points back to ("Fixtures are `*.golden` files. Never edit them
// by hand."); or the path a rule's line opens with as its label
// ("`package-lock.json` - generated; do not edit").
func impliedPaths(s, clause string, rc ruleContext) []string {
	if i := strings.Index(s, clause); i >= 0 {
		if rest, ok := strings.CutPrefix(strings.TrimLeft(s[i+len(clause):], "*_ "), ":"); ok {
			if ps := pathsIn(rest); len(ps) > 0 {
				return ps
			}
		}
	}
	if pointsBack.MatchString(clause) && rc.prev != "" {
		if ps := pathsIn(rc.prev); len(ps) > 0 {
			return ps
		}
	}
	if m := pathLabel.FindStringSubmatch(rc.rule); m != nil {
		return pathsIn("`" + m[1] + "`")
	}
	return nil
}

// pointsBack is a pronoun or a demonstrative that names what the sentence
// before named: "them", "these files", "it".
var pointsBack = lazyRE(`(?i)\b(?:them|it|these(?:\s+files)?|those(?:\s+files)?|such\s+files)\b`)

// pathLabel is a path a rule's line opens with as its label: "`.nvmrc`:
// …", "`dist/` - …".
var pathLabel = lazyRE("^\\W*`([^`\\s]+)`\\W*(?::|\\s[-—–]\\s)")

// noObligation are negations of a need, which forbid nothing: "you don't
// need to", "there is no need to", "need not", "is not required".
var noObligation = lazyRE(`(?i)\b(?:do|does|did|will|would)(?:\s+not|n'?t)\s+(?:need|have)\s+to\b|\bno\s+need\s+(?:to|for)\b|\bneed\s+not\b|\b(?:is|are)\s*(?:not|n'?t)\s+(?:necessary|required|needed)\b`)

// onlyNoObligation reports whether every negation of s negates a need.
func onlyNoObligation(s string) bool {
	if !noObligation.MatchString(s) {
		return false
	}
	return !negationCue.MatchString(terms.LowerASCII(noObligation.ReplaceAllString(s, " ")))
}

// labelLine is a sentence that opens with a short label and a colon
// ("Commit messages: …", "**Lint**: …").
var labelLine = lazyRE(`^\W*([\w][\w /&-]{0,40}?)[*_]*:[*_]*\s`)

// label is the label a sentence opens with, or "".
func label(s string) string {
	if m := labelLine.FindStringSubmatch(s); m != nil && len(strings.Fields(m[1])) <= 5 {
		return m[1]
	}
	return ""
}

// containsObject reports whether a clause names o: a code span as a
// span (`pnpm` is not named by `"pnpm"`), anything else as text.
func containsObject(clause string, o Object) bool {
	if o.Kind != KindCode {
		return strings.Contains(clause, o.Text)
	}
	for _, q := range []string{"`", `"`, "'"} {
		if strings.Contains(clause, q+o.Text+q) {
			return true
		}
	}
	return strings.Contains(codeSpan.ReplaceAllString(clause, " "), o.Text)
}

// namesConstruct reports whether a clause names a way of running commands
// that rules forbid (commandConstructs): "…, never directly on main".
func namesConstruct(clause string) bool {
	return clause != "" && slices.ContainsFunc(commandConstructs, func(k commandConstruct) bool { return k.named.MatchString(clause) })
}

// forbidHeadingItem reports whether s is an item under a heading that
// forbids ("Don't"), or opening with a cross, with no negation of its own
// but a "without" clause ("Run Python without uv"): the heading rules it
// out, and "without" says how.
func forbidHeadingItem(s string, rc ruleContext) bool {
	heading, _ := readTrigger(rc.heading)
	if headingPolarity(heading) != Forbid && glyphPolarity(s) != Forbid {
		return false
	}
	return len(governingNegations(s)) == 0
}

// governingNegations are the clauses of s that a negation governs, but a
// clause "without X", which says how, not what is ruled out: it governs no
// other object.
func governingNegations(s string) []string {
	return slices.DeleteFunc(negatedClauses(s), func(c string) bool {
		return strings.HasPrefix(strings.ToLower(strings.TrimSpace(c)), "without ")
	})
}

// purpose ends the words before a construct that name what it is for or
// when, not what is ruled out.
var purpose = lazyRE(`(?i)\b(?:for|when|while|to)\s+$`)

// underPhase reads an item that is a command under a heading or a list's
// lead-in naming when it must run ("Before committing, run:" then "-
// `npm test` (all must pass)") as the step of that phase, as the sentence
// the two make; any other rule is read as written.
func underPhase(text string, heading []string) string {
	if len(heading) == 0 || !strings.HasPrefix(text, "`") || phaseOf(text) {
		return text
	}
	span, _, ok := strings.Cut(text[1:], "`")
	if !ok || codeCommand(span, "") == nil {
		return text
	}
	if lead := heading[len(heading)-1]; phaseOf(lead) {
		return strings.TrimRight(lead, ": ") + ": " + text
	}
	return text
}

// phaseIn is the first phase s names (phases), the moment a step comes
// before.
func phaseIn(s string) (phase, bool) {
	for _, ph := range phases {
		if ph.re.MatchString(s) {
			return ph, true
		}
	}
	return phase{}, false
}

// phaseOf reports whether s names a phase.
func phaseOf(s string) bool {
	_, ok := phaseIn(s)
	return ok
}
