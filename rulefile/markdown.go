package rulefile

import (
	"strings"
	"unicode"
)

type blockKind int

const (
	blockHeading blockKind = iota
	blockParagraph
	blockItem
	blockCode
	blockTable
	blockBreak
)

// block is one Markdown block of a rule file, as far as rules care.
type block struct {
	kind  blockKind
	level int    // heading level: 1-6 for ATX and setext, 7 for a bold line
	text  string // heading text, or the block's Markdown, dedented
	line  int    // 1-based line of the block's first line
	list  int    // items of one list share a number
}

// parseBlocks splits Markdown into blocks. firstLine is the line number of
// lines[0] in the file.
func parseBlocks(lines []string, firstLine int) []block {
	p := &blockParser{lines: lines, first: firstLine}
	p.run()
	return p.blocks
}

type blockParser struct {
	lines  []string
	first  int
	blocks []block
	list   int // current list number; 0 when not in a list
	lists  int // lists seen
}

func (p *blockParser) emit(b block) {
	if b.kind == blockItem {
		if p.list == 0 {
			p.lists++
			p.list = p.lists
		}
		b.list = p.list
	} else {
		p.list = 0
	}
	p.blocks = append(p.blocks, b)
}

func (p *blockParser) run() {
	for i := 0; i < len(p.lines); {
		line := p.lines[i]
		if isBlank(line) {
			i++
			continue
		}
		indent := indentOf(line)
		trimmed := strings.TrimSpace(line)
		switch {
		case indent <= 3 && fenceOf(trimmed) != "":
			end := fenceEnd(p.lines, i)
			p.emit(block{kind: blockCode, text: dedent(p.lines[i:end], indent), line: p.first + i})
			i = end
		case strings.HasPrefix(trimmed, "<!--"):
			i = commentEnd(p.lines, i)
		case indent <= 3 && atxLevel(trimmed) > 0:
			p.emit(block{kind: blockHeading, level: atxLevel(trimmed), text: atxText(trimmed), line: p.first + i})
			i++
		case indent <= 3 && isBreak(trimmed):
			p.emit(block{kind: blockBreak, line: p.first + i})
			i++
		case listMarker(line) > 0:
			end, text := itemEnd(p.lines, i)
			p.emit(block{kind: blockItem, text: text, line: p.first + i})
			i = end
		case isTableRow(trimmed):
			j := i
			for j < len(p.lines) && isTableRow(strings.TrimSpace(p.lines[j])) {
				j++
			}
			p.emit(block{kind: blockTable, text: dedent(p.lines[i:j], indent), line: p.first + i})
			i = j
		default:
			i = p.paragraph(i)
		}
	}
}

// paragraph collects a paragraph from line i and returns the next line. A
// paragraph followed by a === or --- line is a setext heading; a paragraph
// that is one bold line ("**Testing:**") is a level-7 heading.
func (p *blockParser) paragraph(i int) int {
	j := i + 1
	for j < len(p.lines) {
		l := p.lines[j]
		t := strings.TrimSpace(l)
		if isBlank(l) || indentOf(l) <= 3 && (fenceOf(t) != "" || atxLevel(t) > 0 || isBreak(t) && !isSetext(t)) ||
			listMarker(l) > 0 && indentOf(l) <= 3 || isTableRow(t) && j+1 < len(p.lines) && isTableDelim(strings.TrimSpace(p.lines[j+1])) ||
			strings.HasPrefix(t, "<!--") || Mark(t) != 0 && indentOf(l) <= 3 {
			// A line opening with a cross or a tick is an item of its own
			// ("❌ Run Python without uv" under "❌ Commit secrets").
			break
		}
		if isSetext(t) {
			level := 1
			if t[0] == '-' {
				level = 2
			}
			p.emit(block{kind: blockHeading, level: level, text: joinTrimmed(p.lines[i:j]), line: p.first + i})
			return j + 1
		}
		j++
	}
	if j == i+1 {
		if h, ok := boldHeading(strings.TrimSpace(p.lines[i])); ok {
			p.emit(block{kind: blockHeading, level: 7, text: h, line: p.first + i})
			return j
		}
	}
	p.emit(block{kind: blockParagraph, text: dedent(p.lines[i:j], indentOf(p.lines[i])), line: p.first + i})
	return j
}

// itemEnd returns the end of the list item starting at line i and its text
// without the marker: continuation lines, lazy lines, nested items and whole
// fenced blocks belong to it.
func itemEnd(lines []string, i int) (int, string) {
	first := lines[i]
	mi := indentOf(first)
	ml := listMarker(first)
	rest := first[ml:]
	pad := len(rest) - len(strings.TrimLeft(rest, " \t"))
	if pad > 4 || strings.TrimSpace(rest) == "" {
		pad = 1
	}
	ci := ml + pad // content indent
	body := []string{strings.TrimSpace(rest)}
	j := i + 1
	if open := fenceOf(strings.TrimSpace(rest)); open != "" {
		// The item opens with a fence: it runs to the closing fence whatever
		// the indentation inside.
		end := fenceClose(lines, i, open)
		body = append(body, dedentLines(lines[j:end], ci)...)
		j = end
	}
	prevBlank := false
	for j < len(lines) {
		l := lines[j]
		if isBlank(l) {
			// A blank line continues the item only if the next text is
			// indented into it.
			k := j + 1
			for k < len(lines) && isBlank(lines[k]) {
				k++
			}
			if k == len(lines) || indentOf(lines[k]) < ci {
				break
			}
			for ; j < k; j++ {
				body = append(body, "")
			}
			prevBlank = true
			continue
		}
		ind := indentOf(l)
		t := strings.TrimSpace(l)
		if ind >= ci || ind > mi && listMarker(l) > 0 {
			if fenceOf(t) != "" {
				end := fenceEnd(lines, j)
				body = append(body, dedentLines(lines[j:end], min(ind, ci))...)
				j = end
				prevBlank = false
				continue
			}
			body = append(body, dedentLines([]string{l}, min(ind, ci))...)
			j++
			prevBlank = false
			continue
		}
		// Lazy continuation: plain text right after item text.
		if !prevBlank && listMarker(l) == 0 && fenceOf(t) == "" && atxLevel(t) == 0 && !isBreak(t) &&
			!isTableRow(t) && !strings.HasPrefix(t, "<!--") {
			body = append(body, t)
			j++
			continue
		}
		break
	}
	return j, strings.TrimRight(strings.Join(body, "\n"), "\n ")
}

// crossMarks and tickMarks are the marks a line of a do's and don'ts list
// opens with ("❌ Run Python without uv", "✅ Use uv").
var (
	crossMarks = []string{"❌", "✗", "✘", "✖", "🚫", "⛔", "🛑", "👎"}
	tickMarks  = []string{"✅", "✔", "✓", "☑", "👍"}
)

// Mark reads the mark a line opens with, after a list marker or emphasis:
// -1 for a cross (what follows is ruled out), 1 for a tick (asked for), 0
// for none.
func Mark(text string) int {
	t := strings.TrimLeft(text, " \t-*+_>")
	for _, g := range crossMarks {
		if strings.HasPrefix(t, g) {
			return -1
		}
	}
	for _, g := range tickMarks {
		if strings.HasPrefix(t, g) {
			return 1
		}
	}
	return 0
}

// listMarker returns the length of the list marker and its indentation at
// the start of line ("- ", "* ", "+ ", "1. ", "2) "), or 0.
func listMarker(line string) int {
	ind := len(line) - len(strings.TrimLeft(line, " \t"))
	s := line[ind:]
	if len(s) >= 2 && (s[0] == '-' || s[0] == '*' || s[0] == '+') && (s[1] == ' ' || s[1] == '\t') {
		if isBreak(strings.TrimSpace(s)) {
			return 0
		}
		return ind + 2
	}
	if len(s) == 1 && (s[0] == '-' || s[0] == '*' || s[0] == '+') {
		return ind + 1 // an empty item
	}
	n := 0
	for n < len(s) && n < 9 && '0' <= s[n] && s[n] <= '9' {
		n++
	}
	if n > 0 && n+1 < len(s) && (s[n] == '.' || s[n] == ')') && (s[n+1] == ' ' || s[n+1] == '\t') {
		return ind + n + 2
	}
	return 0
}

// fenceOf returns the fence (``` or ~~~, possibly longer) opening a code
// block on a trimmed line, or "".
func fenceOf(t string) string {
	for _, c := range []byte{'`', '~'} {
		n := 0
		for n < len(t) && t[n] == c {
			n++
		}
		if n >= 3 && (c == '~' || !strings.Contains(t[n:], "`")) {
			return t[:n]
		}
	}
	return ""
}

// fenceEnd returns the line after the fence that closes the block opened at
// line i, or len(lines) when it is never closed.
func fenceEnd(lines []string, i int) int {
	return fenceClose(lines, i, fenceOf(strings.TrimSpace(lines[i])))
}

// fenceClose returns the line after the line closing fence open, searching
// from line i+1, or len(lines).
func fenceClose(lines []string, i int, open string) int {
	for j := i + 1; j < len(lines); j++ {
		t := strings.TrimSpace(lines[j])
		if f := fenceOf(t); f != "" && f[0] == open[0] && len(f) >= len(open) && strings.TrimSpace(t[len(f):]) == "" {
			return j + 1
		}
	}
	return len(lines)
}

func commentEnd(lines []string, i int) int {
	for j := i; j < len(lines); j++ {
		if strings.Contains(lines[j], "-->") {
			return j + 1
		}
	}
	return len(lines)
}

func atxLevel(t string) int {
	n := 0
	for n < len(t) && t[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || n < len(t) && t[n] != ' ' && t[n] != '\t' {
		return 0
	}
	return n
}

func atxText(t string) string {
	t = strings.TrimSpace(strings.TrimLeft(t, "#"))
	if s := strings.TrimRight(t, "#"); s != t && (s == "" || s[len(s)-1] == ' ') {
		t = strings.TrimSpace(s)
	}
	return t
}

func isBreak(t string) bool {
	if len(t) < 3 {
		return false
	}
	c := t[0]
	if c != '-' && c != '*' && c != '_' {
		return false
	}
	n := 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case c:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}

func isSetext(t string) bool {
	if t == "" {
		return false
	}
	return strings.Trim(t, "=") == "" || strings.Trim(t, "-") == ""
}

func isTableRow(t string) bool {
	return len(t) > 1 && t[0] == '|'
}

func isTableDelim(t string) bool {
	return isTableRow(t) && strings.Trim(t, "|-: \t") == ""
}

// boldHeading recognises a line that is all bold, like "**Testing:**" or
// "__Style__", used as a heading in many rule files; a bold sentence is not
// a heading.
func boldHeading(t string) (string, bool) {
	t = strings.TrimSuffix(t, ":")
	for _, m := range []string{"**", "__"} {
		if len(t) > 2*len(m) && strings.HasPrefix(t, m) && strings.HasSuffix(t, m) {
			inner := strings.TrimSpace(strings.TrimSuffix(t[len(m):len(t)-len(m)], ":"))
			// A bold sentence ("**Always use backticks. Add `()` for
			// methods:**") is a rule, not a heading.
			if inner != "" && !strings.Contains(inner, m) && len(inner) <= 80 && !strings.Contains(inner, ". ") && words(inner) <= 8 {
				return inner, true
			}
		}
	}
	return "", false
}

func isBlank(l string) bool { return strings.TrimSpace(l) == "" }

// indentOf counts leading spaces, a tab counting as four.
func indentOf(l string) int {
	n := 0
	for _, r := range l {
		switch r {
		case ' ':
			n++
		case '\t':
			n += 4 - n%4
		default:
			return n
		}
	}
	return n
}

// dedentLines removes up to n columns of leading whitespace from each line.
func dedentLines(lines []string, n int) []string {
	out := make([]string, len(lines))
	for k, l := range lines {
		col, i := 0, 0
		for i < len(l) && col < n && (l[i] == ' ' || l[i] == '\t') {
			if l[i] == '\t' {
				col += 4 - col%4
			} else {
				col++
			}
			i++
		}
		out[k] = strings.TrimRightFunc(l[i:], unicode.IsSpace)
	}
	return out
}

func dedent(lines []string, n int) string {
	return strings.Trim(strings.Join(dedentLines(lines, n), "\n"), "\n")
}

func joinTrimmed(lines []string) string {
	parts := make([]string, 0, len(lines))
	for _, l := range lines {
		parts = append(parts, strings.TrimSpace(l))
	}
	return strings.Join(parts, " ")
}
