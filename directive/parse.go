package directive

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/innate-mcp/innate-mcp/check"
	"github.com/innate-mcp/innate-mcp/rulefile"
	"github.com/innate-mcp/innate-mcp/terms"
)

// Version is the version of the parser. A stored Directive of an older
// version is read again from its rule when the parser has changed.
const Version = 8

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

// parser accumulates the objects of a rule's clauses.
type parser struct {
	heading      Polarity        // the heading's polarity, for the rule's first clause
	title        map[string]bool // the rule file title's words (titleWords): the project's name
	clauses      int             // clauses read so far
	do, dont     []Object
	when, unless string
	first        Polarity // polarity of the first directing clause
	spans        []string // masked code spans
	// mapped are the paths of a map entry the rule opens with ("`vendor/`
	// - …"): what a later "never modify this package" is about.
	mapped []Object
}

// codeMark brackets the index of a masked code span in the text.
const (
	markOpen  = '\x01'
	markClose = '\x02'
)

// mask replaces `code` spans and "quoted" strings with markers, so that
// punctuation and cue words inside code are not read as prose.
func (p *parser) mask(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		if c == '`' || c == '"' {
			close := c
			n := 1
			if c == '`' {
				for i+n < len(s) && s[i+n] == '`' {
					n++
				}
			}
			end := -1
			if c == '`' {
				end = strings.Index(s[i+n:], strings.Repeat("`", n))
			} else if j := strings.IndexByte(s[i+1:], close); j >= 0 && j <= 120 && !strings.Contains(s[i+1:i+1+j], "\n") {
				end = j
			}
			if end > 0 {
				inner := strings.TrimSpace(s[i+n : i+n+end])
				if c == '"' && quotedProse(inner) {
					// "Never stash/revert to "check if they fail on main"":
					// a quoted phrase of prose is read as prose.
					b.WriteString(inner)
					i += n + end + n
					continue
				}
				if inner != "" {
					b.WriteRune(markOpen)
					b.WriteString(itoa(len(p.spans)))
					b.WriteRune(markClose)
					p.spans = append(p.spans, inner)
					i += n + end + n
					continue
				}
			}
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

// quotedProse reports whether a double-quoted string is a phrase of prose
// (three words or more, nothing code-like) rather than a value or a name.
func quotedProse(s string) bool {
	return wordCount(s) >= 3 && !strings.ContainsAny(s, "(){}[]=<>/\\$`_:;.")
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

var clauseSplit = lazyRE(`[.!?](?:\s+|$)|;\s*|\n+|\s+-\s+|\s*[\x{2014}\x{2013}]\s*|。|；|！`)

// latinAbbrev are abbreviations whose dots do not end a sentence.
var latinAbbrev = strings.NewReplacer("e.g.", "eg", "E.g.", "Eg", "i.e.", "ie", "I.e.", "Ie", "etc.", "etc", "vs.", "vs", "cf.", "cf")

// run reads every clause of the rule's statement.
func (p *parser) run(text string) {
	masked := latinAbbrev.Replace(p.mask(cleanMarkdown(text)))
	for _, c := range clauseSplit.Split(masked, -1) {
		for _, part := range splitDirectives(c) {
			p.clause(strings.TrimSpace(part))
		}
	}
}

// nextDirective is a comma before a cue that opens a directive of its own:
// "Prefer `require` over `assert`, avoid testify suites, use
// `require.Eventually` instead of `time.Sleep`".
var nextDirective = lazyRE(`(?i),\s+(?:avoid|don'?t|do not|use|prefer|always)\b`)

// splitDirectives cuts a clause where a comma opens another directive,
// unless what comes before the comma is a condition ("When X, use Y") or
// says nothing on its own. Parentheses are not cut.
func splitDirectives(c string) []string {
	var out []string
	start := 0
	for _, loc := range nextDirective.FindAllStringIndex(c, -1) {
		left := c[start:loc[0]]
		if strings.Count(c[:loc[0]], "(") > strings.Count(c[:loc[0]], ")") {
			continue
		}
		lower := strings.ToLower(strings.TrimSpace(left))
		if leadingWord.MatchString(lower) || wordCount(lower) < 2 {
			continue
		}
		out = append(out, left)
		start = loc[0] + 1
	}
	return append(out, c[start:])
}

// leadingWord is a clause opening that makes what follows up to a comma a
// condition or an adverbial, not a directive of its own.
var leadingWord = lazyRE(`^(?:when|whenever|if|before|after|while|for|once|on|in|unless|to|as|since|by|with|during)\b`)

// cleanMarkdown drops emphasis and list markers, keeping code spans.
func cleanMarkdown(s string) string {
	var out []string
	lines := strings.Split(s, "\n")
	fenced := false
	for i, l := range lines {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "```") {
			fenced = !fenced
		}
		if !fenced && len(out) > 0 && continuation(out[len(out)-1], l) {
			// A sentence wrapped onto the next line ("over writing new
			// test\n  functions, even if …") is one clause.
			out[len(out)-1] += " " + emphasis.ReplaceAllString(l, "$1$2$3")
			continue
		}
		if i+1 < len(lines) && strings.HasPrefix(l, "|") && tableRule.MatchString(strings.TrimSpace(lines[i+1])) {
			// A table's header row names its columns ("| No Match |
			// Await? |"); it asks for nothing.
			continue
		}
		if cells := strings.Split(l, "|"); len(cells) > 2 && strings.HasPrefix(l, "|") && mapRow(cells) {
			// "| `app/` | The Flutter app. … No Flutter dependency. |": a
			// row of the repository's map says what a place holds; "|
			// `pnpm build` | Build all packages |", a row of a command map,
			// what a command does.
			continue
		}
		for _, m := range []string{"- ", "* ", "+ "} {
			l = strings.TrimPrefix(l, m)
		}
		l = emphasis.ReplaceAllString(l, "$1$2$3")
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// continuation reports whether line goes on with the sentence of prev: it
// opens in lower case (a line opening with a code span is often a command
// of its own), is no list item, table row or fence, and prev
// ends mid-sentence.
func continuation(prev, line string) bool {
	if prev == "" || line == "" || strings.HasPrefix(prev, "```") || strings.HasPrefix(prev, "|") {
		return false
	}
	first, _ := utf8.DecodeRuneInString(line)
	if !unicode.IsLower(first) || listItem.MatchString(line) {
		return false
	}
	last, _ := utf8.DecodeLastRuneInString(prev)
	return unicode.IsLetter(last) || unicode.IsDigit(last) || last == ',' || last == '`' || last == ')'
}

// listItem opens a line that is an item of its own.
var listItem = lazyRE(`^(?:[-*+]\s|\d+[.)]\s)`)

// whichClause opens a relative clause that describes the object before it.
var whichClause = lazyRE(`(?i)[\x02)]\s*,?\s+(?:which|who|whose)\s`)

// stripUse drops the "use" opening an example's choice.
var stripUse = lazyRE(`(?i)^\s*use\s+`)

// exampleCue opens an example inside a clause (after latinAbbrev).
var exampleCue = lazyRE(`(?i)[,(]?\s*\b(?:eg|ie|for example|for instance|such as)\b`)

// placeAside opens a parenthesis that says where: "(in ", "(under ".
var placeAside = lazyRE(`(?i)\(\s*(?:in|under|inside|within|from)\s+(?:the\s+)?$`)

// script is the path of a script a project runs.
var script = lazyRE(`(?i)\.(?:py|sh|bash|js|mjs|cjs|ts|rb|pl|ps1)$`)

// conditionOnly is a clause that is only a condition, ending in a colon
// before the steps it governs.
var conditionOnly = lazyRE(`(?i)^(?:` + touchWords + `)\s[^,]*:\s*$`)

// entryName is a code span that names a part of a project rather than a
// command: one word (`lib`, `core.py`) or a template variable.
var entryName = lazyRE(`^(?:[\w.-]+|\{\{\s*[\w.]+\s*\}\})$`)

// commandWord are commands run by their bare name that no tool family
// (toolFamilies, read by toolsIn) holds.
var commandWord = set("make", "just", "cargo", "go", "deno", "tox", "nox", "rake", "gradlew", "mvn", "ninja", "dotnet",
	"mix", "flutter", "dart", "swift", "xcodebuild", "composer", "bundle", "phpunit", "mypy", "tsc")

// mapCell is a table cell that is only a directory: "`packages/core/`".
var mapCell = lazyRE("^`?[\\w.@-]*(?:/[\\w.@-]*)*/`?$")

// codeCell is a table cell that is one code span: a command or a name.
var codeCell = lazyRE("^`[^`]+`$")

// mapRow reports whether a table row (split at "|") is an entry of a map:
// its first cell a directory, or a code span whose other cells only say
// what it is or does (none directs).
func mapRow(cells []string) bool {
	first := strings.TrimSpace(cells[1])
	if mapCell.MatchString(first) {
		return true
	}
	return codeCell.MatchString(first) && !directs(strings.Join(cells[2:], ". "))
}

// tableRule is the line under a table's header row: "| --- | :---: |".
var tableRule = lazyRE(`^\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?$`)

var emphasis = lazyRE(`\*\*|__|(^|[\s(])[*_]([^*_\s][^*_\n]*?)[*_]($|[\s.,;:!?)])`)

var (
	// discourse are connectives that open a clause without directing.
	discourse = lazyRE(`(?i)^(?:(?:otherwise|also|then|finally|additionally|next|instead|however|in general|generally),\s*|(?:and|but|so|please|also|then)\s+)`)
	// alertPrefix is the shouting that opens some rules.
	alertPrefix = lazyRE(`(?i)^(must do|important|note|critical|warning|rule)\s*[!:]+\s*`)
	// forbidCue opens (or holds) a clause that rules something out.
	forbidCue = lazyRE(`(?i)\b(never|move away from|get rid of|stay away from|steer clear of|don'?t|do not|does not|doesn'?t|must not|mustn'?t|should not|shouldn'?t|shall not|cannot|can'?t|may not|avoid|avoiding|refrain from|no longer|stop using|not allowed|prohibited|forbidden|disallowed|discouraged|banned|not permitted|is not used|are not used|not be)\b|^no\s|禁止|不要|不得|不能|别|勿|避免|ないで|ない|ません|避け`)
	// requireCue marks a clause that asks for something.
	requireCue = lazyRE(`(?i)\b(always|must|should|shall|need to|needs to|have to|has to|required?|requires|ensure|make sure|be sure|only)\b|必须|务必|一定要|应该|请|必ず|すること|してください`)
	// copulaOnly is "only" that describes or permits, not asks ("Files
	// marked `"strict"` can only import what is listed"): "Communication is
	// only through the protocol", "the only place".
	copulaOnly = lazyRE(`\b(?:is|are|was|were|the|can|may|will)\s+only\b`)
	// preferMarker splits "X instead of Y", "X rather than Y", "X over Y"
	// (after prefer-like verbs), "X, not Y", "X (not Y)".
	preferMarker = lazyRE(`(?i)\s*(\binstead of\b|\brather than\b|\bin favou?r of\b|,\s*not\b|[,;]\s*never\b|\(not\b|\bnot\s+(?:\x01)|\binstead\s+(?:\x01)|而不是|而非|ではなく)\s*`)
	notMarker    = lazyRE(`(?i),\s*not\b`)
	overMarker   = lazyRE(`(?i)\s+over\s+`)
	preferVerb   = lazyRE(`(?i)\b(prefer|prefers|preferred|favou?r|favou?rs|choose)\b`)
	unlessCue    = lazyRE(`(?i)\s*\b(unless|except when|except if|except for|without (?:prior |explicit )|without being asked)\b\s*`)
	leadingCond  = lazyRE(`(?i)^(when|whenever|if|before|after|while|for|once|on)\b([^,\x01]*(?:\x01\d+\x02[^,\x01]*)*),\s*`)
	trailingCond = lazyRE(`(?i)\s+\b(when|whenever|if|before|after|while|once)\b\s+(.*)$`)
)

var (
	// convention is a short subject followed by a verb that states how
	// things are done in the project; the subject may be left out ("Uses
	// `ruff` for Python linting").
	convention = lazyRE(`^(?:[\w\x01\x02'/.-]+\s+){0,6}?(uses|use|follow|follows|extend|inherit from|go in|goes in|live in|lives in|belong in|belongs in|is in|are in|(?:is|are) used)(?:\s|$)`)
	passiveUse = lazyRE(`^(?:[\w\x01\x02'/.-]+\s+){1,4}?(?:is|are) used\b`)
)

// cueWords are the adverbs of a rule's cue, never its object.
var cueWords = set("always", "never", "only", "must", "should", "ideally", "generally", "usually")

// imperatives are verbs that open a directing sentence in rule files.
var imperatives = set("extend", "inherit", "subclass", "use", "run", "add", "put", "keep", "write", "follow", "prefer", "create", "call", "wrap",
	"store", "include", "pin", "set", "update", "import", "mark", "declare", "ensure", "make", "read", "check", "ask",
	"avoid", "place", "name", "return", "throw", "handle", "test", "build", "commit", "push", "open", "leave",
	"generate", "document", "validate", "log", "split", "extract", "define", "pass", "prefix", "start", "move", "delete",
	"remove", "replace", "migrate", "install", "activate", "format", "lint", "review", "verify", "annotate", "export",
	"favor", "favour", "leverage", "apply", "configure", "register", "implement", "reuse", "stick", "rely", "target",
	"mock", "limit", "sort", "group", "preserve", "respect", "stay", "treat", "default", "emit", "edit", "modify",
	"change", "bump", "regenerate", "fix", "lock", "tag", "label", "give", "provide", "require", "restrict", "separate",
	"mirror", "wait", "refer", "consult", "look", "search", "locate", "don't", "do", "never", "always", "only", "try",
	"consider", "take", "capture", "attach", "describe", "mention", "reference", "link", "explain", "justify", "squash",
	"rebase", "sign", "request", "close", "notify", "comment", "append", "prepend", "inject", "initialize", "guard",
	"catch", "propagate", "cache", "inline", "rename", "deprecate", "introduce", "await", "sanitize", "escape", "encode",
	"specify", "pair", "colocate", "co-locate", "organize", "organise", "structure", "prevent", "enable", "disable",
	"cite", "amend", "bundle", "source", "save", "load", "expose", "hide", "compose", "publish", "release", "deploy",
	"scope", "isolate", "decode", "parse", "serialize", "type", "indent", "reindent", "re-indent")

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

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

var maskedSpan = lazyRE("\x01(\\d+)\x02")

// unmask restores code spans (in backticks) in a piece of clause.
func (p *parser) unmask(s string) string {
	return maskedSpan.ReplaceAllStringFunc(s, func(m string) string {
		if i := spanIndex(m); i >= 0 && i < len(p.spans) {
			return "`" + p.spans[i] + "`"
		}
		return ""
	})
}

func spanIndex(m string) int {
	n := 0
	for _, r := range m[1 : len(m)-1] {
		n = n*10 + int(r-'0')
	}
	return n
}

var (
	flagRE = lazyRE(`(?:^|\s)(--?[a-zA-Z][\w-]*)`)
	pathRE = lazyRE(`(?:(?:\.{0,2}/|[\w.@-]+[/\\])[\w.*{}<>@-]+[/\\][\w.*{}<>@/\\-]*|[\w.@-]*[/\\][\w.*{}<>@-]*\.[a-z]{1,5}\b|[\w.@-]+/(?:\s|$)|\b[\w-]+\.(?:json|ya?ml|md|mdx|toml|txt|go|py|ts|tsx|js|jsx|mjs|rb|php|rs|cs|kt|kts|java|swift|sql|sh|lock|xml|gradle|mdc|cfg|ini|env|dart|vue|css|scss|html|proto|tf|hcl))\b`)
	wordRE = lazyRE(`[\p{L}\p{N}][\p{L}\p{N}_'.+#-]*`)
)

// leadingAdverb is a clause's opening adverb of degree before its verb.
var leadingAdverb = lazyRE(`(?i)^(?:strongly|generally|usually|typically|ideally|preferably|definitely|really|heavily)\s+(\w+)`)

// baseCue ends the words before a base class a rule asks to extend.
var baseCue = lazyRE(`(?i)\b(?:extends?|inherits?\s+from|subclass(?:es)?|derives?\s+from)\s+(?:the\s+)?(?:\x01\d+\x02\s*(?:,|or)\s*)*$`)

// newThing is a new file, module or test function named as such: "creating
// new code files", "a new one" (after an existing file), "new test
// functions".
var newThing = lazyRE(`(?i)\bnew\s+(?:(?:` + newQualifier + `)\s+){0,2}(?:files?|modules?|functions?|cases?|one)\b`)

// newQualifier are the words between "new" and the thing it qualifies
// ("new test code files"), shared by newThing and the constructs that read
// its objects ("new file", "new test function").
const newQualifier = "test|code|source|unit|python|go|rust|typescript|java|c#"

// phraseStop ends a noun phrase: prepositions, conjunctions and the like.
var phraseStop = set("for", "in", "to", "with", "when", "on", "at", "by", "from", "of", "into", "as", "and", "or",
	"but", "so", "because", "unless", "if", "that", "which", "where", "than", "instead", "rather", "over", "before",
	"after", "via", "without", "except", "while", "since", "e.g", "eg", "i.e", "ie", "etc", "like", "such", "have",
	"has", "had", "is", "are", "was", "were", "be", "get", "gets", "so", "until", "unless", "whenever")

// placeVerb are actions a rule restricts by where they go: "never push to
// main", "do not commit into vendor".
var placeVerb = set("push", "commit", "merge", "deploy", "write", "publish", "release", "upload", "copy", "move", "save", "store", "log", "print")

// placePreposition introduces where a placeVerb goes.
var placePreposition = set("to", "into", "in", "on", "onto", "from")

// generic are verbs and nouns too common in plans to name what a rule is
// about.
var generic = set("create", "add", "make", "write", "do", "have", "get", "put", "keep", "run", "code", "file",
	"files", "thing", "things", "change", "changes", "stuff", "something", "new", "any")

// fillers are words that carry no object: cues, modals, determiners.
var fillers = set("always", "never", "must", "should", "shall", "only", "not", "don't", "do", "does", "dont", "no",
	"avoid", "avoiding", "use", "using", "used", "prefer", "a", "an", "the", "any", "all", "your", "our", "their", "its",
	"this", "that", "these", "those", "be", "is", "are", "need", "needs", "to", "ensure", "make", "sure", "please",
	"directly", "explicitly", "manually", "proper", "properly", "new", "existing", "instead", "it", "them", "you", "we",
	"can", "may", "cannot", "can't", "allowed", "required", "require", "requires", "stop", "refrain", "longer",
	"prohibited", "forbidden", "discouraged", "just", "also", "then", "both", "each", "every", "whenever", "possible",
	"default", "by", "favor", "favour")

// objects extracts the objects named in a piece of a clause: code spans,
// flags and paths, capitalised tool names, otherwise the first noun phrase.
func (p *parser) objects(seg string) []Object {
	if loc := whichClause.FindStringIndex(seg); loc != nil && loc[0] > 0 {
		// "not `ghinstance.Default()` which always returns `github.com`":
		// what the relative clause names describes the object.
		seg = seg[:loc[0]+1] // keep the span's or parenthesis's close
	}
	var out []Object
	for _, loc := range maskedSpan.FindAllStringIndex(seg, -1) {
		if i := spanIndex(seg[loc[0]:loc[1]]); i < len(p.spans) && len(p.spans[i]) <= maxObjectBytes {
			o := codeObject(p.spans[i])
			o.Example = strings.Count(seg[:loc[0]], "(") > strings.Count(seg[:loc[0]], ")")
			if baseCue.MatchString(seg[:loc[0]]) {
				// "Extend `LinterRuleBase`", "inherit from `BaseTestCase`
				// or `FeatureFlaggedTestBase`": a base class.
				o = withBase([]Object{o})[0]
			}
			if o.Example && placeAside.MatchString(seg[:loc[0]]) {
				// "(in `codex-rs` directory)": where, not what.
				o.Verb = PlaceVerb
			}
			out = append(out, o)
		}
	}
	prose := slashPair.ReplaceAllStringFunc(maskedSpan.ReplaceAllString(seg, " , "), orVerbs)
	for _, m := range flagRE.FindAllStringSubmatch(prose, -1) {
		out = append(out, Object{Text: m[1], Kind: KindFlag})
	}
	for _, m := range pathRE.FindAllString(prose, -1) {
		if strings.Trim(m, "/\\.") != "" && !strings.HasPrefix(m, "e.g") && !strings.HasPrefix(m, "i.e") {
			out = append(out, Object{Text: strings.TrimRight(m, "."), Kind: KindPath})
		}
	}
	if len(out) > 0 {
		return out
	}
	ws := wordRE.FindAllString(prose, -1)
	// Names: identifiers and capitalised words that are not the clause's
	// first word ("use Zod", "Never use Jackson annotations").
	for i, w := range ws {
		w = strings.TrimRight(w, ".")
		if relative[strings.ToLower(w)] {
			// "do not suggest checks for fields that are validated by Home
			// Assistant's schemas": a relative clause says what the object
			// is, not what the rule is about.
			break
		}
		if abbreviations[strings.ToLower(w)] || p.title[strings.ToLower(w)] {
			continue
		}
		// A segment of a word or two ("not Riverpod") is its own object.
		if isIdentifier(w) || (i > 0 || len(ws) <= 2 && !fillers[strings.ToLower(w)] && !imperatives[strings.ToLower(w)]) && isProperName(w) {
			out = append(out, Object{Text: w, Kind: KindName})
		}
	}
	if len(out) > 0 {
		return out
	}
	if m := newThing.FindStringSubmatch(prose); m != nil {
		// "rather than creating new code files", "over writing new test
		// functions": what is new is the whole point, so "new" stays
		// (a filler elsewhere) and the thing is read as a construct.
		return []Object{{Text: strings.ToLower(strings.Join(strings.Fields(m[0]), " ")), Kind: KindPhrase}}
	}
	// The first phrase after the cue: "Never use raw pointers" → "raw
	// pointers", "Avoid enums" → "enums", "Always format code" → "format";
	// generic verbs and nouns (create, add, code, files) are dropped, so
	// that "create commits" matches "git commit".
	var phrase []string
	started, extended := false, false
	for _, w := range ws {
		lw := strings.ToLower(strings.TrimRight(w, "."))
		if !started {
			if fillers[lw] {
				continue
			}
			started = true
		}
		if len(phrase) == 4 {
			break
		}
		if phraseStop[lw] {
			// "push directly to main": an action alone names too little;
			// where it goes is what the rule is about.
			if !extended && len(phrase) == 1 && placeVerb[strings.ToLower(phrase[0])] && placePreposition[lw] {
				extended = true
				continue
			}
			break
		}
		if !fillers[lw] && !generic[lw] {
			phrase = append(phrase, w)
		}
	}
	if len(phrase) > 0 && len(terms.Tokens(strings.Join(phrase, " "))) > 0 {
		out = append(out, Object{Text: strings.Join(phrase, " "), Kind: KindPhrase})
	}
	// A coordinated list ("npm or yarn", "amend, squash, or rebase") names
	// one object per item.
	if items := coordinated(prose); len(items) > 1 {
		return items
	}
	return out
}

// coordinated reads "A, B or C" at the start of a noun phrase, and a list
// of verbs ("amend, squash, or rebase commits"): items joined by ",", "or"
// or "and". It returns the items as phrases when there are at least two.
func coordinated(prose string) []Object {
	toks := listToken.FindAllString(prose, -1)
	var items []Object
	var cur []string
	flush := func() {
		if len(cur) > 0 && len(cur) <= 3 {
			items = append(items, Object{Text: strings.Join(cur, " "), Kind: KindPhrase})
		}
		cur = nil
	}
	i := 0
	for i < len(toks) && fillers[strings.ToLower(toks[i])] {
		i++
	}
	for ; i < len(toks); i++ {
		lw := strings.ToLower(strings.TrimRight(toks[i], "."))
		switch {
		case isConjunction(lw):
			flush()
			continue
		case phraseStop[lw]:
			flush()
			return objectList(items)
		}
		if !fillers[lw] && !generic[lw] {
			cur = append(cur, strings.TrimRight(toks[i], "."))
		}
	}
	flush()
	return objectList(items)
}

// objectList returns the items of a list, or nil when the first item is a
// verb with its noun and others are bare words ("claim a Biome function,
// module, behavior, or convention"): those are what the verb is said of,
// not objects of their own.
func objectList(items []Object) []Object {
	if len(items) > 1 && wordCount(items[0].Text) >= 3 && slices.ContainsFunc(items[1:], func(o Object) bool { return wordCount(o.Text) == 1 }) {
		return nil
	}
	return items
}

var listToken = lazyRE(`[\p{L}\p{N}][\p{L}\p{N}_'.+#-]*|,`)

func isConjunction(t string) bool { t = strings.ToLower(t); return t == "," || t == "or" || t == "and" }

// maxObjectBytes bounds an object: longer code spans are examples, not
// things to match.
const maxObjectBytes = 160

// fileName is a code span that names a file: `global.json`, `undo_buffer.cpp`.
var fileName = lazyRE(`^[\w.*{}<>@-]+\.[a-z][a-z0-9]{0,4}$`)

// codeObject classifies a code span.
func codeObject(s string) Object {
	switch {
	case strings.HasPrefix(s, "-") && flagRE.MatchString(s) && !strings.Contains(s, " "):
		return Object{Text: s, Kind: KindFlag}
	case !strings.Contains(s, " ") && (strings.ContainsAny(s, "/\\") && !strings.Contains(s, "(") || fileName.MatchString(s)):
		return Object{Text: s, Kind: KindPath}
	}
	return Object{Text: s, Kind: KindCode}
}

// isIdentifier reports a word shaped like code: inner capitals, dots,
// underscores or digits (XxxParser, useState, os.Open, GITHUB_TOKEN).
func isIdentifier(w string) bool {
	if len(w) < 3 || !strings.ContainsFunc(w, unicode.IsLetter) {
		return false
	}
	if strings.ContainsAny(w, "_") || strings.Contains(strings.Trim(w, "."), ".") {
		return true
	}
	upper := 0
	for i, r := range w {
		if unicode.IsUpper(r) && i > 0 {
			upper++
		}
	}
	return upper > 0 && !isAcronym(w)
}

// isProperName reports a capitalised word that names a tool or library
// (Zod, Jackson, Hadoop), not an acronym of common words (CSS, PR, API).
func isProperName(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	if !unicode.IsUpper(r) || isAcronym(w) || len(w) < 3 {
		return false
	}
	return !commonCapitalised[strings.ToLower(w)]
}

// relativeWords open a relative clause; relative is their set.
var (
	relativeWords = []string{"that", "which", "who", "whose", "whom"}
	relative      = set(relativeWords...)
)

// abbreviations are Latin abbreviations that look like identifiers.
var abbreviations = set("e.g", "e.g.", "i.e", "i.e.", "etc", "etc.", "vs", "vs.", "cf", "cf.")

// commonCapitalised are capitalised words that name nothing to match.
var commonCapitalised = set("english", "i", "ai", "llm", "github", "git", "readme", "todo", "note", "notes", "see",
	"http", "https", "json", "yaml")

func isAcronym(w string) bool {
	letters, upper := 0, 0
	for _, r := range w {
		if unicode.IsLetter(r) {
			letters++
			if unicode.IsUpper(r) {
				upper++
			}
		}
	}
	if strings.HasSuffix(w, "s") && upper == letters-1 && upper >= 2 {
		return letters <= 6 // PRs, APIs, URLs
	}
	return letters > 0 && upper == letters && letters <= 5
}

func wordCount(s string) int { return len(strings.Fields(s)) }

func dedupObjects(os []Object) []Object {
	var out []Object
	for _, o := range os {
		if !slices.ContainsFunc(out, func(x Object) bool { return strings.EqualFold(x.Text, o.Text) }) {
			out = append(out, o)
		}
	}
	return out
}

// subject names what a rule governs in a few words: its objects.
func subject(d Directive) string {
	var parts []string
	for _, o := range append(append([]Object(nil), d.Do...), d.Dont...) {
		parts = append(parts, o.Text)
	}
	if d.Indent != nil {
		parts = append(parts, d.Indent.String())
	}
	if len(parts) == 0 {
		return ""
	}
	s := strings.Join(parts, ", ")
	if len(s) > 200 {
		s = s[:200]
		for len(s) > 0 && !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
	}
	return s
}
