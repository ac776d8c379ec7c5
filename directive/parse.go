package directive

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/innate-mcp/innate-mcp/check"
	"github.com/innate-mcp/innate-mcp/rulefile"
)

// Version is the version of the parser. A stored Directive of an older
// version is read again from its rule when the parser has changed.
const Version = 36

// Polarity is what a rule does with its objects. Plain string, safe for
// concurrent use.
type Polarity string

// The polarities.
const (
	// Context: the rule describes (the stack, the layout, who the agent
	// is) rather than directs; it is recallable but never cautions or
	// affirms.
	Context Polarity = "context"
	// Require: the rule asks for its Do objects ("use X", "run X", "always X").
	Require Polarity = "require"
	// Forbid: the rule rules out its Dont objects ("never Y", "don't Y",
	// "avoid Y"); Do may hold the alternative it names.
	Forbid Polarity = "forbid"
	// Prefer: the rule asks for X over Y ("prefer X over Y", "X, not Y",
	// "X instead of Y").
	Prefer Polarity = "prefer"
)

// Kind is the form of an object, which decides how it is matched.
type Kind string

// The kinds of objects.
const (
	KindCode   Kind = "code"   // a `backticked` or "quoted" span: matched by shape, placeholders as wildcards
	KindFlag   Kind = "flag"   // a command-line flag: --no-verify
	KindPath   Kind = "path"   // a file or directory path or file name, possibly a glob
	KindName   Kind = "name"   // a tool, library or identifier named in prose: Zod, Moq, Jackson
	KindPhrase Kind = "phrase" // a short noun phrase: "raw pointers", "enums"
)

// Object is one thing a rule asks for or rules out. Plain data.
type Object struct {
	Text string `json:"text"`
	Kind Kind   `json:"kind"`
	// Verb is the imperative that governs the object in the rule ("use",
	// "run", "edit"), when the clause opens with one.
	Verb string `json:"verb,omitempty"`
	// Example is true for an object named in parentheses: an illustration
	// ("(e.g. `components/auth-wizard`)"), matched but never required.
	Example bool `json:"example,omitempty"`
	// Of is, for a place a rule rules out, what it is ruled out for: "No
	// one-off kernel benchmarks in `tests/`" rules out `tests/` of
	// "one-off kernel benchmarks" only, and a plan that runs a test there
	// does not break it.
	Of string `json:"of,omitempty"`
}

// Directive is what a rule prescribes and forbids. The zero value is a
// context rule. Plain data, safe to copy and to read concurrently.
type Directive struct {
	Version  int      `json:"version"`
	Polarity Polarity `json:"polarity"`
	// Do are the objects the rule asks for; Dont the ones it rules out.
	Do   []Object `json:"do,omitempty"`
	Dont []Object `json:"dont,omitempty"`
	// When is the condition the rule applies under ("after making changes
	// to queries", "before committing"); Unless its exception
	// ("explicitly asked").
	When   string `json:"when,omitempty"`
	Unless string `json:"unless,omitempty"`
	// Globs are the file patterns the rule is scoped to (a rule file's
	// "globs" or "applyTo").
	Globs []string `json:"globs,omitempty"`
	// Dir is the directory a nested rule file governs ("src-ui" for
	// src-ui/CLAUDE.md); "" at the project's root.
	Dir string `json:"dir,omitempty"`
	// Subject is what the rule governs, in a few words: its objects and
	// the words around them, for matching situations to the rule.
	Subject string `json:"subject,omitempty"`
	// Naming is the naming convention the rule sets ("use lowercase with
	// dashes for directories"), if any.
	Naming *Naming `json:"naming,omitempty"`
	// Indent is the indentation width the rule sets ("2-space
	// indentation"), if any.
	Indent *Indent `json:"indent,omitempty"`
}

// Directs reports whether d prescribes or forbids something checkable.
func (d Directive) Directs() bool {
	return d.Polarity != Context && d.Polarity != "" && (len(d.Do) > 0 || len(d.Dont) > 0 || d.Naming != nil || d.Indent != nil)
}

// maxRuleBytes bounds the text of a rule that is read: its statement, not
// the examples and elaborations that follow.
const maxRuleBytes = 2000

// Parse reads a rule's content and its trigger (as package rulefile makes
// it: description; "files: globs"; heading path "A > B") into a Directive.
// It never fails: text it cannot read is context. Safe for concurrent use.
func Parse(content, trigger string) Directive {
	d := Directive{Version: Version, Polarity: Context}
	heading, scope := readTrigger(trigger)
	d.Globs, d.Dir = scope.Globs, scope.Dir
	text := statement(content)
	if text == "" {
		return d
	}
	p := parser{heading: headingPolarity(heading), title: titleWords(heading)}
	if g := glyphPolarity(text); g != Context {
		p.heading = g // "❌ Run npm install" is an item under "Don't"
	}
	p.run(text)
	d.Do, d.Dont = dedupObjects(p.do), dedupObjects(p.dont)
	// An object both asked for and ruled out ("prefer `if let` chains over
	// nested `if let`") decides nothing.
	both := func(os []Object, o Object) bool {
		return slices.ContainsFunc(os, func(x Object) bool { return strings.EqualFold(x.Text, o.Text) })
	}
	do, dont := d.Do, d.Dont
	d.Do = slices.DeleteFunc(slices.Clone(do), func(o Object) bool { return both(dont, o) })
	d.Dont = slices.DeleteFunc(slices.Clone(dont), func(o Object) bool { return both(do, o) })
	d.When, d.Unless = p.when, p.unless
	if d.When == "" && len(heading) > 1 {
		// "CRD Changes: If you changed anything in the api/ module" above
		// "Run `make crd_install` …": the heading's condition is the rule's.
		if m := headingCondition.FindStringSubmatch(heading[len(heading)-1]); m != nil {
			d.When = strings.TrimRight(strings.TrimSpace(m[1]), ":")
		}
	}
	if len(d.Do) > 0 || len(d.Dont) > 0 {
		d.Polarity = p.first
		if d.Polarity == Context {
			d.Polarity = Require
			if len(d.Do) == 0 {
				d.Polarity = Forbid
			}
		}
	}
	if n := readIndent(text); n != nil && d.Polarity != Forbid {
		// "The project uses SwiftFormat with 2-space indentation": the
		// width is checked on what the plan says it indents with.
		d.Indent = n
		if d.Polarity == Context {
			d.Polarity = Require
		}
	}
	if n := readNaming(text); n != nil && d.Polarity != Forbid {
		// The style's own words ("PascalCase", "lowercase", "hyphens")
		// are not things to use: the convention is checked on the names.
		d.Naming = n
		d.Do = slices.DeleteFunc(d.Do, func(o Object) bool { return styleWord.MatchString(o.Text) })
		d.Dont = slices.DeleteFunc(d.Dont, func(o Object) bool { return styleWord.MatchString(o.Text) })
		if d.Polarity == Context {
			d.Polarity = Require
		}
	}
	d.Subject = subject(d)
	return d
}

// AboutPrefix opens the part of a trigger that names what a rule governs
// (its Subject), which the knowledge base appends to a rule file's trigger;
// Parse skips it.
const AboutPrefix = "about: "

// ScopeOf is where a rule holds, as its trigger says (check.Scope): the
// globs of its file's front matter and the directory a nested file governs.
func ScopeOf(trigger string) check.Scope {
	_, s := readTrigger(trigger)
	return s
}

// readTrigger returns the heading path of a rulefile trigger and the
// scope it names: the globs of the file's front matter and the directory a
// nested rule file governs.
func readTrigger(trigger string) (heading []string, scope check.Scope) {
	for _, part := range strings.Split(trigger, "; ") {
		part = strings.TrimSpace(part)
		if strings.HasPrefix(part, AboutPrefix) {
			continue
		}
		if g, ok := strings.CutPrefix(part, rulefile.FilesPrefix); ok {
			for _, x := range strings.Split(g, ",") {
				if x = strings.TrimSpace(x); x != "" {
					scope.Globs = append(scope.Globs, x)
				}
			}
			continue
		}
		if dir, ok := strings.CutPrefix(part, rulefile.DirPrefix); ok {
			scope.Dir = strings.TrimSpace(dir)
			continue
		}
		if part != "" {
			heading = strings.Split(part, " > ") // the heading path comes last
		}
	}
	return heading, scope
}

// headingCondition is a heading (or the list item a rule is nested under)
// that states when its rules apply: "If you change…", "CRD Changes: If you
// changed anything in the api/ module".
var headingCondition = lazyRE(`(?i)(?:^|:\s+)((?:` + touchWords + `)\s.+)$`)

// touchWords open a condition on what a plan changes ("If you changed
// anything in the api/ module"): in a heading (headingCondition), as a
// clause of its own (conditionOnly) and when a plan is checked against it
// (touchCondition).
const touchWords = "if|when|whenever|once"

// titleWords are the lower-cased words of a rule file's title, the first
// heading of a path of several ("Turso Agent Guidelines > Testing"): the
// project's own name, which its rules name without ruling it out ("Do not
// modify these for Turso behavior changes").
func titleWords(heading []string) map[string]bool {
	if len(heading) < 2 {
		return nil
	}
	m := map[string]bool{}
	for _, w := range wordRE.FindAllString(heading[0], -1) {
		m[strings.ToLower(w)] = true
	}
	return m
}

// statement is the part of a rule's content that states it: the text
// before its first fenced code block, at most maxRuleBytes.
func statement(content string) string {
	if i := strings.Index(content, "```"); i >= 0 {
		content = content[:i]
	}
	if i := strings.Index(content, "~~~"); i >= 0 {
		content = content[:i]
	}
	content = strings.TrimSpace(content)
	if len(content) > maxRuleBytes {
		cut := maxRuleBytes
		for cut > 0 && !utf8.RuneStart(content[cut]) {
			cut--
		}
		content = content[:cut]
	}
	return content
}

var (
	forbidHeading  = lazyRE(`(?i)^\W*(don'?t|do not|never|avoid|prohibited|forbidden|not allowed|anti-?patterns?|bad|what not to do|never touch|must not|no-?go)\b`)
	requireHeading = lazyRE(`(?i)^\W*(do|dos|always|must|required|mandatory|musts)\W*$`)
)

// glyphPolarity reads the mark a rule opens with (rulefile.Mark): a cross
// forbids what the line names, as a "Don't" heading does; a tick asks for
// it.
func glyphPolarity(text string) Polarity {
	switch rulefile.Mark(text) {
	case -1:
		return Forbid
	case 1:
		return Require
	}
	return Context
}

// headingPolarity reads the nearest heading of a rule: under "Don't",
// "Never" or "Avoid" an imperative item forbids what it names.
func headingPolarity(heading []string) Polarity {
	for i := len(heading) - 1; i >= 0 && i >= len(heading)-2; i-- {
		h := strings.TrimSpace(heading[i])
		if wordCount(h) > 3 {
			continue // "Avoid code duplication and minimize dependencies" directs itself
		}
		switch {
		case forbidHeading.MatchString(h):
			return Forbid
		case requireHeading.MatchString(h):
			return Require
		}
	}
	return Context
}
