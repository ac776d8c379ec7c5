package route

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/innate-mcp/innate-mcp/internal/metric"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

// goldenMessages spans every mode, signal and language; the golden file pins
// their decisions at three warmth levels so any change to weights, term lists
// or scoring shows up as a reviewable diff (regenerate with -update).
var goldenMessages = []string{
	"", "hi", "thanks!", "hi, how are you?", "good morning, the build broke again overnight",
	"How do I configure the retry policy?", "python how to sort dict by value", "fix it",
	"fix the nil pointer panic in storage/db.go Open()", "can you add a test for parseHeader?",
	"like last time, use the same config", "that's wrong", "still broken, same panic",
	"no, I meant the header parser",
	"你好", "谢谢！", "为什么这个测试会失败？", "帮我修复 storage/db.go 里的空指针", "像上次那样处理", "不对，还是报错",
	"こんにちは", "ありがとうございます", "なぜこのテストは失敗するのですか", "前回と同じようにして", "このバグを直してください",
}

type goldenDecision struct {
	Message   string             `json:"message"`
	Warmth    string             `json:"warmth"`
	Mode      Mode               `json:"mode"`
	RunnerUp  Mode               `json:"runner_up"`
	Ambiguous bool               `json:"ambiguous"`
	Scores    map[Mode]float64   `json:"scores"`
	Signals   map[string]float64 `json:"signals"`
}

func TestRoute_Golden(t *testing.T) {
	var got []goldenDecision
	for _, msg := range goldenMessages {
		for _, lvl := range []struct {
			name string
			w    Warmth
		}{{"cold", cold}, {"moderate", moderate}, {"warm", warm}} {
			d := route(msg, lvl.w)
			g := goldenDecision{Message: msg, Warmth: lvl.name, Mode: d.Mode, RunnerUp: d.RunnerUp, Ambiguous: d.Ambiguous,
				Scores: map[Mode]float64{}, Signals: map[string]float64{}}
			for m, s := range d.Scores {
				g.Scores[m] = metric.Round4(s)
			}
			for k, v := range d.Signals {
				g.Signals[k] = metric.Round4(v)
			}
			got = append(got, g)
		}
	}
	buf, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	buf = append(buf, '\n')
	path := filepath.Join("testdata", "decisions.golden.json")
	if *update {
		if err := os.WriteFile(path, buf, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (run with -update to create it): %v", err)
	}
	if !bytes.Equal(buf, want) {
		var old []goldenDecision
		if err := json.Unmarshal(want, &old); err != nil || len(old) != len(got) {
			t.Fatalf("golden file differs in shape (run with -update after review): %v", err)
		}
		for i := range got {
			a, b := got[i], old[i]
			if a.Mode != b.Mode || a.RunnerUp != b.RunnerUp || a.Ambiguous != b.Ambiguous {
				t.Errorf("%q at %s: %s/%s ambiguous=%v, golden %s/%s ambiguous=%v", a.Message, a.Warmth,
					a.Mode, a.RunnerUp, a.Ambiguous, b.Mode, b.RunnerUp, b.Ambiguous)
			}
		}
		t.Errorf("decisions differ from %s (scores or signals); review and run with -update", path)
	}
}
