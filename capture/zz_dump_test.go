package capture

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"testing"
)

func TestZZDump(t *testing.T) {
	if os.Getenv("ZZDUMP") == "" {
		t.Skip()
	}
	var halves struct{ Tune []string }
	b, _ := os.ReadFile("/tmp/halves.json")
	json.Unmarshal(b, &halves)
	f, _ := os.Open("../eval/testdata/capture/messages.jsonl")
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	out, _ := os.Create("/tmp/tune_dump.jsonl")
	for sc.Scan() {
		var m struct {
			ID, Repo, Message, PreviousAgent string `json:"-"`
		}
		var raw map[string]any
		json.Unmarshal(sc.Bytes(), &raw)
		m.Repo, _ = raw["repo"].(string)
		if !slices.Contains(halves.Tune, m.Repo) {
			continue
		}
		msg, _ := raw["message"].(string)
		prev, _ := raw["previous_agent"].(string)
		r := Read(msg, prev)
		kind := ""
		gold := raw["correction"] == true
		if raw["unsure"] == true {
			kind = "unsure"
		} else if r.Correction && !gold {
			kind = "FP"
		} else if !r.Correction && gold {
			kind = "FN"
		} else if r.Correction {
			kind = "TP"
		} else {
			continue
		}
		e, _ := json.Marshal(map[string]any{"kind": kind, "id": raw["id"], "score": r.CorrectionScore, "cues": r.Cues, "msg": trunc(msg, 400), "prev": trunc(prev, 300)})
		fmt.Fprintln(out, string(e))
	}
	out.Close()
}

func trunc(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
