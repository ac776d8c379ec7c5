package main

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/innate-mcp/innate-mcp/internal/pgtest"
	"github.com/innate-mcp/innate-mcp/storage"
)

// fillKB fills the SQLite knowledge base of env through the CLI with every
// kind of row: lessons (with vectors, term statistics, history), traces of
// recall, appraise and hesitate with their logs, outcomes and feedback
// (evidence), a correction (and the error pattern it teaches), tokens.
func fillKB(t *testing.T, env map[string]string) {
	t.Helper()
	must := func(stdin string, args ...string) string {
		t.Helper()
		out, err := run(t, env, stdin, args...)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return out
	}
	must("", "record", "--lesson", "Run go vet before every commit.", "--trigger", "committing Go code", "--origin", "user_stated", "--tag", "go")
	must("", "record", "--lesson", "Never force-push to the release branch.", "--trigger", "pushing to release", "--kind", "caution", "--origin", "user_stated")
	must("", "record", "--lesson", "Pin the PostgreSQL major version in CI images.", "--trigger", "editing CI configuration")
	var rec struct {
		TraceID string `json:"trace_id"`
		Lessons []struct {
			ID string `json:"id"`
		} `json:"lessons"`
	}
	if err := json.Unmarshal([]byte(must("", "recall", "--query", "about to commit my Go changes")), &rec); err != nil || len(rec.Lessons) == 0 {
		t.Fatalf("recall: %+v, %v", rec, err)
	}
	must("", "record", "--trace", rec.TraceID, "--outcome", "success", "--used", rec.Lessons[0].ID, "--up", rec.Lessons[0].ID)
	var ap struct {
		TraceID string `json:"trace_id"`
	}
	if err := json.Unmarshal([]byte(must("", "appraise", "--query", "force-push the release branch to fix history")), &ap); err != nil || ap.TraceID == "" {
		t.Fatalf("appraise: %+v, %v", ap, err)
	}
	must("", "record", "--trace", ap.TraceID, "--outcome", "failure", "--verdict-heeded", "true")
	must("All tests pass and it works now. Deploying to production.", "hesitate", "--action", "deploy")
	must("", "record", "--correction", "That's wrong: never force-push to the release branch.")
	must("", "token", "create", "--name", "ci", "--scope", "read", "--project", "/srv/shop")
	must("", "token", "create", "--name", "alice")
	must("", "token", "revoke", "alice")
}

// norm is a value as both stores must hold it: SQLite's 0 and 1 are
// PostgreSQL's booleans, bytes compare as hex.
func norm(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case bool:
		if x {
			return "1"
		}
		return "0"
	case int64:
		return strconv.FormatInt(x, 10)
	case int32:
		return strconv.FormatInt(int64(x), 10)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case []byte:
		return "x" + hex.EncodeToString(x)
	case string:
		return strconv.Quote(x)
	}
	return fmt.Sprintf("%T(%v)", v, v)
}

// sqliteRows returns every table's rows of a SQLite knowledge base, each
// row normalised (norm) and the rows sorted, and the columns read.
func sqliteRows(t *testing.T, path string) (map[string][]string, map[string][]string) {
	t.Helper()
	ctx := context.Background()
	db, err := storage.Open(ctx, path, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	d, err := db.Dump(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	tables, _ := d.Tables(ctx)
	rows, cols := map[string][]string{}, map[string][]string{}
	for _, tb := range tables {
		cs, err := d.Columns(ctx, tb)
		if err != nil {
			t.Fatal(err)
		}
		cols[tb] = cs
		rows[tb] = []string{}
		for row, err := range d.Rows(ctx, tb, cs) {
			if err != nil {
				t.Fatal(err)
			}
			parts := make([]string, len(row))
			for i, v := range row {
				parts[i] = norm(v)
			}
			rows[tb] = append(rows[tb], strings.Join(parts, "|"))
		}
		slices.Sort(rows[tb])
	}
	return rows, cols
}

// pgRows returns the rows of table's cols in PostgreSQL, normalised and
// sorted as sqliteRows does.
func pgRows(t *testing.T, conn *pgx.Conn, table string, cols []string) []string {
	t.Helper()
	qs := make([]string, len(cols))
	for i, c := range cols {
		qs[i] = pgx.Identifier{c}.Sanitize()
	}
	rs, err := conn.Query(context.Background(), `SELECT `+strings.Join(qs, ", ")+` FROM `+pgx.Identifier{table}.Sanitize())
	if err != nil {
		t.Fatalf("%s: %v", table, err)
	}
	out := []string{}
	for rs.Next() {
		vals, err := rs.Values()
		if err != nil {
			t.Fatal(err)
		}
		parts := make([]string, len(vals))
		for i, v := range vals {
			parts[i] = norm(v)
		}
		out = append(out, strings.Join(parts, "|"))
	}
	if err := rs.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

func TestMigrate_copiesEveryTableIntoPostgres(t *testing.T) {
	c := pgtest.Start(t)
	dsn := c.NewDatabase(t, "migrate_to")
	env := testEnv(t)
	fillKB(t, env)
	want, cols := sqliteRows(t, env["INNATE_DB"])
	for _, tb := range []string{"lessons", "lesson_vectors", "lesson_terms", "term_df", "traces", "trace_lessons", "evidence",
		"verdict_log", "routing_log", "hesitation_log", "corrections", "tokens", "confidence_history", "meta"} {
		if len(want[tb]) == 0 {
			t.Fatalf("the filled knowledge base has no %s rows: the test copies nothing there", tb)
		}
	}
	for tb := range want {
		if strings.HasPrefix(tb, "lessons_fts") {
			t.Errorf("the dump holds the full-text index's table %s", tb)
		}
	}

	out, err := run(t, env, "", "migrate", "--from", env["INNATE_DB"], "--to", dsn)
	if err != nil {
		t.Fatalf("migrate: %v\n%s", err, out)
	}
	t.Log(out)
	if !strings.Contains(out, "every table verified") || !strings.Contains(out, "lessons") || strings.Contains(out, "DIFFERS") {
		t.Errorf("migrate's report:\n%s", out)
	}

	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for tb, rows := range want {
		if got := pgRows(t, conn, tb, cols[tb]); !slices.Equal(got, rows) {
			t.Errorf("%s differs:\nsqlite     %q\npostgresql %q", tb, rows, got)
		}
	}
	// The postings are the term statistics: each term's postings are as
	// many as its document frequency, and every lesson's terms are there.
	var off, postings int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM term_df d WHERE d.df <> (SELECT count(*) FROM term_postings p WHERE p.term = d.term)`).Scan(&off); err != nil || off != 0 {
		t.Errorf("%d terms whose postings differ from their document frequency (%v)", off, err)
	}
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM term_postings WHERE term = 'vet' AND tf > 0`).Scan(&postings); err != nil || postings != 1 {
		t.Errorf("postings of 'vet': %d (%v), want 1", postings, err)
	}
	// Every identity continues past the copied keys.
	var behind []string
	for _, ic := range [][2]string{{"lessons", "seq"}, {"corrections", "id"}, {"verdict_log", "seq"}, {"routing_log", "seq"},
		{"routing_weights", "id"}, {"confidence_history", "id"}, {"regulator_log", "id"}, {"tokens", "seq"}} {
		var next, max int64
		q := fmt.Sprintf(`SELECT nextval(pg_get_serial_sequence('%s', '%s')), COALESCE((SELECT max(%s) FROM %s), 0)`, ic[0], ic[1], ic[1], ic[0])
		if err := conn.QueryRow(ctx, q).Scan(&next, &max); err != nil {
			t.Fatal(err)
		}
		if next <= max {
			behind = append(behind, fmt.Sprintf("%s.%s next %d, max %d", ic[0], ic[1], next, max))
		}
	}
	if len(behind) > 0 {
		t.Errorf("sequences behind the copied keys: %v", behind)
	}

	// A second copy into the same database is refused, and changes nothing.
	out, err = run(t, env, "", "migrate", "--from", env["INNATE_DB"], "--to", dsn)
	if err == nil || !strings.Contains(err.Error(), "not empty") || !strings.Contains(err.Error(), "lessons") {
		t.Errorf("second migrate: %v\n%s", err, out)
	}
	if got := pgRows(t, conn, "lessons", cols["lessons"]); !slices.Equal(got, want["lessons"]) {
		t.Error("the refused migrate changed the lessons")
	}
	// The password never shows.
	if strings.Contains(out, "secret") || (err != nil && strings.Contains(err.Error(), "secret")) {
		t.Errorf("the password shows: %v\n%s", err, out)
	}
}

func TestMigrate_refusesBadArguments(t *testing.T) {
	env := testEnv(t)
	for _, args := range [][]string{
		{"migrate"},
		{"migrate", "--to", "/tmp/x.db"},
		{"migrate", "--from", "postgres://h/db", "--to", "postgres://h/db2"},
	} {
		if _, err := run(t, env, "", args...); err == nil || !strings.Contains(err.Error(), "usage") {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
	_, err := run(t, env, "", "migrate", "--from", filepath.Join(t.TempDir(), "none.db"), "--to", "postgres://u@127.0.0.1:1/db")
	if err == nil || !strings.Contains(err.Error(), "no SQLite knowledge base") {
		t.Errorf("missing source: %v", err)
	}
}
