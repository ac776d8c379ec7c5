// Package clip shortens text for display and for token budgets: to at most
// a number of bytes, cut on a rune boundary so the result stays valid
// UTF-8, with "…" marking a cut (Bytes, Line), or to the passage of a long
// text that best matches what the reader looks for (Excerpt); and joins a
// list of words for a sentence (Series). Pure functions, safe for
// concurrent use.
package clip

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Bytes returns s when it fits in n bytes, else its longest prefix of at
// most n bytes that ends on a rune boundary, without trailing white space,
// followed by "…" (so a cut result is up to n+3 bytes).
func Bytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	n = max(n, 0)
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return strings.TrimRightFunc(s[:n], unicode.IsSpace) + "…"
}

// Line is Bytes of s on one line: runs of white space, newlines included,
// become one space first.
func Line(s string, n int) string {
	return Bytes(strings.Join(strings.Fields(s), " "), n)
}

// BytesPerToken is the size of a token that token counts and budgets
// assume (recall's, the hooks', a consultant's prompt): about four bytes of
// English or code per token, the usual rule of thumb for the tokenizers of
// current models. No tokenizer is run: a budget is an estimate the agent
// gives, and an estimate is what it gets back.
const BytesPerToken = 4

// Tokens estimates the tokens of s, rounded up.
func Tokens(s string) int { return TokensOfBytes(len(s)) }

// TokensOfBytes estimates the tokens of n bytes of text, rounded up.
func TokensOfBytes(n int) int { return (n + BytesPerToken - 1) / BytesPerToken }

// Series joins items for a sentence, the last after conj: "a, b and c",
// "`x` or `y`"; one item alone, none "".
func Series(items []string, conj string) string {
	if n := len(items); n > 1 {
		return strings.Join(items[:n-1], ", ") + " " + conj + " " + items[n-1]
	}
	return strings.Join(items, "")
}
