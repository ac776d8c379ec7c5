package route

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// codeSpecifics counts the concrete code handles in a message: code spans
// (pairs of backticks, fenced blocks count once) and whitespace-separated
// fields that look like paths, file names, identifiers, calls, flags,
// versions or issue numbers. msg keeps its case (camelCase needs it).
func codeSpecifics(l *lexicon, msg string) int {
	n := codeSpans(msg)
	for _, f := range strings.Fields(msg) {
		if n >= maxSpecifics {
			break
		}
		if isCall(f) {
			n++
			continue
		}
		f = strings.Trim(f, "`'\"()[]{}<>,;:!?。，、！？")
		f = strings.TrimRight(f, ".")
		if len(f) < 2 || !utf8.ValidString(f) {
			continue
		}
		if looksLikeCode(l, f) {
			n++
		}
	}
	return n
}

// codeSpans counts Markdown code: fenced blocks and inline spans whose
// content neither starts nor ends with a space (so prose quoting such as
// "“ word ”" is not code).
func codeSpans(msg string) int {
	n := strings.Count(msg, "```") / 2
	rest := strings.ReplaceAll(msg, "```", "\n")
	for {
		i := strings.IndexByte(rest, '`')
		if i < 0 || i+1 >= len(rest) {
			return n
		}
		rest = rest[i+1:]
		j := strings.IndexAny(rest, "`\n")
		if j < 0 {
			return n
		}
		if rest[j] == '`' && j > 0 && rest[0] != ' ' && rest[j-1] != ' ' {
			n++
			rest = rest[j+1:]
		}
	}
}

// looksLikeCode reports whether one field of a message is a code handle.
func looksLikeCode(l *lexicon, f string) bool {
	switch {
	case strings.HasPrefix(f, "--") && len(f) > 3 && isLetterByte(f[2]):
		return true // flag
	case f[0] == '#' && len(f) > 1 && allDigits(f[1:]):
		return true // issue or PR number
	case strings.Contains(f, "::") || strings.Contains(f, "->") || strings.Contains(f, ":=") ||
		strings.Contains(f, "=>") || strings.Contains(f, "==") || strings.Contains(f, "!="):
		return true
	}
	if isPath(f) || hasCodeExtension(l, f) {
		return true
	}
	if isVersion(f) {
		return true
	}
	return isIdentifier(f)
}

// isCall reports whether f holds call syntax: Open(), parse(x).
func isCall(f string) bool {
	f = strings.TrimLeft(f, "`'\"([{<")
	i := strings.IndexByte(f, '(')
	return i > 0 && strings.IndexByte(f[i:], ')') > 0 && isIdentRune(rune(f[i-1]))
}

// isPath reports whether f looks like a file-system path or URL.
func isPath(f string) bool {
	if strings.HasPrefix(f, "./") || strings.HasPrefix(f, "../") || strings.HasPrefix(f, "~/") {
		return true
	}
	if strings.Contains(f, "://") {
		return true
	}
	slashes := strings.Count(f, "/") + strings.Count(f, `\`)
	if slashes == 0 {
		return false
	}
	// "and/or" is prose; "internal/route" or "/etc/hosts" or "a/b/c" is a path.
	return slashes >= 2 || strings.HasPrefix(f, "/") || strings.ContainsAny(f, "._") ||
		(len(f) >= 8 && !strings.ContainsFunc(f, unicode.IsUpper))
}

// hasCodeExtension reports whether f ends in ".ext" (optionally ":line") for
// a code extension from the lexicon, with a name before the dot.
func hasCodeExtension(l *lexicon, f string) bool {
	if i := strings.LastIndexByte(f, ':'); i > 0 && allDigits(f[i+1:]) {
		f = f[:i]
	}
	dot := strings.LastIndexByte(f, '.')
	if dot <= 0 || dot == len(f)-1 {
		return false
	}
	return l.extensions[strings.ToLower(f[dot+1:])] && isIdentRune(rune(f[dot-1]))
}

// isVersion reports whether f is "v1.2", "1.2.3" or similar (a bare decimal
// such as "3.5" is not).
func isVersion(f string) bool {
	v := strings.TrimPrefix(strings.TrimPrefix(f, "v"), "V")
	parts := strings.Split(v, ".")
	if len(parts) < 2 || (len(parts) < 3 && len(v) == len(f)) {
		return false
	}
	for _, p := range parts {
		if p == "" || !allDigits(p) {
			return false
		}
	}
	return true
}

// isIdentifier reports whether f is camelCase, snake_case or a dotted
// qualified name such as os.Open or foo.bar.baz.
func isIdentifier(f string) bool {
	if !strings.ContainsFunc(f, unicode.IsLetter) {
		return false
	}
	for _, r := range f {
		if !isIdentRune(r) && r != '.' {
			return false
		}
	}
	// camelCase with a lower-case start (parseHeader), or PascalCase with at
	// least two humps (NewServerConfig); one hump after a capital is usually
	// a name (McBride, PlayStation).
	humps := 0
	prev := rune(0)
	for _, r := range f {
		if unicode.IsLower(prev) && unicode.IsUpper(r) {
			humps++
		}
		if r == '_' && unicode.IsLetter(prev) {
			return true // snake_case
		}
		prev = r
	}
	first, _ := utf8.DecodeRuneInString(f)
	if humps >= 2 || (humps == 1 && unicode.IsLower(first) && len(f) >= 5) {
		return true
	}
	// pkg.Func: two or more parts of at least two characters each, none a
	// bare number ("e.g." and "U.S." are prose).
	parts := strings.Split(f, ".")
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if len(p) < 2 || allDigits(p) {
			return false
		}
	}
	return true
}

func isIdentRune(r rune) bool {
	return r == '_' || (r < utf8.RuneSelf && (isLetterByte(byte(r)) || ('0' <= r && r <= '9')))
}

func isLetterByte(b byte) bool { return ('a' <= b && b <= 'z') || ('A' <= b && b <= 'Z') }

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
