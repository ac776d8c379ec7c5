// Package runlog reads the output of test runners and builds the way they
// print it, to tell whether tests ran, and whether they passed: go test
// (with and without -v), pytest, jest, vitest, mocha, cargo test, Maven,
// Gradle, RSpec, dotnet test, and npm/yarn/pnpm running any of them.
// Hesitation takes it as evidence behind "all tests pass", and the agent
// hooks note each run's outcome.
//
// Only a runner's own summary lines count: a pass or fail word in prose
// ("the test failed earlier") is not a run.
package runlog

import (
	"iter"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Outcome is what one output says about a run.
type Outcome int

// The outcomes, from least to most informative.
const (
	// NoRun: the output holds no runner's summary.
	NoRun Outcome = iota
	// Passed: a run whose summaries report no failure.
	Passed
	// Failed: a run with at least one failure or error, or a build that
	// failed.
	Failed
)

func (o Outcome) String() string {
	switch o {
	case Passed:
		return "passed"
	case Failed:
		return "failed"
	}
	return "no run"
}

// Report is what Read found in one output.
type Report struct {
	// Outcome of the run; NoRun when no summary was found.
	Outcome Outcome
	// Runner names the runner whose summary decided ("go test", "pytest",
	// …); the first one found when several ran.
	Runner string
	// Passed and Failed count tests where the summaries give counts.
	Passed, Failed int
	// Build is true when the output is a build's rather than a test
	// run's (go build, cargo build, mvn compile, tsc).
	Build bool
	// Evidence is the summary line that decided, trimmed.
	Evidence string
}

// Ran reports whether the output shows a test run (or a build).
func (r Report) Ran() bool { return r.Outcome != NoRun }

// rule recognises one kind of summary line.
type rule struct {
	runner string
	re     *regexp.Regexp
	// read turns a match into pass and fail counts; fail > 0 or failed
	// marks the run failed.
	read  func(m []string) (pass, fail int, failed bool)
	build bool
	// key is a literal every line the rule matches begins with or holds:
	// lines without it skip the expression.
	key string
}

func atoi(s string) int { n, _ := strconv.Atoi(strings.TrimSpace(s)); return n }

func passed(m []string) (int, int, bool) { return 0, 0, false }
func failed(m []string) (int, int, bool) { return 0, 0, true }

// rules are the runners' summary lines, compiled on first use (not at
// every process start). Each is anchored to a whole line
// (after ANSI colours are taken off), in the exact form the runner prints.
var rules = sync.OnceValue(func() []rule {
	return []rule{
		// go test: "ok  	example.com/pkg	1.1s", "ok  	pkg	(cached)",
		// "FAIL	example.com/pkg	0.2s", "--- FAIL: TestX (0.00s)",
		// "--- PASS: TestX", "PASS", "FAIL", "?   	pkg	[no test files]".
		{key: "ok", runner: "go test", re: regexp.MustCompile(`^ok\s+\S+\s+(?:[\d.]+s|\(cached\))`), read: func(m []string) (int, int, bool) { return 1, 0, false }},
		{key: "FAIL", runner: "go test", re: regexp.MustCompile(`^FAIL\s+\S+\s+(?:[\d.]+s|\[build failed\]|\[setup failed\])`), read: failed},
		{key: "--- FAIL", runner: "go test", re: regexp.MustCompile(`^\s*--- FAIL: \S+`), read: func(m []string) (int, int, bool) { return 0, 1, true }},
		{key: "--- PASS", runner: "go test", re: regexp.MustCompile(`^\s*--- PASS: \S+`), read: func(m []string) (int, int, bool) { return 1, 0, false }},
		{key: "panic: ", runner: "go test", re: regexp.MustCompile(`^panic: .+ \[recovered\]`), read: failed},
		// pytest: "===== 3 passed, 1 skipped in 0.12s =====",
		// "=== 1 failed, 2 passed in 0.3s ===", "=== 2 errors in 0.1s ===".
		{key: "== ", runner: "pytest", re: regexp.MustCompile(`^=+ (.*\b(?:passed|failed|error|errors)\b.*) in [\d.]+s(?: \([^)]*\))? =+$`), read: func(m []string) (int, int, bool) {
			p, f := countWords(m[1], "passed"), countWords(m[1], "failed")+countWords(m[1], "error")+countWords(m[1], "errors")
			return p, f, f > 0
		}},
		{key: "::", runner: "pytest", re: regexp.MustCompile(`^(?:FAILED|ERROR) \S+::\S+`), read: func(m []string) (int, int, bool) { return 0, 0, true }},
		// jest: "PASS src/a.test.js", "FAIL src/b.test.ts (5 s)",
		// "Tests:       1 failed, 4 passed, 5 total".
		{key: "PASS", runner: "jest", re: regexp.MustCompile(`^PASS\s+\S+\.(?:test|spec)\.[cm]?[jt]sx?\b`), read: passed},
		{key: "FAIL", runner: "jest", re: regexp.MustCompile(`^FAIL\s+\S+\.(?:test|spec)\.[cm]?[jt]sx?\b`), read: failed},
		{key: "Tests:", runner: "jest", re: regexp.MustCompile(`^Tests:\s+(.*\d+ total)$`), read: func(m []string) (int, int, bool) {
			f := countWords(m[1], "failed")
			return countWords(m[1], "passed"), f, f > 0
		}},
		// vitest: "      Tests  2 failed | 10 passed (12)".
		{key: "Tests", runner: "vitest", re: regexp.MustCompile(`^\s*Tests\s+(.*\(\d+\))$`), read: func(m []string) (int, int, bool) {
			f := countWords(m[1], "failed")
			return countWords(m[1], "passed"), f, f > 0
		}},
		// mocha: "  12 passing (30ms)", "  2 failing".
		{key: "passing", runner: "mocha", re: regexp.MustCompile(`^\s*(\d+) passing \(\d+m?s\)$`), read: func(m []string) (int, int, bool) { return atoi(m[1]), 0, false }},
		{key: "failing", runner: "mocha", re: regexp.MustCompile(`^\s*(\d+) failing$`), read: func(m []string) (int, int, bool) { n := atoi(m[1]); return 0, n, n > 0 }},
		// cargo test: "test result: ok. 12 passed; 0 failed; 0 ignored; …",
		// "test result: FAILED. 1 passed; 1 failed; …".
		{key: "test result: ", runner: "cargo test", re: regexp.MustCompile(`^test result: (ok|FAILED)\. (\d+) passed; (\d+) failed`), read: func(m []string) (int, int, bool) {
			return atoi(m[2]), atoi(m[3]), m[1] == "FAILED" || atoi(m[3]) > 0
		}},
		// Maven surefire: "Tests run: 5, Failures: 1, Errors: 0, Skipped: 0",
		// "[INFO] BUILD SUCCESS", "[ERROR] BUILD FAILURE" / "BUILD FAILURE".
		{key: "Tests run: ", runner: "maven", re: regexp.MustCompile(`^(?:\[\w+\]\s+)?Tests run: (\d+), Failures: (\d+), Errors: (\d+)`), read: func(m []string) (int, int, bool) {
			f := atoi(m[2]) + atoi(m[3])
			return atoi(m[1]) - f, f, f > 0
		}},
		{key: "BUILD SUCCESS", runner: "maven", re: regexp.MustCompile(`^(?:\[\w+\]\s+)?BUILD SUCCESS$`), read: passed, build: true},
		{key: "BUILD FAILURE", runner: "maven", re: regexp.MustCompile(`^(?:\[\w+\]\s+)?BUILD FAILURE$`), read: failed, build: true},
		// Gradle: "BUILD SUCCESSFUL in 3s", "BUILD FAILED in 2s",
		// "5 tests completed, 1 failed".
		{key: "tests completed", runner: "gradle", re: regexp.MustCompile(`^(\d+) tests completed, (\d+) failed`), read: func(m []string) (int, int, bool) {
			f := atoi(m[2])
			return atoi(m[1]) - f, f, f > 0
		}},
		{key: "BUILD SUCCESSFUL", runner: "gradle", re: regexp.MustCompile(`^BUILD SUCCESSFUL in \S+`), read: passed, build: true},
		{key: "BUILD FAILED", runner: "gradle", re: regexp.MustCompile(`^BUILD FAILED in \S+`), read: failed, build: true},
		// RSpec: "12 examples, 0 failures", "3 examples, 1 failure, 1 pending".
		{key: "example", runner: "rspec", re: regexp.MustCompile(`^(\d+) examples?, (\d+) failures?`), read: func(m []string) (int, int, bool) {
			f := atoi(m[2])
			return atoi(m[1]) - f, f, f > 0
		}},
		// dotnet test: "Passed!  - Failed:     0, Passed:    12, Skipped: …",
		// "Failed!  - Failed:     1, Passed:    11, …".
		{key: "!  - Failed:", runner: "dotnet test", re: regexp.MustCompile(`^(Passed|Failed)!\s+-\s+Failed:\s+(\d+), Passed:\s+(\d+)`), read: func(m []string) (int, int, bool) {
			return atoi(m[3]), atoi(m[2]), m[1] == "Failed" || atoi(m[2]) > 0
		}},
		// npm, yarn and pnpm report a failed script.
		{key: "npm ", runner: "npm test", re: regexp.MustCompile(`^npm (?:ERR!|error) (?:Test failed|code ELIFECYCLE|Lifecycle script .test. failed)`), read: failed},
		{key: "ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL", runner: "npm test", re: regexp.MustCompile(`^ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL`), read: failed},
		{key: "ELIFECYCLE", runner: "npm test", re: regexp.MustCompile(`^ELIFECYCLE\s+Test failed`), read: failed},
		{key: "error Command failed", runner: "npm test", re: regexp.MustCompile(`^error Command failed with exit code \d+`), read: failed},
		// Compilers: Go's "# example.com/pkg" followed by "file.go:3:2: …",
		// cargo's "error[E0425]: …" and "error: could not compile", tsc's
		// "Found 2 errors".
		{key: "error: could not compile", runner: "cargo build", re: regexp.MustCompile(`^error: could not compile `), read: failed, build: true},
		{key: "Found ", runner: "tsc", re: regexp.MustCompile(`^(?:\d{1,2}:\d{2}:\d{2}(?: [AP]M)? - )?Found (\d+) errors?\b`), read: func(m []string) (int, int, bool) {
			return 0, 0, atoi(m[1]) > 0 // watch mode says "Found 0 errors."
		}, build: true},
	}
})

// countRes are the "N word" patterns of the summaries' counts.
var countRes = sync.OnceValue(func() map[string]*regexp.Regexp {
	return map[string]*regexp.Regexp{
		"passed": regexp.MustCompile(`(\d+) passed\b`),
		"failed": regexp.MustCompile(`(\d+) failed\b`),
		"error":  regexp.MustCompile(`(\d+) error\b`),
		"errors": regexp.MustCompile(`(\d+) errors\b`),
	}
})

// countWords returns N from "N word" in a summary ("3 passed"); word is a
// key of countRes.
func countWords(summary, word string) int {
	re := countRes()[word]
	n := 0
	for _, m := range re.FindAllStringSubmatch(summary, -1) {
		n += atoi(m[1])
	}
	return n
}

// ansi matches terminal colour and cursor sequences.
var ansi = regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]`)

// maxLineBytes bounds the lines Read looks at: summaries are short, and a
// long line (a minified bundle, base64) is skipped unread.
const maxLineBytes = 512

// Read finds the runners' summaries in output and reports the run. A
// failure anywhere makes the run failed, whatever else passed.
func Read(output string) Report {
	var r Report
	for line := range lines(output) {
		for _, ru := range rules() {
			if !strings.Contains(line, ru.key) {
				continue
			}
			m := ru.re.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			p, f, fail := ru.read(m)
			r.Passed += p
			r.Failed += f
			switch {
			case fail && r.Outcome != Failed:
				r.Outcome, r.Runner, r.Evidence, r.Build = Failed, ru.runner, line, ru.build
			case r.Outcome == NoRun:
				r.Outcome, r.Runner, r.Evidence, r.Build = Passed, ru.runner, line, ru.build
			}
			break
		}
	}
	return r
}

// lines yields the output's lines as the summaries and error lines are
// matched: ANSI colours, the line break and leading blanks taken off;
// empty lines and lines longer than maxLineBytes (a pasted blob, not a
// summary) skipped.
func lines(output string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for line := range strings.Lines(output) {
			if len(line) > maxLineBytes {
				continue
			}
			line = strings.TrimRight(line, "\r\n")
			if strings.IndexByte(line, 0x1b) >= 0 {
				line = ansi.ReplaceAllString(line, "")
			}
			if line = strings.TrimLeft(line, " \t"); line != "" && !yield(line) {
				return
			}
		}
	}
}
