package evaldata

import (
	"os"
	"path/filepath"
	"testing"
)

func TestHalf_stableAndBalanced(t *testing.T) {
	n := map[string]int{}
	for i := range 2000 {
		key := string(rune('a'+i%26)) + string(rune('0'+i%10)) + string(rune(i))
		h := Half(key)
		if h != Half(key) {
			t.Fatalf("Half(%q) is not stable", key)
		}
		n[h]++
	}
	if n[Tune]+n[Check] != 2000 || n[Tune] < 850 || n[Check] < 850 {
		t.Errorf("halves %v: want two parts of about 1000", n)
	}
}

func TestDirAndLines_fromEnv(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "lessons"), 0o700)
	os.WriteFile(filepath.Join(dir, "lessons", "cursorrules.jsonl"),
		[]byte(`{"id":"r1","content":"Use hooks.","tags":["react"]}`+"\n"+`{"id":"r2","content":"Use gofmt."}`+"\n"), 0o600)
	t.Setenv("INNATE_EVAL_DIR", dir)
	rules := CursorRules(t)
	if len(rules) != 2 || rules[0].ID != "r1" || rules[0].Tags[0] != "react" || rules[1].Content != "Use gofmt." {
		t.Errorf("CursorRules = %+v", rules)
	}
}

func TestPath_skipsWhenMissing(t *testing.T) {
	t.Setenv("INNATE_EVAL_DIR", t.TempDir())
	var skipped bool
	t.Run("missing", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		Path(t, "nope.jsonl")
	})
	if !skipped {
		t.Error("Path did not skip for a missing file")
	}
}
