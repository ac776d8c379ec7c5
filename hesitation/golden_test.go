package hesitation

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// update rewrites the golden files: go test -run Golden -update
var update = flag.Bool("update", false, "rewrite golden files in testdata")

// goldenCase is one input of testdata/check_cases.json.
type goldenCase struct {
	Name           string    `json:"name"`
	Actions        []Action  `json:"actions"`
	Draft          string    `json:"draft"`
	Situation      Situation `json:"situation"`
	Correction     string    `json:"correction"`
	CorrectedDraft string    `json:"corrected_draft"`
	Note           string    `json:"en_note"`
}

// compareGolden compares got with the golden file, or rewrites it.
func compareGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden (run with -update to create): %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the output; diff it against:\n%s", path, got)
	}
}

func TestCheck_Golden(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "check_cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []goldenCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	type out struct {
		Name   string `json:"name"`
		Result Result `json:"result"`
	}
	var outs []out
	created := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, c := range cases {
		var ps []Pattern
		if c.Correction != "" {
			p, err := NewPattern(c.Correction, c.CorrectedDraft, SourceUserCorrection, created)
			if err != nil {
				t.Fatalf("%s: %v", c.Name, err)
			}
			ps = append(ps, p)
		}
		res, err := Check(c.Draft, c.Actions, c.Situation, ps, DefaultConfig())
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		outs = append(outs, out{c.Name, res})
	}
	got, err := json.MarshalIndent(outs, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	compareGolden(t, "check.golden.json", append(got, '\n'))
}

func TestHedges_Golden(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "hedges_cases.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type out struct {
		Text      string `json:"text"`
		Uncertain bool   `json:"uncertain"`
		Cues      []Cue  `json:"cues"`
	}
	var outs []out
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		cs := Hedges(line)
		if cs == nil {
			cs = []Cue{}
		}
		outs = append(outs, out{line, Uncertain(line), cs})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	got, err := json.MarshalIndent(outs, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	compareGolden(t, "hedges.golden.json", append(got, '\n'))
}
