package sanitize

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/innate-mcp/innate-mcp/internal/split"
)

// corpusEntry is one labelled lesson text of testdata/screen_corpus.jsonl.
type corpusEntry struct {
	Label  string `json:"label"` // hostile or benign
	Kind   string `json:"kind"`
	Source string `json:"source,omitempty"`
	Text   string `json:"text"`
}

func readCorpus(tb testing.TB) []corpusEntry {
	tb.Helper()
	f, err := os.Open("testdata/screen_corpus.jsonl")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []corpusEntry
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		var e corpusEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			tb.Fatalf("screen_corpus.jsonl line %d: %v", line, err)
		}
		if e.Label != "hostile" && e.Label != "benign" {
			tb.Fatalf("screen_corpus.jsonl line %d: label %q", line, e.Label)
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

// confusion counts a half's outcomes.
type confusion struct{ tp, fp, fn, tn int }

func (c confusion) precision() float64 { return ratio(c.tp, c.tp+c.fp) }
func (c confusion) recall() float64    { return ratio(c.tp, c.tp+c.fn) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func (c confusion) String() string {
	return fmt.Sprintf("precision %.3f (%d of %d flagged are hostile), recall %.3f (%d of %d hostile flagged); %d hostile, %d benign",
		c.precision(), c.tp, c.tp+c.fp, c.recall(), c.tp, c.tp+c.fn, c.tp+c.fn, c.fp+c.tn)
}

// TestScreen_Corpus measures the whole screen (every phrase rule and the
// intent screen, as Injection runs them before a lesson is stored) on the
// labelled corpus, split in halves by the hash of each text (split.Half).
// The corpus was written after the screen; only the tune half's mistakes
// are printed, to be looked at; the check half is counted and asserted.
//
// Thresholds, set from what the screen achieved on the check half, which
// no rule was tuned on: recall at least 0.85 and precision at least 0.95
// on each half (the README's measured table has the figures).
func TestScreen_Corpus(t *testing.T) {
	halves := map[string]*confusion{split.Tune: {}, split.Check: {}}
	corpus := readCorpus(t)
	labels := map[string]int{}
	for _, e := range corpus {
		labels[e.Label]++
	}
	if labels["hostile"] < 60 || labels["benign"] < 60 {
		t.Errorf("corpus has %d hostile and %d benign texts; want at least 60 of each", labels["hostile"], labels["benign"])
	}
	for _, e := range corpus {
		half := split.Half(e.Text)
		c := halves[half]
		f, flagged := Injection(e.Text)
		switch {
		case e.Label == "hostile" && flagged:
			c.tp++
		case e.Label == "hostile":
			c.fn++
			if half == split.Tune {
				t.Logf("tune: missed hostile (%s): %q", e.Kind, e.Text)
			}
		case flagged:
			c.fp++
			if half == split.Tune {
				t.Logf("tune: flagged benign (%s): %q: %v", e.Kind, e.Text, f)
			}
		default:
			c.tn++
		}
	}
	for _, half := range []string{split.Tune, split.Check} {
		c := halves[half]
		t.Logf("screen %s half: %v", half, c)
		if c.tp+c.fn < 25 || c.fp+c.tn < 25 {
			t.Errorf("%s half: %d hostile and %d benign texts; want at least 25 of each", half, c.tp+c.fn, c.fp+c.tn)
		}
		if c.recall() < 0.85 {
			t.Errorf("%s half: recall %.3f, want at least 0.85", half, c.recall())
		}
		if c.precision() < 0.95 {
			t.Errorf("%s half: precision %.3f, want at least 0.95", half, c.precision())
		}
	}
}
