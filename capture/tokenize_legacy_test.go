package capture

import (
	"bufio"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The tokenizer before it moved onto terms.Scanner, kept as the oracle that
// the new path must agree with on every input.

func legacyTokenize(text string) []token {
	if len(text) > maxScan {
		text = clipRunes(text, maxScan)
	}
	out := make([]token, 0, len(text)/5+2)
	var word strings.Builder
	wordStart := -1
	flush := func(end int) {
		if wordStart < 0 {
			return
		}
		w := word.String()
		word.Reset()
		start := wordStart
		wordStart = -1
		out = appendWord(out, w, start, end)
	}
	inFence := false
	lineStart := true
	for i := 0; i < len(text); {
		if lineStart {
			lineStart = false
			if strings.HasPrefix(text[i:], "```") || strings.HasPrefix(text[i:], "~~~") {
				inFence = !inFence
				i = skipLine(text, i)
				continue
			}
			if inFence || strings.HasPrefix(text[i:], "    ") || strings.HasPrefix(text[i:], "\t") {
				i = skipLine(text, i)
				continue
			}
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case legacyIsCJK(r):
			flush(i)
			out = append(out, token{norm: string(r), start: i, end: i + size, kind: kindCJK})
		case isLetterOrDigit(r):
			if wordStart < 0 {
				wordStart = i
			}
			word.WriteString(legacyFold(r))
		case isApostrophe(r) && wordStart >= 0 && i+size < len(text):
			next, _ := utf8.DecodeRuneInString(text[i+size:])
			if !unicode.IsLetter(next) || legacyIsCJK(next) {
				flush(i)
				break
			}
			if elides(word.String()) {
				flush(i)
				break
			}
			// A contraction: the apostrophe is dropped and the word goes on.
		default:
			flush(i)
			if r == '\n' {
				lineStart = true
			}
			if k, ok := punctKind(r); ok && !inWord(text, i, size) {
				out = appendBreak(out, k, i, i+size)
			}
		}
		i += size
	}
	flush(len(text))
	return out
}

func legacyIsCJK(r rune) bool {
	return r >= 0x2E80 && (unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r) || r == 'ー')
}

// folded maps the Latin letters with diacritics to their base letters,
// built once from their canonical decompositions.
var legacyFolded = func() map[rune]string {
	m := make(map[rune]string)
	for r := rune(0xC0); r <= 0x24F; r++ {
		d := norm.NFD.String(string(r))
		base, _ := utf8.DecodeRuneInString(d)
		if len(d) > 1 && base < utf8.RuneSelf && unicode.IsLetter(base) {
			m[r] = string(unicode.ToLower(base))
		}
	}
	m['ß'], m['æ'], m['œ'], m['ø'], m['đ'], m['ł'] = "ss", "ae", "oe", "o", "d", "l"
	return m
}()

// fold lower-cases r and strips its diacritics; combining marks vanish.
func legacyFold(r rune) string {
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		return string(r)
	}
	if unicode.Is(unicode.Mn, r) {
		return ""
	}
	r = unicode.ToLower(r)
	if f, ok := legacyFolded[r]; ok {
		return f
	}
	return string(r)
}

var compatPieces = []string{"a", "Z", "don", "'", "’", "ʼ", "t", "l", "qu", "c", "est", "I", "m", "o", "clock", " ", "    ",
	"\n", "\t", ".", ",", "1", "000", "?", "？", "¿", "!", "！", "。", "…", ";", "；", ":", "：", "、", "(", ")", "（", "）",
	"```", "~~~", "_", "-", "Layouts.app", "中", "文", "ー", "カ", "한", "é", "É", "Ř", "ß", "Æ", "œ", "Ø", "đ", "Ł", "İ",
	"e\u0301", "\u0301", "\xff", "\xe4\xb8", "١", "Straße", "jusqu", "dell", "x'y", "1'2"}

func compatCorpus(tb testing.TB) []string {
	tb.Helper()
	in := []string{"", "don't", "c'est l'été", "I'm", "o'clock", "qu'il", "dont've", "```\ncode\n```\nok", "    indented\nno, wait.",
		"1,000 Layouts.app, ok", "no!!!?", "¿qué?", "不对，应该用这个。", "違う、そうじゃない"}
	files, _ := filepath.Glob(filepath.Join("cues", "*"))
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			tb.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			in = append(in, sc.Text())
		}
		f.Close()
		b, _ := os.ReadFile(name)
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
