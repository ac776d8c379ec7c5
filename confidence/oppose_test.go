package confidence

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

func TestOpposes(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		// English: the forms the issue names.
		{"Use var for package-level variables", "Never use var for package-level variables", true},
		{"use X", "don't use X", true},
		{"Use testify", "Avoid testify.", true},
		{"Use testify", "Avoid using testify", true},
		{"Use testify", "Stop using testify", true},
		{"Use `any`", "Do not use `any` whenever possible", true},
		{"Use let", "Prefer const over let", true},
		{"Use let", "Use const instead of let.", true},
		{"Prefer const over let", "Prefer let over const", true},
		{"Use global state", "Global state is discouraged", true},
		{"Use global state", "No global state", true},
		{"You should always mock the database", "You must not mock the database", true},
		{"When writing tests, mock the database", "When writing unit tests, don't mock the database", true},
		{"Mock the database when writing tests", "In tests, never mock the database", true},
		{"Never use panics", "Don't avoid panics", true},
		{"- **Errors**: wrap errors with fmt.Errorf", "Errors: never wrap errors with fmt.Errorf", true},
		// Chinese and Japanese.
		{"使用var", "不要使用var", true},
		{"用var", "别用var", true},
		{"使用全局变量", "禁止使用全局变量", true},
		{"使用全局变量", "避免全局变量", true},
		{"在写测试时，mock数据库", "在写测试时，不要mock数据库", true},
		{"用let", "用const而不是let", true},
		{"varを使う", "varを使わないでください", true},
		{"varを使用する", "varは使用しない", true},
		{"テストでは、モックする", "テストでは、モックしない", true},
		{"letを使う", "letではなくconstを使う", true},
		// Not opposite.
		{"Use var", "Use var", false},
		{"Never use var", "Avoid var", false},
		{"Use tabs", "Use spaces", false},
		{"Use testify", "Don't use gomock", false},
		{"When writing tests, mock the database", "In production code, don't mock the database", false},
		{"Mock the database", "In tests, don't mock the database", false},
		{"Use const instead of let", "Prefer const over let", false},
		{"Use X", "Use X wisely", false},
		{"Always validate input", "Never trust input", false},
		{"使用var", "使用let", false},
		{"不要使用var", "禁止使用var", false},
		{"varを使う", "letを使わない", false},
		{"", "never use X", false},
		{"The cache is discouraged by some", "Use the cache", false},
	}
	for _, tt := range tests {
		got, ok := Opposes(tt.a, tt.b)
		if ok != tt.want {
			t.Errorf("Opposes(%q, %q) = %v (%+v), want %v\n claims %+v\n vs     %+v", tt.a, tt.b, ok, got, tt.want, Claims(tt.a), Claims(tt.b))
		}
		if _, back := Opposes(tt.b, tt.a); back != ok {
			t.Errorf("Opposes not symmetric for %q, %q", tt.a, tt.b)
		}
	}
}

// TestClaims_Golden pins the claims extracted from a set of real-looking
// directives; run with -update after a deliberate change and review the
// diff.
func TestClaims_Golden(t *testing.T) {
	in, err := os.ReadFile(filepath.Join("testdata", "claims.txt"))
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		Text   string  `json:"text"`
		Claims []Claim `json:"claims"`
	}
	var rows []row
	for _, line := range strings.Split(strings.TrimSpace(string(in)), "\n") {
		rows = append(rows, row{Text: line, Claims: Claims(line)})
	}
	got, err := json.MarshalIndent(rows, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "claims.golden.json")
	if *update {
		if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("read golden (run with -update to create): %v", err)
	}
	var wantRows []row
	if err := json.Unmarshal(want, &wantRows); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rows, wantRows) {
		for i := range min(len(rows), len(wantRows)) {
			if !reflect.DeepEqual(rows[i], wantRows[i]) {
				t.Errorf("%q:\n got  %+v\n want %+v", rows[i].Text, rows[i].Claims, wantRows[i].Claims)
			}
		}
		if len(rows) != len(wantRows) {
			t.Errorf("%d rows, golden has %d", len(rows), len(wantRows))
		}
	}
}

func FuzzClaims(f *testing.F) {
	for _, s := range []string{"Use var", "Never use var when x, y", "不要使用var", "varを使わない", "prefer a over b", ": : ,", "在，", "、しない", "no"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c1, c2 := Claims(s), Claims(s)
		if !reflect.DeepEqual(c1, c2) {
			t.Fatalf("Claims not deterministic for %q", s)
		}
		for _, c := range c1 {
			if c.Action == "" || (c.Polarity != Do && c.Polarity != Dont) {
				t.Fatalf("bad claim %+v from %q", c, s)
			}
		}
	})
}

func FuzzOpposes(f *testing.F) {
	f.Add("Use var", "Never use var")
	f.Add("使用var", "不要使用var")
	f.Add("varを使う", "varを使わない")
	f.Add("prefer a over b", "prefer b over a")
	f.Fuzz(func(t *testing.T, a, b string) {
		_, ab := Opposes(a, b)
		_, ba := Opposes(b, a)
		if ab != ba {
			t.Fatalf("Opposes(%q, %q) = %v but reversed %v", a, b, ab, ba)
		}
		// Negating a plain positive directive always opposes it.
		if cs := Claims(a); len(cs) == 1 && cs[0].Polarity == Do && cs[0].Situation == "" && script(a) == scriptLatin &&
			!strings.ContainsAny(a, ",:;.!?\n\r") {
			if _, ok := Opposes(a, "never "+a); !ok && len(Claims("never "+a)) == 1 {
				t.Fatalf("%q does not oppose %q: %+v vs %+v", a, "never "+a, cs, Claims("never "+a))
			}
		}
	})
}
