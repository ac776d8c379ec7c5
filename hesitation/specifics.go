package hesitation

import (
	"strings"
	"unicode/utf8"
)

// specificKind classifies a checkable detail.
type specificKind uint8

const (
	specNumber specificKind = iota
	specVersion
	specDate
	specIdentifier
	specFlag
)

// String names the kind for signal details.
func (k specificKind) String() string {
	switch k {
	case specVersion:
		return "version"
	case specDate:
		return "date"
	case specIdentifier:
		return "identifier"
	case specFlag:
		return "flag"
	}
	return "number"
}

// specific is one checkable detail in a text: a number, version, date, API
// or flag name.
type specific struct {
	kind specificKind
	span Span
	norm string // normalised form used to look it up in the evidence
}

// isTokenByte reports bytes that belong to a code-like token.
func isTokenByte(c byte) bool {
	return isWordByte(c) || c == '.' || c == '-' || c == '/' || c == ':' || c == '%' || c == '$' || c == '@' || c == '#' || c == '+' || c == '~' || c == '=' || c == ',' || c == '(' || c == ')'
}

// rawTokens calls fn with the span of every code-like token of s: maximal
// runs of token bytes, trimmed of sentence punctuation, commas that do not
// sit between digits, and unbalanced brackets. CJK text separates tokens.
func rawTokens(s []byte, fn func(start, end int)) {
	for i := 0; i < len(s); {
		if !isTokenByte(s[i]) {
			if s[i] >= utf8.RuneSelf {
				_, n := utf8.DecodeRune(s[i:])
				i += n
			} else {
				i++
			}
			continue
		}
		j := i
		for j < len(s) {
			c := s[j]
			if c == '\'' && j > i && isWordByte(s[j-1]) && j+1 < len(s) && isLower(s[j+1]) {
				j++ // "don't", "it's"
				continue
			}
			if !isTokenByte(c) || (c == ',' && !(j > i && isDigit(s[j-1]) && j+1 < len(s) && isDigit(s[j+1]))) {
				break
			}
			j++
		}
		a, b := i, j
		for a < b && (s[a] == '(' || s[a] == ',' || s[a] == ':' || s[a] == '.' || s[a] == ')' || s[a] == '=') {
			a++
		}
		for b > a {
			c := s[b-1]
			if c == '.' || c == ',' || c == ':' || c == '-' || c == '/' || c == '=' || (c == ')' && !(b-2 >= a && s[b-2] == '(')) {
				b--
				continue
			}
			break
		}
		if a < b {
			fn(a, b)
		}
		if j == i {
			j++
		}
		i = j
	}
}

// isDigit reports an ASCII digit.
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// isUpper reports an ASCII capital.
func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }

// isLower reports an ASCII small letter.
func isLower(c byte) bool { return 'a' <= c && c <= 'z' }

// specificsOf finds the checkable details of text. Numbers that are list
// markers ("1." at the start of a line) and single digits are left out: they
// rarely carry a factual claim.
func specificsOf(text string) []specific {
	s := []byte(text)
	l := lex()
	var out []specific
	rawTokens(s, func(a, b int) {
		if k, ok := classifyToken(l, s, a, b); ok {
			out = append(out, specific{kind: k, span: Span{a, b}, norm: normToken(s[a:b])})
		}
	})
	// Code spans in backticks are identifiers as a whole.
	for i := 0; i < len(s); i++ {
		if s[i] != '`' {
			continue
		}
		j := i + 1
		for j < len(s) && s[j] != '`' && s[j] != '\n' {
			j++
		}
		if j < len(s) && s[j] == '`' && j-i > 1 && j-i <= 80 {
			out = append(out, specific{kind: specIdentifier, span: Span{i + 1, j}, norm: normToken(s[i+1 : j])})
			i = j
		}
	}
	return out
}

// classifyToken decides whether s[a:b] is a specific and of which kind.
func classifyToken(l *lexicon, s []byte, a, b int) (specificKind, bool) {
	t := s[a:b]
	if len(t) < 2 || len(t) > 80 {
		return 0, false
	}
	lt := strings.ToLower(string(t))
	if strings.Contains(lt, "://") || strings.HasPrefix(lt, "www.") {
		return 0, false // a link is a citation, not a claim
	}
	// Flags: --name, or -x / -rf after a space.
	if t[0] == '-' {
		if len(t) > 2 && t[1] == '-' && isLower(lt[2]) {
			return specFlag, true
		}
		if len(t) <= 5 && isLower(lt[1]) && (a == 0 || isSpace(s[a-1])) && allLetters(t[1:]) {
			return specFlag, true
		}
		return 0, false
	}
	digits, letters, dots := 0, 0, 0
	for _, c := range t {
		switch {
		case isDigit(c):
			digits++
		case isLower(c) || isUpper(c):
			letters++
		case c == '.':
			dots++
		}
	}
	if digits > 0 {
		return classifyNumeric(l, s, a, b, t, digits, letters, dots)
	}
	// No digits: API or identifier names.
	if strings.HasSuffix(lt, "()") || strings.Contains(lt, "_") {
		return specIdentifier, true
	}
	if dots > 0 && !isAbbreviation(lt) {
		parts := strings.Split(strings.TrimSuffix(lt, "()"), ".")
		ok := len(parts) >= 2
		for _, p := range parts {
			if p == "" || !isWordByte(p[0]) {
				ok = false
			}
		}
		if ok {
			return specIdentifier, true
		}
	}
	for i := 1; i < len(t); i++ {
		if isLower(t[i-1]) && isUpper(t[i]) && i >= 2 {
			return specIdentifier, true // camelCase, but not "iPhone"
		}
	}
	return 0, false
}

// classifyNumeric handles tokens that contain digits.
func classifyNumeric(l *lexicon, s []byte, a, b int, t []byte, digits, letters, dots int) (specificKind, bool) {
	lt := strings.ToLower(string(t))
	// List markers "1." / "2)" at the start of a line.
	if a == lineStart(s, a) && b < len(s) && (s[b] == '.' || s[b] == ')') && digits == len(t) {
		return 0, false
	}
	core := strings.TrimPrefix(lt, "v")
	if core != lt && len(core) > 0 && isDigit(core[0]) && strings.Count(core, ".") >= 1 {
		return specVersion, true
	}
	if dots >= 2 && letters == 0 && !strings.Contains(lt, "..") {
		return specVersion, true
	}
	if len(t) == 4 && digits == 4 && (t[0] == '1' || (t[0] == '2' && t[1] == '0')) {
		return specDate, true
	}
	if digits == len(t) && l.months[strings.ToLower(prevWord(s, a))] {
		return specDate, true // "March 5"
	}
	if len(t) == 10 && t[4] == '-' && t[7] == '-' && digits == 8 {
		return specDate, true
	}
	if letters > 0 && digits > 0 && letters > 3 {
		return specIdentifier, true // sha256, utf8mb4, x86_64
	}
	if digits == 1 && len(t) == 1 {
		return 0, false
	}
	if digits == 1 && letters == 0 && !strings.ContainsAny(lt, "%$") {
		return 0, false
	}
	return specNumber, true
}

// allLetters reports whether t is ASCII letters only.
func allLetters(t []byte) bool {
	for _, c := range t {
		if !isLower(c) && !isUpper(c) {
			return false
		}
	}
	return len(t) > 0
}

// isAbbreviation reports dotted abbreviations that are not identifiers.
func isAbbreviation(lt string) bool {
	switch lt {
	case "e.g", "i.e", "etc", "vs", "u.s", "u.k", "a.m", "p.m", "ph.d", "e.g.", "i.e.", "u.s.", "u.k.", "a.m.", "p.m.", "mr", "dr", "st":
		return true
	}
	// Single letters separated by dots: "u.s.a".
	parts := strings.Split(strings.Trim(lt, "."), ".")
	for _, p := range parts {
		if len(p) > 1 {
			return false
		}
	}
	return true
}

// normToken normalises a token for evidence lookup: lower case, no
// thousands separators, no leading "v" on versions, no trailing "()".
func normToken(t []byte) string {
	lt := strings.ToLower(string(t))
	lt = strings.TrimSuffix(lt, "()")
	if len(lt) > 1 && lt[0] == 'v' && isDigit(lt[1]) {
		lt = lt[1:]
	}
	if strings.Contains(lt, ",") {
		lt = strings.ReplaceAll(lt, ",", "")
	}
	return strings.Trim(lt, "`'\"")
}

// evidenceSet returns the normalised tokens of the evidence texts: every
// code-like token and, for dotted or slashed tokens, their parts.
func evidenceSet(texts ...string) map[string]struct{} {
	set := make(map[string]struct{})
	for _, t := range texts {
		s := []byte(t)
		rawTokens(s, func(a, b int) {
			n := normToken(s[a:b])
			set[n] = struct{}{}
			if strings.ContainsAny(n, "./:=") {
				for _, p := range strings.FieldsFunc(n, func(r rune) bool { return r == '.' || r == '/' || r == ':' || r == '=' }) {
					set[p] = struct{}{}
				}
			}
		})
		// Backtick spans whole.
		for i := 0; i < len(s); i++ {
			if s[i] == '`' {
				j := i + 1
				for j < len(s) && s[j] != '`' && s[j] != '\n' {
					j++
				}
				if j < len(s) && s[j] == '`' {
					set[normToken(s[i+1:j])] = struct{}{}
					i = j
				}
			}
		}
	}
	return set
}
