package terms

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTokens(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"parseHTTPRequest", []string{"pars", "http", "request", "parsehttprequest"}},
		{"snake_case_name", []string{"snake", "case", "name", "snakecasename"}},
		{"Fix the nil pointer panics", []string{"fix", "nil", "pointer", "panic"}},
		{"utf8 v2 md5sum", []string{"utf", "8", "utf8", "2", "v2", "md", "5", "sum", "md5sum"}},
		{"不要使用全局变量", []string{"不要", "要使", "使用", "用全", "全局", "局变", "变量"}},
		{"テスト", []string{"テス", "スト"}},
		{"", nil},
		{"   ---  ", nil},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got := Tokens(tt.in)
			if len(got) == 0 && len(tt.want) == 0 {
				return
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("Tokens(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestTokens_identifierPartsMatchQueryWords(t *testing.T) {
	doc := Distinct("func parseHTTPRequest(r *http.Request) error")
	for _, q := range []string{"parse", "request", "HTTP", "parsing requests"} {
		for _, term := range Tokens(q) {
			if _, ok := doc[term]; !ok {
				t.Errorf("query word %q (term %q) not found in document terms %v", q, term, doc)
			}
		}
	}
}

func TestJoin(t *testing.T) {
	if got, want := Join("Don't use  global_state!"), "don use global state globalstate"; got != want {
		t.Fatalf("Join = %q, want %q", got, want)
	}
}

func TestSplitIdentifier(t *testing.T) {
	tests := map[string][]string{
		"parseHTTPRequest": {"parse", "HTTP", "Request"},
		"XMLHttpRequest":   {"XML", "Http", "Request"},
		"snake_case":       {"snake", "case"},
		"__init__":         {"init"},
		"word":             {"word"},
		"base64Encode":     {"base", "64", "Encode"},
	}
	for in, want := range tests {
		if got := SplitIdentifier(in); !slices.Equal(got, want) {
			t.Errorf("SplitIdentifier(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTokens_dropsLongRuns(t *testing.T) {
	blob := strings.Repeat("QUJD", 40)
	if got := Tokens("key " + blob); !slices.Equal(got, []string{"key"}) {
		t.Fatalf("Tokens with blob = %q", got)
	}
}

func FuzzTokens(f *testing.F) {
	for _, s := range []string{"parseHTTPRequest", "snake_case", "不要使用", "\xff\xfe", "a_b_c_D9x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		toks := Tokens(s)
		for _, tok := range toks {
			if tok == "" || strings.ContainsRune(tok, ' ') {
				t.Fatalf("bad term %q from %q", tok, s)
			}
			if utf8.ValidString(s) && !utf8.ValidString(tok) {
				t.Fatalf("invalid UTF-8 term %q from valid input %q", tok, s)
			}
		}
		if j := Join(s); j != strings.Join(toks, " ") {
			t.Fatalf("Join disagrees with Tokens for %q", s)
		}
	})
}

func BenchmarkTokens2KB(b *testing.B) {
	text := strings.Repeat("func parseHTTPRequest(r *http.Request) error { return nil } // handle the request ", 24)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Tokens(text)
	}
}

// TestPorter checks the reference algorithm on vectors from Porter's own
// word list.
func TestPorter(t *testing.T) {
	tests := map[string]string{
		"caresses": "caress", "ponies": "poni", "ties": "ti", "cats": "cat", "feed": "feed",
		"agreed": "agre", "plastered": "plaster", "bled": "bled", "motoring": "motor", "sing": "sing",
		"conflated": "conflat", "troubled": "troubl", "sized": "size", "hopping": "hop", "tanned": "tan",
		"falling": "fall", "hissing": "hiss", "fizzed": "fizz", "failing": "fail", "filing": "file",
		"happy": "happi", "sky": "sky", "relational": "relat", "conditional": "condit",
		"rational": "ration", "generalizations": "gener", "oscillators": "oscil", "running": "run",
		"requests": "request", "parsing": "pars", "connection": "connect", "connections": "connect",
		"connected": "connect", "hopeful": "hope", "goodness": "good", "adjustable": "adjust",
		"replacement": "replac", "adoption": "adopt", "effective": "effect", "electrical": "electr",
		"is": "is", "go": "go", "going": "go", "using": "us",
	}
	for in, want := range tests {
		if got := porter(in); got != want {
			t.Errorf("porter(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestStem(t *testing.T) {
	tests := []struct {
		word, want string
		why        string
	}{
		{"connections", "connect", "Porter's stem when it keeps three letters"},
		{"hopping", "hop", "Porter's stem when it keeps three letters"},
		{"going", "goi", "not go: the Go language"},
		{"goes", "goe", "not go"},
		{"gone", "gone", "Porter keeps it"},
		{"using", "use", "not us: the e Porter restores after -ing"},
		{"aging", "age", "not ag: the e Porter restores after -ing"},
		{"axing", "axi", "no e after x, as Porter's short syllable"},
		{"used", "use", "meets the unstemmed word use"},
		{"uses", "use", "meets the unstemmed word use"},
		{"useful", "use", "meets the unstemmed word use"},
		{"added", "add", "not ad"},
		{"adding", "add", "not ad"},
		{"dies", "die", "not di (dependency injection)"},
		{"died", "die", "not di"},
		{"ties", "tie", "not ti"},
		{"ones", "one", "not the stop word on"},
		{"inning", "inn", "not the stop word in"},
		{"rusting", "rust", "the same word as the language's name: one word, two senses"},
		{"swifter", "swifter", "Porter keeps -er on a one-syllable stem"},
		{"rubies", "rubi", "the same word as ruby"},
		{"ruby", "rubi", "the same word as rubies"},
		{"makes", "make", "the same word as make"},
		{"go", "go", "three letters or fewer: unchanged"},
		{"use", "use", "three letters or fewer: unchanged"},
		{"is", "is", "three letters or fewer: unchanged"},
	}
	for _, tt := range tests {
		if got := Stem(tt.word); got != tt.want {
			t.Errorf("Stem(%q) = %q, want %q (%s)", tt.word, got, tt.want, tt.why)
		}
	}
}

// TestTokens_noWordBecomesAnother: a word is never stemmed into a
// two-letter name or a stop word, so "going to" shares no term with a
// lesson about Go.
func TestTokens_noWordBecomesAnother(t *testing.T) {
	tests := []struct {
		text string
		not  []string
	}{
		{"I'm going to refactor the parser", []string{"go"}},
		{"the worker goes down when it dies", []string{"go", "di"}},
		{"using the ones we added", []string{"us", "on", "ad"}},
	}
	for _, tt := range tests {
		got := Tokens(tt.text)
		for _, n := range tt.not {
			if slices.Contains(got, n) {
				t.Errorf("Tokens(%q) = %q holds %q", tt.text, got, n)
			}
		}
	}
	if got := Tokens("Write idiomatic Go"); !slices.Contains(got, "go") {
		t.Errorf("Tokens(\"Write idiomatic Go\") = %q, want the term go", got)
	}
}

func FuzzStem(f *testing.F) {
	for _, s := range []string{"going", "using", "ties", "connections", "abc", "yyyy"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, w string) {
		if !isASCIILetters(w) {
			return
		}
		got := Stem(w)
		if len(got) < min(len(w), minStem) {
			t.Fatalf("Stem(%q) = %q, shorter than %d letters", w, got, minStem)
		}
		if len(w) <= minStem && got != w {
			t.Fatalf("Stem(%q) = %q, want a word of %d letters or fewer unchanged", w, got, minStem)
		}
	})
}
