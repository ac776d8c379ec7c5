package directive

import (
	"regexp"
	"slices"
	"strings"

	"github.com/innate-mcp/innate-mcp/check"
)

// A code construct is a code span that can only be code in a file, not a
// command, a path or a word: a call ("`datetime.now()`", "`newClient()`"),
// a qualified name ("`std::endl`", "`Reflect.construct`"), an annotation
// or a directive comment ("`@ts-ignore`", "`@Autowired`"), a comparison
// ("`== nil`"). A rule that forbids using one ("never call
// `time.Sleep()` in handlers"; "no `@ts-ignore`") is broken by a write
// whose new text introduces it, and constructCheck compiles it so. A bare
// identifier ("`Stream`", "`Equal`") is not one: it names a type as often
// as a word of a comment, and a rule about it is the consultant's.

// constructVerbs are the verbs under which a rule's construct is the code
// it rules out, not something done with it ("never expose `user.token`").
var constructVerbs = set("use", "using", "call", "calling", "invoke", "invoking", "import", "importing", "add",
	"adding", "write", "writing", "introduce", "introducing", "put", "leave", "leaving", "commit", "")

// fileExtensions are the endings that make a dotted span a file's name
// (`app.config`, `server.log`) rather than a member (`Reflect.construct`).
var fileExtensions = set("go", "mod", "sum", "py", "pyi", "ipynb", "js", "mjs", "cjs", "ts", "mts", "cts", "tsx", "jsx",
	"json", "jsonc", "json5", "yaml", "yml", "toml", "ini", "cfg", "conf", "config", "env", "lock", "txt", "log", "md",
	"mdx", "rst", "sh", "bash", "zsh", "ps1", "bat", "cmd", "rb", "erb", "rs", "java", "kt", "kts", "gradle", "scala",
	"c", "h", "cc", "cpp", "hpp", "cxx", "cs", "csproj", "sln", "fs", "swift", "m", "mm", "php", "html", "htm", "css",
	"scss", "sass", "less", "vue", "svelte", "astro", "sql", "xml", "plist", "proto", "graphql", "gql", "dart", "ex",
	"exs", "heex", "eex", "lua", "pl", "r", "jl", "zig", "nim", "tf", "hcl", "nix", "dockerfile", "properties", "csv",
	"tsv", "png", "jpg", "jpeg", "gif", "svg", "ico", "pdf", "zip", "gz", "tgz", "tar", "bak", "tmp", "example",
	"sample", "template", "tpl", "local", "dev", "prod", "test", "spec", "d", "min", "map", "wasm", "db", "sqlite",
	"snap", "mdc", "lockb", "hh", "fish", "rmd", "webp", "tfvars", "bzl", "bazel", "cmake", "mk", "am", "pm", "xaml",
	"razor", "cshtml", "haml", "slim", "liquid", "hbs", "ejs", "pug", "twig", "jar", "pem", "crt", "gemspec", "podspec",
	"rake", "feature", "prisma", "adoc", "tex", "vim", "el", "patch", "diff", "leex", "gitignore", "dockerignore",
	"editorconfig", "npmrc", "nvmrc", "yarnrc", "sbt", "clj", "cljs", "groovy", "ksh", "awk", "resx", "xib",
	"storyboard", "pbxproj", "xcconfig", "entitlements", "service", "j2", "tmpl", "ml", "hs", "erl")

var (
	// callSpan is a call: a name, qualified or not, and its parentheses.
	callSpan = lazyRE(`^([A-Za-z_$][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)*)\s*\([^()]*\)$`)
	// qualifiedSpan is a qualified name: parts joined by ".", "::" or "->".
	qualifiedSpan = lazyRE(`^[A-Za-z_$][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)+$`)
	// annotationSpan is an annotation, a decorator or a directive comment.
	annotationSpan = lazyRE(`^(?://\s*)?@[A-Za-z](?:[\w-]*\w)?(?:\.[A-Za-z]\w*)*(?:\([^()]*\))?$`)
	// comparisonSpan is an equality test against a value.
	comparisonSpan = lazyRE(`^(===?|!==?)\s*(null|nil|None|undefined|true|false)$`)
)

// constructPattern is the pattern of span's construct in new text, and
// whether span is one.
func constructPattern(span string) (string, bool) {
	span = strings.TrimSpace(span)
	switch {
	case callSpan.MatchString(span):
		name := callSpan.FindStringSubmatch(span)[1]
		return boundary(name) + regexp.QuoteMeta(name) + `\s*\(`, true
	case qualifiedSpan.MatchString(span):
		if !strings.Contains(span, "::") && !strings.Contains(span, "->") {
			last := span[strings.LastIndexByte(span, '.')+1:]
			if fileExtensions[strings.ToLower(last)] || strings.ToLower(span) == span && !strings.ContainsAny(span, "_$") {
				// A file's name, or a lower-case dotted word (`deco.chat`,
				// `os.path`) that names a host or a module as often as
				// code: not read.
				return "", false
			}
		}
		return boundary(span) + regexp.QuoteMeta(span) + endBoundary(span), true
	case annotationSpan.MatchString(span):
		at := span[strings.IndexByte(span, '@'):]
		if i := strings.IndexByte(at, '('); i > 0 {
			at = at[:i]
		}
		return regexp.QuoteMeta(at) + endBoundary(at), true
	case comparisonSpan.MatchString(span):
		m := comparisonSpan.FindStringSubmatch(span)
		return regexp.QuoteMeta(m[1]) + `\s*` + m[2] + `\b`, true
	}
	if name, ok := strings.CutSuffix(span, ".*"); ok && qualifiedSpan.MatchString(name+".x") {
		// `Log.*`: any member of the name.
		return boundary(name) + regexp.QuoteMeta(name) + `\.\w`, true
	}
	if prefix, _, ok := strings.Cut(span, "..."); ok && elidedConstruct.MatchString(prefix) {
		// `#[allow(clippy::...)]`: what stands before the elided part is
		// the construct, written as it is.
		return regexp.QuoteMeta(prefix), true
	}
	return "", false
}

// elidedConstruct is the written part of a construct whose rest a rule
// elides ("..."): code marks around a name, long enough to be that
// construct only (`#[allow(clippy::`, `@SuppressWarnings(`).
var elidedConstruct = lazyRE(`^[#@]?[\[(]?[A-Za-z_]\w*[\[(:.]+(?:[A-Za-z_]\w*(?:::|\.|\())*$`)

// boundary is the word boundary a pattern opens with before name, none
// before a name that opens with a mark ("$").
func boundary(name string) string {
	if name != "" && name[0] == '$' {
		return `(?:^|[^\w$])`
	}
	return `\b`
}

// endBoundary is the word boundary a pattern closes with after name, none
// after a name that ends with a mark.
func endBoundary(name string) string {
	if c := name[len(name)-1]; c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
		return `\b`
	}
	return ""
}

// docGlobs are the files that document code rather than hold it: a
// construct a rule forbids may stand in them as what not to do.
var docGlobs = []string{"!*.md", "!*.mdx", "!*.markdown", "!*.rst", "!*.txt", "!*.adoc", "!*.mdc", "!.cursorrules"}

// testGlobs are tests' files, in the layouts of the common languages.
var testGlobs = []string{"*_test.go", "*.test.*", "*.spec.*", "test_*.py", "*_test.py", "*_spec.rb", "*Test.java",
	"*Tests.java", "*Test.kt", "*Tests.cs", "*Test.cs", "*Test.php", "test/", "tests/", "__tests__/", "spec/", "testing/"}

var (
	// inTests limits a clause to tests, and so does a heading that names
	// them (testsHeading: "Testing standards"); outsideTests limits a
	// clause to the code they test.
	inTests      = lazyRE(`(?i)\b(?:in|inside|within|from)\s+(?:the\s+|any\s+|our\s+)?(?:unit\s+|integration\s+)?(?:tests?|test\s+(?:files?|code|suites?)|specs?)\b`)
	testsHeading = lazyRE(`(?i)\b(?:tests?|testing|specs?)\b`)
	outsideTests = lazyRE(`(?i)\b(?:in\s+)?(?:production|prod|non-test|shipped)\s+code\b|\boutside\s+(?:of\s+)?(?:the\s+)?tests?\b`)
)

// narrowed marks what follows a construct in its clause when it limits
// the rule to a case the check cannot tell ("in request handlers",
// "checks on interfaces", "for retries").
var narrowed = lazyRE(`(?i)^\W*(?:[\w-]+\s+){0,2}?(?:in|on|for|when|whenever|inside|within|with|without|during|unless|until|before|except|if|where|while|from|to|across|between|around|as|via)\s+\w`)

// constructCheck compiles a code construct a forbidding clause rules out:
// a write whose new text introduces it breaks the rule, in the code files
// the clause or its heading names (tests, or the code outside them) or
// all of them, docs left out. A clause that narrows it to what the check
// cannot tell ("in handlers", "for retries") compiles to nothing, and so
// does a rule that only prefers another construct ("use `A` over `B`"):
// tried as reminders, they reminded wrongly on real agents' edits and
// caught nothing (docs/hooks.md).
func constructCheck(o Object, clause, heading string) (check.Check, bool) {
	if !constructVerbs[strings.ToLower(o.Verb)] {
		return check.Check{}, false
	}
	text, ok := constructPattern(strings.Trim(o.Text, "`"))
	if !ok {
		return check.Check{}, false
	}
	paths := slices.Clone(docGlobs) // exclusions alone: every other file
	rest := clause
	switch {
	case inTests.MatchString(clause) || testsHeading.MatchString(heading) && !outsideTests.MatchString(clause):
		paths = append(slices.Clone(testGlobs), docGlobs...)
		rest = inTests.ReplaceAllString(clause, "")
	case outsideTests.MatchString(clause):
		paths = append(slices.Clone(docGlobs), negate(testGlobs)...)
		rest = outsideTests.ReplaceAllString(clause, "")
	}
	if at := strings.Index(rest, o.Text); at >= 0 && narrowed.MatchString(rest[at+len(o.Text):]) {
		return check.Check{}, false
	}
	return check.Check{Kind: check.Forbid, Write: &check.WritePattern{Paths: paths, Text: text}}, true
}

func negate(globs []string) []string {
	out := make([]string, len(globs))
	for i, g := range globs {
		out[i] = "!" + g
	}
	return out
}
