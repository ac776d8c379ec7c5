package runlog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRead_runnersAsTheyPrint reads each runner's output in testdata, in
// the exact form the runner prints it.
func TestRead_runnersAsTheyPrint(t *testing.T) {
	tests := []struct {
		file           string
		want           Outcome
		runner         string
		passed, failed int
		build          bool
	}{
		{"go-pass.txt", Passed, "go test", 2, 0, false},
		{"go-fail.txt", Failed, "go test", 1, 1, false},
		{"go-verbose.txt", Passed, "go test", 3, 0, false},
		{"go-buildfail.txt", Failed, "go test", 0, 0, false},
		{"pytest-pass.txt", Passed, "pytest", 4, 0, false},
		{"pytest-fail.txt", Failed, "pytest", 1, 1, false},
		{"jest-pass.txt", Passed, "jest", 3, 0, false},
		{"jest-fail.txt", Failed, "jest", 2, 1, false},
		{"vitest-pass.txt", Passed, "vitest", 3, 0, false},
		{"mocha-fail.txt", Failed, "mocha", 12, 2, false},
		{"cargo-pass.txt", Passed, "cargo test", 3, 0, false},
		{"cargo-fail.txt", Failed, "cargo test", 2, 1, false},
		{"maven-pass.txt", Passed, "maven", 10, 0, false},
		{"maven-fail.txt", Failed, "maven", 4, 1, false},
		{"gradle-pass.txt", Passed, "gradle", 0, 0, true},
		{"gradle-fail.txt", Failed, "gradle", 4, 1, false},
		{"rspec-pass.txt", Passed, "rspec", 4, 0, false},
		{"rspec-fail.txt", Failed, "rspec", 1, 1, false},
		{"dotnet-pass.txt", Passed, "dotnet test", 12, 0, false},
		{"dotnet-fail.txt", Failed, "dotnet test", 11, 1, false},
		{"npm-fail.txt", Failed, "jest", 0, 1, false},
		{"prose.txt", NoRun, "", 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			r := Read(string(b))
			if r.Outcome != tt.want || r.Runner != tt.runner || r.Passed != tt.passed || r.Failed != tt.failed || r.Build != tt.build {
				t.Errorf("Read = %+v, want %v by %q, %d passed, %d failed, build %v", r, tt.want, tt.runner, tt.passed, tt.failed, tt.build)
			}
			if tt.want != NoRun && (r.Evidence == "" || !strings.Contains(ansi.ReplaceAllString(string(b), ""), r.Evidence)) {
				t.Errorf("evidence %q is not a line of the output", r.Evidence)
			}
			// Windows line ends read the same.
			if w := Read(strings.ReplaceAll(string(b), "\n", "\r\n")); w.Outcome != r.Outcome || w.Passed != r.Passed {
				t.Errorf("with CRLF: %+v, want %+v", w, r)
			}
		})
	}
}

func TestRead_aFailureAnywhereFailsTheRun(t *testing.T) {
	out := "ok  \ta\t0.1s\nFAIL\tb\t0.2s\nok  \tc\t0.1s\n"
	if r := Read(out); r.Outcome != Failed || r.Evidence != "FAIL\tb\t0.2s" {
		t.Errorf("%+v", r)
	}
}

func FuzzRead(f *testing.F) {
	entries, _ := os.ReadDir("testdata")
	for _, e := range entries {
		if b, err := os.ReadFile(filepath.Join("testdata", e.Name())); err == nil {
			f.Add(string(b))
		}
	}
	f.Fuzz(func(t *testing.T, out string) {
		r := Read(out)
		if r.Outcome == NoRun && (r.Runner != "" || r.Evidence != "") {
			t.Fatalf("no run but %+v", r)
		}
		if r.Ran() && !strings.Contains(ansi.ReplaceAllString(out, ""), r.Evidence) {
			t.Fatalf("evidence %q not from the output", r.Evidence)
		}
	})
}

func BenchmarkRead(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("testdata", "pytest-fail.txt"))
	if err != nil {
		b.Fatal(err)
	}
	out := strings.Repeat(string(data), 100) // about 60 KB of output
	b.SetBytes(int64(len(out)))
	for b.Loop() {
		Read(out)
	}
}

// TestErrored: output with no runner's summary fails by a line that
// reports an error as a program prints it, and not by an error word in
// ordinary output, a warning or a note.
func TestErrored(t *testing.T) {
	tests := []struct {
		output string
		want   string
	}{
		{"Traceback (most recent call last):\n  File \"a.py\", line 1\nValueError: bad", "Traceback (most recent call last):"},
		{"src/app.ts(3,4): error TS2304: Cannot find name 'x'.", "src/app.ts(3,4): error TS2304: Cannot find name 'x'."},
		{"main.go:3:2: undefined: x", "main.go:3:2: undefined: x"},
		{"Sources/App/View.swift:12:8 Cannot find 'Profile' in scope", "Sources/App/View.swift:12:8 Cannot find 'Profile' in scope"},
		{"lib/a.kt:4:10: Unresolved reference: foo", "lib/a.kt:4:10: Unresolved reference: foo"},
		{"src/a.c:3:2: warning: unused variable 'x'", ""},
		{"src/a.c:3:2: note: declared here", ""},
		{"Found 0 errors in 12 files.", ""},
		{`{"error":null,"ok":true}`, ""},
		{"All good, see docs/guide.md:12:3 for details", ""},
	}
	for _, tt := range tests {
		line, ok := Errored(tt.output)
		if ok != (tt.want != "") || line != tt.want {
			t.Errorf("Errored(%q) = %q, %v; want %q", tt.output, line, ok, tt.want)
		}
	}
}

// TestRead_tscWatch: tsc in watch mode reports a clean build as "Found 0
// errors", which is a pass, and any other count a failure.
func TestRead_tscWatch(t *testing.T) {
	for out, want := range map[string]Outcome{
		"10:02:11 AM - Found 0 errors. Watching for file changes.\n":                                        Passed,
		"Found 0 errors. Watching for file changes.\n":                                                      Passed,
		"src/a.ts:3:1 - error TS2304: Cannot find name 'x'.\n\nFound 1 error. Watching for file changes.\n": Failed,
	} {
		if r := Read(out); r.Outcome != want || r.Runner != "tsc" || !r.Build {
			t.Errorf("Read(%q) = %+v, want %v by tsc", out, r, want)
		}
	}
}
