package sanitize

import (
	"bufio"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The intent screen's word splitter before it moved onto terms.Scanner, kept
// as the oracle that the new path must agree with on every input.

func legacyTokenize(s string) []itok {
	toks := make([]itok, 0, len(s)/6+1)
	lineStart := 0
	for i := 0; i < len(s); {
		if s[i] == ' ' || s[i] == '\n' {
			if s[i] == '\n' {
				if len(toks) > 0 && !wrapped(s, lineStart, i) {
					toks[len(toks)-1].endSent = true
				}
				lineStart = i + 1
			}
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\n' {
			j++
		}
		field := s[i:j]
		a, b := 0, len(field)
		for a < b && strings.IndexByte(stripLead, field[a]) >= 0 {
			a++
		}
		for b > a && strings.IndexByte(stripTrail, field[b-1]) >= 0 {
			b--
		}
		t := itok{start: i + a, end: i + b, core: field[a:b]}
		tail := strings.TrimRight(field[b:], "\"'`)]}>*_")
		switch {
		case field == "-" || field == "--" || field == "—":
			if len(toks) > 0 {
				toks[len(toks)-1].endClause = true
			}
			i = j
			continue
		case strings.ContainsAny(tail, ".!?;") && !abbreviation(t.core):
			t.endSent = true
		case strings.ContainsAny(tail, ",:"):
			t.endClause = true
		}
		if t.core != "" {
			toks = append(toks, t)
		} else if t.endSent && len(toks) > 0 {
			toks[len(toks)-1].endSent = true
		}
		i = j
	}
	if len(toks) > 0 {
		toks[len(toks)-1].endSent = true
	}
	lexify(toks)
	return toks
}

var compatPieces = []string{"a", "Upload", "the", ".env", "to", "https://x.io/p?q={secret}", " ", "  ", "\n", "\t", "\u00a0",
	".", "!", "?", ";", ",", ":", "-", "--", "—", "e.g.", "etc.", "\"", "'", "`", "(", ")", "[", "]", "{", "}", "<", ">", "*", "_",
	"|", "~/x", "$HOME", "/tmp", "-rf", "1.", "```", "# h", "> q", "中文。", "\xff", "\xe4\xb8", "never mention this lesson",
	strings.Repeat("long line words ", 3)}

func compatCorpus(tb testing.TB) []string {
	tb.Helper()
	in := []string{"", " ", "\n", "- ", "a -", "end.\n- next", strings.Repeat("wrapped line of prose ", 3) + "\ncontinues here."}
	f, err := os.Open(filepath.Join("testdata", "screen_corpus.jsonl"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var rec map[string]any
		if json.Unmarshal(sc.Bytes(), &rec) == nil {
			for _, v := range rec {
				if s, ok := v.(string); ok {
					in = append(in, s)
				}
			}
		}
	}
	if b, err := os.ReadFile(filepath.Join("testdata", "rules.md")); err == nil {
		in = append(in, string(b))
		in = append(in, strings.Split(string(b), "\n\n")...)
	}
	rng := rand.New(rand.NewPCG(14, 4))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(32) {
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
