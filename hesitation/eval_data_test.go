package hesitation

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"testing"
)

// evalDir is where the shared evaluation data lives when present.
const evalDir = "/work/shared/eval"

// splitHalves reads a JSONL file and splits its lines into a tuning half and
// a check half by the CRC-32 of key(line) (even = tune, odd = check).
func splitHalves(tb testing.TB, path string, key func(map[string]any) string) (tune, check []byte) {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Skipf("eval data not present: %v", err)
	}
	defer f.Close()
	var a, b bytes.Buffer
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), maxEvalLine)
	for sc.Scan() {
		var rec map[string]any
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			tb.Fatalf("parse %s: %v", path, err)
		}
		dst := &a
		if crc32.ChecksumIEEE([]byte(key(rec)))%2 == 1 {
			dst = &b
		}
		dst.Write(sc.Bytes())
		dst.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return a.Bytes(), b.Bytes()
}

func TestEvalHedging_WikiWeasel(t *testing.T) {
	path := filepath.Join(evalDir, "hedging", "wikiweasel-train.jsonl")
	tune, check := splitHalves(t, path, func(r map[string]any) string { return fmt.Sprint(r["text"]) })
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
	path := filepath.Join(evalDir, "hesitation", "halueval-general-dev.jsonl")
	tune, check := splitHalves(t, path, func(r map[string]any) string { return fmt.Sprint(r["id"]) })
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
