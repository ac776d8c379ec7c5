package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/innate-mcp/innate-mcp/auth"
	"github.com/innate-mcp/innate-mcp/internal/pgtest"
	"github.com/innate-mcp/innate-mcp/kb"
)

func TestCLI_tokensOnPostgres(t *testing.T) {
	c := pgtest.Start(t)
	dsn := c.NewDatabase(t, "tokens_cli")
	env := testEnv(t)
	env["INNATE_DB"] = dsn
	out, err := run(t, env, "", "token", "create", "--name", "ci", "--project", "/srv/shop", "--scope", "read")
	if err != nil {
		t.Fatal(err)
	}
	secret := strings.TrimSpace(out)
	if !auth.LooksLikeToken(secret) {
		t.Fatalf("create printed %q, want the token alone", out)
	}
	// --db overrides INNATE_DB as for a file.
	list, err := run(t, map[string]string{"INNATE_LOG_LEVEL": "error", "HOME": t.TempDir()}, "", "--db", dsn, "token", "list")
	if err != nil {
		t.Fatal(err)
	}
	var ts []kb.Token
	if err := json.Unmarshal([]byte(list), &ts); err != nil || len(ts) != 1 || ts[0].Name != "ci" || ts[0].Scope != "read" || ts[0].Projects[0] != "/srv/shop" {
		t.Fatalf("list %s: %v", list, err)
	}
	// The token is in PostgreSQL, by its hash only.
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var hash string
	if err := conn.QueryRow(ctx, `SELECT hash FROM tokens WHERE name = 'ci'`).Scan(&hash); err != nil || hash != auth.Hash(secret) {
		t.Errorf("stored hash %q (%v), want the secret's", hash, err)
	}
	if out, err := run(t, env, "", "token", "revoke", "ci"); err != nil || !strings.Contains(out, "revoked ci") {
		t.Errorf("revoke: %q, %v", out, err)
	}
	if list, _ = run(t, env, "", "token", "list"); !strings.Contains(list, `"revoked_at"`) {
		t.Errorf("revoked token: %s", list)
	}
}

func TestCLI_postgresErrorsSayWhatToFix(t *testing.T) {
	env := testEnv(t)
	for _, tc := range []struct {
		dsn  string
		want []string
	}{
		{"postgres://u:sekret@127.0.0.1:1/kb", []string{"PostgreSQL server at 127.0.0.1:1", "check that the server runs"}},
		{"postgresql://u:sekret@db.example:notaport/kb", []string{"PostgreSQL", "postgres://USER:PASSWORD@HOST:5432/DATABASE"}},
	} {
		env["INNATE_DB"] = tc.dsn
		_, err := run(t, env, "", "token", "list")
		if err == nil {
			t.Fatalf("%s: opened", tc.dsn)
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %v, want it to say %q", tc.dsn, err, w)
			}
		}
		if strings.Contains(err.Error(), "sekret") {
			t.Errorf("the error shows the password: %v", err)
		}
	}
}

// TestCLI_pruneAndEvalOnPostgres: prune applies the retention to a
// PostgreSQL knowledge base; eval measures on an empty PostgreSQL database
// and refuses one that holds lessons.
func TestCLI_pruneAndEvalOnPostgres(t *testing.T) {
	c := pgtest.Start(t)
	env := testEnv(t)
	env["INNATE_DB"] = c.NewDatabase(t, "prune_eval")
	if _, err := run(t, env, "", "record", "--lesson", "Run go vet before every commit."); err != nil {
		t.Fatal(err)
	}
	out, err := run(t, env, "", "prune")
	if err != nil || !strings.Contains(out, "retain_traces") {
		t.Errorf("prune on PostgreSQL: %v\n%s", err, out)
	}
	dir := t.TempDir()
	corpus, queries := filepath.Join(dir, "corpus.jsonl"), filepath.Join(dir, "queries.jsonl")
	os.WriteFile(corpus, []byte(`{"id":"a","content":"Run go vet."}`+"\n"+`{"id":"b","content":"Close response bodies."}`+"\n"), 0o600)
	os.WriteFile(queries, []byte(`{"query":"go vet","relevant_ids":["a"]}`+"\n"), 0o600)
	if _, err := run(t, env, "", "eval", "retrieval", "--corpus", corpus, "--queries", queries, "--kb", env["INNATE_DB"]); !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "holds lessons") {
		t.Errorf("eval on a PostgreSQL database holding lessons: %v", err)
	}
	out, err = run(t, env, "", "eval", "retrieval", "--corpus", corpus, "--queries", queries, "--kb", c.NewDatabase(t, "eval_empty"))
	if err != nil || !strings.Contains(out, `"mrr_at_10": 1,`) {
		t.Errorf("eval on an empty PostgreSQL database: %v\n%s", err, out)
	}
}

func TestPgLocation_neverShowsThePassword(t *testing.T) {
	for dsn, want := range map[string]string{
		"postgres://alice:s3cret@db:5432/kb":                "postgres://alice:xxxxx@db:5432/kb",
		"postgresql://alice@db/kb?password=s3cret&x=1":      "postgresql://alice@db/kb?password=xxxxx&x=1",
		"postgres://alice:s3cret@db/kb?sslmode=verify-full": "postgres://alice:xxxxx@db/kb?sslmode=verify-full",
		"postgres://alice:s3cret@db:port/kb":                "postgres://(a URL that does not parse)",
	} {
		if got := pgLocation(dsn); got != want || strings.Contains(got, "s3cret") {
			t.Errorf("pgLocation(%q) = %q, want %q", dsn, got, want)
		}
	}
	for db, want := range map[string]bool{"postgres://h/db": true, "PostgreSQL://h/db": true, "/data/kb.db": false, "postgres.db": false, "mysql://h/db": false} {
		if isPostgres(db) != want {
			t.Errorf("isPostgres(%q) = %v", db, !want)
		}
	}
}

// TestServeHTTP_onPostgres serves MCP over HTTP from a PostgreSQL
// knowledge base: a token created by `token create` is accepted, a request
// without one refused.
func TestServeHTTP_onPostgres(t *testing.T) {
	c := pgtest.Start(t)
	dsn := c.NewDatabase(t, "serve_http")
	env := testEnv(t)
	env["INNATE_DB"] = dsn
	out, err := run(t, env, "", "token", "create", "--name", "claude")
	if err != nil {
		t.Fatal(err)
	}
	token := strings.TrimSpace(out)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		m := &Main{Getenv: func(k string) string { return env[k] }, Getwd: func() (string, error) { return t.TempDir(), nil }}
		var o, e bytes.Buffer
		done <- m.Run(ctx, []string{"serve", "--http", addr}, strings.NewReader(""), &o, &e)
	}()
	defer func() {
		cancel()
		<-done
	}()
	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case err := <-done:
			done <- err
			t.Fatalf("serve --http on PostgreSQL stopped: %v", err)
		default:
		}
		resp, err := http.Get("http://" + addr + "/healthz")
		if err == nil {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server did not answer /healthz: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`
	post := func(auth string) int {
		req, _ := http.NewRequest("POST", "http://"+addr+"/mcp", strings.NewReader(initialize))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if auth != "" {
			req.Header.Set("Authorization", "Bearer "+auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := post(""); code != http.StatusUnauthorized {
		t.Errorf("no token: %d, want 401", code)
	}
	if code := post(token); code != http.StatusOK {
		t.Errorf("the token: %d, want 200", code)
	}
}

// TestExport_importsIntoTheOtherStoreUnchanged: an export of either store
// imports into the other and exports from it byte for byte the same. (An
// import derives the directive of a lesson that has none, as the knowledge
// base does on its next search after a record; so the exports compared
// are of stores whose lessons all have theirs: a SQLite export imported
// once into PostgreSQL, then PostgreSQL → SQLite → PostgreSQL.)
func TestExport_importsIntoTheOtherStoreUnchanged(t *testing.T) {
	c := pgtest.Start(t)
	dir := t.TempDir()
	sqlite := testEnv(t)
	rules := filepath.Join(dir, "CLAUDE.md")
	os.WriteFile(rules, []byte("# Shop\n\n- Use pnpm, not npm or yarn.\n- Never push directly to main.\n"), 0o600)
	for _, args := range [][]string{
		{"record", "--lesson", "Run go vet before every commit.", "--trigger", "committing Go code", "--origin", "user_stated", "--tag", "go"},
		{"record", "--lesson", "Close HTTP response bodies.", "--project", "/srv/shop"},
		{"import", "--project", "/srv/shop", rules},
	} {
		if _, err := run(t, sqlite, "", args...); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
	}
	n := 0
	// move exports env's store and imports it into a fresh store of the
	// other kind, whose environment it returns with the export.
	move := func(env map[string]string, toPostgres bool) (map[string]string, string) {
		t.Helper()
		out, err := run(t, env, "", "export")
		if err != nil || strings.Count(out, "\n") != 4 {
			t.Fatalf("export: %v\n%s", err, out)
		}
		n++
		file := filepath.Join(dir, fmt.Sprintf("export-%d.jsonl", n))
		os.WriteFile(file, []byte(out), 0o600)
		next := testEnv(t)
		if toPostgres {
			next["INNATE_DB"] = c.NewDatabase(t, fmt.Sprintf("export_%d", n))
		}
		if _, err := run(t, next, "", "import", file); err != nil {
			t.Fatal(err)
		}
		return next, out
	}
	pg1, _ := move(sqlite, true)
	sqlite2, fromPG := move(pg1, false)
	pg2, fromSQLite := move(sqlite2, true)
	_, fromPG2 := move(pg2, false)
	sameExport(t, "PostgreSQL → SQLite", fromPG, fromSQLite)
	sameExport(t, "SQLite → PostgreSQL", fromSQLite, fromPG2)
}

// sameExport fails t at the first line where two exports differ.
func sameExport(t *testing.T, what, want, got string) {
	t.Helper()
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(w), len(g)) {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			t.Errorf("%s changed the export at line %d:\nbefore: %s\nafter:  %s", what, i+1, a, b)
			return
		}
	}
}
