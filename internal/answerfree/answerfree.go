// Package answerfree checks, for tests, that what appraise hands an agent
// carries no answer: no Go field, JSON field name or JSON object key named
// like an answer, a fix, a solution, a corrected text or a suggestion. The
// appraise package checks its Verdict with it, and kb the whole appraise
// result, route included.
package answerfree

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode"
)

// forbiddenStems are the starts of words an answer-bearing field would be
// named with.
var forbiddenStems = [...]string{"answer", "fix", "solution", "correct", "suggest"}

// Bearing reports whether name (a Go field name or a JSON key) has a word
// that starts like an answer-bearing one: FixText, corrected_code,
// final_answer, Suggestions.
func Bearing(name string) bool {
	for _, w := range words(name) {
		for _, s := range forbiddenStems {
			if strings.HasPrefix(w, s) {
				return true
			}
		}
	}
	return false
}

// words splits a Go field name or JSON key into lower-case words:
// FixedPoint → fixed, point; corrected_text → corrected, text.
func words(name string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	for i, r := range name {
		switch {
		case r == '_' || r == '-' || r == ' ':
			flush()
		case unicode.IsUpper(r) && i > 0:
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return out
}

// CheckType fails tb for every field of t, followed through pointers,
// slices, arrays, maps and nested structs, whose Go name or JSON name is
// answer-bearing.
func CheckType(tb testing.TB, t reflect.Type) {
	tb.Helper()
	checkType(tb, t, t.Name(), map[reflect.Type]bool{})
}

func checkType(tb testing.TB, t reflect.Type, path string, seen map[reflect.Type]bool) {
	tb.Helper()
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || seen[t] {
		return
	}
	seen[t] = true
	for i := range t.NumField() {
		f := t.Field(i)
		jsonName, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if Bearing(f.Name) || Bearing(jsonName) {
			tb.Errorf("%s.%s (json %q) is named like an answer-bearing field", path, f.Name, jsonName)
		}
		checkType(tb, f.Type, path+"."+f.Name, seen)
	}
}

// CheckJSON marshals v and fails tb for every object key of the JSON that
// is answer-bearing. It returns the JSON, for further checks.
func CheckJSON(tb testing.TB, v any) []byte {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatalf("marshal: %v", err)
	}
	var generic any
	if err := json.Unmarshal(b, &generic); err != nil {
		tb.Fatalf("unmarshal: %v", err)
	}
	checkJSON(tb, generic, "$")
	return b
}

func checkJSON(tb testing.TB, v any, path string) {
	tb.Helper()
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if Bearing(k) {
				tb.Errorf("JSON key %s.%s is answer-bearing", path, k)
			}
			checkJSON(tb, e, path+"."+k)
		}
	case []any:
		for _, e := range x {
			checkJSON(tb, e, path+"[]")
		}
	}
}
