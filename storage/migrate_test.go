package storage

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/innate-mcp/innate-mcp/internal/bm25"
	"github.com/innate-mcp/innate-mcp/internal/vecindex"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/terms"
)

// TestMigrate_shortStems: migration 10 rebuilds the lexical index, so a
// lesson indexed when "going" was stemmed to "go" no longer holds the
// term go, and its statistics follow.
func TestMigrate_shortStems(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v9.db")
	db, err := openAt(ctx, path, 9)
	if err != nil {
		t.Fatal(err)
	}
	content := "I'm going to refactor the parser"
	if _, err := db.sql.ExecContext(ctx, `INSERT INTO lessons (id, content, trigger, origin, state, confidence, created_at, updated_at, content_hash)
		VALUES ('old1', ?, '', 'imported', 'active', 0.5, '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z', 'h1')`, content); err != nil {
		t.Fatal(err)
	}
	if _, err := db.sql.ExecContext(ctx, `INSERT INTO lesson_vectors (seq, content) VALUES (1, ?)`, vecindex.Encode(vec(0))); err != nil {
		t.Fatal(err)
	}
	// Version 9 stemmed going to go.
	old := []string{"go", "refactor", "parser"}
	if err := db.update(ctx, func(sqlTx *redactTx) error {
		if _, err := sqlTx.ExecContext(ctx, `INSERT INTO lessons_fts (rowid, title_terms, content_terms, trigger_terms) VALUES (1, ?, ?, '')`,
			strings.Join(old, " "), strings.Join(old, " ")); err != nil {
			return err
		}
		ds := bm25.Doc{TF: map[string]int{}}
		for _, tok := range append(slices.Clone(old), old...) {
			ds.TF[tok]++
			ds.Length++
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
	var got string
	if err := db.sql.QueryRowContext(ctx, `SELECT content_terms FROM lessons_fts WHERE rowid = 1`).Scan(&got); err != nil {
		t.Fatal(err)
	}
	if want := terms.Join(content); got != want {
		t.Errorf("content terms after migration = %q, want %q", got, want)
	}
	dfs, err := db.DocFreqs(ctx, []string{"go", "goi", "parser"})
	if err != nil {
		t.Fatal(err)
	}
	if dfs["go"] != 0 || dfs["goi"] != 1 || dfs["parser"] != 1 {
		t.Errorf("document frequencies after migration = %v, want go absent, goi and parser 1", dfs)
	}
	var length int
	if err := db.sql.QueryRowContext(ctx, `SELECT len FROM lesson_terms WHERE seq = 1`).Scan(&length); err != nil {
		t.Fatal(err)
	}
	if want := bm25.LessonDoc(content, "").Length; length != want {
		t.Errorf("lesson length after migration = %d, want %d", length, want)
	}
}

// TestMigrate_shapeHash: migration 11 gives the lessons stored before it
// their near-duplicate key, so that a restatement in other numbers finds
// them.
func TestMigrate_shapeHash(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v10.db")
	db, err := openAt(ctx, path, 10)
	if err != nil {
		t.Fatal(err)
	}
	content := "Concurrent lesson number 1: keep handlers small."
	if _, err := db.sql.ExecContext(ctx, `INSERT INTO lessons (id, content, trigger, project, origin, state, confidence, created_at, updated_at, content_hash)
		VALUES ('old1', ?, '', '/p', 'agent_inferred', 'pending', 0.4, '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z', ?)`,
		content, kb.ContentHash(content, "")); err != nil {
		t.Fatal(err)
	}
	db.Close()

	db, err = Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Update(ctx, func(tx kb.Tx) error {
		l, err := tx.NearDuplicate(ctx, kb.ShapeHash("Concurrent lesson number 2: keep handlers small.", ""), "/p", kb.KindRule)
		if err != nil || l.ID != "old1" {
			t.Errorf("near-duplicate after migration = %q, %v; want old1", l.ID, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
