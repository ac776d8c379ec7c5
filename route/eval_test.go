package route

import (
	"bufio"
	"encoding/json"
	"hash/fnv"
	"os"
	"path/filepath"
	"testing"
)

// evalDir is where the shared evaluation data lives relative to this package
// (the repository sits next to shared/). Tests that need it skip without it.
func evalDir(tb testing.TB) string {
	tb.Helper()
	dir := os.Getenv("INNATE_EVAL_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "eval")
	}
	if _, err := os.Stat(dir); err != nil {
		tb.Skipf("no evaluation data at %s (set INNATE_EVAL_DIR)", dir)
	}
	return dir
}

// readField reads one string field from every line of a JSONL file.
func readField(tb testing.TB, path, field string) []string {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Skipf("open %s: %v", path, err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var rec map[string]any
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			tb.Fatalf("parse %s: %v", path, err)
		}
		if s, ok := rec[field].(string); ok {
			out = append(out, s)
		}
	}
	if err := sc.Err(); err != nil {
		tb.Fatalf("read %s: %v", path, err)
	}
	return out
}

// split puts each text in the tuning part or the check part by a hash of its
// text, so the split is stable and independent of file order.
func split(texts []string) (tune, check []string) {
	for _, s := range texts {
		h := fnv.New32a()
		h.Write([]byte(s))
		if h.Sum32()%2 == 0 {
			tune = append(tune, s)
		} else {
			check = append(check, s)
		}
	}
	return tune, check
}
