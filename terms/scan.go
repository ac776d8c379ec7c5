package terms

import (
	"iter"
	"unicode"
	"unicode/utf8"
)

// Kind is the kind of a Token.
type Kind uint8

// Token kinds.
const (
	KindWord  Kind = iota + 1 // a run of word characters (Scanner.Word), with inner joiners
	KindCJK                   // a CJK character, or a run of them when Scanner.CJKRuns is set
	KindPunct                 // one character of any other kind except white space; a line break is one
)

// Token is one unit of a text: its kind and its bytes text[Start:End].
// Offsets are always those of the scanned text, whatever the caller later
// folds or stems.
type Token struct {
	Kind       Kind
	Start, End int
}

// Scanner splits text into words, CJK characters and punctuation, with the
// options where its users need different behaviour. Its zero value reads
// words of letters, digits and underscores ([IsWordRune]) and has no CJK
// class. The scanner only finds spans: case folding ([LowerASCII],
// [FoldDiacritics]), stemming ([Stem], [StemLight]) and identifier splitting
// ([SplitIdentifier]) apply to the words it yields. A Scanner is a value
// with no state of its own and is safe for concurrent use when its
// functions are.
type Scanner struct {
	// Word reports whether r belongs to a word; nil means IsWordRune. Code
	// tokens, for instance, may add '-', '.' or '/'.
	Word func(r rune) bool
	// CJK reports whether r is written without spaces and so makes tokens of
	// its own (IsCJK, IsHanKana, …); it is asked before Word, and only about
	// characters outside ASCII. nil means no character is.
	CJK func(r rune) bool
	// CJKRuns makes a run of CJK characters one token instead of one token
	// per character.
	CJKRuns bool
	// Joiner reports whether r continues a word once one has started, as an
	// apostrophe does in don't; joiners at the end of a word are not part of
	// it (dogs' is dogs) and make no token. nil means none.
	Joiner func(r rune) bool
}

// IsWordRune reports whether r is a letter, a digit or an underscore: the
// word characters of a zero Scanner and of Tokens.
func IsWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9') || r == '_'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// Tokens returns the tokens of text in order.
func (s Scanner) Tokens(text string) iter.Seq[Token] {
	return func(yield func(Token) bool) { s.scan(text, yield) }
}

// Append appends the tokens of text to dst and returns the extended slice.
func (s Scanner) Append(dst []Token, text string) []Token {
	s.scan(text, func(t Token) bool {
		dst = append(dst, t)
		return true
	})
	return dst
}

// scan calls yield for every token of text until it returns false.
func (s Scanner) scan(text string, yield func(Token) bool) {
	isWord := s.Word
	if isWord == nil {
		isWord = IsWordRune
	}
	word, wordEnd := -1, 0 // the word being read: [word, wordEnd) without trailing joiners
	run := -1              // the start of the CJK run being read
	flush := func(at int) bool {
		if word >= 0 {
			w := word
			word = -1
			if !yield(Token{Kind: KindWord, Start: w, End: wordEnd}) {
				return false
			}
		}
		if run >= 0 {
			r := run
			run = -1
			if !yield(Token{Kind: KindCJK, Start: r, End: at}) {
				return false
			}
		}
		return true
	}
	for i := 0; i < len(text); {
		r, size := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(text[i:])
		}
		switch {
		case s.CJK != nil && r >= utf8.RuneSelf && s.CJK(r):
			if word >= 0 && !flush(i) {
				return
			}
			switch {
			case !s.CJKRuns:
				if !yield(Token{Kind: KindCJK, Start: i, End: i + size}) {
					return
				}
			case run < 0:
				run = i
			}
		case isWord(r):
			if run >= 0 && !flush(i) {
				return
			}
			if word < 0 {
				word = i
			}
			// The rest of the run of word characters, without the switch.
			for i += size; i < len(text); i += size {
				r, size = rune(text[i]), 1
				if r >= utf8.RuneSelf {
					r, size = utf8.DecodeRuneInString(text[i:])
					if s.CJK != nil && s.CJK(r) {
						break
					}
				}
				if !isWord(r) {
					break
				}
			}
			wordEnd = i
			continue
		case word >= 0 && s.Joiner != nil && s.Joiner(r):
			// inside a word, or trailing and dropped at its end
		default:
			if !flush(i) {
				return
			}
			if r == '\n' || !unicode.IsSpace(r) {
				if !yield(Token{Kind: KindPunct, Start: i, End: i + size}) {
					return
				}
			}
		}
		i += size
	}
	flush(len(text))
}
