package sanitize

import (
	"encoding/json"
	"strings"
)

// RedactJSON returns the JSON text with every secret [Redact] recognises
// replaced by a placeholder, and the number of secrets replaced. Valid JSON
// stays valid JSON with the same structure:
//
//   - every string, object keys included, is decoded, redacted as Redact
//     does and encoded again, so that a secret is found whatever escapes
//     the encoding put in it (the newlines of a private key block, the
//     quotes around a password in code);
//   - the text is then read as a whole once more, for secrets whose name
//     and value are separate tokens ({"password": "hunter22"}): a string,
//     number or literal value holding such a secret is replaced whole by
//     the placeholder, as a JSON string.
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
		var s string
		if err := json.Unmarshal([]byte(text[tok.start:tok.end]), &s); err != nil {
			continue // unreachable for valid JSON
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

// redactJSONValues runs Redact over the valid JSON text as a whole and
// replaces each value token that a secret starts in by the placeholder of
// its kind.
func redactJSONValues(text string) (string, int) {
	found := findSecrets(text)
	if len(found) == 0 {
		return text, 0
	}
	var b strings.Builder
	b.Grow(len(text))
	n, prev, fi := 0, 0, 0
	for _, tok := range jsonTokens(text) {
		for fi < len(found) && found[fi].Start < tok.start {
			fi++ // in white space, punctuation or an earlier token
		}
		if fi == len(found) {
			break
		}
		if tok.key || found[fi].Start >= tok.end {
			continue
		}
		b.WriteString(text[prev:tok.start])
		b.WriteString(jsonString(Placeholder(found[fi].Kind)))
		prev = tok.end
		n++
		for fi < len(found) && found[fi].Start < tok.end {
			fi++
		}
	}
	if n == 0 {
		return text, 0
	}
	b.WriteString(text[prev:])
	return b.String(), n
}

// jsonToken is the byte range of one string, number or literal of a JSON
// text; key marks a string that is an object key.
type jsonToken struct {
	start, end int
	key        bool
}

// jsonTokens lists the strings, numbers and literals of a valid JSON text
// in order.
func jsonTokens(text string) []jsonToken {
	var toks []jsonToken
	// inObject[d] tells whether nesting level d is an object; expectKey is
	// whether the next string in the current object is a key.
	var inObject []bool
	expectKey := false
	for i := 0; i < len(text); {
		switch c := text[i]; c {
		case ' ', '\t', '\n', '\r', ',', ':':
			if c == ',' && len(inObject) > 0 && inObject[len(inObject)-1] {
				expectKey = true
			}
			i++
		case '{', '[':
			inObject = append(inObject, c == '{')
			expectKey = c == '{'
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
			toks = append(toks, jsonToken{start: i, end: j + 1, key: expectKey})
			expectKey = false
			i = j + 1
		default: // a number or true, false, null
			j := i + 1
			for j < len(text) && !strings.ContainsRune(" \t\n\r,:]}", rune(text[j])) {
				j++
			}
			toks = append(toks, jsonToken{start: i, end: j})
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
