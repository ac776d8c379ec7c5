package sanitize

import (
	"encoding/json"
	"strings"

	"github.com/innate-mcp/innate-mcp/terms"
)

// RedactJSON returns the JSON text with every secret [Redact] recognises
// replaced by a placeholder, and the number of secrets replaced. Valid JSON
// stays valid JSON with the same structure:
//
//   - every string, object keys included, is decoded, redacted as Redact
//     does and encoded again, so that a secret is found whatever escapes
//     the encoding put in it (the newlines of a private key block, the
//     quotes around a password in code);
//   - each object member whose value is a string, number or literal is
//     then read as the name and value it is ({"password": "hunter22"}),
//     and a value that is a secret by its name is replaced whole by the
//     placeholder, as a JSON string.
//
// Text that is not valid JSON is redacted as plain text by Redact. Like
// Redact, RedactJSON is deterministic, idempotent, safe for concurrent use
// and never fails; run time is linear in len(text).
func RedactJSON(text string) (string, int) {
	if !json.Valid([]byte(text)) {
		out, rs := Redact(text)
		return out, len(rs)
	}
	out, n := redactJSONStrings(text)
	out, m := redactJSONValues(out)
	return out, n + m
}

// redactJSONStrings redacts every string literal of the valid JSON text on
// its own, decoded.
func redactJSONStrings(text string) (string, int) {
	var b strings.Builder
	n, prev := 0, 0
	for _, tok := range jsonTokens(text) {
		if text[tok.start] != '"' {
			continue
		}
		s := text[tok.start+1 : tok.end-1]
		if strings.IndexByte(s, '\\') >= 0 {
			if err := json.Unmarshal([]byte(text[tok.start:tok.end]), &s); err != nil {
				continue // unreachable for valid JSON
			}
		}
		red, rs := Redact(s)
		if len(rs) == 0 {
			continue
		}
		if b.Len() == 0 {
			b.Grow(len(text))
		}
		b.WriteString(text[prev:tok.start])
		b.WriteString(jsonString(red))
		prev = tok.end
		n += len(rs)
	}
	if n == 0 {
		return text, 0
	}
	b.WriteString(text[prev:])
	return b.String(), n
}

// memberProbe bounds how much of a member's value is read with its name:
// a secret named by its key starts right after it, and no rule's quoted
// value is longer.
const memberProbe = 1 << 10

// redactJSONValues reads each object member of the valid JSON text whose
// value is a string, number or literal as "name": value, and replaces a
// value that a secret starts in by the placeholder of its kind.
func redactJSONValues(text string) (string, int) {
	toks := jsonTokens(text)
	var b strings.Builder
	n, prev := 0, 0
	for _, tok := range toks {
		if tok.member < 0 {
			continue
		}
		k := toks[tok.member]
		if !hasAnchor(text[k.start:k.end]) {
			continue // the key names no secret: its value was redacted on its own
		}
		name := text[k.start:k.end] + ": "
		probe := name + text[tok.start:min(tok.end, tok.start+memberProbe)]
		var kind string
		for _, r := range findSecrets(probe) {
			if r.Start >= len(name) {
				kind = r.Kind
				break
			}
		}
		if kind == "" {
			continue
		}
		if n == 0 {
			b.Grow(len(text))
		}
		b.WriteString(text[prev:tok.start])
		b.WriteString(jsonString(Placeholder(kind)))
		prev = tok.end
		n++
	}
	if n == 0 {
		return text, 0
	}
	b.WriteString(text[prev:])
	return b.String(), n
}

// hasAnchor reports whether s holds the anchor of a redaction rule; a
// match of any rule starts with one.
func hasAnchor(s string) bool {
	found := false
	secrets().scanner.scan(terms.LowerASCII(s), func(int, int, int) { found = true })
	return found
}

// jsonToken is the byte range of one string, number or literal of a JSON
// text. key marks a string that is an object key; member, for the value of
// an object member, is the index of its key among the tokens (-1 for other
// tokens).
type jsonToken struct {
	start, end int
	key        bool
	member     int
}

// jsonTokens lists the strings, numbers and literals of a valid JSON text
// in order.
func jsonTokens(text string) []jsonToken {
	var toks []jsonToken
	// inObject[d] tells whether nesting level d is an object; expectKey is
	// whether the next string in the current object is a key.
	var inObject []bool
	expectKey := false
	key := -1 // the key whose value comes next
	for i := 0; i < len(text); {
		switch c := text[i]; c {
		case ' ', '\t', '\n', '\r', ',', ':':
			if c == ',' && len(inObject) > 0 && inObject[len(inObject)-1] {
				expectKey = true
			}
			i++
		case '{', '[':
			inObject = append(inObject, c == '{')
			expectKey, key = c == '{', -1
			i++
		case '}', ']':
			inObject = inObject[:len(inObject)-1]
			expectKey = false
			i++
		case '"':
			j := i + 1
			for j < len(text) && text[j] != '"' {
				if text[j] == '\\' {
					j++
				}
				j++
			}
			tok := jsonToken{start: i, end: j + 1, key: expectKey, member: -1}
			if !expectKey {
				tok.member, key = key, -1
			}
			toks = append(toks, tok)
			if expectKey {
				key = len(toks) - 1
			}
			expectKey = false
			i = j + 1
		default: // a number or true, false, null
			j := i + 1
			for j < len(text) && !strings.ContainsRune(" \t\n\r,:]}", rune(text[j])) {
				j++
			}
			toks = append(toks, jsonToken{start: i, end: j, member: key})
			key = -1
			i = j
		}
	}
	return toks
}

// jsonString encodes s as a JSON string.
func jsonString(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		return `""` // unreachable: strings always encode
	}
	return string(b)
}
