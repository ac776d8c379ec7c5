package pgstore

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/innate-mcp/innate-mcp/internal/termstats"
	"github.com/innate-mcp/innate-mcp/terms"
)

// The lexical channel's statistics, kept as storage keeps them
// (storage/lexical.go) so that BM25 computed from them ranks as the SQLite
// store does. lessonStats, describe and blockMark duplicate storage's: the
// next session moves them to one package both stores import (the encoding
// already is one, package internal/termstats).
// The search itself (BM25 over term_postings, lesson_terms and term_df) is
// not written yet.

// docStats are one lesson's term frequencies and length.
type docStats struct {
	length int
	tf     map[string]int
}

// lessonStats computes the term statistics of a lesson's text over the
// three indexed columns: title (the lesson's descriptive text, see
// describe), content and trigger. A descriptive term thus counts twice, as
// in the full-text index.
func lessonStats(content, trigger string) docStats {
	ds := docStats{tf: map[string]int{}}
	for _, text := range []string{describe(content), content, trigger} {
		for _, t := range terms.Tokens(text) {
			ds.tf[t]++
			ds.length++
		}
	}
	return ds
}

// describe returns the parts of a lesson's content that say what the rest
// is about, which BM25 weighs twice as BM25F weighs a title field: the first
// non-empty line (a rule file's heading, a function's signature), lines
// starting with '#' (Markdown headings; shell, Python, YAML and Ruby
// comments) or "//" (C-family comments), block comments (/* … */) and
// Python docstrings (in triple double or triple single quotes). Prose
// without such marks describes itself: only its first line counts.
func describe(content string) string {
	var parts []string
	first := true
	closing := "" // inside a block: the mark that ends it
	for _, raw := range strings.Split(content, "\n") {
		line := strings.TrimSpace(raw)
		if closing != "" {
			body, _, found := strings.Cut(line, closing)
			if body != "" {
				parts = append(parts, body)
			}
			if found {
				closing = ""
			}
			continue
		}
		if line == "" {
			continue
		}
		if first {
			first = false
			parts = append(parts, line)
		} else if strings.HasPrefix(line, "#") {
			parts = append(parts, strings.TrimLeft(line, "#"))
			continue
		} else if c, ok := strings.CutPrefix(line, "//"); ok {
			parts = append(parts, c)
			continue
		}
		open, end := blockMark(line)
		if open < 0 {
			continue
		}
		body, _, found := strings.Cut(line[open:], end)
		parts = append(parts, body)
		if !found {
			closing = end
		}
	}
	return strings.Join(parts, "\n")
}

// blockMarks are the marks that open a block of descriptive text, each with
// the mark that closes it.
var blockMarks = [...][2]string{{`"""`, `"""`}, {"'''", "'''"}, {"/*", "*/"}}

// blockMark returns where the text after the first block-opening mark in
// line starts, and the mark that closes that block; open is −1 when line
// opens no block.
func blockMark(line string) (open int, end string) {
	open = -1
	at := -1
	for _, m := range blockMarks {
		if i := strings.Index(line, m[0]); i >= 0 && (at < 0 || i < at) {
			at, open, end = i, i+len(m[0]), m[1]
		}
	}
	return open, end
}

// encodeStats packs a lesson's term frequencies (termstats' encoding,
// storage's).
func encodeStats(ds docStats) []byte { return termstats.Encode(ds.tf) }

// addStats records (sign +1) or withdraws (sign −1) a lesson's terms from
// the collection statistics, inside a write transaction: its lesson_terms
// row and postings (written on +1; withdrawn on −1), the terms' document
// frequencies, and the collection's size and total length in meta.
func addStats(ctx context.Context, tx *redactTx, seq int64, ds docStats, sign int) error {
	keys := make([]string, 0, len(ds.tf))
	tfs := make([]int64, 0, len(ds.tf))
	for t, n := range ds.tf {
		keys = append(keys, t)
		tfs = append(tfs, int64(n))
	}
	if sign > 0 {
		if _, err := tx.Exec(ctx, `INSERT INTO lesson_terms (seq, len, tf) VALUES ($1, $2, $3)
			ON CONFLICT (seq) DO UPDATE SET len = excluded.len, tf = excluded.tf`,
			seq, ds.length, encodeStats(ds)); err != nil {
			return fmt.Errorf("write term statistics: %w", err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO term_postings (term, seq, tf) SELECT u.term, $1, u.tf FROM unnest($2::text[], $3::bigint[]) AS u(term, tf)
			ON CONFLICT (term, seq) DO UPDATE SET tf = excluded.tf`, seq, keys, tfs); err != nil {
			return fmt.Errorf("write term postings: %w", err)
		}
	} else {
		if _, err := tx.Exec(ctx, `DELETE FROM term_postings WHERE seq = $1`, seq); err != nil {
			return fmt.Errorf("withdraw term postings: %w", err)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM lesson_terms WHERE seq = $1`, seq); err != nil {
			return fmt.Errorf("withdraw term statistics: %w", err)
		}
	}
	// One statement for every term; sorted, so that concurrent writers
	// (serialised anyway by the write lock) would lock rows in one order.
	sort.Strings(keys)
	if _, err := tx.Exec(ctx, `INSERT INTO term_df (term, df) SELECT u.term, $2 FROM unnest($1::text[]) AS u(term)
		ON CONFLICT (term) DO UPDATE SET df = greatest(term_df.df + excluded.df, 0)`, keys, sign); err != nil {
		return fmt.Errorf("update document frequencies: %w", err)
	}
	if _, err := tx.Exec(ctx, `UPDATE meta SET value = (value::bigint + $1)::text WHERE key = 'lex_docs'`, sign); err != nil {
		return fmt.Errorf("update collection statistics: %w", err)
	}
	if _, err := tx.Exec(ctx, `UPDATE meta SET value = (value::bigint + $1)::text WHERE key = 'lex_len'`, sign*ds.length); err != nil {
		return fmt.Errorf("update collection statistics: %w", err)
	}
	return nil
}
