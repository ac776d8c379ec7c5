package setup

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Codex keeps its MCP servers in TOML (~/.codex/config.toml), one table a
// server: [mcp_servers.NAME]. Setup owns exactly that table: it writes it
// at the end of the file, rewrites its body when the command changed, and
// cuts it out on uninstall, leaving every other line (comments included)
// as it was.

// tomlTable locates the table whose header is header ("mcp_servers.innate")
// in text: the byte offsets of its header line's start and of the end of
// its last line (the start of the next table header, or the end of the
// file). ok is false when there is none.
func tomlTable(text, header string) (start, end int, ok bool) {
	pos := 0
	for pos < len(text) {
		lineEnd := strings.IndexByte(text[pos:], '\n')
		next := len(text)
		if lineEnd >= 0 {
			next = pos + lineEnd + 1
		}
		line := strings.TrimSpace(text[pos:next])
		if isTomlHeader(line) {
			if ok {
				return start, pos, true
			}
			if tomlHeaderName(line) == header {
				start, ok = pos, true
			}
		}
		pos = next
	}
	return start, len(text), ok
}

// isTomlHeader reports whether a trimmed line is a table header ([a.b] or
// [[a.b]]).
func isTomlHeader(line string) bool {
	return strings.HasPrefix(line, "[") && strings.Contains(line, "]")
}

// tomlHeaderName returns the table name of a header line with quotes and
// spaces around the dots removed: `[ mcp_servers."innate" ]` is
// mcp_servers.innate. A comment after the header is ignored.
func tomlHeaderName(line string) string {
	line = strings.TrimPrefix(strings.TrimPrefix(line, "["), "[")
	if i := strings.IndexByte(line, ']'); i >= 0 {
		line = line[:i]
	}
	parts := strings.Split(line, ".")
	for i, p := range parts {
		parts[i] = strings.Trim(strings.TrimSpace(p), `"'`)
	}
	return strings.Join(parts, ".")
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f || r == utf8.RuneError:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// tomlServerTable renders the table of an MCP server for Codex.
func tomlServerTable(name, command string, args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = tomlString(a)
	}
	return fmt.Sprintf("[mcp_servers.%s]\ncommand = %s\nargs = [%s]\n", name, tomlString(command), strings.Join(q, ", "))
}

// tomlSetTable makes the table named header read body (its header line
// included) and reports whether the text changed. A new table goes at the
// end, after a blank line.
func tomlSetTable(text, header, body string) (string, bool) {
	if start, end, ok := tomlTable(text, header); ok {
		own := start + tomlOwnLines(text[start:end])
		body = strings.TrimRight(body, "\n") + "\n"
		if text[start:own] == body {
			return text, false
		}
		return text[:start] + body + text[own:], true
	}
	switch {
	case text == "":
		return body, true
	case strings.HasSuffix(text, "\n\n"):
		return text + body, true
	case strings.HasSuffix(text, "\n"):
		return text + "\n" + body, true
	default:
		return text + "\n\n" + body, true
	}
}

// tomlRemoveTable cuts the table named header out of text, with the blank
// line setup put before it, and reports whether there was one.
func tomlRemoveTable(text, header string) (string, bool) {
	start, end, ok := tomlTable(text, header)
	if !ok {
		return text, false
	}
	before := text[:start]
	after := text[start+tomlOwnLines(text[start:end]):]
	if after == "" && strings.HasSuffix(before, "\n\n") {
		before = before[:len(before)-1]
	}
	return before + after, true
}

// tomlOwnLines returns the length of a table's own lines: up to the end of
// its last line that is neither blank nor a comment (the blank lines and
// comments after it lead into the next table).
func tomlOwnLines(table string) int {
	own, pos := 0, 0
	for pos < len(table) {
		next := len(table)
		if i := strings.IndexByte(table[pos:], '\n'); i >= 0 {
			next = pos + i + 1
		}
		if line := strings.TrimSpace(table[pos:next]); line != "" && !strings.HasPrefix(line, "#") {
			own = next
		}
		pos = next
	}
	return own
}
