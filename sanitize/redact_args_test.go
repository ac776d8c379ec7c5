package sanitize

import (
	"database/sql"
	"testing"
)

type outcome string

func TestRedactArgs(t *testing.T) {
	text := "keep " + fakeGitHub + " out"
	want := "keep [REDACTED:github-token] out"
	ptr := text
	blob := []byte(text)
	in := []any{text, outcome(text), sql.NullString{String: text, Valid: true}, &ptr, blob, 7, nil,
		`{"q":"` + fakeGitHub + `"}`, "no secret here", []string{"fine", text}}
	got := RedactArgs(in)
	for i := range 4 {
		if got[i] != want {
			t.Errorf("text argument %d (%T): got %q, want %q", i, in[i], got[i], want)
		}
	}
	if b, ok := got[4].([]byte); !ok || string(b) != text {
		t.Errorf("blob: got %v, want it unchanged", got[4])
	}
	if got[5] != 7 || got[6] != nil || got[8] != "no secret here" {
		t.Errorf("other arguments changed: %v", got[5:])
	}
	if got[7] != `{"q":"[REDACTED:github-token]"}` {
		t.Errorf("JSON argument: got %v", got[7])
	}
	if ss := got[9].([]string); ss[0] != "fine" || ss[1] != want {
		t.Errorf("text[] argument: got %q", ss)
	}
	if in[0] != text || ptr != text || in[9].([]string)[1] != text {
		t.Error("RedactArgs modified its input")
	}
	if clean := []any{"a", 1, []string{"b"}}; &RedactArgs(clean)[0] != &clean[0] {
		t.Error("arguments without secrets were copied")
	}
}
