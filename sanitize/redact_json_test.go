package sanitize

import (
	"encoding/json"
	"testing"
)

func TestRedactJSON(t *testing.T) {
	pemJSON, _ := json.Marshal(map[string]string{"key": "deploy with:\n" + fakePEM})
	tests := []struct {
		name, in, want string
		n              int
	}{
		{"token in a string", `{"message":"thanks, the token is ` + fakeGitHub + `"}`,
			`{"message":"thanks, the token is [REDACTED:github-token]"}`, 1},
		{"private key with escaped newlines", string(pemJSON),
			`{"key":"deploy with:\n[REDACTED:private-key]"}`, 1},
		{"escaped quotes in code", `{"draft":"db.connect(password=\"correct-horse\")"}`,
			`{"draft":"db.connect(password=\"[REDACTED:password]\")"}`, 1},
		{"html escapes", `{"m":"\u003c` + fakeAWSID + `\u003e"}`,
			`{"m":"\u003c[REDACTED:aws-access-key-id]\u003e"}`, 1},
		{"name and value in separate tokens", `{"user": "app", "password": "Tr0ub4dor&3x"}`,
			`{"user": "app", "password": "[REDACTED:password]"}`, 1},
		{"header name and value", `{"headers":{"Authorization":"Basic dXNlcjpwYXNzd29yZDEyMzQ1Ng=="}}`,
			`{"headers":{"Authorization":"[REDACTED:authorization]"}}`, 1},
		{"names in an array are no members", `["password", "Tr0ub4dor&3x"]`, `["password", "Tr0ub4dor&3x"]`, 0},
		{"number value", `{"password":12345678901234567,"n":1}`,
			`{"password":"[REDACTED:password]","n":1}`, 1},
		{"key", `{"` + fakeGitHub + `":[1,2]}`, `{"[REDACTED:github-token]":[1,2]}`, 1},
		{"nested arrays", `[["ok", {"a": ["` + fakeStripe + `", true, null]}]]`,
			`[["ok", {"a": ["[REDACTED:stripe-key]", true, null]}]]`, 1},
		{"nothing to redact", `{"query":"how do I rotate the token?","top":3}`, `{"query":"how do I rotate the token?","top":3}`, 0},
		{"not JSON: redacted as text", `{"message": "` + fakeGitHub, `{"message": "[REDACTED:github-token]`, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, n := RedactJSON(tc.in)
			if got != tc.want || n != tc.n {
				t.Errorf("RedactJSON(%s)\n got=%s, %d\nwant %s, %d", tc.in, got, n, tc.want, tc.n)
			}
			if json.Valid([]byte(tc.in)) && !json.Valid([]byte(got)) {
				t.Errorf("output is not valid JSON: %s", got)
			}
		})
	}
}

// jsonStrings returns every string of a valid JSON text, keys included,
// decoded.
func jsonStrings(t *testing.T, text string) []string {
	t.Helper()
	var out []string
	for _, tok := range jsonTokens(text) {
		if text[tok.start] != '"' {
			continue
		}
		var s string
		if err := json.Unmarshal([]byte(text[tok.start:tok.end]), &s); err != nil {
			t.Fatalf("token %q of %q: %v", text[tok.start:tok.end], text, err)
		}
		out = append(out, s)
	}
	return out
}

func FuzzRedactJSON(f *testing.F) {
	fuzzSeeds(f)
	for _, s := range []string{
		`{"message":"thanks, the token is ` + fakeGitHub + `"}`, `{"user": "app", "password": "Tr0ub4dor&3x"}`,
		`{"password":12345678901234567}`, `[1, "a", {"b": [null, true, "` + fakeJWT + `"]}]`, `"` + fakeSlack + `"`,
		`{"k\"ey": "v\\\"al", "": ""}`, `{"a":"\u0000\ud83d\ude00"}`, `  [ ]  `, `1e9`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		out, n := RedactJSON(text)
		if !json.Valid([]byte(text)) {
			want, rs := Redact(text)
			if out != want || n != len(rs) {
				t.Fatalf("invalid JSON %q: got %q, %d; Redact gives %q, %d", text, out, n, want, len(rs))
			}
			return
		}
		if !json.Valid([]byte(out)) {
			t.Fatalf("valid JSON %q gave invalid %q", text, out)
		}
		if (n == 0) != (out == text) {
			t.Fatalf("%q -> %q with %d redactions", text, out, n)
		}
		if got, want := len(jsonTokens(out)), len(jsonTokens(text)); got != want {
			t.Fatalf("%q -> %q: %d tokens, want %d", text, out, got, want)
		}
		for _, s := range jsonStrings(t, out) {
			if red, rs := Redact(s); len(rs) > 0 {
				t.Fatalf("%q -> %q: string %q still holds a secret (%q)", text, out, s, red)
			}
		}
		if again, m := RedactJSON(out); again != out || m != 0 {
			t.Fatalf("not idempotent: %q -> %q -> %q", text, out, again)
		}
	})
}
