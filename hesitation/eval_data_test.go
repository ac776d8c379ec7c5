package hesitation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/innate-mcp/innate-mcp/internal/evaldata"
)

// splitHalves reads a JSONL file of the shared evaluation data and splits
// its lines into the tuning half and the check half by evaldata.Half of
// key(line); the test skips without the data.
func splitHalves(tb testing.TB, key func(map[string]any) string, elem ...string) (tune, check []byte) {
	tb.Helper()
	var a, b bytes.Buffer
	for _, raw := range evaldata.Lines[json.RawMessage](tb, elem...) {
		var rec map[string]any
		if err := json.Unmarshal(raw, &rec); err != nil {
			tb.Fatal(err)
		}
		dst := &a
		if evaldata.Half(key(rec)) == evaldata.Check {
			dst = &b
		}
		dst.Write(raw)
		dst.WriteByte('\n')
	}
	return a.Bytes(), b.Bytes()
}

func TestEvalHedging_WikiWeasel(t *testing.T) {
	tune, check := splitHalves(t, func(r map[string]any) string { return fmt.Sprint(r["text"]) }, "hedging", "wikiweasel-train.jsonl")
	for _, part := range []struct {
		name string
		data []byte
	}{{"tune", tune}, {"check", check}, {"all", append(append([]byte{}, tune...), check...)}} {
		rep, err := EvalHedging(bytes.NewReader(part.data))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("wikiweasel %-5s n=%d P=%.3f R=%.3f F1=%.3f", part.name, rep.N, rep.Precision, rep.Recall, rep.F1)
		if rep.F1 < 0.58 {
			t.Errorf("%s: F1=%.3f, want >= 0.58", part.name, rep.F1)
		}
	}
}

func TestEvalHesitation_HaluEval(t *testing.T) {
	tune, check := splitHalves(t, func(r map[string]any) string { return fmt.Sprint(r["id"]) }, "hesitation", "halueval-general-dev.jsonl")
	for _, part := range []struct {
		name string
		data []byte
	}{{"tune", tune}, {"check", check}, {"all", append(append([]byte{}, tune...), check...)}} {
		rep, err := EvalHesitation(bytes.NewReader(part.data), DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("halueval %-5s n=%d pos=%d AUROC=%.3f mean+=%.1f mean-=%.1f rates=%v", part.name, rep.N, rep.Positives, rep.AUROC, rep.MeanScorePositive, rep.MeanScoreNegative, rep.SignalRates)
		if rep.AUROC < 0.56 {
			t.Errorf("%s: AUROC=%.3f, want >= 0.56", part.name, rep.AUROC)
		}
	}
}
