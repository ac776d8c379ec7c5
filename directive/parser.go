package directive

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

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
	preferMarker = lazyRE(`(?i)\s*(\binstead of\b|\bin place of\b|\brather than\b|\bin favou?r of\b|,\s*not\b|[,;]\s*never\b|\(not\b|\bnot\s+(?:\x01)|\binstead\s+(?:\x01)|而不是|而非|ではなく)\s*`)
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
