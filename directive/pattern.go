package directive

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// Patterns caches the compiled patterns of objects. The zero value is ready
// to use; it is safe for concurrent use and grows with the distinct objects
// of the rules checked (bounded by the knowledge base's rules).
type Patterns struct {
	m sync.Map // object text → *regexp.Regexp (nil when it does not compile)
}

// pattern returns the compiled pattern of o, from the cache when there is one.
func (p *Patterns) pattern(o Object) *regexp.Regexp {
	if p == nil {
		return objectPattern(o)
	}
	if v, ok := p.m.Load(o.Text); ok {
		return v.(*regexp.Regexp)
	}
	re := objectPattern(o)
	p.m.Store(o.Text, re)
	return re
}

// trailingArgs is the "..." that stands for a command's arguments in a
// rule ("`RUN_SLOW=1 pytest ...`"): the command before it is concrete.
var trailingArgs = lazyRE(`\s*(\.\.\.|…|<[\w-]+>)\s*$`)

// placeholderWords stand for any value in a rule's example: "type(scope):
// message", `<name>`, "tests/<dir>/XxxTest.php".
var placeholderWords = set("type", "scope", "message", "msg", "description", "desc", "summary", "subject", "name",
	"module", "feature", "username", "user", "package", "pkg", "file", "filename", "path", "dir", "directory",
	"value", "val", "key", "id", "version", "number", "num", "foo", "bar", "baz", "thing", "something", "component",
	"classname", "class", "function", "func", "method", "arg", "args", "param", "params", "title", "text", "branch",
	"issue", "ticket", "data", "x", "y", "z", "n", "item", "items", "my", "example", "your", "project", "service",
	"resource", "model", "table", "field", "tag", "env", "command", "cmd", "app", "lib", "test", "tests", "target",
	"variable", "var")

// placeholderCount counts the lower-case placeholder words of s.
func placeholderCount(s string) int {
	n := len(issueNumber.FindAllStringIndex(s, -1))
	for _, w := range letterRun.FindAllString(s, -1) {
		if placeholderWords[w] || placeholderWords[strings.ToLower(w)] && titleCase(w) {
			n++
		}
	}
	return n
}

var letterRun = lazyRE(`[a-zA-Z]+`)

// titleCase reports a word with one capital, its first letter
// ("Description").
func titleCase(w string) bool {
	return len(w) > 1 && isUpperByte(w[0]) && strings.ToLower(w[1:]) == w[1:]
}

// issueNumber is an issue or pull request number in an example ("Fix
// #12345: Description", "Closes #N", "#XXX"): it stands for any number.
var issueNumber = lazyRE(`#(?:\d{2,}|[NX]{1,4})\b`)

// htmlTags are tag names that are code, not placeholders, in `<tag>`.
var htmlTags = set("a", "b", "i", "p", "br", "hr", "div", "span", "img", "script", "style", "template", "html",
	"head", "body", "slot", "button", "input", "form", "table", "tr", "td", "th", "ul", "ol", "li", "section",
	"main", "header", "footer", "nav", "h1", "h2", "h3", "h4", "h5", "h6", "meta", "link", "title", "label",
	"select", "option", "textarea", "svg", "path", "code", "pre", "em", "strong", "iframe", "video", "audio",
	"canvas", "article", "aside", "details", "summary", "dialog", "picture", "source", "env")

// isPlaceholderTag reports whether s opens with a placeholder such as
// `<name>` or `<ClassName>`, as opposed to markup such as `<script setup>`
// or `<div>`.
func isPlaceholderTag(s string) bool {
	j := strings.IndexByte(s, '>')
	if j < 2 {
		return false
	}
	inner := s[1:j]
	if strings.ContainsAny(inner, " \t=\"'/<") {
		return false
	}
	return !htmlTags[strings.ToLower(inner)]
}

// hasPlaceholder reports whether an object's text holds a placeholder:
// "...", a glob star, `<name>`, `{package}` or XxxName.
func hasPlaceholder(s string) bool {
	if strings.ContainsAny(s, "*…") || strings.Contains(s, "...") || strings.Contains(s, "Xxx") || braceWord.MatchString(s) ||
		pathPlaceholder.MatchString(s) {
		return true
	}
	for i := strings.IndexByte(s, '<'); i >= 0; {
		if isPlaceholderTag(s[i:]) {
			return true
		}
		j := strings.IndexByte(s[i+1:], '<')
		if j < 0 {
			break
		}
		i += j + 1
	}
	return false
}

// commandHead returns the words of a command with placeholders before its
// first placeholder ("bundle exec rspec" of `bundle exec rspec
// spec/path/to/file_spec.rb:LINE_NUMBER`), when there are at least two
// and the first names a program; otherwise "".
func commandHead(o Object) string {
	if o.Kind != KindCode || !hasPlaceholder(o.Text) {
		return ""
	}
	var head []string
	for _, f := range strings.Fields(o.Text) {
		if hasPlaceholder(f) || upperPlaceholder.MatchString(f) || strings.ContainsAny(f, "<>{}") {
			break
		}
		head = append(head, f)
	}
	if len(head) < 2 || !programs[strings.ToLower(head[0])] {
		return ""
	}
	return strings.Join(head, " ")
}

// runHead returns the part of a concrete command before its first path or
// quoted argument ("bun bd test" of "bun bd test test/js/x.test.ts -t
// "y""), when that leaves a program and at least one more word; flags before
// the path stay in it ("go test -race" of "go test -race ./..."), as they are
// what the command asks for.
func runHead(o Object) string {
	if o.Kind != KindCode {
		return ""
	}
	fields := strings.Fields(o.Text)
	var head []string
	for _, f := range fields {
		if strings.ContainsAny(f, "/\\\"'") || fileArg.MatchString(f) {
			break
		}
		head = append(head, f)
	}
	if len(head) < 2 || len(head) == len(fields) || !programs[strings.ToLower(head[0])] {
		return ""
	}
	return strings.Join(head, " ")
}

// fileArg is a command argument that names a file: "main.go", "x_test.py".
var fileArg = lazyRE(`^[\w.-]+\.[A-Za-z]{1,5}$`)

// upperPlaceholder is an upper-case stand-in in a command: LINE_NUMBER,
// `PATH`, `TEST_NAME`.
var upperPlaceholder = lazyRE(`[A-Z]{2,}(?:_[A-Z]+)+|^[A-Z]{4,}$`)

// pathPlaceholder is a path's stand-in segment: `tests/path/to/test.py`,
// `lib/src/components/path/component.test.tsx`, `your_module/`.
var pathPlaceholder = lazyRE(`(?i)(?:^|[/\\\s])(?:path/to|path|your[_-]?\w*|my[_-]\w+|foo|bar|example)[/\\]`)

// braceWord is a `{placeholder}` in a path or command.
var braceWord = lazyRE(`\{[\w-]+\}`)

// objectPattern compiles an object into a case-insensitive pattern:
// placeholders match any text of their shape, white space is flexible,
// and a word at either end of the object must be a whole word.
func objectPattern(o Object) *regexp.Regexp {
	s := strings.TrimSpace(o.Text)
	if s == "" || len(s) > 4*maxObjectBytes {
		return nil
	}
	var b strings.Builder
	b.WriteString(`(?i)`)
	if o.Kind == KindPath && len(s) > 1 && s[0] == '/' && isWordByte(s[1]) {
		// "/infra/website/docs/blog/" is rooted at the repository:
		// `infra/website/docs/blog/post.md` is in it.
		s = s[1:]
		b.WriteString(`/?`)
	}
	if r := rune(s[0]); unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' {
		b.WriteString(`(?:^|[^\w-])`)
	}
	// Common words stand for values only in an example built of several
	// of them ("type(scope): message", `data["key"]`), never alone (`.test`).
	structured := strings.ContainsAny(s, "()[]:=.{}<>/\\-") && placeholderCount(s) >= 2
	literal := false // a word of the object is written as is
	for i := 0; i < len(s); {
		switch {
		case s[i] == '<' && isPlaceholderTag(s[i:]):
			j := strings.IndexByte(s[i:], '>')
			b.WriteString(`[^\s]{1,60}?`)
			i += j + 1
		case strings.HasPrefix(s[i:], "{}"):
			// An empty initializer in a rule stands for any: `new
			// List<T>{}` is `new List<string> { "a" }`.
			b.WriteString(`\s*\{[^{}]*\}`)
			i += 2
		case strings.HasPrefix(s[i:], "()"):
			// An empty call in a rule stands for a call with any arguments,
			// calls among them: `createAuthClient({ plugins: [x()] })`.
			b.WriteString(`\((?:[^()]|\([^()]*\))*\)`)
			i += 2
		case s[i] == '{' && strings.IndexByte(s[i:], '}') > 1 && !strings.Contains(s[i:i+strings.IndexByte(s[i:], '}')], " "):
			j := strings.IndexByte(s[i:], '}')
			if i > 0 && s[i-1] == '$' {
				// "${VARIABLE}": the braces are the shell's, the name a
				// placeholder.
				b.WriteString(`\{[^\s{}]{1,60}?\}`)
			} else {
				b.WriteString(`[^\s]{1,60}?`)
			}
			i += j + 1
		case strings.HasPrefix(s[i:], "..."):
			b.WriteString(`.{0,80}?`)
			i += 3
		case strings.HasPrefix(s[i:], "…"):
			b.WriteString(`.{0,80}?`)
			i += len("…")
		case s[i] == '*':
			b.WriteString(`[^\s]{0,60}?`)
			i++
		case s[i] == '#' && issueNumber.MatchString(s[i:]) && issueNumber.FindStringIndex(s[i:])[0] == 0:
			b.WriteString(`#\d+`)
			i += issueNumber.FindStringIndex(s[i:])[1]
		case s[i] == '"' || s[i] == '\'':
			// A string literal in an example stands for any argument; an
			// object that is nothing but a literal (`"strict"`) is that
			// value, in either quotes.
			q := s[i]
			j := strings.IndexByte(s[i+1:], q)
			if j < 0 {
				b.WriteString(regexp.QuoteMeta(string(q)))
				i++
				continue
			}
			if i == 0 && j+2 == len(s) {
				b.WriteString(`["']` + regexp.QuoteMeta(s[1:j+1]) + `["']`)
				literal = true
			} else {
				b.WriteString(`(?:"[^"]*"|'[^']*'|[\w.]+)`)
			}
			i += j + 2
		case s[i] == '/' || s[i] == '\\':
			b.WriteString(`[/\\]`)
			i++
		case s[i] == ' ' || s[i] == '\t':
			for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
				i++
			}
			b.WriteString(`\s*`)
		case isWordByte(s[i]):
			j := i
			for j < len(s) && isWordByte(s[j]) {
				j++
			}
			w := s[i:j]
			switch {
			case strings.HasPrefix(w, "Xxx") || strings.HasPrefix(w, "XXX"):
				b.WriteString(`\w*` + regexp.QuoteMeta(w[3:]))
			case structured && placeholderWords[strings.ToLower(w)] && (strings.ToLower(w) == w || titleCase(w)):
				b.WriteString(`[\w-]+`)
			case i > 0 && s[i-1] == '$' && placeholderWords[strings.ToLower(w)] && strings.ToUpper(w) == w:
				// "$VARIABLE", "$NAME": a shell variable, any name.
				b.WriteString(`[A-Za-z_]\w*`)
			default:
				b.WriteString(regexp.QuoteMeta(w))
				literal = true
			}
			i = j
		default:
			b.WriteString(regexp.QuoteMeta(s[i : i+1]))
			// Punctuation with a meaning of its own ("type(scope):
			// message", "$VARIABLE") is shape enough; a path's slashes
			// and dots are not.
			literal = literal || !strings.ContainsRune(".-_", rune(s[i]))
			i++
		}
	}
	if r := rune(s[len(s)-1]); unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' {
		b.WriteString(`(?:$|[^\w])`)
	}
	if !literal {
		// "`<resource>/<method>`" is all placeholders: it names nothing a
		// plan could write.
		return nil
	}
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil
	}
	return re
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
