package rulefile

import (
	"fmt"
	"strings"
)

// frontMatter holds the keys of a YAML front matter block that matter for
// rules. Other keys are ignored.
type frontMatter struct {
	description string
	globs       []string
	alwaysApply bool
}

// splitFrontMatter separates a leading "---" front matter block from the
// body. It returns the body, the 1-based line number where the body starts,
// and ErrFrontMatter if the block is not closed.
func splitFrontMatter(text string) (frontMatter, string, int, error) {
	var fm frontMatter
	if !strings.HasPrefix(text, "---") {
		return fm, text, 1, nil
	}
	first, rest, ok := strings.Cut(text, "\n")
	if strings.TrimRight(first, " \t\r") != "---" {
		return fm, text, 1, nil // "----" or "--- text" is not front matter
	}
	if !ok {
		return fm, "", 1, fmt.Errorf("%w: no closing ---", ErrFrontMatter)
	}
	lines := strings.Split(rest, "\n")
	end := -1
	for i, l := range lines {
		t := strings.TrimRight(l, " \t\r")
		if t == "---" || t == "..." {
			end = i
			break
		}
	}
	if end < 0 {
		return fm, "", 1, fmt.Errorf("%w: no closing ---", ErrFrontMatter)
	}
	fm = parseFrontMatter(lines[:end])
	body := strings.Join(lines[end+1:], "\n")
	return fm, body, end + 3, nil
}

// parseFrontMatter reads the small YAML subset rule files use: "key: value"
// with plain, quoted, flow-list ([a, b]), block-list ("- a") and folded or
// literal (> or |) values.
func parseFrontMatter(lines []string) frontMatter {
	var fm frontMatter
	for i := 0; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], " \t\r")
		if line == "" || strings.HasPrefix(strings.TrimSpace(line), "#") || line[0] == ' ' || line[0] == '\t' {
			continue
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		key = strings.ToLower(strings.TrimSpace(key))
		val = strings.TrimSpace(val)
		// Gather indented continuation lines for block values.
		var block []string
		for i+1 < len(lines) {
			next := strings.TrimRight(lines[i+1], " \t\r")
			if next != "" && next[0] != ' ' && next[0] != '\t' && !strings.HasPrefix(next, "- ") {
				break
			}
			block = append(block, strings.TrimSpace(next))
			i++
		}
		switch key {
		case "description":
			fm.description = scalar(val, block)
		case "globs", "applyto", "paths", "files":
			fm.globs = append(fm.globs, list(val, block)...)
		case "alwaysapply":
			fm.alwaysApply = strings.EqualFold(unquote(val), "true")
		}
	}
	return fm
}

// scalar returns a string value, joining folded (>) or literal (|) blocks
// and plain multi-line scalars.
func scalar(val string, block []string) string {
	var parts []string
	switch {
	case strings.HasPrefix(val, ">") || strings.HasPrefix(val, "|"):
		sep := " "
		if val[0] == '|' {
			sep = "\n"
		}
		for _, b := range block {
			if b != "" {
				parts = append(parts, b)
			}
		}
		return strings.TrimSpace(strings.Join(parts, sep))
	default:
		parts = append(parts, unquote(val))
		for _, b := range block {
			if b != "" {
				parts = append(parts, b)
			}
		}
	}
	return strings.TrimSpace(strings.Join(parts, " "))
}

// list returns a list value: a flow list, a block list, or a comma-separated
// string (commas inside {a,b} braces do not split).
func list(val string, block []string) []string {
	var out []string
	switch {
	case strings.HasPrefix(val, "["):
		inner := strings.TrimSuffix(strings.TrimPrefix(val, "["), "]")
		for _, p := range splitTop(inner) {
			if p = unquote(strings.TrimSpace(p)); p != "" {
				out = append(out, p)
			}
		}
	case val == "":
		for _, b := range block {
			if b, ok := strings.CutPrefix(b, "- "); ok {
				if b = unquote(strings.TrimSpace(b)); b != "" {
					out = append(out, b)
				}
			}
		}
	default:
		for _, p := range splitTop(unquote(val)) {
			if p = unquote(strings.TrimSpace(p)); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// splitTop splits on commas outside braces and quotes.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
		case c == ',' && depth <= 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' && s[len(s)-1] == '"' || s[0] == '\'' && s[len(s)-1] == '\'') {
		s = s[1 : len(s)-1]
		if s != "" {
			s = strings.ReplaceAll(s, `\"`, `"`)
		}
	}
	return s
}
