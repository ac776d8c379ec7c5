// Package evaldata gives tests and benchmarks the project's shared
// evaluation data: real public sets nobody on the project wrote, kept beside
// the repository in shared/eval (see its README) or wherever
// $INNATE_EVAL_DIR points. A test that needs data which is not there is
// skipped, not failed, so the repository's tests run on a bare checkout.
//
// Every evaluation splits its records the same way, by Half, into a part
// that term lists and constants may be reviewed against and a part that is
// only reported and asserted.
package evaldata

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/innate-mcp/innate-mcp/internal/split"
)

// maxLine bounds one JSONL record.
const maxLine = 16 << 20

// Dir returns the evaluation directory: $INNATE_EVAL_DIR when set, else the
// first shared/eval found in the working directory or one of its parents.
// It skips tb when there is none.
func Dir(tb testing.TB) string {
	tb.Helper()
	if dir := os.Getenv("INNATE_EVAL_DIR"); dir != "" {
		return dir
	}
	wd, err := os.Getwd()
	if err != nil {
		tb.Skipf("evaluation data: %v", err)
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		cand := filepath.Join(dir, "shared", "eval")
		if st, err := os.Stat(cand); err == nil && st.IsDir() {
			return cand
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	tb.Skip("no shared/eval beside the repository (set INNATE_EVAL_DIR)")
	return ""
}

// Path returns the path of a file inside the evaluation directory, given as
// path elements ("lessons", "cursorrules.jsonl"), and skips tb when the file
// does not exist.
func Path(tb testing.TB, elem ...string) string {
	tb.Helper()
	p := filepath.Join(append([]string{Dir(tb)}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("evaluation data not available: %v", err)
	}
	return p
}

// Lines decodes every line of a JSONL file inside the evaluation directory
// into a T; a line that does not decode fails tb.
func Lines[T any](tb testing.TB, elem ...string) []T {
	tb.Helper()
	path := Path(tb, elem...)
	f, err := os.Open(path)
	if err != nil {
		tb.Fatalf("open %s: %v", path, err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), maxLine)
	line := 0
	for sc.Scan() {
		line++
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			tb.Fatalf("%s line %d: %v", path, line, err)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		tb.Fatalf("read %s: %v", path, err)
	}
	return out
}

// Rule is one record of lessons/cursorrules.jsonl: a real rule file written
// for coding agents.
type Rule struct {
	ID      string   `json:"id"`
	Content string   `json:"content"`
	Trigger string   `json:"trigger"`
	Tags    []string `json:"tags"`
	Source  string   `json:"source"`
}

// CursorRules reads the 967 rule files of lessons/cursorrules.jsonl.
func CursorRules(tb testing.TB) []Rule {
	tb.Helper()
	return Lines[Rule](tb, "lessons", "cursorrules.jsonl")
}

// The two parts of every evaluation set (package split).
const (
	Tune  = split.Tune  // the part term lists and constants may be reviewed against
	Check = split.Check // the part that is only reported and asserted
)

// Half puts a record in Tune or Check (split.Half).
func Half(key string) string { return split.Half(key) }
