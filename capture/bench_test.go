package capture

import (
	"strings"
	"testing"
)

// benchAgent is the end of a realistic agent turn.
const benchAgent = "I've updated `parser.go` so that ReadConfig now returns ErrNotFound when the file is missing, " +
	"and changed the build script to use pnpm. This should fix the error you saw; try running `go test ./...` again. " +
	"Let me know if the problem persists or if you want me to add tests for the new behaviour."

func BenchmarkRead(b *testing.B) {
	for _, c := range []struct{ name, msg string }{
		{"short", "no, use pnpm, not npm. From now on, always use pnpm."},
		{"paragraph", strings.Repeat("The page still shows the old totals after I save an order, and the export fails with the same error. ", 5)},
		{"pasted log 4KB", "still failing:\n" + strings.Repeat("    at Object.<anonymous> (/app/src/index.js:12:5) Error: ENOENT\n", 70)},
		{"chinese", strings.Repeat("还是报错，没有任何变化。以后都不要用npm，请用pnpm。", 10)},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Read(c.msg, benchAgent)
			}
		})
	}
}
