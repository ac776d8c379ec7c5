package embed

import (
	"encoding/json"
	"os"
	"slices"
	"testing"
)

type goldenRecord struct {
	Text string    `json:"text"`
	IDs  []int     `json:"ids"`
	Emb  []float64 `json:"emb"`
}

func readGolden(tb testing.TB, path string) []goldenRecord {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var recs []goldenRecord
	if err := json.Unmarshal(b, &recs); err != nil {
		tb.Fatalf("parse %s: %v", path, err)
	}
	if len(recs) == 0 {
		tb.Fatalf("%s: no records", path)
	}
	return recs
}

func builtinTok(tb testing.TB) *Tokenizer {
	tb.Helper()
	tok, err := BuiltinTokenizer()
	if err != nil {
		tb.Fatal(err)
	}
	return tok
}

func TestTokenizer_EncodeGolden(t *testing.T) {
	tok := builtinTok(t)
	for _, file := range []string{"testdata/use-lite-golden.json", "testdata/use-lite-golden-extra.json", "testdata/tokenizer-golden.json"} {
		t.Run(file, func(t *testing.T) {
			bad := 0
			for _, r := range readGolden(t, file) {
				got := tok.Encode(r.Text)
				if !slices.Equal(got, r.IDs) {
					bad++
					if bad <= 10 {
						t.Errorf("Encode(%q)\n got=%v\nwant %v", r.Text, got, r.IDs)
					}
				}
			}
			if bad > 0 {
				t.Errorf("%d texts differ", bad)
			}
		})
	}
}
