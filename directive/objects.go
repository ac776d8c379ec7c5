package directive

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/innate-mcp/innate-mcp/terms"
)

// maskedSpan is a code span mask: its index between markOpen and markClose.
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
	pathRE = lazyRE(`(?:(?:\.{0,2}/|[\w.@-]+[/\\])[\w.*{}<>@-]+[/\\][\w.*{}<>@/\\-]*|[\w.@-]*[/\\][\w.*{}<>@-]*\.[a-z]{1,5}\b|[\w.@-]+/(?:\s|$)|\b[\w-]+(?:\.[\w-]+)*\.(?:json|ya?ml|md|mdx|toml|txt|go|py|ts|tsx|js|jsx|mjs|rb|php|rs|cs|kt|kts|java|swift|sql|sh|lock|xml|gradle|mdc|cfg|ini|env|dart|vue|css|scss|html|proto|tf|hcl))\b`)
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
			o.Example = strings.Count(seg[:loc[0]], "(") > strings.Count(seg[:loc[0]], ")") && !restated.MatchString(seg[:loc[0]])
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

// restated ends the words before a span inside an aside that names the
// object precisely rather than giving an example of it: "(i.e. no
// `WIP:` prefix)", "(namely `x`)".
var restated = lazyRE(`(?i)\(\s*(?:i\.\s*e\.?|ie|namely|that\s+is|specifically)[,:]?\s+[^()]*$`)

// memberAccess reports whether a dotted span reads as code, a member of
// an object or module (`Date.now`, `console.log`, `process.env`), not a
// file: the part after the dot is no file extension, or it is one that a
// language's well-known global also has as a member (`console.log`,
// `process.env`, `Array.map`), while `app.py` and `db.json` stay files.
func memberAccess(s string) bool {
	i := strings.LastIndexByte(s, '.')
	if i <= 0 || strings.ContainsAny(s, "*{}<>/") {
		return false
	}
	stem, ext := s[:i], strings.ToLower(s[i+1:])
	return !fileExtensions[ext] || codeReceivers[stem] && memberExtensions[ext]
}

// codeReceivers are globals of a language whose members a rule names as
// code (`console.log`, `process.env`).
var codeReceivers = set("console", "process", "window", "document", "navigator", "Math", "Date", "JSON", "Object",
	"Array", "Promise", "Number", "String", "Reflect", "Symbol", "Buffer", "globalThis", "os", "sys", "np", "pd")

// memberExtensions are the file extensions that are also common member
// names of those globals.
var memberExtensions = set("log", "env", "map", "test", "min", "local", "dev", "prod", "d", "sample")

// codeObject classifies a code span.
func codeObject(s string) Object {
	switch {
	case strings.HasPrefix(s, "-") && flagRE.MatchString(s) && !strings.Contains(s, " "):
		return Object{Text: s, Kind: KindFlag}
	case !strings.Contains(s, " ") && (strings.ContainsAny(s, "/\\") && !strings.Contains(s, "(") || fileName.MatchString(s) && !memberAccess(s)):
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
