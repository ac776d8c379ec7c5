package runlog

import (
	"regexp"
	"strings"
	"sync"
)

// errorLines are the lines by which programs, compilers, interpreters and
// shells report that a run failed, in the form they print them: the
// evidence that a command without a test runner's summary (a build, a
// type check, a script) did not succeed. Each is anchored to a whole line
// after ANSI colours and leading blanks are taken off, so an error word in
// ordinary output ("0 errors", `"error":null`) is not one.
var errorLines = sync.OnceValue(func() []errorLine {
	return []errorLine{
		// Python.
		{"Traceback", regexp.MustCompile(`^Traceback \(most recent call last\):`)},
		{"Error", regexp.MustCompile(`^(?:[A-Z]\w*\.)*[A-Z]\w*(?:Error|Exception): `)},
		{"Error", regexp.MustCompile(`^(?:Uncaught )?(?:[A-Z]\w*)?Error: \S`)},
		// Compilers: "file.go:3:2: undefined: x" is Go's, "src/a.ts(3,4): error
		// TS2304", "a.c:3:2: error: …", "error[E0425]: …", "error CS1002: …".
		{"error", regexp.MustCompile(`(?:^|[\s:(),])error(?:\[E\d+\])?(?: [A-Z]{2,}\d+)?: `)},
		{".go:", regexp.MustCompile(`^\S+\.go:\d+:\d+: \S`)},
		// Any compiler's diagnostic as an editor copies it, the file with
		// its line and column and the message ("View.swift:4:2 Cannot find
		// 'x' in scope"); a warning or a note is no failure.
		{":", regexp.MustCompile(`^\S+\.[A-Za-z]{1,6}:\d+:\d+:? (?:error: )?[A-Z][a-z]+ \S`)},
		{"fatal", regexp.MustCompile(`^fatal(?: error)?: `)},
		{"panic: ", regexp.MustCompile(`^panic: `)},
		// Package managers and build tools.
		{"npm ", regexp.MustCompile(`^npm (?:ERR!|error) `)},
		{"ERR_PNPM", regexp.MustCompile(`^\s*ERR_PNPM_\w+`)},
		{"ailed", regexp.MustCompile(`(?i)^(?:> )?(?:build|compilation|command) failed\b|^Failed to compile\b`)},
		{"exited with code", regexp.MustCompile(`exited with code:? [1-9]`)},
		{"xit code", regexp.MustCompile(`^(?:Process finished with )?[Ee]xit code:? [1-9]\d*$`)},
		{"ERROR", regexp.MustCompile(`^(?:\[ERROR\]|ERROR:?) \S`)},
		// Shells.
		{"not found", regexp.MustCompile(`: (?:command )?not found$`)},
		{"not recognized", regexp.MustCompile(`is not recognized as (?:an internal or external command|the name of a cmdlet)`)},
		{"No such file", regexp.MustCompile(`: No such file or directory$`)},
		{"Segmentation fault", regexp.MustCompile(`Segmentation fault`)},
		// curl.
		{"curl: (", regexp.MustCompile(`^curl: \(\d+\) `)},
	}
})

// errorLine is one kind of error line: a literal every matching line
// holds, and its expression. Compiled on first use, not at process start
// (a hook process that reads no output does not pay for them).
type errorLine struct {
	key string
	re  *regexp.Regexp
}

// Errored reports whether output shows that the command failed, by a test
// runner's summary or by an error line, and the line that says so.
func Errored(output string) (string, bool) {
	if r := Read(output); r.Outcome == Failed {
		return r.Evidence, true
	}
	for line := range lines(output) {
		for _, e := range errorLines() {
			if strings.Contains(line, e.key) && e.re.MatchString(line) {
				return line, true
			}
		}
	}
	return "", false
}
