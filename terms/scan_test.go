package terms

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// show renders tokens as kind:text, the form the cases below spell.
func show(text string, toks []Token) string {
	var b strings.Builder
	for _, t := range toks {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%c:%s", "?wcp"[t.Kind], text[t.Start:t.End])
	}
	return b.String()
}

func TestScanner_Tokens(t *testing.T) {
	apos := func(r rune) bool { return r == '\'' }
	code := func(r rune) bool { return IsWordRune(r) || strings.ContainsRune("-./", r) }
	tests := []struct {
		name string
		s    Scanner
		in   string
		want string
	}{
		{"zero", Scanner{}, "Hello, snake_case 42!", "w:Hello p:, w:snake_case w:42 p:!"},
		{"line breaks", Scanner{}, "a\tb\r\nc", "w:a w:b p:\n w:c"},
		{"no CJK class", Scanner{}, "中文ok", "w:中文ok"},
		{"CJK characters", Scanner{CJK: IsCJK}, "用go写中文", "c:用 w:go c:写 c:中 c:文"},
		{"CJK runs", Scanner{CJK: IsCJK, CJKRuns: true}, "用go写中文 中", "c:用 w:go c:写中文 c:中"},
		{"joiner", Scanner{Joiner: apos}, "don't dogs' 'tis a''b", "w:don't w:dogs p:' w:tis w:a''b"},
		{"code words", Scanner{Word: code}, "see storage/db.go-v2, ok", "w:see w:storage/db.go-v2 p:, w:ok"},
		{"invalid UTF-8", Scanner{}, "a\xffb", "w:a p:\xff w:b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := show(tt.in, tt.s.Append(nil, tt.in)); got != tt.want {
				t.Errorf("got=%q, want %q", got, tt.want)
			}
		})
	}
}

func TestScanner_Tokens_stop(t *testing.T) {
	n := 0
	for range (Scanner{CJK: IsCJK, CJKRuns: true}).Tokens("a 中文 b, c") {
		if n++; n == 2 {
			break
		}
	}
	if n != 2 {
		t.Errorf("got=%d tokens, want 2", n)
	}
}

func FuzzScanner(f *testing.F) {
	for _, s := range []string{"", "Hello, world", "don't 中文かな", "a\xffb\n", "x_y-z.go"} {
		f.Add(s)
	}
	scanners := []Scanner{{}, {CJK: IsCJK}, {CJK: IsHanKana, CJKRuns: true, Joiner: func(r rune) bool { return r == '\'' }}}
	f.Fuzz(func(t *testing.T, text string) {
		for _, s := range scanners {
			end, valid := 0, utf8.ValidString(text)
			for _, tok := range s.Append(nil, text) {
				if tok.Start < end || tok.End <= tok.Start || tok.End > len(text) {
					t.Fatalf("token %+v after offset %d in %q", tok, end, text)
				}
				if valid && (!utf8.RuneStart(text[tok.Start]) || tok.End < len(text) && !utf8.RuneStart(text[tok.End])) {
					t.Fatalf("token %+v splits a character of %q", tok, text)
				}
				end = tok.End
			}
		}
	})
}
