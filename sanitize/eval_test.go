package sanitize

import (
	"bufio"
	"encoding/json"
	"hash/fnv"
	"os"
	"path/filepath"
	"testing"
)

// evalRecord is one line of shared/eval/lessons/cursorrules.jsonl.
type evalRecord struct {
	ID      string `json:"id"`
	Content string `json:"content"`
	Source  string `json:"source"`
}

// loadCursorRules reads the real rule files used to measure false positives.
// The file lives beside the repository (../../shared/eval from a package
// directory) or under $INNATE_EVAL_DIR; the test is skipped without it.
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

// evalHalf splits records by a hash of their id: "tune" and "check".
func evalHalf(id string) string {
	h := fnv.New32a()
	h.Write([]byte(id))
	if h.Sum32()%2 == 0 {
		return "tune"
	}
	return "check"
}

// TestInjection_CursorRulesFalsePositives measures how many of the 967 real
// rule files written for coding agents are flagged. Every flag is logged for
// review; more than 0.5% flagged fails.
func TestInjection_CursorRulesFalsePositives(t *testing.T) {
	recs := loadCursorRules(t)
	flagged := map[string]int{}
	total := map[string]int{}
	for _, r := range recs {
		half := evalHalf(r.ID)
		total[half]++
		fs := Injections(r.Content)
		if len(fs) == 0 {
			continue
		}
		flagged[half]++
		for _, f := range fs {
			t.Logf("%s [%s] %s", r.ID, half, f)
		}
	}
	for _, half := range []string{"tune", "check"} {
		t.Logf("injection: %s half: %d of %d files flagged", half, flagged[half], total[half])
	}
	if n := flagged["tune"] + flagged["check"]; n*200 > len(recs) {
		t.Errorf("%d of %d rule files flagged, want at most 0.5%%", n, len(recs))
	}
}

// TestRedact_CursorRules reports every redaction made in the real rule
// files; they are documentation, so a redaction must be a credential-shaped
// literal. More than 1% of files redacted fails.
func TestRedact_CursorRules(t *testing.T) {
	recs := loadCursorRules(t)
	files := map[string]int{}
	total := map[string]int{}
	for _, r := range recs {
		half := evalHalf(r.ID)
		total[half]++
		out, rs := Redact(r.Content)
		if len(rs) == 0 {
			continue
		}
		files[half]++
		for _, x := range rs {
			lo, hi := max(0, x.Start-40), min(len(r.Content), x.End+10)
			t.Logf("%s [%s] %s: %q", r.ID, half, x.Kind, r.Content[lo:hi])
		}
		if again, rs2 := Redact(out); again != out || len(rs2) != 0 {
			t.Errorf("%s: Redact not idempotent", r.ID)
		}
	}
	for _, half := range []string{"tune", "check"} {
		t.Logf("redact: %s half: %d of %d files redacted", half, files[half], total[half])
	}
	if n := files["tune"] + files["check"]; n*100 > len(recs) {
		t.Errorf("%d of %d rule files redacted, want at most 1%%", n, len(recs))
	}
}

// TestInjection_FoundInsideRealFiles plants each flagged example of the table
// tests in the middle of a real rule file from the check half and requires
// the same rule to find it there: surrounding Markdown, code and length must
// not hide an injection.
func TestInjection_FoundInsideRealFiles(t *testing.T) {
	recs := loadCursorRules(t)
	var hosts []string
	for _, r := range recs {
		if evalHalf(r.ID) == "check" && len(r.Content) > 400 {
			hosts = append(hosts, r.Content)
		}
	}
	if len(hosts) == 0 {
		t.Skip("no host files")
	}
	missed := 0
	for i, tc := range injectionCases {
		host := hosts[i*7%len(hosts)]
		mid := len(host) / 2
		for mid < len(host) && host[mid] != '\n' {
			mid++
		}
		text := host[:mid] + "\n\n" + tc.text + "\n\n" + host[mid:]
		found := false
		for _, f := range Injections(text) {
			if f.Rule == tc.rule && f.Start >= mid {
				found = true
				break
			}
		}
		if !found {
			missed++
			t.Errorf("%s: rule %s did not fire inside a real file", tc.name, tc.rule)
		}
	}
	t.Logf("planted %d injections in real files, %d missed", len(injectionCases), missed)
}
