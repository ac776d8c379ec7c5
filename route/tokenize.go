package route

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/innate-mcp/innate-mcp/terms"
)

// MaxScanBytes bounds the work spent on one message: a longer message is
// scanned as its first 3 KiB and its last 1 KiB (cut at rune boundaries), so a
// pasted log neither slows routing down nor hides a question asked at its end.
// (A constant.)
const MaxScanBytes = 4 << 10

const (
	headBytes = 3 << 10
	tailBytes = MaxScanBytes - headBytes
)

// clip returns the part of s the router reads (see MaxScanBytes).
func clip(s string) string {
	if len(s) <= MaxScanBytes {
		return s
	}
	h := headBytes
	for h > 0 && !utf8.RuneStart(s[h]) {
		h--
	}
	t := len(s) - tailBytes
	for t < len(s) && !utf8.RuneStart(s[t]) {
		t++
	}
	return s[:h] + "\n" + s[t:]
}

// sentence is a run of tokens ended by terminal punctuation or a line break.
type sentence struct {
	from, to       int  // token indices [from, to)
	start, end     int  // byte offsets in the lowered text [start, end)
	qmark          bool // ended by a question mark
	stop           bool // ended by a full stop or exclamation mark
	cjkRunes       int  // Han/kana characters inside
	socialCJKRunes int  // of those, characters inside greeting or thanks phrases
}

// tokens is a lowered message split into English words and sentences.
type tokens struct {
	text      string     // lowered, apostrophes folded
	words     []string   // English words (letters, digits, inner apostrophes and underscores)
	clause    []bool     // clause[i]: words[i] follows a comma, colon or dash
	sentences []sentence // covering the whole text
	cjkRunes  int        // Han/kana characters in the text
	cjkRuns   []int      // lengths in characters of each run of Han/kana
}

// isSentenceEnd reports whether r ends a sentence. '.' does so only when not
// followed by a letter or digit (so "main.go" and "3.5" stay inside one).
func isSentenceEnd(r rune) bool {
	switch r {
	case '!', '\n', ';', '。', '！', '；', '…':
		return true
	}
	return false
}

func isQuestionMark(r rune) bool { return r == '?' || r == '？' }

// maxQuestionRun is the longest run of question marks read as a question;
// a longer one ("?????") is mis-decoded text.
const maxQuestionRun = 3

// questionRun returns how many question marks start at text[i:] and the byte
// offset just past them.
func questionRun(text string, i int) (n, end int) {
	end = i
	for end < len(text) {
		r, size := utf8.DecodeRuneInString(text[end:])
		if !isQuestionMark(r) {
			break
		}
		n++
		end += size
	}
	return n, end
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9') || r == '_'
	}
	return (unicode.IsLetter(r) || unicode.IsDigit(r)) && !terms.IsHanKana(r)
}

// scanner reads the router's words: letters, digits and underscores that are
// not Han or kana, with inner apostrophes (don't); Han and kana characters
// come in runs.
var scanner = terms.Scanner{
	Word:    isWordRune,
	CJK:     terms.IsHanKana,
	CJKRuns: true,
	Joiner:  func(r rune) bool { return r == '\'' },
}

// tokenize lowers s and splits it. s must already be clipped.
func tokenize(s string) tokens {
	text := strings.ToLower(s)
	if strings.ContainsRune(text, '’') {
		text = strings.ReplaceAll(text, "’", "'")
	}
	est := len(text)/5 + 1
	t := tokens{text: text, words: make([]string, 0, est), clause: make([]bool, 0, est)}
	cur := sentence{}
	afterComma := false
	endSentence := func(end int, q, stop bool) {
		cur.to = len(t.words)
		cur.end = end
		cur.qmark = q
		cur.stop = stop
		if cur.to > cur.from || cur.cjkRunes > 0 || q {
			t.sentences = append(t.sentences, cur)
		}
		cur = sentence{from: len(t.words), start: end}
	}
	skip := 0 // the end of a run of question marks already read
	for tok := range scanner.Tokens(text) {
		switch tok.Kind {
		case terms.KindWord:
			t.words = append(t.words, text[tok.Start:tok.End])
			t.clause = append(t.clause, afterComma)
			afterComma = false
		case terms.KindCJK:
			n := utf8.RuneCountInString(text[tok.Start:tok.End])
			cur.cjkRunes += n
			t.cjkRunes += n
			t.cjkRuns = append(t.cjkRuns, n)
		case terms.KindPunct:
			if tok.Start < skip {
				continue
			}
			r, size := utf8.DecodeRuneInString(text[tok.Start:])
			next, _ := utf8.DecodeRuneInString(text[tok.End:])
			switch r {
			case ',', ':', '，', '：', '—', '–':
				afterComma = true
			}
			switch {
			case isQuestionMark(r):
				// A run of question marks glued to a word ("B?i") or longer
				// than three ("?????") is mis-decoded text, not a question.
				run, end := questionRun(text, tok.Start)
				if n, _ := utf8.DecodeRuneInString(text[end:]); run <= maxQuestionRun && !isWordRune(n) && !terms.IsHanKana(n) {
					endSentence(end, true, false)
				}
				skip = end
			case isSentenceEnd(r), r == '.' && !isWordRune(next):
				endSentence(tok.Start+size, false, r == '.' || r == '!' || r == '。' || r == '！')
			}
		}
	}
	endSentence(len(text), false, false)
	return t
}

// cjkWords approximates the number of words in the Han/kana text: a run of n
// characters counts as ⌈n/2⌉ (Chinese and Japanese words average under two
// characters), so the same thought weighs about the same in every language.
func cjkWords(runs []int) int {
	n := 0
	for _, r := range runs {
		n += (r + 1) / 2
	}
	return n
}
