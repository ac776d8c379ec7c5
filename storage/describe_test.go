package storage

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/terms"
)

func TestDescribe(t *testing.T) {
	for _, tc := range []struct {
		name, content string
		want          []string // parts, in order
		not           []string // text that must not be described
	}{
		{"python one-line docstring",
			"def paste(xsel=False):\n    \"\"\"Returns system clipboard contents.\"\"\"\n    selection = \"primary\"",
			[]string{"def paste(xsel=False):", "Returns system clipboard contents."}, []string{"selection"}},
		{"python multi-line docstring",
			"def create_path(path):\n    \"\"\"Creates a absolute path.\n\n    :param path: The path\n    \"\"\"\n    import os\n    os.makedirs(path)",
			[]string{"def create_path(path):", "Creates a absolute path.", ":param path: The path"}, []string{"import", "makedirs"}},
		{"single-quoted docstring and comments",
			"def f():\n    '''Sum the row.'''\n    # skip the header\n    x = 1  # not a line comment\n    return x",
			[]string{"def f():", "Sum the row.", " skip the header"}, []string{"not a line comment", "return"}},
		{"markdown headings",
			"# Go rules\n\nUse gofmt.\n\n## Errors\n\nWrap errors with context.",
			[]string{"# Go rules", " Errors"}, []string{"gofmt", "Wrap"}},
		{"C-family comments",
			"func main() {\n\t// start the server\n\t/* block\n\t   comment */\n\tlisten()\n}",
			[]string{"func main() {", " start the server", " block", "comment "}, []string{"listen"}},
		{"plain prose: first line only",
			"Close HTTP response bodies.\nOtherwise connections leak.",
			[]string{"Close HTTP response bodies."}, []string{"leak"}},
		{"a URL is not a comment", "Read the docs.\nSee https://example.com/x // y",
			[]string{"Read the docs."}, []string{"example"}},
		{"unclosed block runs to the end", "x\n/* open\nstill open",
			[]string{"x", " open", "still open"}, nil},
		{"empty", "", nil, []string{"x"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := describe(tc.content)
			var parts []string
			if got != "" {
				parts = strings.Split(got, "\n")
			}
			if strings.Join(parts, "|") != strings.Join(tc.want, "|") {
				t.Errorf("describe = %q, want parts %q", parts, tc.want)
			}
			for _, n := range tc.not {
				if strings.Contains(got, n) {
					t.Errorf("describe = %q holds %q", got, n)
				}
			}
		})
	}
}

// FuzzDescribe: any text an agent sends is described without panic, and
// the description only ever holds text taken from the content.
func FuzzDescribe(f *testing.F) {
	for _, s := range []string{"", "#", "\"\"\"", "'''x'''\n'''", "/* a */ b /* c", "line\n// c\n# h", "\"\"\"\"\"\"\"\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := describe(s)
		for _, part := range strings.Split(got, "\n") {
			if !strings.Contains(s, part) {
				t.Fatalf("describe(%q) holds %q, which the content does not", s, part)
			}
		}
	})
}

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
		want := fts5Scores(t, db, qt, lq.ref)
		got, err := lq.exact(ctx, db, []int64{1, 2, 3})
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
	if _, err := db.sql.ExecContext(ctx, `INSERT INTO lesson_vectors (seq, content) VALUES (1, ?)`, encodeVec(vec(0))); err != nil {
		t.Fatal(err)
	}
	// Version 7 indexed only the first line as the title.
	if err := db.update(ctx, func(sqlTx *redactTx) error {
		if _, err := sqlTx.ExecContext(ctx, `INSERT INTO lessons_fts (rowid, title_terms, content_terms, trigger_terms) VALUES (1, ?, ?, '')`,
			terms.Join("def paste():"), terms.Join(content)); err != nil {
			return err
		}
		ds := docStats{tf: map[string]int{}}
		for _, text := range []string{"def paste():", content} {
			for _, tok := range terms.Tokens(text) {
				ds.tf[tok]++
				ds.length++
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
	if want := lessonStats(content, ""); docs != 1 || length != want.length {
		t.Errorf("collection statistics after migration: %d lessons, length %d; want 1, %d", docs, length, want.length)
	}
}
