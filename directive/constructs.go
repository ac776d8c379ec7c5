package directive

// A construct is a code construct that rules name in words ("avoid enums",
// "favor named exports", "never use raw pointers", "use async/await") and
// that a plan writes as code (`enum Role {`, `export default function`,
// `Buffer *b = new Buffer()`, `.then(`). Named reads a rule's object as the
// construct; Code finds the construct in a candidate; Opposite, when set,
// is the construct a plan writes instead of this one (a default export for
// a named one), so that a plan doing it declines a rule that asks for this
// one.
//
// Constructs are read only to find a violation, never to find compliance:
// a plan that writes `export function` may still default-export elsewhere.
type construct struct {
	Named    *lazyRegexp
	Code     *lazyRegexp
	Opposite string
	// Find, when set, finds the construct where a regular expression
	// cannot: the span of the first occurrence in text, or nil.
	Find func(text string) []int
}

// constructs is general knowledge of how common constructs, which rule files
// for coding agents often name in words, look in code, keyed by name. It is
// not drawn from any evaluation set: each entry is a construct that the
// awesome-cursorrules corpus names in several files (enums, named exports,
// type hints, async/await, class components, dependencies), or a
// well-known prohibition of its language (raw pointers, fully-qualified
// names, print statements, mutating React state, actions not pinned to a
// commit). Add one when it is common vocabulary of the field.
var constructs = map[string]construct{
	"default export": {
		Named: lazyRE(`(?i)\bdefault exports?\b`),
		Code:  lazyRE(`\bexport\s+default\b`),
	},
	"named export": {
		Named:    lazyRE(`(?i)\bnamed exports?\b`),
		Opposite: "default export",
	},
	"enum": {
		Named: lazyRE(`(?i)^(?:\w+\s+)?enums?$`),
		Code:  lazyRE(`\benum\s+(?:class\s+)?[A-Za-z_]\w*|\bclass\s+\w+\s*\(\s*(?:str\s*,\s*|int\s*,\s*)?(?:Str|Int)?Enum\s*\)`),
	},
	"class component": {
		Named: lazyRE(`(?i)\bclass(?:[- ]based)? components?\b`),
		Code:  lazyRE(`\bclass\s+\w+\s+extends\s+(?:React\.)?(?:Pure)?Component\b`),
	},
	"functional component": {
		Named:    lazyRE(`(?i)\bfunction(?:al)? components?\b`),
		Opposite: "class component",
	},
	"raw pointer": {
		Named: lazyRE(`(?i)\braw pointers?\b`),
		Code:  lazyRE(`\b[A-Z]\w*\s*\*\s*[a-z_]\w*\s*=|=\s*new\s+[A-Z]\w*\s*[(\[{]|\bdelete\s+(?:\[\]\s*)?[a-z_]\w*\s*;?`),
	},
	"fully-qualified name": {
		Named: lazyRE(`(?i)\bfully[- ]qualified\b`),
		Code:  lazyRE(`\b(?:java|javax|org|com|net|io|kotlin|android|System|Microsoft)\.(?:[a-z]\w*\.)+[A-Z]\w*`),
	},
	"inline style": {
		Named: lazyRE(`(?i)\binline styles?\b`),
		Code:  lazyRE(`\bstyle=(?:\{\{|")`),
	},
	"print statement": {
		Named: lazyRE(`(?i)^(?:\w+\s+)?print(?:\(\))?(?: statements?| calls?)?$`),
		Code:  lazyRE(`\bprint\(`),
	},
	"promise chain": {
		Named: lazyRE(`(?i)\.then\(|\bpromise chains?\b|\bthen\(\) chains?\b`),
		Code:  lazyRE(`\.then\(`),
	},
	"async/await": {
		Named:    lazyRE(`(?i)\basync\s*(?:/|\s|and|\+)\s*await\b`),
		Opposite: "promise chain",
	},
	"arrow function": {
		Named: lazyRE(`(?i)\barrow functions?\b`),
		Code:  lazyRE(`=\s*(?:async\s*)?\([^()]*\)\s*(?::\s*[\w<>\[\]|. ]+)?\s*=>`),
	},
	"function declaration": {
		Named:    lazyRE(`(?i)\bfunction declarations?\b|^"?function"?(?: keyword)?$|\bthe "?function"? keyword\b`),
		Opposite: "arrow function",
	},
	"untyped parameter": {
		Named: lazyRE(`(?i)\buntyped (?:parameters?|arguments?|functions?)\b`),
		Code:  lazyRE(`\bdef\s+\w+\(\s*(?:self\s*,\s*|cls\s*,\s*)?[a-z_]\w*\s*(?:[,)]|=)`),
	},
	"type annotation": {
		Named:    lazyRE(`(?i)\btype (?:hints?|annotations?)\b`),
		Opposite: "untyped parameter",
	},
	"state mutation": {
		Named: lazyRE(`(?i)\bmutat\w*\b.*\b(?:state|props|arrays?|objects?)\b|\b(?:state|props)\b.*\bmutat\w*\b`),
		Code:  lazyRE(`\b[a-zA-Z_$][\w$]*\.(?:push|pop|splice|shift|unshift|sort|reverse)\(|\bthis\.(?:state|props)\.\w+\s*=[^=]|\b(?:state|props)\.\w+\s*=[^=]`),
	},
	"unpinned action": {
		// A GitHub Actions step on a tag or branch rather than a full
		// commit SHA (`uses: actions/checkout@v4`), against "pin actions
		// to a full commit SHA", GitHub's own hardening advice.
		Named: lazyRE(`(?i)\bunpinned actions?\b`),
		Code:  lazyRE(`\buses:\s*['"]?[\w.-]+/[\w./-]+@(?:[\w.-]*[g-zG-Z_.-][\w.-]*|[0-9a-fA-F]{1,39})\b`),
	},
	"pinned action": {
		Named:    lazyRE(`(?i)\bpin(?:s|ned|ning)?\b.*\bactions?\b|\bactions?\b.*\bpinned\b`),
		Opposite: "unpinned action",
	},
	"new test function": {
		// "over writing new test functions": a test function written
		// from scratch (Go, Python, xUnit/NUnit/MSTest) rather than a
		// case added to an existing one.
		Named: lazyRE(`(?i)^new (?:(?:` + newQualifier + `) )?test (?:functions?|cases?)$`),
		Code:  lazyRE(`\bfunc\s+Test\w*\s*\(|\bdef\s+test_\w*\s*\(|\[(?:Fact|Theory|Test|TestMethod)\]`),
	},
	"new file": {
		// "rather than creating new code files", "over creating a new
		// one": a plan that creates a file (`Create src/…/FooTests.cs`,
		// "add a new file tests/test_x.py").
		Named: lazyRE(`(?i)^new (?:(?:` + newQualifier + `) ){0,2}(?:files?|modules?|one)$`),
		Code: lazyRE(`(?i)\b(?:create|creating|add|adding|write|writing)\s+(?:an?\s+)?(?:new\s+)?(?:(?:test|source|code)\s+)?(?:file\s+|module\s+)?` +
			"`?" + `[\w.-]*/[\w./-]*\.[a-z]{1,5}\b|\bnew (?:test )?file\s+` + "`?" + `[\w./-]+\.[a-z]{1,5}\b`),
	},
	"lint suppression": {
		// "Avoid adding RuboCop exceptions", "never disable lint rules":
		// a comment or attribute that silences a linter or type checker.
		Named: lazyRE(`(?i)\b(?:rubocop|eslint|lint(?:er|ing)?|pylint|ruff|clippy|mypy|type[- ]check(?:er|ing)?)\s+(?:rule\s+)?(?:exceptions?|suppressions?|disables?|ignores?)\b|\b(?:disabl|suppress|silenc)\w*\s+(?:the\s+)?(?:lint\w*|rubocop|eslint|warnings?|offen[cs]es?)\b`),
		Code:  lazyRE(`rubocop:disable|eslint-disable|#\s*noqa\b|pylint:\s*disable|#!?\[allow\(|@SuppressWarnings|//\s*nolint\b|@ts-ignore|@ts-expect-error|#\s*type:\s*ignore|#\s*pyright:\s*ignore|@Suppress\(`),
	},
	"conventional commit": {
		Named:    lazyRE(`(?i)\bconventional commits?\b`),
		Opposite: "unconventional commit message",
	},
	"unconventional commit message": {
		// A commit message or PR title without a Conventional Commits
		// type (`git commit -m "Added streaming"`, "`Feat: add TTL`").
		Find: unconventionalMessage,
	},
	"dependency": {
		Named: lazyRE(`(?i)\b(?:dependenc(?:y|ies)|packages?|librar(?:y|ies)|crates?|gems?)$`),
		Code: lazyRE(`(?i)\b(?:go get|npm (?:i|install|add)|pnpm (?:i|install|add)|yarn add|bun add|pip3? install|poetry add|uv add|uv pip install|cargo add|composer require|gem install|bundle add|dotnet add(?: \S+)? package|install-package|flutter pub add|dart pub add)` +
			`\s+(?:--?[\w-]+\s+)*[@\w][\w./@:-]*`),
	},
}

// constructNamed returns the construct an object of a rule names, if any.
func constructNamed(o Object) (construct, bool) {
	if o.Kind != KindPhrase && o.Kind != KindName && o.Kind != KindCode {
		return construct{}, false
	}
	for _, name := range constructOrder {
		if c := constructs[name]; c.Named.MatchString(o.Text) {
			return c, true
		}
	}
	return construct{}, false
}

// constructOrder is the order constructs are tried in: the more specific
// names first ("class components" before "functional components").
var constructOrder = []string{
	"default export", "named export", "class component", "functional component", "enum", "raw pointer",
	"fully-qualified name", "inline style", "print statement", "promise chain", "async/await", "arrow function",
	"function declaration", "untyped parameter", "type annotation", "state mutation", "unpinned action",
	"pinned action", "new test function", "new file", "lint suppression", "conventional commit", "dependency",
}

// doesConstruct returns where the candidate writes the construct, not
// negated, or nil.
func (c *candidate) doesConstruct(k construct) *occurrence {
	if k.Find != nil {
		if loc := k.Find(c.text); loc != nil && !c.negatedAt(loc[0]) {
			return &occurrence{text: c.text[loc[0]:loc[1]], at: loc[0]}
		}
		return nil
	}
	if k.Code == nil {
		return nil
	}
	for _, loc := range k.Code.FindAllStringIndex(c.text, 8) {
		if !c.negatedAt(loc[0]) {
			return &occurrence{text: c.text[loc[0]:loc[1]], at: loc[0]}
		}
	}
	return nil
}

// commitMessage finds the message of a commit or the title of a pull
// request a plan writes (`git commit -m "…"`, `gh pr create --title
// "…"`); group 1 is the message.
var commitMessage = lazyRE("(?:\\bgit commit\\b[^\"'\\n]*?(?:-m|--message)[ =]|\\bgh pr (?:create|edit)\\b[^\"'\\n]*?(?:-t|--title)[ =])[\"']([^\"'\\n]+)[\"']")

// titleOnly is a plan that is nothing but one short title in a code span;
// group 1 is the title.
var titleOnly = lazyRE("^\\s*`([^`\\n(){};=]{3,100})`\\s*$")

// conventionalHeader is a Conventional Commits header: a lower-case type, an
// optional scope, an optional "!", a colon and a description.
var conventionalHeader = lazyRE(`^(?:feat|fix|docs|style|refactor|perf|test|tests|build|ci|chore|revert|deps|release)(?:\([^)]*\))?!?: \S`)

// titleLike is a plan that is only a title with a type before a colon
// ("Feat: add TTL support"), not a command.
var titleLike = lazyRE(`^[A-Za-z][\w-]*(?:\([^)]*\))?!?: [^"]*$`)

// unconventionalMessage returns the span of the first commit message or PR
// title in text that is not a Conventional Commits header, or nil.
func unconventionalMessage(text string) []int {
	for _, m := range commitMessage.FindAllStringSubmatchIndex(text, 4) {
		if !conventionalHeader.MatchString(text[m[2]:m[3]]) {
			return m[2:4]
		}
	}
	if m := titleOnly.FindStringSubmatchIndex(text); m != nil && titleLike.MatchString(text[m[2]:m[3]]) && !conventionalHeader.MatchString(text[m[2]:m[3]]) {
		return m[2:4]
	}
	return nil
}
