package sanitize

import (
	"regexp"
	"slices"
	"strings"
	"sync"
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

// Placeholder returns the text that replaces a secret of the given kind.
func Placeholder(kind string) string { return "[REDACTED:" + kind + "]" }

// Redact returns text with every secret it recognises replaced by
// [Placeholder] of its kind, and the redactions made, in input order.
//
// It recognises token formats that identify themselves (AWS access key ids,
// GitHub, GitLab, Slack, Stripe, OpenAI, Anthropic, Google, npm, PyPI,
// Hugging Face, SendGrid and DigitalOcean tokens, JWTs, private key blocks)
// wherever they appear, and context-dependent secrets: AWS secret keys next
// to an AWS secret name, passwords in URLs, Authorization and bearer headers,
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
// "changeme" or "hunter2" are redacted: they may be real credentials.
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

// secretRule is one redaction rule in source form.
type secretRule struct {
	kind    string
	anchors []string // literals every match contains; searched case-insensitively when fold
	fold    bool
	pattern string
	// group is the submatch holding the secret; 0 means the whole match.
	// With groups set, the first non-empty group of those is the secret.
	groups []int
	before int // window bytes before an anchor
	after  int // window bytes after an anchor
	// edge requires that the secret is not glued to letters or digits on
	// either side.
	edge bool
	// check rejects a candidate secret (value) found by match m in text.
	check func(text string, m []int, value string, group int) bool
}

type compiledSecret struct {
	secretRule
	re *regexp.Regexp
}

type secretSet struct {
	rules []compiledSecret
	exact *anchorIndex // anchors of case-sensitive rules, searched in text
	fold  *anchorIndex // anchors of case-insensitive rules, searched in lower-cased text
}

var secrets = sync.OnceValue(func() *secretSet {
	set := &secretSet{}
	var exact, fold [][]string
	for _, r := range secretRuleTable {
		set.rules = append(set.rules, compiledSecret{secretRule: r, re: regexp.MustCompile(r.pattern)})
		if r.fold {
			exact, fold = append(exact, nil), append(fold, r.anchors)
		} else {
			exact, fold = append(exact, r.anchors), append(fold, nil)
		}
	}
	set.exact, set.fold = newAnchorIndex(exact), newAnchorIndex(fold)
	return set
})

type candidate struct {
	Redaction
	prio int
}

func findSecrets(text string) []Redaction {
	set := secrets()
	n := len(set.rules)
	before := func(r int) int { return set.rules[r].before }
	after := func(r int) int { return set.rules[r].after }
	exactWins := set.exact.windows(text, n, before, after)
	foldWins := set.fold.windows(lowerASCII(text), n, before, after)

	var cands []candidate
	for ri := range set.rules {
		r := &set.rules[ri]
		ws := exactWins[ri]
		if r.fold {
			ws = foldWins[ri]
		}
		if len(ws) == 0 {
			continue
		}
		for _, m := range findIn(r.re, text, ws, false) {
			start, end, g := m[0], m[1], 0
			for _, gi := range r.groups {
				if m[2*gi] >= 0 && m[2*gi+1] > m[2*gi] {
					start, end, g = m[2*gi], m[2*gi+1], gi
					break
				}
			}
			if len(r.groups) > 0 && g == 0 {
				continue
			}
			if start >= end {
				continue
			}
			if r.edge && !atEdges(text, start, end) {
				continue
			}
			if r.check != nil && !r.check(text, m, text[start:end], g) {
				continue
			}
			cands = append(cands, candidate{Redaction{Kind: r.kind, Start: start, End: end}, ri})
		}
	}
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
	var out []Redaction
	for _, c := range cands {
		i, _ := slices.BinarySearchFunc(out, c.Start, func(r Redaction, start int) int { return r.Start - start })
		if i > 0 && out[i-1].End > c.Start || i < len(out) && out[i].Start < c.End {
			continue
		}
		out = slices.Insert(out, i, c.Redaction)
	}
	return out
}

// lowerASCII lower-cases ASCII letters only, so byte offsets are unchanged.
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; 'A' <= c && c <= 'Z' {
					b[j] = c + ('a' - 'A')
				}
			}
			return string(b)
		}
	}
	return s
}

func isAlnum(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func atEdges(text string, start, end int) bool {
	return (start == 0 || !isAlnum(text[start-1])) && (end == len(text) || !isAlnum(text[end]))
}
