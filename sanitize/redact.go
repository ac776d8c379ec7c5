package sanitize

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/innate-mcp/innate-mcp/terms"
)

// Redaction records one secret replaced by [Redact]. It never holds the
// secret itself.
type Redaction struct {
	// Kind names what was found, such as "github-token" or "password"; the
	// placeholder written in its place is "[REDACTED:" + Kind + "]".
	Kind string `json:"kind"`
	// Start and End delimit the secret as a half-open byte range of the
	// input text.
	Start int `json:"start"`
	End   int `json:"end"`
}

// Placeholder returns the text that replaces a secret of the given kind,
// "[REDACTED:" + kind + "]". It is safe for concurrent use.
func Placeholder(kind string) string { return "[REDACTED:" + kind + "]" }

// Redact returns text with every secret it recognises replaced by
// [Placeholder] of its kind, and the redactions made, in input order.
//
// It recognises token formats that identify themselves (AWS access key ids,
// GitHub, GitLab, Slack, Stripe, OpenAI, Anthropic, Google, npm, PyPI,
// Hugging Face, SendGrid and DigitalOcean tokens, JWTs, private key blocks)
// wherever they appear, and context-dependent secrets: AWS secret keys next
// to an AWS secret name, passwords in URLs, Authorization and bearer headers,
// values of command-line flags such as --token and --password,
// literal values assigned to secret-like names (password, secret, token,
// api_key, ...) in code, env files, YAML and JSON, and high-entropy values
// assigned to names ending in key, salt or signature.
//
// Values that are placeholders rather than secrets are kept: template and
// environment references (${TOKEN}, $TOKEN, {{ .Token }}, process.env.X,
// os.getenv(...)), angle-bracket and "your-..." placeholders, masked values
// (xxx, ***, ...), identifiers and type names in code (token = await get(),
// password: String!), and earlier placeholders, which makes Redact
// idempotent: Redact(Redact(x)) == Redact(x). Literal weak values such as
// "changeme" or "hunter2" are redacted: they may be real credentials. The
// bare words password, secret and token, counts below 16 digits and quoted
// values containing spaces (labels, messages, passphrases) are kept.
//
// Redact is deterministic, safe for concurrent use and never fails; run
// time is linear in len(text). Valid UTF-8 input gives valid UTF-8 output.
func Redact(text string) (string, []Redaction) {
	found := findSecrets(text)
	if len(found) == 0 {
		return text, nil
	}
	var b strings.Builder
	b.Grow(len(text))
	prev := 0
	for _, r := range found {
		b.WriteString(text[prev:r.Start])
		b.WriteString(Placeholder(r.Kind))
		prev = r.End
	}
	b.WriteString(text[prev:])
	return b.String(), found
}

// secretRule is one redaction rule in source form. Every match begins with
// one of the rule's anchors (lower case, found in the ASCII-lower-cased text);
// the pattern runs on the original text, anchored there.
type secretRule struct {
	kind    string
	anchors []string
	pattern string
	maxLen  int // longest match
	// groups lists the submatches that may hold the secret; the first
	// non-empty one is it. Empty means the whole match.
	groups []int
	// edge requires that the secret is not glued to letters or digits on
	// either side.
	edge bool
	// left, when set, must accept the byte offset where the match starts.
	left func(text string, start int) bool
	// check, when set, must accept the secret value v found in submatch g
	// of the match m.
	check func(text string, m []int, v string, g int) bool
}

type compiledSecret struct {
	secretRule
	re *regexp.Regexp
}

type secretSet struct {
	rules   []compiledSecret
	scanner *anchorScanner
}

var secrets = sync.OnceValue(func() *secretSet {
	set := &secretSet{}
	var anchors [][]string
	for _, r := range secretRuleTable {
		set.rules = append(set.rules, compiledSecret{secretRule: r, re: regexp.MustCompile(`^(?:` + r.pattern + `)`)})
		anchors = append(anchors, r.anchors)
	}
	set.scanner, _ = newAnchorScanner(anchors, nil, false)
	return set
})

type candidate struct {
	Redaction
	prio int
}

func findSecrets(text string) []Redaction {
	set := secrets()
	var cands []candidate
	set.scanner.scan(terms.LowerASCII(text), func(lit, start, _ int) {
		for _, ri := range set.scanner.rules[lit] {
			if c, ok := set.try(ri, text, start); ok {
				cands = append(cands, c)
			}
		}
	})
	if len(cands) == 0 {
		return nil
	}
	// Rules are listed most specific first: accept candidates in rule order,
	// then by position, skipping any that overlaps one already accepted.
	slices.SortFunc(cands, func(a, b candidate) int {
		if a.prio != b.prio {
			return a.prio - b.prio
		}
		if a.Start != b.Start {
			return a.Start - b.Start
		}
		return b.End - a.End
	})
	var covered []bool // covered[i]: byte i belongs to an accepted secret
	if len(cands) > 1 {
		covered = make([]bool, len(text))
	}
	out := make([]Redaction, 0, len(cands))
	for _, c := range cands {
		if covered != nil {
			if slices.Contains(covered[c.Start:c.End], true) {
				continue
			}
			for i := c.Start; i < c.End; i++ {
				covered[i] = true
			}
		}
		out = append(out, c.Redaction)
	}
	slices.SortFunc(out, func(a, b Redaction) int { return a.Start - b.Start })
	return out
}

// try runs rule ri at an anchor found at start.
func (set *secretSet) try(ri int, text string, start int) (candidate, bool) {
	r := &set.rules[ri]
	if inPlaceholder(text, start) {
		return candidate{}, false // the kind inside "[REDACTED:bearer-token]" is no name
	}
	if r.left != nil && !r.left(text, start) {
		return candidate{}, false
	}
	m := matchAt(r.re, text, start, r.maxLen)
	if m == nil {
		return candidate{}, false
	}
	s, e, g := m[0], m[1], 0
	for _, gi := range r.groups {
		if m[2*gi] >= 0 && m[2*gi+1] > m[2*gi] {
			s, e, g = m[2*gi], m[2*gi+1], gi
			break
		}
	}
	if len(r.groups) > 0 && g == 0 || s >= e {
		return candidate{}, false
	}
	if g == bareGroup && len(r.groups) == bareGroup {
		// A bare value longer than the pattern's bound runs on to its end,
		// so no tail of a long secret escapes.
		for e < len(text) && isBareValueByte(text[e]) {
			e++
		}
	}
	if r.edge && !atEdges(text, s, e) {
		return candidate{}, false
	}
	if r.check != nil && !r.check(text, m, text[s:e], g) {
		return candidate{}, false
	}
	return candidate{Redaction{Kind: r.kind, Start: s, End: e}, ri}, true
}

// inPlaceholder reports whether offset i falls inside a placeholder written
// by an earlier Redact.
func inPlaceholder(text string, i int) bool {
	lo := max(0, i-len("[REDACTED:")-maxKindLen)
	j := strings.LastIndex(text[lo:i], "[REDACTED:")
	return j >= 0 && !strings.Contains(text[lo+j:i], "]")
}

// maxKindLen bounds the length of a redaction kind.
const maxKindLen = 32

// bareGroup is the submatch of assignValue that holds an unquoted value.
const bareGroup = 4

// isBareValueByte reports bytes that continue an unquoted value, as the bare
// alternative of assignValue does.
func isBareValueByte(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '\v', '\f', '"', '\'', '`', ',', ';', ')', '}', ']':
		return false
	}
	return true
}

func isAlnum(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func atEdges(text string, start, end int) bool {
	return (start == 0 || !isAlnum(text[start-1])) && (end == len(text) || !isAlnum(text[end]))
}
