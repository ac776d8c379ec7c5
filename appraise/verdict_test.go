package appraise

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode"
)

// forbiddenStems are the starts of words an answer-bearing field would be
// named with.
var forbiddenStems = []string{"answer", "fix", "solution", "correct", "suggest"}

// nameWords splits a Go field name or JSON key into lower-case words:
// FixedPoint → fixed, point; corrected_text → corrected, text.
func nameWords(name string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
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
	return words
}

// answerBearing reports whether a name is one of an answer-bearing field.
func answerBearing(name string) bool {
	for _, w := range nameWords(name) {
		for _, s := range forbiddenStems {
			if strings.HasPrefix(w, s) {
				return true
			}
		}
	}
	return false
}

// AnswerFreeType fails tb for every field of t (recursively) whose Go name or
// JSON name is answer-bearing.
func answerFreeType(tb testing.TB, t reflect.Type, path string, seen map[reflect.Type]bool) {
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
		if answerBearing(f.Name) || answerBearing(jsonName) {
			tb.Errorf("%s.%s (json %q) is named like an answer-bearing field", path, f.Name, jsonName)
		}
		answerFreeType(tb, f.Type, path+"."+f.Name, seen)
	}
}

// answerFreeJSON fails tb for every object key in v that is answer-bearing.
func answerFreeJSON(tb testing.TB, v any, path string) {
	tb.Helper()
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if answerBearing(k) {
				tb.Errorf("JSON key %s.%s is answer-bearing", path, k)
			}
			answerFreeJSON(tb, e, path+"."+k)
		}
	case []any:
		for _, e := range x {
			answerFreeJSON(tb, e, path+"[]")
		}
	}
}

func TestAnswerBearing_detects(t *testing.T) {
	for _, name := range []string{"Answer", "FixText", "fix", "solution", "corrected_code", "Suggestions", "suggested_fix", "final_answer"} {
		if !answerBearing(name) {
			t.Errorf("answerBearing(%q) = false", name)
		}
	}
	for _, name := range []string{"valence", "flagged_points", "Prefix", "summary", "trace_id", "Advisory"} {
		if answerBearing(name) {
			t.Errorf("answerBearing(%q) = true", name)
		}
	}
}

// TestVerdict_answerFree walks the Verdict type and the JSON of a verdict
// with flagged points and contributors: no field or key may be named like
// an answer, and no flagged summary may contain the candidate's text, even
// when the lesson text quotes the candidate.
func TestVerdict_answerFree(t *testing.T) {
	answerFreeType(t, reflect.TypeFor[Verdict](), "Verdict", map[reflect.Type]bool{})

	candidate := "Use fmt.Errorf with %w to wrap the error"
	quoting := caution("q", 0.8)
	quoting.Trigger = "when you want to use fmt.Errorf with %w to wrap the error in old Go"
	echo := caution("e", 0.7)
	echo.Trigger, echo.Content = "", candidate+". It breaks on Go before 1.13."
	r := Appraise(Input{Lessons: []Lesson{quoting, echo}, Candidate: candidate, Mode: Brainstorm}, DefaultConfig())
	v := r.Verdict
	if len(v.FlaggedPoints) != 2 || len(v.Contributors) != 2 {
		t.Fatalf("setup: want two flagged points, got %+v", v)
	}
	for _, p := range v.FlaggedPoints {
		if strings.Contains(strings.ToLower(p.Summary), strings.ToLower(candidate)) {
			t.Errorf("flagged summary %q contains the candidate", p.Summary)
		}
		if !strings.HasPrefix(p.Summary, "Watch out") {
			t.Errorf("summary %q is not phrased as a caution", p.Summary)
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var generic any
	if err := json.Unmarshal(b, &generic); err != nil {
		t.Fatal(err)
	}
	answerFreeJSON(t, generic, "verdict")
	if strings.Contains(string(b), candidate) {
		t.Errorf("verdict JSON echoes the candidate: %s", b)
	}
}

func TestParseMode(t *testing.T) {
	for in, want := range map[string]Mode{"": Focus, "focus": Focus, "brainstorm": Brainstorm, "quiet": Quiet} {
		if got, err := ParseMode(in); got != want || err != nil {
			t.Errorf("ParseMode(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseMode("loud"); !errors.Is(err, ErrUnknownMode) {
		t.Fatalf("ParseMode(loud) err = %v", err)
	}
}
