package rulefile

import (
	"bytes"
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// TestParse_Golden parses every file under testdata/inputs, named by its path
// there, and compares the rules with testdata/golden/<path>.json.
func TestParse_Golden(t *testing.T) {
	root := filepath.Join("testdata", "inputs")
	var n int
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		n++
		t.Run(filepath.ToSlash(rel), func(t *testing.T) {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			rules, err := Parse(filepath.ToSlash(rel), data)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if rules == nil {
				rules = []Rule{}
			}
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			if err := enc.Encode(rules); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "golden", rel+".json")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("read golden (run with -update to create): %v", err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("rules differ from %s (run with -update and review the diff):\n%s", golden, buf.String())
			}
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 8 {
		t.Fatalf("found %d inputs, want at least 8", n)
	}
}
