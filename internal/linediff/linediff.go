// Package linediff renders the difference between two texts as a unified
// diff of their lines, for people to read: setup's dry run and the golden
// tests' failure messages.
package linediff

import (
	"fmt"
	"strings"
)

// context is the unchanged lines shown around each change.
const context = 3

// maxCells bounds the comparison table (lines of a × lines of b); beyond
// it the texts are shown as one change, all of a removed and all of b
// added.
const maxCells = 4 << 20

// Unified returns the unified diff of a and b with the given file names
// in its header, or "" when they are equal.
func Unified(nameA, nameB, a, b string) string {
	if a == b {
		return ""
	}
	la, lb := splitLines(a), splitLines(b)
	ops := diffOps(la, lb)
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", nameA, nameB)
	// Group the operations into hunks with context lines around changes.
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := max(0, i-context)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*context {
				end = min(len(ops), end+context)
				break
			}
			end = run
		}
		aStart, bStart, aN, bN := ops[start].a, ops[start].b, 0, 0
		for _, op := range ops[start:end] {
			if op.kind != '+' {
				aN++
			}
			if op.kind != '-' {
				bN++
			}
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(aStart, aN), hunkRange(bStart, bN))
		for _, op := range ops[start:end] {
			out.WriteByte(op.kind)
			out.WriteString(op.line)
			if !strings.HasSuffix(op.line, "\n") {
				out.WriteString("\n\\ No newline at end of file\n")
			}
		}
		i = end
	}
	return out.String()
}

func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if n == 1 {
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

// splitLines splits s after each newline, keeping them.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// op is one line of the diff: ' ' kept, '-' only in a, '+' only in b; a and
// b are the line's position (or the next line's) in each text.
type op struct {
	kind byte
	line string
	a, b int
}

// diffOps aligns a and b on a longest common subsequence of lines, after
// taking off their common head and tail.
func diffOps(a, b []string) []op {
	var ops []op
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		ops = append(ops, op{' ', a[head], head, head})
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	ma, mb := a[head:len(a)-tail], b[head:len(b)-tail]
	if len(ma)*len(mb) > maxCells {
		for i, l := range ma {
			ops = append(ops, op{'-', l, head + i, head})
		}
		for j, l := range mb {
			ops = append(ops, op{'+', l, head + len(ma), head + j})
		}
	} else {
		// lcs[i][j] is the length of the longest common subsequence of
		// ma[i:] and mb[j:].
		lcs := make([][]int, len(ma)+1)
		for i := range lcs {
			lcs[i] = make([]int, len(mb)+1)
		}
		for i := len(ma) - 1; i >= 0; i-- {
			for j := len(mb) - 1; j >= 0; j-- {
				if ma[i] == mb[j] {
					lcs[i][j] = lcs[i+1][j+1] + 1
				} else {
					lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
				}
			}
		}
		i, j := 0, 0
		for i < len(ma) || j < len(mb) {
			switch {
			case i < len(ma) && j < len(mb) && ma[i] == mb[j]:
				ops = append(ops, op{' ', ma[i], head + i, head + j})
				i++
				j++
			case i < len(ma) && (j == len(mb) || lcs[i+1][j] >= lcs[i][j+1]):
				ops = append(ops, op{'-', ma[i], head + i, head + j})
				i++
			default:
				ops = append(ops, op{'+', mb[j], head + i, head + j})
				j++
			}
		}
	}
	for k := range tail {
		ia, ib := len(a)-tail+k, len(b)-tail+k
		ops = append(ops, op{' ', a[ia], ia, ib})
	}
	return ops
}

// Diff is the unified diff of a golden text (want) and a test's output
// (got), or "" when they are equal.
func Diff(want, got string) string { return Unified("want", "got", want, got) }
