package sanitize

import (
	"database/sql/driver"
	"reflect"
	"slices"
	"strings"
)

// RedactValue returns s with its secrets replaced by placeholders: a JSON
// object or array with RedactJSON, which keeps it valid JSON, any other text
// with Redact. The stores pass every text they write through it.
func RedactValue(s string) string {
	if t := strings.TrimLeft(s, " \t\r\n"); t != "" && (t[0] == '{' || t[0] == '[') {
		out, _ := RedactJSON(s) // plain redaction when s is not JSON
		return out
	}
	out, _ := Redact(s)
	return out
}

// RedactArgs returns a database statement's arguments with every text
// argument passed through RedactValue: strings, pointers to strings, values
// of string types, driver.Valuers whose value is a string
// (sql.NullString), and the elements of a []string (a PostgreSQL text[]).
// Byte slices are binary (vectors, term statistics) and pass unchanged, as
// do numbers, booleans and nil: the stores always bind text as a string.
// args itself is never modified; it is returned as is when nothing
// changed.
func RedactArgs(args []any) []any {
	var out []any
	set := func(i int, v any) {
		if out == nil {
			out = slices.Clone(args)
		}
		out[i] = v
	}
	for i, a := range args {
		if ss, ok := a.([]string); ok {
			if r := redactStrings(ss); r != nil {
				set(i, r)
			}
			continue
		}
		if s, ok := textArg(a); ok {
			if r := RedactValue(s); r != s {
				set(i, r)
			}
		}
	}
	if out == nil {
		return args
	}
	return out
}

// redactStrings returns ss with its elements redacted, or nil when none
// changed.
func redactStrings(ss []string) []string {
	var out []string
	for i, s := range ss {
		if r := RedactValue(s); r != s {
			if out == nil {
				out = slices.Clone(ss)
			}
			out[i] = r
		}
	}
	return out
}

// textArg returns the text an argument binds, if it binds text.
func textArg(a any) (string, bool) {
	switch v := a.(type) {
	case string:
		return v, true
	case *string:
		if v != nil {
			return *v, true
		}
		return "", false
	case []byte, nil:
		return "", false
	case driver.Valuer:
		x, err := v.Value()
		if s, ok := x.(string); ok && err == nil {
			return s, true
		}
		return "", false
	}
	if rv := reflect.ValueOf(a); rv.Kind() == reflect.String {
		return rv.String(), true
	}
	return "", false
}
