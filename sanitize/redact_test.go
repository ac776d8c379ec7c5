package sanitize

import (
	"strings"
	"testing"
)

// Fake secrets with the shapes of real ones. None is a live credential.
const (
	fakeGitHub    = "ghp_R7kD2mQ9vX4tL8nB3cF6hJ1pW5sZ0yA2uE9g"
	fakeAWSID     = "AKIAQ7ZL3RK9TXW2MB5N"
	fakeAWSSecret = "wJ8rXuTn3Fe/K7MDpENG2bPxRfiCYz9KLQ4vHs1m"
	fakeOpenAI    = "sk-proj-Tq8Vb3Nz5Lw2Xc7Rk9Mh4Jp6Ys1Dg0Fa3Qe8Wr5Ut2Io7Pl"
	fakeAnthropic = "sk-ant-api03-Zx9Cv8Bn7Mq6Wf5Er4Ty3Ui2Op1As0Dk9Lj8Hg7Fq6"
	fakeGoogle    = "AIzaSyB3kQ9mX7vR2tN5pL8wC4hJ6fD1sZ0gY3e"
	fakeSlack     = "xoxb-2048163957-4096327815-Kq7Vm2Xz9Nb4Lr8Tc3Hw6Jp1"
	fakeStripe    = "sk_live_51HqT8mK2vX9zR4nL7pB3cW6fJ1dY5sQ0"
	fakeGitLab    = "glpat-Rk8Vq2Xm9Zb4Nt7Lc3Hw"
	fakeJWT       = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
	fakePEM       = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\nVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK\n-----END RSA PRIVATE KEY-----"
)

func TestRedact_Finds(t *testing.T) {
	tests := []struct {
		name, text, kind, secret string
	}{
		{"github", "token " + fakeGitHub + " here", "github-token", fakeGitHub},
		{"github pat", "github_pat_11ABCDEFG0123456789_abcdefghijKLMNOPQRSTuvwxyz0123456789", "github-token", "github_pat_11ABCDEFG0123456789_abcdefghijKLMNOPQRSTuvwxyz0123456789"},
		{"aws id", "aws_access_key_id = " + fakeAWSID, "aws-access-key-id", fakeAWSID},
		{"aws secret", "aws_secret_access_key = " + fakeAWSSecret, "aws-secret-key", fakeAWSSecret},
		{"aws secret json", `{"AWS_SECRET_ACCESS_KEY": "` + fakeAWSSecret + `"}`, "aws-secret-key", fakeAWSSecret},
		{"openai", "OPENAI_API_KEY=" + fakeOpenAI, "openai-api-key", fakeOpenAI},
		{"anthropic", "use " + fakeAnthropic, "anthropic-api-key", fakeAnthropic},
		{"google", "key=" + fakeGoogle + "&q=1", "google-api-key", fakeGoogle},
		{"slack", "SLACK_BOT_TOKEN: " + fakeSlack, "slack-token", fakeSlack},
		{"slack webhook", "post to https://hooks.slack.com/services/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", "slack-webhook", "https://hooks.slack.com/services/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"},
		{"stripe", "Stripe.api_key = '" + fakeStripe + "'", "stripe-key", fakeStripe},
		{"gitlab", "CI uses " + fakeGitLab, "gitlab-token", fakeGitLab},
		{"jwt", "cookie: session=" + fakeJWT, "jwt", fakeJWT},
		{"pem", "key:\n" + fakePEM + "\nend", "private-key", fakePEM},
		{"password env", "DB_PASSWORD=s3cr3t-Pa55", "password", "s3cr3t-Pa55"},
		{"password env no digits", "POSTGRES_PASSWORD=supersecret", "password", "supersecret"},
		{"changeme env", "export ADMIN_PASS=changeme", "password", "changeme"},
		{"bare pass assignment", "pass = 'Qw3rty!9'", "password", "Qw3rty!9"},
		{"password yaml", "  password: hunter2", "password", "hunter2"},
		{"password quoted", `db.connect(user="app", password="correct-horse")`, "password", "correct-horse"},
		{"password json", `{"password": "Tr0ub4dor&3"}`, "password", "Tr0ub4dor&3"},
		{"password compare", `if pw == "letmein1" {`, "password", "letmein1"},
		{"api key js", `const apiKey = "a1b2c3d4e5f6";`, "api-key", "a1b2c3d4e5f6"},
		{"client secret", `client_secret: 'f00dBabe-9c2e'`, "secret", "f00dBabe-9c2e"},
		{"token go", `token := "tok_8Hq2Lm9Xv"`, "token", "tok_8Hq2Lm9Xv"},
		{"access key env", "export MY_SERVICE_ACCESS_KEY=Zq8xL2vK9mN4", "api-key", "Zq8xL2vK9mN4"},
		{"private key assignment", `private_key = "MHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5oJJtm0Lo"`, "secret", "MHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5oJJtm0Lo"},
		{"cli flag", "gh auth login --token Qx8vL2mZ9kN4 && deploy", "cli-secret", "Qx8vL2mZ9kN4"},
		{"cli flag quoted", `psql --password="Zz9!kq2Lm" -h db`, "cli-secret", "Zz9!kq2Lm"},
		{"dotnet connection string", "Server=db;User Id=app;Password=Xy7!pq2w;", "password", "Xy7!pq2w"},
		{"url password", "DATABASE_URL=postgres://app:Kx9mQ2vL@db.internal:5432/app", "url-password", "Kx9mQ2vL"},
		{"url pass", "postgres://user:pa55@host/db", "url-password", "pa55"},
		{"authorization", "Authorization: Bearer abc123def456ghi789", "authorization", "abc123def456ghi789"},
		{"authorization basic", `-H "Authorization: Basic dXNlcjpwYXNzd29yZA=="`, "authorization", "dXNlcjpwYXNzd29yZA=="},
		{"bearer", "curl -H 'X: bearer Zk8Lq2Vm9Xc4Nb7Rt3Hw6J' https://x", "bearer-token", "Zk8Lq2Vm9Xc4Nb7Rt3Hw6J"},
		{"entropy key", `MAPBOX_KEY = "q8Zk2Lx9Vm4Nc7Rt3Hb6Jw1"`, "secret", "q8Zk2Lx9Vm4Nc7Rt3Hb6Jw1"},
		{"npm", "//registry.npmjs.org/:_authToken=npm_Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op7Qr9St1Uv3Wx5", "npm-token", "npm_Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op7Qr9St1Uv3Wx5"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, rs := Redact(tc.text)
			if len(rs) != 1 {
				t.Fatalf("Redact(%q) made %d redactions %v, want 1", tc.text, len(rs), rs)
			}
			r := rs[0]
			if r.Kind != tc.kind {
				t.Errorf("kind=%s, want %s", r.Kind, tc.kind)
			}
			if s := tc.text[r.Start:r.End]; s != tc.secret {
				t.Errorf("span covers %q, want %q", s, tc.secret)
			}
			if strings.Contains(got, tc.secret) {
				t.Errorf("output %q still holds the secret", got)
			}
			want := tc.text[:r.Start] + Placeholder(tc.kind) + tc.text[r.End:]
			if got != want {
				t.Errorf("got=%q, want %q", got, want)
			}
		})
	}
}

func TestRedact_Keeps(t *testing.T) {
	tests := []struct{ name, text string }{
		{"env ref yaml", "token: ${ANKRA_API_TOKEN}"},
		{"angle placeholder", "Supply an API token via --token <your-token>"},
		{"your placeholder", "SECRET=your_client_secret_here"},
		{"process env", "const secret = process.env.BEE_CLIENT_SECRET;"},
		{"identifier", "secret: BEE_CLIENT_SECRET,"},
		{"await", "const token = await getToken();"},
		{"graphql type", "login(email: String!, password: String!): AuthPayload"},
		{"graphql var", "login(email: $email, password: $password)"},
		{"same word", "Token: token"},
		{"masked", "password: xxxxxxxx"},
		{"stars", `"apiKey": "********"`},
		{"github actions", "GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}"},
		{"getenv", `password = os.getenv("DB_PASSWORD")`},
		{"fetch credentials", `fetch(url, { credentials: 'include' })`},
		{"max tokens", "max_tokens=100000"},
		{"template bearer", "headers: { Authorization: `Bearer ${token}` }"},
		{"bearer word", "Authorization: Bearer token"},
		{"prose", "Never store passwords in plain text; hash them with bcrypt."},
		{"password field", `<input type="password" name="password" autocomplete="current-password">`},
		{"sk words", "Use a task-based queue; risk-appropriate limits; sk-SQLAlchemy"},
		{"aws example", "AKIAIOSFODNN7EXAMPLE is the documented sample key id"},
		{"pem mention", "Files that start with -----BEGIN PRIVATE KEY----- must never be committed."},
		{"url no password", "https://user@example.com/path and http://localhost:8080/x"},
		{"pwd shell", "docker run -v $(pwd):/app image; PWD=/home/me"},
		{"key react", `<li key="item-1">`},
		{"primary key", `primaryKey: "id"`},
		{"token count", "tokens: 4096"},
		{"placeholder ghp", "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"},
		{"already redacted", "password: [REDACTED:password] and " + Placeholder("github-token")},
		{"cli flag var", "docker login --password $REGISTRY_PASSWORD --username ci"},
		{"cli flag next", "run --token --verbose"},
		{"password stdin", "echo $PW | docker login --password-stdin"},
		{"struct literal word", `{Token: "hello", Score: -1.0}`},
		{"index expression", "newTokens := e.Tokens[0:maxLen]"},
		{"pointer", "model.UnkToken = &unkToken"},
		{"call", "key = ed25519.NewKeyFromSeed(seed2024)"},
		{"args index", "openAIAPIKey := args[0].String()"},
		{"pass struct", "pass := &analysis.Pass{Analyzer: a}"},
		{"type alias", "type Fts5Token = TFts5Token"},
		{"product", "tokens = 2*maxCompilerConcurrency + 1"},
		{"go test output", "--- PASS: TestGoList/GOPATH (0.21s)\n--- PASS: TestParse/unicode (0.00s)"},
		{"password file path", `X_PATH_MASTERPASSWD = "/etc/master.passwd"`},
		{"name as value", `encodeUserPassword: "encodeUserPassword",`},
		{"password hash name", `password_hash = "$2b$12$abcdefghijklmnopqrstuv"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, rs := Redact(tc.text)
			if len(rs) != 0 || got != tc.text {
				t.Errorf("Redact(%q) = %q, %v; want unchanged", tc.text, got, rs)
			}
		})
	}
}

func TestRedact_LongBareValue(t *testing.T) {
	long := strings.Repeat("Ab3xY9", 120) // 720 bytes, beyond the pattern's 512
	got, rs := Redact("DB_PASSWORD=" + long + "\nnext")
	if want := "DB_PASSWORD=" + Placeholder("password") + "\nnext"; got != want || len(rs) != 1 {
		t.Errorf("got=%q (%v), want the whole value replaced", got, rs)
	}
}

func TestRedact_Idempotent(t *testing.T) {
	text := strings.Join([]string{
		"DB_PASSWORD=s3cr3t-Pa55", fakePEM, "token " + fakeGitHub, "postgres://u:Kx9mQ2vL@h/db",
		"Authorization: Bearer abc123def456ghi789", `{"apiKey": "a1b2c3d4e5f6"}`, fakeJWT,
	}, "\n")
	once, rs := Redact(text)
	if len(rs) != 7 {
		t.Errorf("first pass made %d redactions, want 7: %v", len(rs), rs)
	}
	twice, rs2 := Redact(once)
	if twice != once || len(rs2) != 0 {
		t.Errorf("second pass changed the text: %q -> %q (%v)", once, twice, rs2)
	}
}

func TestRedact_SeveralInOrder(t *testing.T) {
	text := "a=" + fakeGitHub + " b=" + fakeAWSID + " c=" + fakeSlack
	_, rs := Redact(text)
	if len(rs) != 3 {
		t.Fatalf("got %d redactions, want 3", len(rs))
	}
	for i := 1; i < len(rs); i++ {
		if rs[i].Start < rs[i-1].End {
			t.Errorf("redactions overlap or are out of order: %v", rs)
		}
	}
}
