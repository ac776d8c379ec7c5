package directive

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/innate-mcp/innate-mcp/terms"
)

// clause reads one clause into objects.
func (p *parser) clause(c string) {
	c = alertPrefix.ReplaceAllString(strings.TrimSpace(c), "")
	c = strings.TrimLeft(c, "-*+>#| \t")
	c = discourse.ReplaceAllString(c, "")
	if c == "" {
		return
	}
	// "Label: rest". A short label names the topic; the rest directs. A
	// rest that is only code is what to use for the label's purpose
	// ("Slow tests: `RUN_SLOW=1 pytest`").
	if i := strings.Index(c, ":"); i > 0 && wordCount(c[:i]) <= 4 {
		label, rest := strings.TrimSpace(c[:i]), strings.TrimSpace(c[i+1:])
		if exampleLabel.MatchString(label) {
			// "For example: `core/mvcc: preserve markers`" shows a form
			// another clause asks for; it asks for nothing itself.
			return
		}
		if rest != "" && forbidCue.MatchString(label) && wordCount(label) >= 2 && !onlyCode(rest) {
			// "Never mutate state directly: always update it immutably":
			// two directives, not a label.
			p.clause(label)
			p.clause(rest)
			return
		}
		if rest != "" && !forbidCue.MatchString(label) {
			if onlyCode(rest) {
				// "Slow tests: `RUN_SLOW=1 pytest`" names what to run; "Key
				// files: `a.cpp`, `b.cpp`" only maps the repository.
				if os := p.objects(rest); !allPaths(os) {
					p.add(Require, os, nil)
				}
				return
			}
			c = rest
		}
	}
	if p.when == "" && conditionOnly.MatchString(c) && !forbidCue.MatchString(c) && !requireCue.MatchString(c) {
		// "CRD Changes: If you changed anything in the `api/` module:"
		// opening the steps that follow: their condition.
		p.when = p.unmask(strings.TrimRight(strings.TrimSpace(c), ":"))
		return
	}
	if onlyCode(c) {
		if strings.HasPrefix(c, "(") {
			return // an illustration: "(`xerrors.Errorf(\"failed to X: %w\", err)`)"
		}
		if os := p.objects(c); allPaths(os) {
			// "`hooks/` - Python scripts that run before generation": an
			// entry of the repository's map.
			if p.clauses == 0 {
				p.mapped = os
			}
			return
		}
		os := p.objects(c)
		if p.clauses == 0 && len(os) == 1 && entryName.MatchString(os[0].Text) && !commandWord[strings.ToLower(os[0].Text)] && len(toolsIn(os[0].Text)) == 0 {
			// "`lib` - Shared UI components.", "`{{ cookiecutter.project_slug
			// }}` - User's project name": a glossary or map entry names a
			// part of the project, not a command to run.
			p.mapped = os
			return
		}
		// "`pnpm test`" opening "`pnpm test` - Run frontend tests".
		p.add(Require, os, nil)
		return
	}
	// Exception: "unless explicitly asked", "without prior discussion".
	if loc := unlessCue.FindStringIndex(c); loc != nil && loc[0] > 0 {
		if p.unless == "" {
			p.unless = p.unmask(strings.TrimSpace(c[loc[1]:]))
			if p.unless == "" {
				p.unless = p.unmask(strings.TrimSpace(c[loc[0]:]))
			}
		}
		c = strings.TrimSpace(c[:loc[0]])
	}
	// A condition left to judgment: "where applicable", "if needed".
	if loc := softCondition.FindStringIndex(c); loc != nil && loc[0] > 0 {
		if p.when == "" {
			p.when = strings.TrimSpace(strings.TrimLeft(p.unmask(c[loc[0]:loc[1]]), ", ("))
		}
		c = strings.TrimSpace(c[:loc[0]] + c[loc[1]:])
	}
	// Condition: "When X, do Y" / "Do Y after X".
	if m := leadingCond.FindStringSubmatchIndex(c); m != nil && m[1] < len(c) {
		if p.when == "" {
			p.when = p.unmask(strings.TrimSpace(c[:m[1]-1]))
		}
		c = strings.TrimSpace(c[m[1]:])
	} else if m := trailingCond.FindStringSubmatchIndex(c); m != nil && m[0] > 0 {
		if p.when == "" {
			p.when = p.unmask(strings.TrimSpace(c[m[0]:]))
		}
		c = strings.TrimSpace(c[:m[0]])
	}
	if m := leadingAdverb.FindStringSubmatchIndex(c); m != nil && imperatives[strings.ToLower(c[m[2]:m[3]])] {
		// "strongly prefer to add them to existing test files", "generally
		// use …": the adverb says how much, the verb what.
		c = c[m[2]:]
	}
	lower := strings.ToLower(c)
	forbids := forbidCue.MatchString(mainPart(lower))
	requires := requireCue.MatchString(copulaOnly.ReplaceAllString(lower, " ")) || startsImperative(lower) && !placeStatement.MatchString(lower)
	if len(p.mapped) > 0 && p.clauses == 0 && !forbids && !requireCue.MatchString(lower) {
		// "`hooks/` - Python scripts that run before generation": what
		// follows a map entry says what the entry is, not what a plan
		// must do. A script that does a job ("`scripts/node_version.py` -
		// Update Node.js versions across Dockerfiles, package.json, CI")
		// is how that job is done.
		if len(p.mapped) == 1 && script.MatchString(p.mapped[0].Text) && startsImperative(lower) {
			p.add(Require, withVerb(slices.Clone(p.mapped), "run"), nil)
		}
		return
	}
	if !forbids && !requires {
		// A convention stated of a subject: "PR titles follow `Module:
		// Description`", "Errors use `anyhow::Result`", "Hilt is used for
		// dependency injection".
		if permissive.MatchString(lower) {
			// "then you can use `scripts/test.sh`": an option, not a rule.
			return
		}
		if loc := convention.FindStringSubmatchIndex(lower); loc != nil {
			subject, rest := c[:loc[2]], c[loc[3]:]
			if m := passiveUse.FindStringIndex(lower); m != nil {
				rest = subject
			}
			if m := preferMarker.FindStringIndex(rest); m != nil && !strings.HasPrefix(strings.ToLower(strings.TrimSpace(rest)), "instead") {
				// "Internal crates use `path = …`, not `workspace = true`".
				p.add(Prefer, p.objects(rest[:m[0]]), p.objects(strings.TrimSuffix(strings.TrimSpace(rest[m[1]:]), ")")))
				return
			}
			os := p.asked(rest)
			if v := lower[loc[2]:loc[3]]; v == "extend" || v == "inherit from" {
				// "Errors extend `AISDKError` from `@ai-sdk/provider`".
				os = withBase(os)
			}
			if len(os) > 0 && exampleCue.MatchString(rest) && !slices.ContainsFunc(os, func(o Object) bool { return !o.Example }) {
				// "The architecture follows a plugin pattern where each
				// package manager (e.g., `bundler`) implements …": what
				// the examples show is how the project is built.
				return
			}
			if placeConvention.MatchString(lower[loc[2]:loc[3]]) {
				// "Snippet templates live in `src/…/SnippetTemplates/`":
				// where a kind of thing goes, not a step every plan takes.
				os = withPlace(os)
			}
			p.add(Require, os, nil)
			return
		}
	}
	p.clauses++
	if p.heading == Forbid && p.clauses == 1 && !forbids && startsImperative(lower) {
		// Under "Don't" or "Never", the item's own statement forbids what
		// it names; a later clause ("— use X instead") keeps its polarity.
		forbids, requires = true, false
	}
	if forbids && len(p.mapped) > 0 && anaphor.MatchString(c) {
		// "`packages/types/` - … - this is deprecated, never modify this
		// package": the map entry is what is ruled out.
		p.add(Forbid, nil, withVerb(slices.Clone(p.mapped), firstWord(strings.ToLower(strings.TrimSpace(afterCue(c))))))
		return
	}
	prefers := preferMarker.MatchString(c) && (strings.HasPrefix(lower, "instead") || strings.HasPrefix(lower, "rather"))
	if m := notMarker.FindStringIndex(c); m != nil && !forbids && !requires && wordCount(c[:m[0]]) <= 4 {
		// "Refena (`refena_flutter`), not Riverpod", "Vitest, not Jest":
		// a choice stated without a verb.
		prefers = true
	}
	if !forbids && !requires && !prefers {
		return // a statement, not a directive
	}
	// Preferences: "X instead of Y", "instead of Y, X", "prefer X over Y".
	if loc := preferMarker.FindStringIndex(c); loc != nil {
		left, right := splitAt(c, loc)
		if strings.TrimSpace(left) == "" || strings.HasPrefix(strings.ToLower(strings.TrimSpace(c)), "instead") {
			// "Instead of Y, X".
			if j := strings.Index(right, ","); j > 0 {
				left, right = right[j+1:], right[:j]
			}
		}
		var example string
		if m := exampleCue.FindStringIndex(right); m != nil && m[0] > 0 {
			// "instead of hard coding classes eg use "heading-default"
			// instead of "text-sm font-medium"": the example that follows
			// is not what is ruled out, but a choice of its own.
			right, example = right[:m[0]], strings.TrimSpace(right[m[1]:])
		}
		right = strings.TrimSuffix(strings.TrimSpace(right), ")")
		if forbidCue.MatchString(strings.ToLower(left)) && !strings.Contains(strings.ToLower(c[loc[0]:loc[1]]), "not") {
			// "Never X instead of Y" reads as "Y, not X".
			left, right = right, left
		}
		p.add(Prefer, p.objects(left), p.objects(right))
		ex := strings.TrimPrefix(example, ",")
		if m := preferMarker.FindStringIndex(ex); m != nil {
			// "(e.g., `@calcom/ui/components/button` not `@calcom/ui`)".
			do, dont := splitAt(ex, m)
			p.add(Prefer, p.objects(stripUse.ReplaceAllString(do, "")), p.objects(strings.TrimSuffix(strings.TrimSpace(dont), ")")))
		}
		return
	}
	if preferVerb.MatchString(lower) {
		if loc := overMarker.FindStringIndex(c); loc != nil {
			p.add(Prefer, p.objects(c[:loc[0]]), p.objects(c[loc[1]:]))
			return
		}
		if m := preferVerb.FindStringIndex(c); m != nil && m[0] == len(c)-len(strings.TrimLeft(c, " ")) && !strings.Contains(lower, "instead") {
			// "For multi-file tests, prefer `tempDir` and `Bun.spawn`": a
			// preference without its other side asks for nothing a plan
			// must do.
			p.add(Prefer, p.objects(c[m[1]:]), nil)
			return
		}
	}
	if forbids {
		rest := afterCue(c)
		if m := requiredStep.FindStringIndex(rest); m != nil && m[0] > 0 {
			// "Add new dependencies without running `pnpm
			// update-references`", "Do not create a git branch that isn't
			// prefixed with `eon/`": what is ruled out is leaving the
			// step out, so the step is asked for when the plan does the
			// rest.
			_, step := splitAt(rest, m)
			if os := p.objects(step); len(os) > 0 {
				if p.when == "" {
					p.when = p.unmask(strings.TrimSpace(rest[:m[0]]))
				}
				p.add(Require, withVerb(os, firstWord(strings.ToLower(strings.TrimSpace(step)))), nil)
				return
			}
		}
		os := withVerb(p.objects(rest), firstWord(strings.ToLower(strings.TrimSpace(rest))))
		ruledOutFor(os, strings.TrimLeft(rest, " "))
		p.add(Forbid, nil, os)
		return
	}
	// "Every PHP class in `src/` should have a matching test": what the
	// subject before the modal names is where the rule applies, what
	// follows it is what the rule asks; "`gofumpt` should be used" keeps
	// its subject.
	if m := subjectModal.FindStringSubmatchIndex(lower); m != nil && !startsImperative(lower) && !passiveModal.MatchString(lower[m[1]:]) && !hedged.MatchString(lower[:m[1]]) {
		if os := p.objects(c[m[1]:]); len(os) > 0 {
			p.add(Require, withVerb(os, firstWord(strings.TrimSpace(lower[m[1]:]))), nil)
			return
		}
	}
	p.add(Require, withVerb(p.asked(c), firstWord(lower)), nil)
}

// asked returns the objects a requiring segment asks for: those before a
// "for" that names what they serve ("use a marker pattern for
// `instanceof` checks") or an "above" that names where they go ("add an
// `@see` comment above `it()`"), or all of them when nothing precedes it.
func (p *parser) asked(seg string) []Object {
	m := purposeFor.FindStringIndex(seg)
	if l := locative.FindStringIndex(seg); l != nil && (m == nil || l[0] < m[0]) {
		m = l
	}
	if m != nil && m[0] > 0 {
		if head := p.objects(seg[:m[0]]); len(head) > 0 {
			// A place after it is still asked for: "update documentation
			// for user-facing features in `packages/{package}/docs/`".
			for _, o := range p.objects(seg[m[1]:]) {
				if o.Kind == KindPath {
					head = append(head, o)
				}
			}
			return head
		}
	}
	return p.objects(seg)
}

// permissive offers a choice rather than asking: "you can use", "may
// also run".
var permissive = lazyRE(`\b(?:can|may|could|might)\s+(?:also\s+|optionally\s+|still\s+)?(?:use|run|call|try|add|set)\b`)

// locative opens where a required thing goes in the code, next to what.
var locative = lazyRE(`(?i)\s+(?:above|below|beneath|underneath|next to|alongside)\s+`)

// purposeFor opens what a required thing is for: "… for `instanceof`
// checks".
var purposeFor = lazyRE(`(?i)\s+for\s+`)

// ruledOutFor sets Of on the places a forbidding clause rules out for some
// things only: "No one-off kernel benchmarks in `tests/`" rules `tests/`
// out for benchmarks (its head noun). The things are words only, so every
// span is the place; a place named for them ("blog posts under
// `docs/blog/`") holds nothing else, so anything put there is one of them
// and it is ruled out whole.
func ruledOutFor(os []Object, rest string) {
	m := placeOf.FindStringSubmatch(rest)
	if m == nil {
		return
	}
	var things []string
	for _, w := range strings.Fields(m[1]) {
		if lw := strings.ToLower(w); !fillers[lw] && !imperatives[gerundBase(lw)] && !generic[lw] {
			things = append(things, w)
		}
	}
	if len(things) == 0 || len(terms.Tokens(things[len(things)-1])) == 0 {
		return
	}
	of := strings.ToLower(things[len(things)-1])
	named := terms.Tokens(strings.Join(things, " "))
	for i := range os {
		if (os[i].Kind == KindPath || os[i].Kind == KindCode) && !slices.ContainsFunc(terms.Tokens(os[i].Text), func(t string) bool { return slices.Contains(named, t) }) {
			os[i].Of = of
		}
	}
}

// softCondition is a condition left to the reader's judgment ("where
// applicable", "if needed", "when possible"): a plan that does not take
// the step may have judged it not to apply, so its absence says nothing.
var softCondition = lazyRE(`(?i)[,(]?\s*\b(?:where|when|if|as|whenever)\s+(?:applicable|possible|appropriate|needed|necessary|relevant|feasible|practical|sensible|it makes sense)\b\)?`)

// splitAt returns s before and after the marker at loc. A marker that ends
// on the opening of a masked code span ("not `Y`", "without `X`") leaves
// the span to what follows it.
func splitAt(s string, loc []int) (before, after string) {
	end := loc[1]
	if end > loc[0] && s[end-1] == '\x01' {
		end--
	}
	return s[:loc[0]], s[end:]
}

// requiredStep is where a forbidding clause turns to the step it asks
// for: "… without running X", "… that isn't prefixed with X".
var requiredStep = lazyRE(`(?i)\s+without\s+(?:\w+ing\b\s*|\x01)|\s+(?:that|which)\s+(?:isn'?t|aren'?t|doesn'?t|don'?t|is not|are not|does not|do not)\s+`)

// placeOf reads "<things> in <place>" opening a forbidding clause: its
// first group is the things, and what follows the preposition the place.
var placeOf = lazyRE(`^((?:[\w'-]+\s+){1,5}?)(?:in|under|inside|within|for)\s+`)

// hedged ends a subject's modal that only says what may be needed ("may
// require updates in others").
var hedged = lazyRE(`\b(?:may|might|can|could|often|sometimes)\s+requires?\s+$`)

// subjectModal is a requirement's modal after a subject of at least two
// words: "Every PHP class in `src/` should", "Tests for UI features must",
// "updates to client-side deps in `pyproject.toml` require".
var subjectModal = lazyRE(`^(?:\S+\s+){2,}?(?:must|should|shall|needs? to|has to|have to|requires?)\s+(?:always\s+|only\s+|also\s+)?`)

// relativeClause finds a relative pronoun after a noun: "issues that",
// "files which".
var relativeClause = lazyRE(`\b([a-z][\w'-]*)\s+(?:` + strings.Join(relativeWords, "|") + `)\b`)

// complementizers are the words after which "that" opens what is asked,
// not a relative clause ("make sure that", "so that").
var complementizers = set("sure", "ensure", "so", "such", "verify", "check", "confirm", "means", "say", "says", "note")

// mainPart returns a lower-cased imperative clause up to its first relative
// clause: "use `logger.DPanic` for issues that should not crash production"
// does not forbid. Other clauses are returned whole.
func mainPart(lower string) string {
	if !startsImperative(lower) {
		return lower
	}
	for _, m := range relativeClause.FindAllStringSubmatchIndex(lower, -1) {
		if !complementizers[lower[m[2]:m[3]]] && !forbidCue.MatchString(lower[m[2]:m[3]]) {
			return lower[:m[0]+(m[3]-m[2])]
		}
	}
	return lower
}

// slashPair is two words joined by a slash in prose: "stash/revert".
var slashPair = lazyRE(`\b([A-Za-z][\w-]*)/([A-Za-z][\w-]*)\b`)

// orVerbs reads "stash/revert" as "stash, revert" when both are actions a
// rule names; other pairs ("async/await", "src/lib") stay as they are.
func orVerbs(m string) string {
	a, b, _ := strings.Cut(m, "/")
	la, lb := strings.ToLower(a), strings.ToLower(b)
	if (imperatives[la] || gitVerbs[la]) && (imperatives[lb] || gitVerbs[lb]) {
		return a + ", " + b
	}
	return m
}

// gitVerbs are the version-control actions rules name in prose.
var gitVerbs = set("stash", "revert", "reset", "amend", "squash", "rebase", "merge", "cherry-pick", "force-push", "checkout")

// exampleLabel is a label that introduces an example.
var exampleLabel = lazyRE(`(?i)^(?:for (?:example|instance)|examples?|eg|e\.g\.?|sample|good example|bad example|like this|good|bad|correct|incorrect|wrong|✅|❌)$`)

// anaphor is what a clause calls the thing a map entry named: "this
// package", "these files", "it".
var anaphor = lazyRE(`(?i)\b(?:this|these|that|those|its?|them)\b(?:\s+(?:package|packages|directory|directories|folder|folders|file|files|module|modules|code|dir|crate|crates))?(?:\s+(?:for|when|unless|except|during|in)\b[^.]*)?\s*$|\b(?:this|these)\s+(?:package|packages|directory|directories|folder|folders|file|files|module|modules|dir|crate|crates)\b`)

// placeConvention is a convention's verb that says where things go.
var placeConvention = lazyRE(`^(?:go|goes|live|lives|belong|belongs|is|are) in$`)

// placeStatement says where something is, opening with a word that could be
// an imperative: "Build configuration for these is in `scripts/…`".
var placeStatement = lazyRE(`^(?:[\w\x01\x02'/.-]+\s+){1,5}?(?:is|are) in\b`)

// PlaceVerb is the Verb of an object that says where a kind of thing goes
// ("live in", "belong in"): a plan that makes no such thing lacks nothing.
const PlaceVerb = "live in"

// ExtendVerb is the Verb of an object that is a base class a rule asks a
// plan's classes to extend ("Errors extend `AISDKError`"): a class with
// another base breaks it.
const ExtendVerb = "extend"

// withBase marks the code objects among os as base classes to extend.
func withBase(os []Object) []Object {
	for i := range os {
		if os[i].Kind == KindCode {
			os[i].Verb = ExtendVerb
		}
	}
	return os
}

// withPlace marks objects as places things go.
func withPlace(os []Object) []Object {
	for i := range os {
		os[i].Verb = PlaceVerb
	}
	return os
}

// passiveModal is a modal's passive ("be used", "be run with"), which
// leaves the requirement in the subject.
var passiveModal = lazyRE(`^(?:not\s+)?be\s+\w+(?:ed|en|un|wn|lt)\b`)

// withVerb records the clause's opening verb on its objects.
func withVerb(os []Object, verb string) []Object {
	verb = gerundBase(verb)
	if !imperatives[verb] {
		return os
	}
	for i := range os {
		if os[i].Verb != PlaceVerb && os[i].Verb != ExtendVerb {
			os[i].Verb = verb
		}
	}
	return os
}

// gerundBase returns the imperative a gerund is made of ("changing" →
// "change", "running" → "run", "editing" → "edit"), or the word itself.
func gerundBase(w string) string {
	b, ok := strings.CutSuffix(w, "ing")
	if !ok || len(b) < 2 || imperatives[w] {
		return w
	}
	for _, c := range []string{b, b + "e", b[:len(b)-1]} {
		if imperatives[c] {
			return c
		}
	}
	return w
}

// allPaths reports whether every object is a path.
func allPaths(os []Object) bool {
	for _, o := range os {
		if o.Kind != KindPath {
			return false
		}
	}
	return true
}

// add records a clause's objects and the polarity of the first clause
// that directs.
func (p *parser) add(pol Polarity, do, dont []Object) {
	// A cue's adverb read as a name ("Always" opening a clause after a
	// colon) names nothing a plan could do or break.
	bare := func(o Object) bool {
		return (o.Kind == KindPhrase || o.Kind == KindName) && cueWords[strings.ToLower(o.Text)]
	}
	do, dont = slices.DeleteFunc(do, bare), slices.DeleteFunc(dont, bare)
	if len(do) == 0 && len(dont) == 0 {
		return
	}
	if p.first == "" || p.first == Context {
		p.first = pol
	}
	p.do = append(p.do, do...)
	p.dont = append(p.dont, dont...)
}

// afterCue returns the part of a forbidding clause after its negation,
// where the forbidden thing is named ("Do not edit `X` directly" → "edit
// `X` directly").
func afterCue(c string) string {
	loc := forbidCue.FindStringIndex(c)
	if loc == nil || loc[0] > len(c)/2 {
		return c
	}
	if r, _ := utf8.DecodeRuneInString(c[loc[0]:]); r >= utf8.RuneSelf {
		return c // Chinese and Japanese negate after the object too
	}
	return c[loc[1]:]
}

// startsImperative reports whether a lower-cased clause opens with an
// imperative verb.
func startsImperative(lower string) bool {
	w := firstWord(lower)
	return imperatives[w]
}

func firstWord(s string) string {
	s = strings.TrimLeftFunc(s, func(r rune) bool { return !unicode.IsLetter(r) })
	end := strings.IndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' && r != '-' })
	if end < 0 {
		end = len(s)
	}
	return s[:end]
}

// onlyCode reports whether a clause is nothing but code spans, with
// separators ("`a` / `b`", "`a` or `b`").
func onlyCode(c string) bool {
	if !strings.ContainsRune(c, markOpen) {
		return false
	}
	rest := maskedSpan.ReplaceAllString(c, " ")
	for _, f := range strings.Fields(strings.ToLower(rest)) {
		f = strings.Trim(f, ",/()&+|.")
		if f != "" && f != "or" && f != "and" && f != "only" {
			return false
		}
	}
	return true
}
