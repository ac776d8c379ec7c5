// What a negation governs in a rule: the clause it rules out, a purpose
// or condition that narrows it, asides, and what a sentence only
// describes.

package directive

import (
	"regexp"
	"slices"
	"strings"

	"github.com/innate-mcp/innate-mcp/terms"
)

// unlessAsked is a condition the hook's ask itself meets: "unless
// explicitly requested" (asking the user is the request).
var unlessAsked = lazyRE(`(?i)^\W*(?:unless|without)\s+(?:explicitly\s+|specifically\s+|you\s+are\s+|the\s+user(?:'s)?\s+|a\s+|an\s+|their\s+|your\s+|human\s+|manual\s+|explicit\s+|prior\s+)*(?:asked|asks|requested|requests|instructed|instructs|told|tells|approved|approves|approval|permission|confirmation|consent)`)

// inParens reports whether text's first occurrence in s stands inside
// parentheses.
func inParens(s, text string) bool {
	i := strings.Index(s, text)
	if i < 0 {
		return false
	}
	open := strings.LastIndexByte(s[:i], '(')
	if open < 0 || strings.Count(s[:i], "(") <= strings.Count(s[:i], ")") {
		return false
	}
	// "Use pnpm (never npm)": an aside that negates is the rule itself.
	return !negationCue.MatchString(strings.ToLower(s[open:i]))
}

// governedByOther reports whether Parse read the span p as an object of a
// verb other than v.
func governedByOther(objs []Object, p, v string) bool {
	return slices.ContainsFunc(objs, func(o Object) bool {
		return strings.Trim(o.Text, "`") == strings.Trim(p, "`") && o.Verb != "" && !strings.EqualFold(o.Verb, v)
	})
}

// negationBefore reports whether the clause leading to a point negates.
var negationCue = lazyRE(`\b(?:never|not|no|don'?t|avoid|instead of|rather than|over|without|nor)\b`)

func negationBefore(s string) bool {
	if i := strings.LastIndexAny(s, ";.!?"); i >= 0 {
		s = s[i+1:]
	}
	return negationCue.MatchString(s)
}

// flagWord is the word after a flag's span that names it a flag.
var flagWord = lazyRE("(?i)`\\s+(?:flag|option|switch)\\b")

// qualified reports whether a clause restricts its programs to a purpose
// or a target the check could not tell ("Don't use npm to publish"; "never
// run `rm -rf` on the project root"), so that forbidding the whole program
// would be a guess. A purpose that is the tools' own job ("to install
// packages", "for formatting", "in this project") restricts nothing.
func qualified(clause string, progs []string) bool {
	// "… the `--x` flag when …": the word naming the flag is no
	// qualifier.
	lower := strings.ToLower(flagWord.ReplaceAllString(clause, "`"))
	for _, p := range progs {
		// "Don't trust `make deploy` alone": the command
		// with something more is not ruled out, and the check cannot tell
		// what more.
		if regexp.MustCompile(regexp.QuoteMeta(strings.ToLower(p)) + "`?" + `\s+(?:alone|by\s+itself|on\s+its\s+own)\b`).MatchString(lower) {
			return true
		}
		// An aside may stand between ("`uv` (not `pip`) for tool installs").
		re := regexp.MustCompile(regexp.QuoteMeta(p) + "`?\\)?" + `(?:\s*\([^()]*\))?\s+(?:to|for|when|in|on|with|inside|within|against)\s+((?:[a-z-]+\s+){0,3}[a-z-]+)`)
		for _, m := range re.FindAllStringSubmatch(lower, -1) {
			words := strings.Fields(m[1])
			if len(words) > 1 && words[0] == "place" && words[1] == "of" {
				continue // "`rg` in place of `grep`" prefers; it narrows nothing
			}
			n := 0
			for _, w := range words {
				if determiners[w] {
					continue
				}
				if !genericJob[w] && !knownPrograms[w] {
					return true
				}
				if n++; n == 2 {
					break
				}
			}
		}
	}
	return false
}

// conditionQualifies reports whether a rule's condition narrows it to a
// case the check could not tell ("when installing packages from a Git
// repository"), beyond the tools' own job ("when installing packages with
// uv").
func conditionQualifies(when string) bool {
	words := strings.Fields(strings.ToLower(when))
	for i, w := range words {
		w = strings.Trim(w, ".,;:`'\"()")
		switch {
		case i == 0 && (w == "when" || w == "whenever" || w == "if" || w == "before" || w == "after"):
		case w == "from" || w == "except" || w == "unless" || w == "only":
			return true
		case determiners[w] || w == "with" || w == "using" || w == "via" || w == "in" || w == "to" || w == "into" || w == "for" || w == "you" || w == "we":
		case !genericJob[w] && !knownPrograms[w]:
			return true
		}
	}
	return false
}

// determiners are skipped in a purpose ("for the project", "in all
// packages").
var determiners = set("the", "a", "an", "all", "any", "every", "each", "this", "these", "our", "your", "its", "new", "of")

// genericJob are the words of a purpose that is a tool's whole job.
var genericJob = set("install", "installing", "installation", "manage", "managing", "management", "package", "packages", "library", "libraries", "libs",
	"dependency", "dependencies", "deps", "format", "formatting", "lint", "linting", "test", "testing", "tests", "build",
	"building", "builds", "run", "running", "scripts", "script", "everything", "this", "python", "javascript", "typescript",
	"node", "go", "rust", "all", "any", "add", "adding", "search", "searching", "find", "finding", "code", "commands",
	"command", "project", "projects", "repo", "repository", "codebase", "local", "development", "dev", "ci", "and", "or")

// prohibition is a negation that forbids: "never", "don't", "do not",
// "must not", "avoid", "no X" opening a clause, "not allowed"; as opposed
// to one that describes ("is not", "may not be", "cannot").
var prohibition = lazyRE(`(?i)\b(?:never|don'?t|do\s+not|does\s+not\s+need|must\s+not|mustn'?t|should\s+not|shouldn'?t|shall\s+not|will\s+not|won'?t|avoid(?:ing)?|refrain\s+from|stop|not\s+allowed|forbidden|prohibited|disallowed|instead\s+of|rather\s+than)\b|(?:^|[:;(—–]\s*|\.\s+|^\W*)no\s+\S`)

// negatedClause is the part of a sentence a negation governs: from the
// cue to the next clause boundary ("Never edit files under generated/;
// instead edit templates/" → "Never edit files under generated/"). A
// sentence without a cue (an item under a "Don't" heading) is whole.
func negatedClause(s string) string {
	// terms.LowerASCII keeps byte offsets (strings.ToLower changes lengths:
	// an invalid byte becomes U+FFFD).
	loc := negationCue.FindStringIndex(terms.LowerASCII(s))
	if loc == nil {
		return s
	}
	if passive.MatchString(s[loc[1]:]) {
		// "Direct pushes to `main` are never allowed": the negation
		// governs the subject before it.
		start := 0
		if b := clauseBoundary.FindAllStringIndex(s[:loc[0]], -1); len(b) > 0 {
			start = b[len(b)-1][1]
		}
		return s[start:loc[1]]
	}
	return governed(s, loc)
}

// governed is the clause the negation cue at loc governs: from the cue to
// the next clause boundary; after the colon when one follows the cue
// ("Don't: use `X` …"); short of the means ("avoid X by running Y").
func governed(s string, loc []int) string {
	rest := s[loc[1]:]
	if strings.HasPrefix(strings.TrimLeft(rest, "*_ "), ":") {
		rest = rest[strings.IndexByte(rest, ':')+1:]
	}
	// An abbreviation's dot ("(i.e. avoid …)", "e.g. `x`") ends no clause.
	// Neither does punctuation inside a code span or a quoted string
	// ("no "Signed-off-by: bot" lines").
	masked := abbreviation.ReplaceAllStringFunc(rest, func(m string) string { return strings.ReplaceAll(m, ".", "_") })
	masked = quotedText.ReplaceAllStringFunc(masked, func(m string) string { return m[:1] + strings.Repeat("_", len(m)-2) + m[len(m)-1:] })
	if b := clauseBoundary.FindStringIndex(masked); b != nil {
		rest = rest[:b[0]]
	}
	if b := byMeans.FindStringIndex(rest); b != nil {
		rest = rest[:b[0]]
	}
	return s[loc[0]:loc[1]] + rest
}

// quotedText is a code span or a double-quoted string on one line.
var quotedText = lazyRE("`[^`\n]*`|\"[^\"\n]*\"")

// abbreviation is a Latin or English abbreviation whose dots end no
// sentence or clause.
var abbreviation = lazyRE(`(?i)\b(?:i\.\s?e|e\.\s?g|etc|vs|cf|approx|incl|resp)\.`)

// negatedClauses are the parts of a sentence its negations govern
// (governed), "doesn't" and "cannot" counted; none when the sentence has
// no cue.
func negatedClauses(s string) []string {
	lower := terms.LowerASCII(s)
	var out []string
	for _, loc := range anyNegation.FindAllStringIndex(lower, -1) {
		out = append(out, governed(s, loc))
	}
	return out
}

// byMeans opens the means of a negated clause: "avoid X by running Y".
var byMeans = lazyRE(`(?i)\bby\s+(?:\w+ing|using)\b`)

// anyNegation is negationCue with the negations that describe
// ("doesn't", "isn't", "cannot"): where a sentence negates at all.
var anyNegation = lazyRE(`\b(?:never|not|no|don'?t|doesn'?t|isn'?t|aren'?t|won'?t|can'?t|cannot|shouldn'?t|mustn'?t|avoid|instead of|rather than|over|without|nor)\b`)

// passive follows a negation that rules out its sentence's subject: "X
// are never allowed", "X is not permitted".
var passive = lazyRE(`(?i)^\s+(?:be\s+)?(?:allowed|permitted|accepted|acceptable|ok|okay|tolerated)\b`)

var clauseBoundary = lazyRE(`(?i);|\s[—–]\s|\s-\s|,\s*(?:and\s+)?(?:use|prefer|run|call|edit)\b|,?\s+(?:instead|rather|but|except|unless|otherwise)\b|:\s|\.\s`)
