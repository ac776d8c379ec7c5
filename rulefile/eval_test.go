package rulefile

import (
	"bufio"
	"encoding/json"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

type evalRecord struct {
	ID      string `json:"id"`
	Content string `json:"content"`
	Source  string `json:"source"`
}

// loadCursorRules reads shared/eval/lessons/cursorrules.jsonl from beside
// the repository, or from $INNATE_EVAL_DIR; the test is skipped without it.
func loadCursorRules(tb testing.TB) []evalRecord {
	tb.Helper()
	dir := os.Getenv("INNATE_EVAL_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "eval")
	}
	f, err := os.Open(filepath.Join(dir, "lessons", "cursorrules.jsonl"))
	if err != nil {
		tb.Skipf("eval data not available: %v", err)
	}
	defer f.Close()
	var recs []evalRecord
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	for sc.Scan() {
		var r evalRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			tb.Fatalf("parse record: %v", err)
		}
		recs = append(recs, r)
	}
	if err := sc.Err(); err != nil {
		tb.Fatalf("read eval data: %v", err)
	}
	return recs
}

func evalHalf(id string) string {
	h := fnv.New32a()
	h.Write([]byte(id))
	if h.Sum32()%2 == 0 {
		return "tune"
	}
	return "check"
}

// TestParse_CursorRules parses the 967 real rule files (each as the file
// named by its source) and reports, per half, the number of rules, the
// median rule length and the files that yield none. Every file must parse;
// at most 1% may yield no rule.
func TestParse_CursorRules(t *testing.T) {
	recs := loadCursorRules(t)
	type stats struct {
		files, rules, empty int
		lengths             []int
	}
	halves := map[string]*stats{"tune": {}, "check": {}}
	for _, r := range recs {
		st := halves[evalHalf(r.ID)]
		st.files++
		rules, err := Parse(r.Source, []byte(r.Content))
		if err != nil {
			t.Errorf("%s: %v", r.ID, err)
			continue
		}
		if len(rules) == 0 {
			st.empty++
			t.Logf("%s yields no rule: %q", r.ID, r.Content)
		}
		st.rules += len(rules)
		for _, x := range rules {
			st.lengths = append(st.lengths, len(x.Content))
		}
	}
	empty := 0
	for _, half := range []string{"tune", "check"} {
		st := halves[half]
		slices.Sort(st.lengths)
		med := 0
		if len(st.lengths) > 0 {
			med = st.lengths[len(st.lengths)/2]
		}
		t.Logf("%s half: %d files, %d rules (%.1f per file), median rule length %d bytes, %d files with no rule",
			half, st.files, st.rules, float64(st.rules)/float64(st.files), med, st.empty)
		empty += st.empty
	}
	if empty*100 > len(recs) {
		t.Errorf("%d of %d files yield no rule, want at most 1%%", empty, len(recs))
	}
}
