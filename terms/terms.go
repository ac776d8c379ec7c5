// Package terms turns text into the lexical terms that innate-mcp indexes and
// matches: identifiers are split into their parts (parseHTTPRequest → parse,
// http, request; snake_case_name → snake, case, name) while the whole
// identifier is kept too, English words are lower-cased and stemmed (Porter,
// as SQLite's FTS5 porter tokenizer does, except that no stem is shorter than
// three letters: going is not go; see [Stem]), common function words are dropped, and
// runs of Chinese, Japanese or Korean characters become overlapping character
// bigrams so that text without spaces still matches by its parts.
//
// The same function produces the terms written to the SQLite FTS5 index and
// the terms of a query, so both sides always agree.
//
// terms is also where the other packages get the text primitives they share,
// with the variants they need named side by side rather than copied: the one
// scanner that splits text into words, CJK characters and punctuation with
// byte offsets (Scanner, whose options hold each package's real differences),
// the offset-preserving ASCII case fold (FoldASCII, LowerASCII) and the
// diacritic fold (FoldDiacritics), the light stemmer contradiction keys use
// (StemLight) beside Porter's (Stem), the identifier splitter
// (SplitIdentifier), number masking (MaskNumbers) and the classes of
// characters written without spaces (IsCJK, IsHanKana, IsHanKanaBlock).
// Everything here is pure, deterministic and safe for concurrent use.
package terms

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxTermBytes is the longest term kept; longer runs (base64 blobs, hashes,
// minified code) carry no lexical meaning and are dropped.
const MaxTermBytes = 48

// Tokens returns the terms of text in order of appearance, duplicates
// included (term frequency matters to BM25). See the package doc for the rules.
func Tokens(text string) []string {
	out := make([]string, 0, len(text)/6+1)
	each(text, func(t string) { out = append(out, t) })
	return out
}

// Distinct returns the set of distinct terms of text, excluding stop words
// and terms shorter than two bytes, which carry little signature.
func Distinct(text string) map[string]struct{} {
	set := make(map[string]struct{})
	each(text, func(t string) {
		if len(t) >= 2 {
			set[t] = struct{}{}
		}
	})
	return set
}

// Join returns the terms of text joined by single spaces: the form written to
// the full-text index, whose own tokenizer then only splits on spaces.
func Join(text string) string {
	var b strings.Builder
	b.Grow(len(text))
	each(text, func(t string) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t)
	})
	return b.String()
}

// scanner reads the words and CJK runs that Tokens turns into terms.
var scanner = Scanner{CJK: IsCJK, CJKRuns: true}

// each scans text once and calls emit for every term.
func each(text string, emit func(string)) {
	for t := range scanner.Tokens(text) {
		switch t.Kind {
		case KindWord:
			emitWord(text[t.Start:t.End], emit)
		case KindCJK:
			emitCJK([]rune(text[t.Start:t.End]), emit)
		}
	}
}

// emitCJK emits overlapping bigrams of a CJK run, or the lone character.
func emitCJK(runes []rune, emit func(string)) {
	if len(runes) == 1 {
		emit(string(runes))
		return
	}
	for k := 0; k+1 < len(runes); k++ {
		emit(string(runes[k : k+2]))
	}
}

// emitWord emits the parts of an identifier-like word and, when it has more
// than one part, the whole word as well.
func emitWord(word string, emit func(string)) {
	if len(word) > MaxTermBytes*2 {
		return
	}
	parts := SplitIdentifier(word)
	n := 0
	for _, p := range parts {
		if t, ok := normalize(p); ok {
			emit(t)
			n++
		}
	}
	if len(parts) > 1 {
		whole := strings.ToLower(strings.ReplaceAll(word, "_", ""))
		if len(whole) <= MaxTermBytes && n > 0 {
			emit(whole)
		}
	}
}

// normalize lower-cases and stems one identifier part, and rejects stop
// words, single letters and over-long parts.
func normalize(part string) (string, bool) {
	if len(part) > MaxTermBytes {
		return "", false
	}
	p := strings.ToLower(part)
	if isStop(p) {
		return "", false
	}
	if utf8.RuneCountInString(p) < 2 && !isDigits(p) {
		return "", false
	}
	if isASCIILetters(p) && len(p) > 3 {
		p = Stem(p)
	}
	return p, true
}

// SplitIdentifier splits an identifier at underscores, lower-to-upper case
// changes, the end of an acronym (HTTPRequest → HTTP, Request) and
// letter/digit boundaries. A plain word comes back as itself.
func SplitIdentifier(word string) []string {
	var parts []string
	runes := []rune(word)
	start := 0
	flush := func(end int) {
		if end > start {
			parts = append(parts, string(runes[start:end]))
		}
		start = end
	}
	for k := 0; k < len(runes); k++ {
		r := runes[k]
		if r == '_' {
			flush(k)
			start = k + 1
			continue
		}
		if k == start {
			continue
		}
		prev := runes[k-1]
		switch {
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			flush(k)
		case unicode.IsUpper(r) && unicode.IsUpper(prev) && k+1 < len(runes) && unicode.IsLower(runes[k+1]):
			flush(k)
		case unicode.IsDigit(r) != unicode.IsDigit(prev) && prev != '_':
			flush(k)
		}
	}
	flush(len(runes))
	return parts
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func isASCIILetters(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}
