package storage

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/innate-mcp/innate-mcp/internal/bm25"
	"github.com/innate-mcp/innate-mcp/internal/vecindex"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/terms"
)

// TestBM25MatchesFTS5_descriptive checks the Go BM25 against FTS5 on code
// lessons whose docstrings and comments fill the descriptive column.
func TestBM25MatchesFTS5_descriptive(t *testing.T) {
	db := openTest(t)
	insert(t, db,
		kb.NewLesson{Content: "def paste(xsel=False):\n    \"\"\"Returns system clipboard contents.\"\"\"\n    return clipboard.read()"},
		kb.NewLesson{Content: "def copy(text):\n    # write text to the clipboard\n    clipboard.write(text)"},
		kb.NewLesson{Content: "Clipboard access needs a display; read contents only in a session."},
	)
	ctx := context.Background()
	for _, q := range []string{"clipboard contents", "write text clipboard", "display session"} {
		qt := uniq(terms.Tokens(q))
		lq, err := db.prepareLexical(ctx, qt, nil)
		if err != nil || lq == nil {
			t.Fatalf("prepare %q: %v", q, err)
		}
		want := fts5Scores(t, db, qt, lq.Ref())
		got := map[int64]float64{}
		err = db.termStats(ctx, []int64{1, 2, 3}, func(seq int64, length int, blob []byte) error {
			var err error
			got[seq], err = lq.ScoreStats(seq, blob, length)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		for seq := int64(1); seq <= 3; seq++ {
			if d := got[seq] - want[seq]; d > 1e-9 || d < -1e-9 {
				t.Errorf("query %q lesson %d: Go BM25 %.9f, FTS5 %.9f", q, seq, got[seq], want[seq])
			}
		}
	}
}

// TestSearch_shortlistByBM25: when more lessons hold the query's terms than
// the pool takes, the pool keeps the best by BM25 (term frequency and
// length), not merely the first lessons holding the rarest terms.
func TestSearch_shortlistByBM25(t *testing.T) {
	db := openTest(t)
	var nls []kb.NewLesson
	for i := range 5 {
		nls = append(nls, kb.NewLesson{Content: fmt.Sprintf("Lesson %d mentions retry once among many other words: alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon", i)})
	}
	nls = append(nls, kb.NewLesson{Content: "Retry with backoff; a retry without backoff is a retry storm."})
	for i := range 20 {
		nls = append(nls, kb.NewLesson{Content: fmt.Sprintf("Unrelated filler lesson number %d about formatting.", i)})
	}
	ls := insert(t, db, nls...)
	cands, err := db.Search(context.Background(), kb.Probe{Vector: vec(7), Terms: uniq(terms.Tokens("retry")), Pool: 3, LexicalOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, c := range cands {
		found = found || c.Lesson.ID == ls[5].ID
	}
	if !found {
		t.Fatalf("the lesson most about retrying is not among the %d lexical candidates", len(cands))
	}
}

// TestMigrate_descriptiveColumn: migration 8 rebuilds the index so that a
// lesson written before it has its docstring in the descriptive column.
func TestMigrate_descriptiveColumn(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v7.db")
	db, err := openAt(ctx, path, 7)
	if err != nil {
		t.Fatal(err)
	}
	content := "def paste():\n    \"\"\"Returns system clipboard contents.\"\"\"\n    return read()"
	if _, err := db.sql.ExecContext(ctx, `INSERT INTO lessons (id, content, trigger, origin, state, confidence, created_at, updated_at, content_hash)
		VALUES ('old1', ?, '', 'imported', 'active', 0.5, '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z', 'h1')`, content); err != nil {
		t.Fatal(err)
	}
	if _, err := db.sql.ExecContext(ctx, `INSERT INTO lesson_vectors (seq, content) VALUES (1, ?)`, vecindex.Encode(vec(0))); err != nil {
		t.Fatal(err)
	}
	// Version 7 indexed only the first line as the title.
	if err := db.update(ctx, func(sqlTx *redactTx) error {
		if _, err := sqlTx.ExecContext(ctx, `INSERT INTO lessons_fts (rowid, title_terms, content_terms, trigger_terms) VALUES (1, ?, ?, '')`,
			terms.Join("def paste():"), terms.Join(content)); err != nil {
			return err
		}
		ds := bm25.Doc{TF: map[string]int{}}
		for _, text := range []string{"def paste():", content} {
			for _, tok := range terms.Tokens(text) {
				ds.TF[tok]++
				ds.Length++
			}
		}
		return addStats(ctx, sqlTx, 1, ds, +1)
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()

	db, err = Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var title string
	if err := db.sql.QueryRowContext(ctx, `SELECT title_terms FROM lessons_fts WHERE rowid = 1`).Scan(&title); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(title, "clipboard") {
		t.Errorf("title column after migration = %q, want the docstring's terms", title)
	}
	var docs, length int
	if err := db.sql.QueryRowContext(ctx, `SELECT
		(SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'lex_docs'),
		(SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'lex_len')`).Scan(&docs, &length); err != nil {
		t.Fatal(err)
	}
	if want := bm25.LessonDoc(content, ""); docs != 1 || length != want.Length {
		t.Errorf("collection statistics after migration: %d lessons, length %d; want 1, %d", docs, length, want.Length)
	}
}
