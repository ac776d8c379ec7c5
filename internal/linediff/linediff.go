// Package linediff prints the difference between two texts line by line,
// for tests that compare output with a golden file: a mismatch shows the
// lines that changed instead of the whole output.
package linediff

import (
	"fmt"
	"strings"
)

// context is how many unchanged lines are shown around a change.
const context = 2

// Diff returns the lines of want and got that differ, "-" for want's and
// "+" for got's, each with its line number (in got for "+", in want
// otherwise) and a little context of unchanged lines;
// "" when the texts are equal. It compares by longest common subsequence,
// in time and space proportional to the product of the line counts: meant
// for golden files, not for large inputs.
func Diff(want, got string) string {
	if want == got {
		return ""
	}
	a, b := strings.Split(want, "\n"), strings.Split(got, "\n")
	// lcs[i][j] is the length of the longest common subsequence of a[i:]
	// and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type line struct {
		op   byte // ' ', '-' or '+'
		text string
		n    int // line number in want, or in got for '+'
	}
	var lines []line
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			lines = append(lines, line{' ', a[i], i + 1})
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			lines = append(lines, line{'-', a[i], i + 1})
			i++
		default:
			lines = append(lines, line{'+', b[j], j + 1})
			j++
		}
	}
	var sb strings.Builder
	last := -1 // index of the last line printed
	for k, l := range lines {
		if l.op == ' ' && !nearChange(lines, k, func(x line) bool { return x.op != ' ' }) {
			continue
		}
		if last >= 0 && k > last+1 {
			sb.WriteString("...\n")
		}
		fmt.Fprintf(&sb, "%c %4d  %s\n", l.op, l.n, l.text)
		last = k
	}
	return sb.String()
}

// nearChange reports whether a changed line lies within context lines of
// lines[k].
func nearChange[T any](lines []T, k int, changed func(T) bool) bool {
	for d := -context; d <= context; d++ {
		if k+d >= 0 && k+d < len(lines) && changed(lines[k+d]) {
			return true
		}
	}
	return false
}
