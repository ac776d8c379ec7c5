package directive

import (
	"strings"
)

// Naming is a rule's naming convention: the style names of a kind must
// follow ("kebab", "snake", "camel", "pascal", "upper") and the kind of
// thing it names ("directory", "file", "flag", "branch", "type",
// "function", "variable"). Plain data.
type Naming struct {
	Style string `json:"style"`
	Scope string `json:"scope"`
}

// String names the convention in words: "kebab-case directory names".
func (n Naming) String() string {
	return styleWords[n.Style] + " " + n.Scope + " names"
}

// styleWords are the styles' usual names.
var styleWords = map[string]string{
	"kebab": "kebab-case", "snake": "snake_case", "camel": "camelCase", "pascal": "PascalCase", "upper": "UPPER_SNAKE_CASE",
}

// namingStyles reads a style from a rule's words, most specific first.
var namingStyles = []struct {
	style string
	re    *lazyRegexp
}{
	{"upper", lazyRE(`(?i)\b(?:screaming[_ ]snake[_ ]case|upper[_ ]snake[_ ]case|all[- ]caps)\b`)},
	{"kebab", lazyRE(`(?i)\bkebab[- ]case\b|\blower[- ]?case (?:with|and) (?:dashes|hyphens)\b|\bhyphens instead of underscores\b|\bdashes instead of underscores\b`)},
	{"snake", lazyRE(`(?i)\bsnake[_ ]case\b|\blower[- ]?case (?:with|and) underscores\b|\bunderscores instead of (?:dashes|hyphens)\b`)},
	{"pascal", lazyRE(`(?i)\bpascal[- ]?case\b|\bupper camel[- ]?case\b`)},
	{"camel", lazyRE(`(?i)\bcamel[- ]?case\b`)},
}

// namingScopes reads what a convention names; the first in the rule wins.
var namingScopes = []struct {
	scope string
	re    *lazyRegexp
}{
	{"directory", lazyRE(`(?i)\b(?:director(?:y|ies)|folders?)\b`)},
	{"file", lazyRE(`(?i)\bfile ?names?\b|\bfiles\b`)},
	{"flag", lazyRE(`(?i)\b(?:flags?|options?)(?: names?)?\b`)},
	{"branch", lazyRE(`(?i)\bbranch(?:es| names?)?\b`)},
	{"type", lazyRE(`(?i)\b(?:class(?:es)?|types?|interfaces?|structs?|components?|enums?)(?: names?)?\b`)},
	{"function", lazyRE(`(?i)\b(?:functions?|methods?)(?: names?)?\b`)},
	{"variable", lazyRE(`(?i)\bvariables?(?: names?)?\b`)},
}

// readNaming returns the naming convention a rule's statement sets, if it
// names both a style and what it applies to.
func readNaming(text string) *Naming {
	var n Naming
	for _, s := range namingStyles {
		if s.re.MatchString(text) {
			n.Style = s.style
			break
		}
	}
	if n.Style == "" {
		return nil
	}
	at := len(text) + 1
	for _, s := range namingScopes {
		if loc := s.re.FindStringIndex(text); loc != nil && loc[0] < at {
			n.Scope, at = s.scope, loc[0]
		}
	}
	if n.Scope == "" {
		return nil
	}
	return &n
}

// styleWord is an object of a rule that only names a style.
var styleWord = lazyRE(`(?i)^(?:lower[- ]?case|upper[- ]?case|hyphens?|dashes|underscores?|kebab[- ]case|snake[_ ]case|camel[- ]?case|pascal[- ]?case|screaming[_ ]snake[_ ]case)$`)

// styleForm is the form of a name in each style.
var styleForm = map[string]*lazyRegexp{
	"kebab":  lazyRE(`^[a-z0-9]+(?:-[a-z0-9]+)*$`),
	"snake":  lazyRE(`^_?[a-z0-9]+(?:_[a-z0-9]+)*$`),
	"camel":  lazyRE(`^[a-z][a-zA-Z0-9]*$`),
	"pascal": lazyRE(`^[A-Z][a-zA-Z0-9]*$`),
	"upper":  lazyRE(`^[A-Z0-9]+(?:_[A-Z0-9]+)*$`),
}

// naming finds, in the clauses of the candidate that create or name
// something ("create `components/BulkSendDialog/`", "register it as
// `--max_session_turns`", "git checkout -b Feature_X"), a name of the
// convention's kind that does not follow its style, or nil.
func (c *candidate) naming(n Naming) *occurrence {
	form := styleForm[n.Style]
	if form == nil {
		return nil
	}
	for _, cl := range c.clauses {
		text := c.text[cl.start:max(cl.end, cl.start)]
		if !names.MatchString(text) {
			continue
		}
		for _, m := range namesOf(n.Scope, text) {
			name := text[m[0]:m[1]]
			if name == "" || conventional(name) || form.MatchString(name) || c.negatedAt(cl.start+m[0]) {
				continue
			}
			return &occurrence{text: name, at: cl.start + m[0]}
		}
	}
	return nil
}

// names marks a clause that creates or names something.
var names = lazyRE(`(?i)\b(?:create|creates|creating|add|adds|adding|make|mkdir|name|names|naming|call|rename|register|define|declare|introduce|new|save|write|put|move|checkout -b|switch -c|branch)\b`)

// conventional is a name whose form a project does not choose: hidden or
// private directories, dunder directories, single lower-case words are
// read as fitting (they fit kebab, snake and camel alike).
func conventional(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "__")
}

// Patterns of the names of each kind in a clause.
var (
	pathNames   = lazyRE(`(?:[\w.@-]+/)+(?:[\w.@-]+)?`)
	flagNames   = lazyRE(`(?:^|[\s` + "`" + `"'(])--([A-Za-z][\w-]*)`)
	branchNames = lazyRE(`\b(?:checkout -b|switch -c|branch)\s+([\w./-]+)`)
	typeNames   = lazyRE(`\b(?:class|interface|type|struct|enum|record|protocol)\s+([A-Za-z_]\w*)`)
	funcNames   = lazyRE(`\b(?:func|function|def|fn|fun)\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)`)
	varNames    = lazyRE(`\b(?:const|let|var|val)\s+([A-Za-z_$][\w$]*)`)
)

// namesOf returns the spans of the names of a kind in text.
func namesOf(scope, text string) [][]int {
	var out [][]int
	switch scope {
	case "directory", "file":
		for _, m := range pathNames.FindAllStringIndex(text, -1) {
			p := text[m[0]:m[1]]
			if strings.Contains(p, "://") {
				continue
			}
			segs := strings.Split(p, "/")
			off := m[0]
			for i, s := range segs {
				last := i == len(segs)-1
				switch {
				case s == "":
				case scope == "directory" && !last:
					out = append(out, []int{off, off + len(s)})
				case scope == "file" && last:
					base := s
					if j := strings.IndexByte(base, '.'); j > 0 {
						base = base[:j]
					}
					out = append(out, []int{off, off + len(base)})
				}
				off += len(s) + 1
			}
		}
		if scope == "directory" && len(out) > 0 {
			// The directory a plan creates is the deepest it names; the
			// ones above it exist already, whatever their form.
			out = out[len(out)-1:]
		}
	case "flag":
		out = submatches(flagNames, text)
	case "branch":
		out = submatches(branchNames, text)
	case "type":
		out = submatches(typeNames, text)
	case "function":
		out = submatches(funcNames, text)
	case "variable":
		out = submatches(varNames, text)
	}
	return out
}

// submatches returns the spans of re's first group in text.
func submatches(re *lazyRegexp, text string) [][]int {
	var out [][]int
	for _, m := range re.FindAllStringSubmatchIndex(text, -1) {
		out = append(out, []int{m[2], m[3]})
	}
	return out
}
