package sanitize

import "testing"

func TestCredential(t *testing.T) {
	for _, tc := range []struct {
		text string
		kind string // "" for none
	}{
		{"headers: { authorization: 'token ghp_1234567890abcdefghijklmnopqrstuvwxyzAB' }", "github-token"},
		{`client = OpenAI(api_key="sk-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH")`, "openai-api-key"},
		{`jwt_secret = "8f3e2a9b7c6d5e4f3a2b1c0d9e8f7a6b"`, "secret"},
		{`DATABASE_URL=postgres://app:Xk29vLq8Zr4mWp@db.internal:5432/app`, "url-password"},
		{"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7zH3c1kq9v0Q2b5n8Tq4xZlP0aQ3\n-----END RSA PRIVATE KEY-----", "private-key"},
		// Weak literals of tests and examples, references and placeholders.
		{`token := "test-token"`, ""},
		{`const password = "hunter2";`, ""},
		{`API_KEY=your-api-key-here`, ""},
		{`password = os.getenv("DB_PASSWORD")`, ""},
		{`api_key: ${API_KEY}`, ""},
		{`const secret = process.env.JWT_SECRET || "dev-secret-change-me";`, ""},
		{`tokens = tokenize(source)`, ""},
		{"", ""},
	} {
		r, ok := Credential(tc.text)
		if ok != (tc.kind != "") || ok && r.Kind != tc.kind {
			t.Errorf("Credential(%q) = %v, %v; want kind %q", tc.text, r, ok, tc.kind)
		}
	}
}

func FuzzCredential(f *testing.F) {
	f.Add(`api_key = "Zx81kPq0LmW2vB7n"`)
	f.Add("ghp_1234567890abcdefghijklmnopqrstuvwxyzAB")
	f.Fuzz(func(t *testing.T, s string) {
		r, ok := Credential(s)
		if ok && (r.Start < 0 || r.End > len(s) || r.Start >= r.End) {
			t.Fatalf("span %d..%d out of %d bytes", r.Start, r.End, len(s))
		}
	})
}
