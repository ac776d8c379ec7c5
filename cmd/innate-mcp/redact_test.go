package main

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	_ "modernc.org/sqlite"

	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/sanitize"
)

// secretCase is one kind of secret sanitize.Redact recognises: a text that
// carries it, and the secret itself, which must reach no table, export, log
// or embedder.
type secretCase struct {
	kind, text, secret string
}

// secretCases has one case per kind in sanitize/redact_rules.go, with fake
// secrets of the real shapes. None is a live credential.
var secretCases = []secretCase{
	{"private-key", "the deploy key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\nVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK\n-----END RSA PRIVATE KEY-----\n", "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun"},
	{"aws-access-key-id", "the AWS key id is AKIAQ7ZL3RK9TXW2MB5N for staging", "AKIAQ7ZL3RK9TXW2MB5N"},
	{"aws-secret-key", "aws_secret_access_key = wJ8rXuTn3Fe/K7MDpENG2bPxRfiCYz9KLQ4vHs1m", "wJ8rXuTn3Fe/K7MDpENG2bPxRfiCYz9KLQ4vHs1m"},
	{"github-token", "thanks, the token is ghp_R7kD2mQ9vX4tL8nB3cF6hJ1pW5sZ0yA2uE9g", "ghp_R7kD2mQ9vX4tL8nB3cF6hJ1pW5sZ0yA2uE9g"},
	{"gitlab-token", "CI pushes with glpat-Rk8Vq2Xm9Zb4Nt7Lc3Hw now", "glpat-Rk8Vq2Xm9Zb4Nt7Lc3Hw"},
	{"slack-token", "SLACK_BOT_TOKEN: xoxb-2048163957-4096327815-Kq7Vm2Xz9Nb4Lr8Tc3Hw6Jp1", "xoxb-2048163957-4096327815-Kq7Vm2Xz9Nb4Lr8Tc3Hw6Jp1"},
	{"slack-webhook", "post alerts to https://hooks.slack.com/services/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 please", "B0456EFGH/Xk9Vm2Lq7Rt4Wz8Nc3Hb6Jp1"},
	{"stripe-key", "Stripe.api_key = 'sk_live_51HqT8mK2vX9zR4nL7pB3cW6fJ1dY5sQ0'", "sk_live_51HqT8mK2vX9zR4nL7pB3cW6fJ1dY5sQ0"},
	{"anthropic-api-key", "use sk-ant-api03-Zx9Cv8Bn7Mq6Wf5Er4Ty3Ui2Op1As0Dk9Lj8Hg7Fq6 for the eval", "sk-ant-api03-Zx9Cv8Bn7Mq6Wf5Er4Ty3Ui2Op1As0Dk9Lj8Hg7Fq6"},
	{"openai-api-key", "OPENAI_API_KEY=sk-proj-Tq8Vb3Nz5Lw2Xc7Rk9Mh4Jp6Ys1Dg0Fa3Qe8Wr5Ut2Io7Pl", "sk-proj-Tq8Vb3Nz5Lw2Xc7Rk9Mh4Jp6Ys1Dg0Fa3Qe8Wr5Ut2Io7Pl"},
	{"google-api-key", "maps load with key=AIzaSyB3kQ9mX7vR2tN5pL8wC4hJ6fD1sZ0gY3e&q=1", "AIzaSyB3kQ9mX7vR2tN5pL8wC4hJ6fD1sZ0gY3e"},
	{"npm-token", "//registry.npmjs.org/:_authToken=npm_Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op7Qr9St1Uv3Wx5", "npm_Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op7Qr9St1Uv3Wx5"},
	{"pypi-token", "twine upload with pypi-AgEIcHlwaS5vcmcCJDk3ZmM2YTFlLTRiNWQtNDFmZS1iMjE3LTg5ZDEwYmE2ZjJhNwACKlszLCJmNTQ1ZDY1YiJd", "pypi-AgEIcHlwaS5vcmcCJDk3ZmM2YTFlLTRiNWQtNDFmZS1iMjE3LTg5ZDEwYmE2ZjJhNwACKlszLCJmNTQ1ZDY1YiJd"},
	{"huggingface-token", "huggingface-cli login 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", "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"},
	{"sendgrid-key", "SENDGRID=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", "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"},
	{"digitalocean-token", "doctl auth init -t dop_v1_4f9a2c7e1b8d3f6a0c5e9b2d7f1a4c8e3b6d0f5a9c2e7b1d4f8a3c6e0b5d9f2a", "dop_v1_4f9a2c7e1b8d3f6a0c5e9b2d7f1a4c8e3b6d0f5a9c2e7b1d4f8a3c6e0b5d9f2a"},
	{"jwt", "cookie: session=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c", "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"},
	{"url-password", "DATABASE_URL=postgres://app:Kx9mQ2vL7zR4@db.internal:5432/app", "Kx9mQ2vL7zR4"},
	{"authorization", `curl -H "Authorization: Basic dXNlcjpwYXNzd29yZDEyMzQ1Ng==" https://api.internal`, "dXNlcjpwYXNzd29yZDEyMzQ1Ng=="},
	{"bearer-token", "curl -H 'X-Auth: bearer Zk8Lq2Vm9Xc4Nb7Rt3Hw6J' https://x", "Zk8Lq2Vm9Xc4Nb7Rt3Hw6J"},
	{"cli-secret", "gh auth login --token Qx8vL2mZ9kN4 && deploy", "Qx8vL2mZ9kN4"},
	{"password", "the config has password=Tr0ub4dor&3x in it", "Tr0ub4dor&3x"},
	{"api-key", `const apiKey = "a1b2c3d4e5f6g7h8";`, "a1b2c3d4e5f6g7h8"},
	{"token", `token := "tok_8Hq2Lm9Xv3Zp"`, "tok_8Hq2Lm9Xv3Zp"},
	{"secret", `client_secret: 'f00dBabe-9c2e-77aa'`, "f00dBabe-9c2e-77aa"},
	{"secret", `MAPBOX_KEY = "q8Zk2Lx9Vm4Nc7Rt3Hb6Jw1"`, "q8Zk2Lx9Vm4Nc7Rt3Hb6Jw1"},
}

// bare returns the secret alone when Redact recognises it alone (a token
// that names itself), else the text that gives it its context: a bare
// password is a word like any other.
func (c secretCase) bare() string {
	if red, _ := sanitize.Redact(c.secret); red != c.secret {
		return c.secret
	}
	return c.text
}

// leakWindow is the length of the pieces of a secret searched for: a stored
// piece this long (in any case) is a leak, not only the whole secret.
const leakWindow = 12

// leaks returns a description of every piece of a secret that data holds,
// compared case-insensitively (the full-text index lower-cases its terms).
func leaks(data string) []string {
	lower := asciiLower(data)
	var out []string
	for _, c := range secretCases {
		s := asciiLower(c.secret)
		n := min(leakWindow, len(s))
		for i := 0; i+n <= len(s); i++ {
			if j := strings.Index(lower, s[i:i+n]); j >= 0 {
				out = append(out, fmt.Sprintf("%s %q in …%q…", c.kind, c.secret[i:i+n], data[max(0, j-40):min(len(data), j+n+40)]))
				break
			}
		}
	}
	return out
}

// asciiLower lower-cases ASCII letters only, so that offsets stay those of
// s.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// fakeEmbedder is an OpenAI-compatible /v1/embeddings endpoint that keeps
// every text it receives and embeds it as hashed words, so that texts
// sharing words are similar.
type fakeEmbedder struct {
	mu    sync.Mutex
	texts []string
}

func (f *fakeEmbedder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Input json.RawMessage `json:"input"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var inputs []string
	var one string
	if json.Unmarshal(req.Input, &one) == nil {
		inputs = []string{one}
	} else if err := json.Unmarshal(req.Input, &inputs); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.texts = append(f.texts, inputs...)
	f.mu.Unlock()
	var data []any
	for i, text := range inputs {
		data = append(data, map[string]any{"index": i, "embedding": wordVector(text)})
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"data": data})
}

// wordVector embeds a text as its lower-cased words hashed into 64
// dimensions, with a constant component so no vector is zero.
func wordVector(text string) []float32 {
	v := make([]float32, 64)
	v[0] = 1
	for _, w := range strings.Fields(strings.ToLower(text)) {
		h := fnv.New32a()
		io.WriteString(h, w)
		v[1+h.Sum32()%63]++
	}
	var n float64
	for _, x := range v {
		n += float64(x * x)
	}
	for i := range v {
		v[i] /= float32(math.Sqrt(n))
	}
	return v
}

// dumpDatabase returns every value of every row of every table of the
// database at path, as text.
func dumpDatabase(t *testing.T, path string) string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, name)
	}
	rows.Close()
	if len(tables) < 20 {
		t.Fatalf("only %d tables: %v", len(tables), tables)
	}
	var b strings.Builder
	for _, table := range tables {
		rows, err := db.Query(`SELECT * FROM "` + table + `"`)
		if err != nil {
			t.Fatalf("read %s: %v", table, err)
		}
		cols, _ := rows.Columns()
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatalf("read %s: %v", table, err)
			}
			fmt.Fprintf(&b, "%s:", table)
			for _, v := range vals {
				switch v := v.(type) {
				case []byte:
					b.Write(v)
				default:
					fmt.Fprint(&b, v)
				}
				b.WriteByte('\t')
			}
			b.WriteByte('\n')
		}
		if err := rows.Err(); err != nil {
			t.Fatalf("read %s: %v", table, err)
		}
		rows.Close()
	}
	return b.String()
}

// TestSecrets_neverReachTheDatabaseExportLogsOrEmbedder runs every tool and
// the import, export and lessons commands with each kind of secret in
// every free-text field, with debug logs to a file and a remote embedder,
// then reads every row of every table, the database files, the export, the
// log file and what the embedder received: no piece of any secret may be
// there.
func TestSecrets_neverReachTheDatabaseExportLogsOrEmbedder(t *testing.T) {
	for _, c := range secretCases {
		if red, _ := sanitize.Redact(c.text); strings.Contains(red, c.secret) || !strings.Contains(red, sanitize.Placeholder(c.kind)) {
			t.Fatalf("test case %s: Redact(%q) = %q: the case does not exercise its rule", c.kind, c.text, red)
		}
	}
	emb := &fakeEmbedder{}
	srv := httptest.NewServer(emb)
	defer srv.Close()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "kb.db")
	logPath := filepath.Join(dir, "innate.log")
	env := map[string]string{"INNATE_DB": dbPath, "INNATE_LOG_LEVEL": "debug", "INNATE_LOG_FILE": logPath, "HOME": dir,
		"INNATE_EMBEDDER": "openai", "INNATE_EMBED_URL": srv.URL + "/v1", "INNATE_EMBED_MODEL": "fake-words", "INNATE_PROJECT": "/src/app"}
	call := func(stdin string, args ...string) string {
		t.Helper()
		out, err := run(t, env, stdin, args...)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return out
	}
	js := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}

	for i, c := range secretCases {
		text := c.text
		// record: a lesson, a message that is not a correction, and one
		// that is.
		var rec kb.RecordResult
		out := call(js(map[string]any{"lesson": map[string]any{"content": fmt.Sprintf("Case %d: never paste credentials into chat, such as %s", i, text),
			"trigger": "configuring deploys with " + text, "anti_trigger": "when " + text + " is a test fixture",
			"tags": []string{"secrets", c.bare()}, "origin": "user_stated"}}), "record")
		if err := json.Unmarshal([]byte(out), &rec); err != nil || rec.LessonID == "" {
			t.Fatalf("record lesson: %s (%v)", out, err)
		}
		lessonID := rec.LessonID
		call(js(map[string]any{"message": "thanks, " + text}), "record")
		call(js(map[string]any{"message": "No, that's wrong, I told you not to commit " + text}), "record")
		call(js(map[string]any{"correction": map[string]any{"text": "That's wrong: you printed " + text,
			"keywords": []string{"printed", text}, "draft": "Here it is: " + text}}), "record")

		// recall, then feedback with a reason on what it returned.
		var rc kb.RecallResult
		out = call(js(map[string]any{"query": "never paste credentials into chat, such as " + text, "error": "401 Unauthorized with " + text,
			"files": []string{"deploy/" + c.bare() + ".env"}, "stage": "debug"}), "recall")
		if err := json.Unmarshal([]byte(out), &rc); err != nil || rc.Empty {
			t.Fatalf("recall: %s (%v)", out, err)
		}
		call(js(map[string]any{"trace_id": rc.TraceID, "outcome": "failure", "used": []string{rc.Lessons[0].ID},
			"feedback": []map[string]any{{"lesson_id": rc.Lessons[0].ID, "signal": "down", "reason": "it leaked " + text}}}), "record")

		// appraise with the secret in every field, then its outcome.
		var ap struct {
			TraceID string `json:"trace_id"`
		}
		out = call(js(map[string]any{"query": "should I paste credentials such as " + text, "error": text,
			"candidate": "Yes, paste " + text + " into the chat.", "message": "can I just send you " + text + "?",
			"files": []string{c.bare()}, "session": "s-redact"}), "appraise")
		if err := json.Unmarshal([]byte(out), &ap); err != nil || ap.TraceID == "" {
			t.Fatalf("appraise: %s (%v)", out, err)
		}
		call(js(map[string]any{"trace_id": ap.TraceID, "outcome": "success", "verdict_heeded": false, "misroute": "missed_clarify"}), "record")

		// hesitate with the secret in the draft and the situation, then a
		// review.
		var h kb.HesitateResult
		out = call(js(map[string]any{"draft": "Deployed with " + text + " and it definitely works; all 42 tests pass on v1.2.3.",
			"actions": []string{"commit", "reply"}, "query": "deploy using " + text, "tool_outputs": []string{"$ env\n" + text},
			"sources": []string{"https://wiki/" + c.bare()}, "files": []string{"/etc/" + c.bare()}}), "hesitate", "--json")
		if err := json.Unmarshal([]byte(out), &h); err != nil || h.TraceID == "" {
			t.Fatalf("hesitate: %s (%v)", out, err)
		}
		call(js(map[string]any{"trace_id": h.TraceID, "review": "confirmed"}), "record")
		// Nothing backs this draft: the secret counts among its unsupported
		// specifics, which quote it without its name.
		call("Pushed with "+text+", it definitely works.", "hesitate", "--action", "push")

		// The lessons command keeps a reason in the history.
		call("", "lessons", "reject", lessonID, "--reason", "it holds "+text)
	}

	// Import a JSONL lesson and a rule file with every secret.
	var jsonl, rules strings.Builder
	for i, c := range secretCases {
		fmt.Fprintf(&jsonl, "%s\n", js(map[string]any{"content": fmt.Sprintf("Imported %d: rotate %s", i, c.text), "tags": []string{c.bare()}, "source": c.text}))
		fmt.Fprintf(&rules, "- Rule %d: rotate %s\n", i, strings.ReplaceAll(c.text, "\n", " "))
	}
	jsonlPath := filepath.Join(dir, "lessons.jsonl")
	rulesPath := filepath.Join(dir, "CLAUDE.md")
	if err := os.WriteFile(jsonlPath, []byte(jsonl.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(rulesPath, []byte(rules.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	out := call("", "import", "-v", jsonlPath, rulesPath)
	var rep struct {
		Added    int `json:"added"`
		Redacted int `json:"redacted_secrets"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.Added < len(secretCases) {
		t.Fatalf("import: %s (%v)", out, err)
	}
	export := call("", "export")

	var found []string
	for _, l := range leaks(dumpDatabase(t, dbPath)) {
		found = append(found, "database table: "+l)
	}
	for _, f := range []string{dbPath, dbPath + "-wal"} {
		b, err := os.ReadFile(f)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		for _, l := range leaks(string(b)) {
			found = append(found, filepath.Base(f)+" bytes: "+l)
		}
	}
	for _, l := range leaks(export) {
		found = append(found, "export: "+l)
	}
	logs, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(logs), "level=DEBUG") {
		t.Fatalf("the log file has no debug line:\n%s", logs)
	}
	for _, l := range leaks(string(logs)) {
		found = append(found, "log file: "+l)
	}
	emb.mu.Lock()
	sent := strings.Join(emb.texts, "\n")
	emb.mu.Unlock()
	if sent == "" {
		t.Fatal("the remote embedder received nothing")
	}
	for _, l := range leaks(sent) {
		found = append(found, "remote embedder: "+l)
	}
	for _, f := range found {
		t.Error(f)
	}
	if !strings.Contains(export, sanitize.Placeholder("github-token")) {
		t.Errorf("the export holds no placeholder: %.300s", export)
	}
}

// TestLogger_redactsSecrets: whatever a component logs (an error that
// quotes input, a message the MCP library passes on), the program's logger
// writes it redacted.
func TestLogger_redactsSecrets(t *testing.T) {
	logPath := filepath.Join(t.TempDir(), "innate.log")
	env := map[string]string{"INNATE_LOG_FILE": logPath, "INNATE_LOG_LEVEL": "debug"}
	m := &Main{Getenv: func(k string) string { return env[k] }}
	log, closeLog, err := m.logger(&globals{}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range secretCases {
		log.Error("tool failed", "tool", "record", "err", fmt.Errorf("write trace: %s", c.text))
		log.Debug("mcp: "+c.text, "args", map[string]any{"message": c.text})
	}
	closeLog()
	b, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); n != 2*len(secretCases) {
		t.Fatalf("%d log lines, want %d", n, 2*len(secretCases))
	}
	for _, l := range leaks(string(b)) {
		t.Errorf("log file: %s", l)
	}
}
