package directive

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/innate-mcp/innate-mcp/action"
	"github.com/innate-mcp/innate-mcp/check"
)

// A message template is a code span that shows the shape of a commit
// message or a pull request's title with placeholders for what varies:
// "`Area: Summary #ticket`", "`<type>: <subject>`", "`[PROJ-42] summary`",
// "`Component: Change`". templateCheck compiles
// a sentence that asks for one into a Require on the message's first line:
// the template's literal marks (brackets, colons, a hash) in order, a
// placeholder for each placeholder. The sentence's other spans, when they
// read as messages ("e.g. `Parser: Handle tabs`"), are its examples, and the
// pattern must match every one, or nothing is compiled: a template read
// wrongly asks on every commit.

// templateCue marks a sentence that gives a message's shape, not one
// message: "format", "follow", "look like", "in the form", "pattern",
// "start with".
var templateCue = lazyRE(`(?i)\b(?:format(?:ted)?|follows?|following|look\s+like|of\s+the\s+form|in\s+the\s+form|shape|pattern|template|structure|convention|start\s+with|begin\s+with|prefix(?:ed)?|naming|named)\b`)

// branchWords name branches in a template's clause: "branch names follow
// `feat/<name>`", "Branch naming: `fix/bug-name`".
var branchWords = lazyRE(`(?i)\bbranch(?:es|\s+names?|[- ]naming)?\b`)

// messagePlaceholders are the words message templates use for what
// varies, besides placeholderWords: "area", "change", "ticket-ref".
var messagePlaceholders = set("area", "change", "changes", "short", "what", "why", "verb", "category", "jira",
	"body", "topic", "details", "pr", "bug", "task", "story", "reference", "ref", "imperative")

// templateToken reads a span: a bracketed placeholder (<type>, {scope}),
// an issue key example (PROJ-42, #42), an ellipsis, a word, white space,
// or one mark.
var templateToken = lazyRE(`<[^<>]{1,40}>|\{[^{}]{1,40}\}|[A-Z][A-Z0-9]{1,9}-\d+|#\d+|\.\.\.|…|[A-Za-z][A-Za-z0-9_-]*|\s+|.`)

// issueKey is an issue tracker's key as templates give it, for example.
var issueKey = lazyRE(`^[A-Z][A-Z0-9]{1,9}-\d+$`)

// conventionalTemplate is Conventional Commits' header written as a
// template ("type(scope): description", "<type>: <subject>" is not one: it
// names no scope): its scope is optional, whatever the template shows.
var conventionalTemplate = lazyRE(`(?i)^<?type>?\s*\(\s*<?scope>?\s*\)\s*!?\s*:`)

// templatePattern is the pattern of a message template, and whether span
// is one: it needs a placeholder and a literal mark, and no word that is
// neither a placeholder nor a mark (a literal word makes it an example).
func templatePattern(span string) (string, bool) { return shapePattern(span, false) }

// branchPattern is the pattern of a branch name's template: as a
// message's, but its literal words are kept (`feat/`, `agent/`), and it
// holds no space.
func branchPattern(span string) (string, bool) {
	if strings.ContainsFunc(span, unicode.IsSpace) {
		return "", false
	}
	return shapePattern(span, true)
}

// shapePattern reads a template: placeholders become holes, marks stay;
// a literal word stays when literalWords is set, and otherwise makes the
// span no template.
func shapePattern(span string, literalWords bool) (string, bool) {
	if !utf8.ValidString(span) {
		return "", false
	}
	toks := templateToken.FindAllString(span, -1)
	var b strings.Builder
	holes, marks := 0, 0
	for i, t := range toks {
		switch {
		case bracketed(t):
			b.WriteString(hole(toks, i))
			holes++
		case t == "..." || t == "…":
			b.WriteString(`.*`)
			holes++
		case issueKey.MatchString(t):
			b.WriteString(`[A-Z][A-Z0-9]+-\d+`)
			holes++
		case strings.HasPrefix(t, "#") && len(t) > 1:
			b.WriteString(`#\d+`)
			holes++
		case isWord(t) && !placeholderPhrase(t):
			if !literalWords {
				return "", false
			}
			b.WriteString(regexp.QuoteMeta(t))
		case isWord(t):
			b.WriteString(hole(toks, i))
			holes++
		case strings.TrimSpace(t) == "":
			b.WriteString(`\s*`)
			if i > 0 && i+1 < len(toks) && isHole(toks[i-1]) && isHole(toks[i+1]) {
				return "", false // two placeholders with nothing between them: no shape
			}
		default:
			b.WriteString(regexp.QuoteMeta(t))
			marks++
		}
	}
	if holes == 0 || marks == 0 {
		return "", false
	}
	return `^` + b.String(), true
}

// hole is the pattern of the placeholder at toks[i]: up to the literal
// mark after it, or anything when it ends the template.
func hole(toks []string, i int) string {
	for j := i + 1; j < len(toks); j++ {
		t := toks[j]
		if strings.TrimSpace(t) == "" {
			continue
		}
		if len(t) == 1 && !isWord(t) {
			return `[^` + regexp.QuoteMeta(t) + `\n]+?`
		}
		return `\S.*?`
	}
	return `\S.*`
}

func isWord(t string) bool {
	if t == "" {
		return false
	}
	c := t[0]
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// isHole reports whether a token is a placeholder's: a word or a
// bracketed name.
func isHole(t string) bool { return isWord(t) || bracketed(t) }

// bracketed reports whether a token is a bracketed placeholder ("<type>",
// "{scope}").
func bracketed(t string) bool {
	return len(t) > 2 && (t[0] == '<' || t[0] == '{')
}

// placeholderPhrase reports whether every part of a word joined by "-" or
// "_" is a placeholder word ("ticket-number", "Short_Summary").
func placeholderPhrase(w string) bool {
	for _, p := range strings.FieldsFunc(strings.ToLower(w), func(r rune) bool { return r == '-' || r == '_' }) {
		if !placeholderWords[p] && !messagePlaceholders[p] {
			return false
		}
	}
	return true
}

// templateCheck compiles a sentence that asks commit messages or PR titles
// to follow a template shown in a code span. A sentence that rules
// something out, or that Conventional Commits already compiled, gives
// none.
func templateCheck(s, rule string) (check.Check, bool) {
	named := namedKind(s)
	if conventionalRE.MatchString(s) || prohibition.MatchString(s) || !templateCue.MatchString(s) && (named == "" || !namingCue.MatchString(s)) {
		return check.Check{}, false
	}
	switch named {
	case action.BranchName:
		return branchCheck(s)
	case action.TagName:
		return tagCheck(s)
	}
	var pattern, shown string
	for _, m := range codeSpan.FindAllString(s, -1) {
		span := strings.TrimSpace(strings.Trim(m, "`"))
		if conventionalTemplate.MatchString(span) {
			pattern, shown = conventionalHeaderPattern(defaultTypes), span
			break
		}
		if p, ok := templatePattern(span); ok {
			pattern, shown = p, span
			break
		}
	}
	if pattern == "" {
		return check.Check{}, false
	}
	// The other spans of its line that read as messages are its examples
	// (an "e.g." ends a sentence, not a line; the next line may be
	// another rule's).
	var examples []string
	for _, m := range codeSpan.FindAllString(lineHolding(rule, s), -1) {
		span := strings.TrimSpace(strings.Trim(m, "`"))
		if span != shown && strings.ContainsAny(span, " :") && !strings.HasPrefix(span, "-") {
			examples = append(examples, span)
		}
	}
	// The messages are those the template's own clause names: "branches
	// are named `topic/<name>` and commits …" gives commits no shape.
	clause := clauseHolding(s, "`"+shown+"`")
	var kinds []action.MessageKind
	if prTitleWords.MatchString(clause) {
		kinds = append(kinds, action.PRTitle)
	}
	if commitWords.MatchString(prTitleWords.ReplaceAllString(clause, "")) {
		kinds = append(kinds, action.CommitMessage)
	}
	if len(kinds) == 0 {
		return check.Check{}, false
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return check.Check{}, false
	}
	for _, e := range examples {
		if !re.MatchString(e) {
			return check.Check{}, false
		}
	}
	must := `(?:` + pattern + `)|^(?:Merge |Revert ")`
	return check.Check{Kind: check.Require, Message: &check.MessagePattern{Kinds: kinds, Must: must, Name: "in the form " + shown}}, true
}

// branchCheck compiles a sentence about branches alone that shows their
// names' templates ("Branch naming rule: `feature/short-name`, `bugfix/issue-name`"):
// a new branch's name must have one of the shapes. Every code span of the
// sentence must be a template; an example name among them leaves the
// shapes unsure, and gives none.
func branchCheck(s string) (check.Check, bool) {
	var alts, shown []string
	for _, m := range codeSpan.FindAllString(s, -1) {
		span := strings.TrimSpace(strings.Trim(m, "`"))
		p, ok := branchPattern(span)
		if !ok {
			return check.Check{}, false
		}
		alts, shown = append(alts, `(?:`+p+`$)`), append(shown, span)
	}
	return nameCheck(action.BranchName, alts, shown)
}

// templateClauseEnd ends a clause of a sentence, outside code spans: a
// semicolon, a comma, a dash; templateClauseNext also "and" after the
// template, where it starts a new clause ("… `topic/<name>` and commits
// …"), not before it, where it joins a subject ("commits and PR titles
// follow …").
var (
	templateClauseEnd  = lazyRE(`;\s|,\s+(?:and\s+|but\s+)?|\s[—–-]\s`)
	templateClauseNext = lazyRE(`;\s|,\s+(?:and\s+|but\s+)?|\s[—–-]\s|\s+(?:and|but|while|whereas)\s+`)
)

// clauseHolding is the clause of s that holds span, read with code spans
// masked so that their commas and dashes part nothing.
func clauseHolding(s, span string) string {
	at := strings.Index(s, span)
	if at < 0 {
		return s
	}
	masked := maskSpans(s, "x")
	from, to := 0, len(s)
	for _, loc := range templateClauseEnd.FindAllStringIndex(masked[:at], -1) {
		from = loc[1]
	}
	if loc := templateClauseNext.FindStringIndex(masked[at+len(span):]); loc != nil {
		to = at + len(span) + loc[0]
	}
	return s[from:to]
}

// lineHolding is the line of text that holds the start of s, or s.
func lineHolding(text, s string) string {
	at := strings.Index(text, s[:min(len(s), 40)])
	if at < 0 {
		return s
	}
	from := strings.LastIndexByte(text[:at], '\n') + 1
	to := strings.IndexByte(text[at:], '\n')
	if to < 0 {
		return text[from:]
	}
	return text[from : at+to]
}
