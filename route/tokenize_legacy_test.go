package route

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/innate-mcp/innate-mcp/terms"
)

// The router's own tokenizer before it moved onto terms.Scanner, kept as the
// oracle that the new path must agree with on every input.

func legacyIsWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9') || r == '_'
	}
	return (unicode.IsLetter(r) || unicode.IsDigit(r)) && !terms.IsHanKana(r)
}

// tokenize lowers s and splits it. s must already be clipped.
func legacyTokenize(s string) tokens {
	text := strings.ToLower(s)
	if strings.ContainsRune(text, '’') {
		text = strings.ReplaceAll(text, "’", "'")
	}
	est := len(text)/5 + 1
	t := tokens{text: text, words: make([]string, 0, est), clause: make([]bool, 0, est)}
	cur := sentence{}
	wordStart := -1
	run := 0
	afterComma := false
	flushWord := func(end int) {
		if wordStart >= 0 {
			w := text[wordStart:end]
			for len(w) > 0 && w[len(w)-1] == '\'' {
				w = w[:len(w)-1]
			}
			if w != "" {
				t.words = append(t.words, w)
				t.clause = append(t.clause, afterComma)
				afterComma = false
			}
			wordStart = -1
		}
	}
	flushRun := func() {
		if run > 0 {
			t.cjkRuns = append(t.cjkRuns, run)
			run = 0
		}
	}
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
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case legacyIsWordRune(r):
			flushRun()
			if wordStart < 0 {
				wordStart = i
			}
		case r == '\'' && wordStart >= 0:
			// inner apostrophe: "don't"; a trailing one is trimmed in flushWord
		case terms.IsHanKana(r):
			flushWord(i)
			cur.cjkRunes++
			t.cjkRunes++
			run++
		default:
			flushWord(i)
			flushRun()
			next, _ := utf8.DecodeRuneInString(text[i+size:])
			switch r {
			case ',', ':', '，', '：', '—', '–':
				afterComma = true
			}
			switch {
			case isQuestionMark(r):
				// A run of question marks glued to a word ("B?i") or longer
				// than three ("?????") is mis-decoded text, not a question.
				run, end := questionRun(text, i)
				if n, _ := utf8.DecodeRuneInString(text[end:]); run <= maxQuestionRun && !legacyIsWordRune(n) && !terms.IsHanKana(n) {
					endSentence(end, true, false)
				}
				size = end - i
			case isSentenceEnd(r), r == '.' && !legacyIsWordRune(next):
				endSentence(i+size, false, r == '.' || r == '!' || r == '。' || r == '！')
			}
		}
		i += size
	}
	flushWord(len(text))
	flushRun()
	endSentence(len(text), false, false)
	return t
}

// compatPieces are the fragments random inputs are built from: the
// characters each branch of the tokenizer treats differently.
var compatPieces = []string{"a", "Z", "don", "'", "’", "t", " ", "  ", "\n", "\t", ".", "..", "?", "??", "????", "？",
	"!", "！", "。", ";", "；", "…", ",", "，", ":", "：", "—", "–", "-", "_", "3", "5", "main.go", "B?i", "中", "文",
	"ー", "カ", "ひ", "한", "국", "é", "É", "İ", "ǅ", "ß", "\xff", "\xe4\xb8", "١", "x'", "''", "`", "(", ")", "e\u0301"}

func compatCorpus(tb testing.TB) []string {
	tb.Helper()
	in := []string{"", "hi", "why?", "fix storage/db.go Open()", "你好吗？", "前回と同じようにして", "dogs' bones", "don't'", "a''b",
		"????", "B?i", "3.5 or main.go.", "ok, now, then, so,", "--flag #12 v1.2.3 a::b", "İstanbul'da", "x ?", "?x"}
	raw, err := os.ReadFile(filepath.Join("testdata", "decisions.golden.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var golden []struct{ Message string }
	if err := json.Unmarshal(raw, &golden); err != nil {
		tb.Fatal(err)
	}
	for _, g := range golden {
		in = append(in, g.Message)
	}
	lex, _ := filepath.Glob(filepath.Join("lexicon", "*.txt"))
	for _, name := range lex {
		b, err := os.ReadFile(name)
		if err != nil {
			tb.Fatal(err)
		}
		in = append(in, strings.Split(string(b), "\n")...)
		in = append(in, string(b))
	}
	rng := rand.New(rand.NewPCG(14, 4))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(24) {
			b.WriteString(compatPieces[rng.IntN(len(compatPieces))])
		}
		in = append(in, b.String())
	}
	return in
}

func TestTokenize_legacy(t *testing.T) {
	for _, s := range compatCorpus(t) {
		if got, want := tokenize(s), legacyTokenize(s); !reflect.DeepEqual(got, want) {
			t.Fatalf("tokenize(%q):\n got=%+v\nwant %+v", s, got, want)
		}
	}
}

func FuzzTokenize_legacy(f *testing.F) {
	for _, s := range compatPieces {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := tokenize(s), legacyTokenize(s); !reflect.DeepEqual(got, want) {
			t.Fatalf("tokenize(%q):\n got=%+v\nwant %+v", s, got, want)
		}
	})
}
