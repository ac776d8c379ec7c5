package storage

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/internal/bm25"
	"github.com/innate-mcp/innate-mcp/internal/vecindex"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/terms"
)

func openTest(t testing.TB) *DB {
	t.Helper()
	db, err := Open(context.Background(), filepath.Join(t.TempDir(), "t.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func vec(seed int) []float32 {
	v := make([]float32, 8)
	v[seed%8] = 1
	return v
}

func insert(t testing.TB, db *DB, nls ...kb.NewLesson) []kb.Lesson {
	t.Helper()
	var out []kb.Lesson
	err := db.Update(context.Background(), func(tx kb.Tx) error {
		for i, nl := range nls {
			if nl.Origin == "" {
				nl.Origin = kb.OriginImported
			}
			if nl.State == "" {
				nl.State = kb.StateActive
			}
			if nl.Kind == "" {
				nl.Kind = kb.KindRule
			}
			if nl.Confidence == 0 {
				nl.Confidence = 0.5
			}
			if nl.ContentVec == nil {
				nl.ContentVec = vec(i)
			}
			l, err := tx.InsertLesson(context.Background(), nl, time.Now())
			if err != nil {
				return err
			}
			out = append(out, l)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var docs = []kb.NewLesson{
	{Content: "Use parseHTTPRequest to read the request body; never read it twice.", Trigger: "handling HTTP requests"},
	{Content: "snake_case_name columns map to CamelCase fields in the ORM.", Trigger: "database models"},
	{Content: "Always close the response body of an HTTP request.", Trigger: "HTTP clients in Go"},
	{Content: "Run the race detector on every test run; data races hide in HTTP handlers.", Trigger: "testing"},
}

// TestBM25MatchesFTS5 checks that the Go BM25 equals SQLite FTS5's bm25()
// on the same index, for several queries.
func TestBM25MatchesFTS5(t *testing.T) {
	db := openTest(t)
	insert(t, db, docs...)
	ctx := context.Background()
	for _, q := range []string{"http request", "parse request body", "snake case name", "race detector http handler test"} {
		qt := uniq(terms.Tokens(q))
		lq, err := db.prepareLexical(ctx, qt, nil)
		if err != nil || lq == nil {
			t.Fatalf("prepare %q: %v", q, err)
		}
		want := fts5Scores(t, db, qt, lq.Ref())
		cands, err := db.candidates(ctx, []int64{1, 2, 3, 4}, kb.Probe{Vector: vec(0)}, lq)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range cands {
			seq := int64(i + 1)
			if math.Abs(c.Lexical-want[seq]) > 1e-9 {
				t.Errorf("query %q lesson %d: Go BM25 %.9f, FTS5 %.9f", q, seq, c.Lexical, want[seq])
			}
		}
	}
}

// fts5Scores returns SQLite FTS5's bm25() of every lesson matching any of
// the query terms, divided by ref.
func fts5Scores(t *testing.T, db *DB, qt []string, ref float64) map[int64]float64 {
	t.Helper()
	quoted := make([]string, len(qt))
	for i, x := range qt {
		quoted[i] = `"` + x + `"`
	}
	rows, err := db.sql.QueryContext(context.Background(), `SELECT rowid, -bm25(lessons_fts) FROM lessons_fts WHERE lessons_fts MATCH ?`, strings.Join(quoted, " OR "))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	want := map[int64]float64{}
	for rows.Next() {
		var seq int64
		var s float64
		if err := rows.Scan(&seq, &s); err != nil {
			t.Fatal(err)
		}
		want[seq] = s / ref
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return want
}

func uniq(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// TestSearch_identifierParts finds identifiers by their parts.
func TestSearch_identifierParts(t *testing.T) {
	db := openTest(t)
	ls := insert(t, db, docs...)
	for q, want := range map[string]string{"parse request": ls[0].ID, "snake case": ls[1].ID, "parseHTTPRequest": ls[0].ID} {
		cands, err := db.Search(context.Background(), kb.Probe{Vector: vec(7), Terms: uniq(terms.Tokens(q)), Pool: 4})
		if err != nil {
			t.Fatal(err)
		}
		best, bestID := 0.0, ""
		for _, c := range cands {
			if c.Lexical > best {
				best, bestID = c.Lexical, c.Lesson.ID
			}
		}
		if bestID != want {
			t.Errorf("query %q: best lexical match %s, want %s", q, bestID, want)
		}
	}
}

// TestStats_followArchive keeps the collection statistics equal to a
// recomputation after archiving and restoring.
func TestStats_followArchive(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	ls := insert(t, db, docs...)
	check := func(active []kb.NewLesson) {
		t.Helper()
		wantDF := map[string]int{}
		wantLen := 0
		for _, d := range active {
			st := bm25.LessonDoc(d.Content, d.Trigger)
			wantLen += st.Length
			for term := range st.TF {
				wantDF[term]++
			}
		}
		var docsN, total int
		db.sql.QueryRow(`SELECT (SELECT value FROM meta WHERE key='lex_docs'), (SELECT value FROM meta WHERE key='lex_len')`).Scan(&docsN, &total)
		if docsN != len(active) || total != wantLen {
			t.Fatalf("docs %d len %d, want %d %d", docsN, total, len(active), wantLen)
		}
		rows, _ := db.sql.Query(`SELECT term, df FROM term_df WHERE df > 0`)
		got := map[string]int{}
		for rows.Next() {
			var term string
			var df int
			rows.Scan(&term, &df)
			got[term] = df
		}
		rows.Close()
		if len(got) != len(wantDF) {
			t.Fatalf("term_df has %d terms, want %d", len(got), len(wantDF))
		}
		for term, df := range wantDF {
			if got[term] != df {
				t.Fatalf("df(%s) = %d, want %d", term, got[term], df)
			}
		}
	}
	check(docs)
	setState := func(id string, s kb.State) {
		err := db.Update(ctx, func(tx kb.Tx) error {
			l, err := tx.Lesson(ctx, id)
			if err != nil {
				return err
			}
			l.State = s
			return tx.UpdateLesson(ctx, l)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	setState(ls[1].ID, kb.StateArchived)
	check([]kb.NewLesson{docs[0], docs[2], docs[3]})
	cands, _ := db.Search(ctx, kb.Probe{Vector: vec(1), Terms: uniq(terms.Tokens("snake case name")), Pool: 4})
	for _, c := range cands {
		if c.Lesson.ID == ls[1].ID {
			t.Fatal("archived lesson still found")
		}
	}
	setState(ls[1].ID, kb.StateActive)
	check(docs)
}

// TestMigrate_fromOldSchema builds a database at each older schema version
// with data in it and migrates it forward.
func TestMigrate_fromOldSchema(t *testing.T) {
	ctx := context.Background()
	for from := 1; from < SchemaVersion(); from++ {
		path := filepath.Join(t.TempDir(), "old.db")
		db, err := openAt(ctx, path, from)
		if err != nil {
			t.Fatal(err)
		}
		_, err = db.sql.ExecContext(ctx, `INSERT INTO lessons (id, content, trigger, origin, state, confidence, created_at, updated_at, content_hash)
			VALUES ('old1', 'Close HTTP response bodies.', 'http clients', 'user_stated', 'active', 0.7, '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z', 'h1')`)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.sql.ExecContext(ctx, `INSERT INTO lesson_vectors (seq, content) VALUES (1, ?)`, vecindex.Encode(vec(0))); err != nil {
			t.Fatal(err)
		}
		if from < 3 {
			// Before version 3 the index had two columns and no statistics.
			if _, err := db.sql.ExecContext(ctx, `INSERT INTO lessons_fts (rowid, content_terms, trigger_terms) VALUES (1, ?, ?)`,
				terms.Join("Close HTTP response bodies."), terms.Join("http clients")); err != nil {
				t.Fatal(err)
			}
		} else if err := db.update(ctx, func(sqlTx *redactTx) error {
			return (&tx{tx: sqlTx}).indexText(ctx, 1, "Close HTTP response bodies.", "http clients")
		}); err != nil {
			t.Fatal(err)
		}
		if from >= 3 { // the schema keeps lexical statistics: fill them as InsertLesson does
			err := db.update(ctx, func(tx *redactTx) error {
				return addStats(ctx, tx, 1, bm25.LessonDoc("Close HTTP response bodies.", "http clients"), +1)
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		db.Close()

		db, err = Open(ctx, path, Options{})
		if err != nil {
			t.Fatalf("migrate from %d: %v", from, err)
		}
		var v int
		db.sql.QueryRow(`PRAGMA user_version`).Scan(&v)
		if v != SchemaVersion() {
			t.Fatalf("version %d after migrating from %d, want %d", v, from, SchemaVersion())
		}
		l, err := db.Lesson(ctx, "old1")
		if err != nil || l.Content != "Close HTTP response bodies." {
			t.Fatalf("lesson after migration from %d: %+v %v", from, l, err)
		}
		cands, err := db.Search(ctx, kb.Probe{Vector: vec(0), Terms: uniq(terms.Tokens("http response")), Pool: 4})
		if err != nil || len(cands) != 1 || cands[0].Lexical <= 0 {
			t.Fatalf("search after migration from %d: %+v %v", from, cands, err)
		}
		db.Close()
	}
}

// openAt opens path migrated only up to version v.
func openAt(ctx context.Context, path string, v int) (*DB, error) {
	return openTo(ctx, path, Options{}, v)
}

func TestDB_embedderInfoAndMeta(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	if _, _, ok, err := db.EmbedderInfo(ctx); ok || err != nil {
		t.Fatalf("fresh db has embedder info: %v %v", ok, err)
	}
	if err := db.SetEmbedderInfo(ctx, "use-lite", 512); err != nil {
		t.Fatal(err)
	}
	m, d, ok, err := db.EmbedderInfo(ctx)
	if m != "use-lite" || d != 512 || !ok || err != nil {
		t.Fatalf("embedder info = %s %d %v %v", m, d, ok, err)
	}
	v, err := db.SetMetaDefault(ctx, "k", "a")
	if v != "a" || err != nil {
		t.Fatal(v, err)
	}
	if v, _ := db.SetMetaDefault(ctx, "k", "b"); v != "a" {
		t.Fatalf("SetMetaDefault overwrote: %s", v)
	}
	if _, err := db.Lesson(ctx, "nope"); !errors.Is(err, kb.ErrNotFound) {
		t.Fatalf("missing lesson err = %v", err)
	}
	// A corrupt dimension is an error that says what to do, never a
	// dimension of 0 (which would switch the dimension check off).
	if err := db.SetMeta(ctx, "embedder_dim", "five hundred"); err != nil {
		t.Fatal(err)
	}
	if _, d, _, err := db.EmbedderInfo(ctx); err == nil || !strings.Contains(err.Error(), "reembed") {
		t.Fatalf("corrupt dimension: dim %d, err = %v, want an error naming reembed", d, err)
	}
}

// TestDocFreqs: document frequencies of the terms lessons hold, over a
// long list of terms; unknown terms and archived lessons' terms are absent.
func TestDocFreqs(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	ls := insert(t, db, docs...)
	ask := []string{"http", "request", "snake", "nosuchterm"}
	for i := range 2000 {
		ask = append(ask, fmt.Sprintf("filler%d", i))
	}
	ask = append(ask, "race")
	got, err := db.DocFreqs(ctx, ask)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"http": 3, "request": 2, "snake": 1, "race": 1}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("DocFreqs = %v, want %v", got, want)
	}
	err = db.Update(ctx, func(tx kb.Tx) error {
		l, err := tx.Lesson(ctx, ls[3].ID)
		if err != nil {
			return err
		}
		l.State = kb.StateArchived
		return tx.UpdateLesson(ctx, l)
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := db.DocFreqs(ctx, []string{"race", "http"}); !reflect.DeepEqual(got, map[string]int{"http": 2}) {
		t.Errorf("after archiving the race lesson: %v, want http 2 and no race", got)
	}
}

func TestCorrections_byProjectNewestFirst(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	base := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for i, c := range []kb.Correction{
		{Project: "/p", Text: "old one", CreatedAt: base},
		{Project: "/p", Text: "use pnpm", Keywords: []string{"pnpm"}, CreatedAt: base.AddDate(0, 0, 10)},
		{Project: "/other", Text: "not this project", CreatedAt: base.AddDate(0, 0, 11)},
		{Text: "no project", CreatedAt: base.AddDate(0, 0, 12)},
	} {
		c.Session = fmt.Sprint("s", i)
		if err := db.Update(ctx, func(tx kb.Tx) error { return tx.InsertCorrection(ctx, c) }); err != nil {
			t.Fatal(err)
		}
	}
	got, err := db.Corrections(ctx, "/p", base.AddDate(0, 0, 5), 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Text != "no project" || got[1].Text != "use pnpm" || got[1].Keywords[0] != "pnpm" || got[1].Project != "/p" {
		t.Errorf("corrections %+v", got)
	}
	if got, _ := db.Corrections(ctx, "/p", base, 1); len(got) != 1 {
		t.Errorf("limit 1: %d", len(got))
	}
}
