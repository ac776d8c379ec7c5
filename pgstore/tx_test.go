package pgstore

import (
	"context"
	"fmt"
	"maps"
	"strconv"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/innate-mcp/innate-mcp/kb"
)

// lexState is what the lexical channel and the vector revision hold, as
// one snapshot.
type lexState struct {
	docs, length, vecRev, lessonRev string
	df                              map[string]int64
	postings                        map[string]int64 // "term seq" → tf
	lessonTerms                     int
}

func readLexState(t *testing.T, db *DB, id string) lexState {
	t.Helper()
	ctx := context.Background()
	st := lexState{df: map[string]int64{}, postings: map[string]int64{}}
	st.docs, _, _ = db.Meta(ctx, "lex_docs")
	st.length, _, _ = db.Meta(ctx, "lex_len")
	st.vecRev, _, _ = db.Meta(ctx, "vec_rev")
	err := db.pool.QueryRow(ctx, `SELECT vec_rev::text, (SELECT count(*) FROM lesson_terms) FROM lessons WHERE id = $1`, id).
		Scan(&st.lessonRev, &st.lessonTerms)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := db.pool.Query(ctx, `SELECT term, df FROM term_df WHERE df > 0`)
	if err != nil {
		t.Fatal(err)
	}
	var term string
	var n, seq int64
	if _, err := pgx.ForEachRow(rows, []any{&term, &n}, func() error { st.df[term] = n; return nil }); err != nil {
		t.Fatal(err)
	}
	if rows, err = db.pool.Query(ctx, `SELECT term, seq, tf FROM term_postings`); err != nil {
		t.Fatal(err)
	}
	if _, err := pgx.ForEachRow(rows, []any{&term, &seq, &n}, func() error {
		st.postings[fmt.Sprint(term, " ", seq)] = n
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return st
}

// TestUpdateLessonStatistics: archiving a lesson withdraws it from the
// lexical statistics and postings and moves the vector revision; restoring
// it puts back exactly what it held. (The conformance suite checks the
// same through Search and DocFreqs.)
func TestUpdateLessonStatistics(t *testing.T) {
	newDB := cluster(t)
	ctx := context.Background()
	db, _ := newDB(t)
	other := insert(t, db, newLesson("Indent with tabs in the Makefile.", ""))
	only := readLexState(t, db, other.ID)
	l := insert(t, db, newLesson("Rotate the zeppelin credentials every quarter.\n# Secrets", ""))
	before := readLexState(t, db, l.ID)
	if before.docs != "2" || before.lessonTerms != 2 || before.df["zeppelin"] != 1 {
		t.Fatalf("after two inserts: %+v", before)
	}
	set := func(state kb.State, uses int) lexState {
		t.Helper()
		err := db.Update(ctx, func(tx kb.Tx) error {
			cur, err := tx.Lesson(ctx, l.ID)
			if err != nil {
				return err
			}
			cur.State, cur.Counters.Uses = state, uses
			return tx.UpdateLesson(ctx, cur)
		})
		if err != nil {
			t.Fatal(err)
		}
		return readLexState(t, db, l.ID)
	}
	rev := func(base string, plus int) string {
		n, err := strconv.Atoi(base)
		if err != nil {
			t.Fatal(err)
		}
		return strconv.Itoa(n + plus)
	}
	sameLex := func(a, b lexState) bool {
		return a.docs == b.docs && a.length == b.length && a.lessonTerms == b.lessonTerms &&
			maps.Equal(a.df, b.df) && maps.Equal(a.postings, b.postings)
	}
	if got := set(kb.StateActive, 1); !sameLex(got, before) || got.vecRev != before.vecRev {
		t.Errorf("an update that keeps the lesson recallable moved the channels: %+v, was %+v", got, before)
	}
	archived := set(kb.StateArchived, 2)
	if !sameLex(archived, only) {
		t.Errorf("archived: %+v; want only the other lesson's statistics, %+v", archived, only)
	}
	if archived.vecRev != rev(before.vecRev, 1) || archived.lessonRev != archived.vecRev {
		t.Errorf("archived: vector revision %s, the lesson's %s; want both %s+1", archived.vecRev, archived.lessonRev, before.vecRev)
	}
	if got := set(kb.StateArchived, 3); !sameLex(got, only) || got.vecRev != archived.vecRev { // nothing to withdraw
		t.Errorf("archived twice: %+v, want %+v", got, archived)
	}
	restored := set(kb.StatePending, 4)
	if !sameLex(restored, before) {
		t.Errorf("restored: %+v; want what it held before, %+v", restored, before)
	}
	if restored.vecRev != rev(before.vecRev, 2) || restored.lessonRev != restored.vecRev {
		t.Errorf("restored: vector revision %s, the lesson's %s; want both %s+2", restored.vecRev, restored.lessonRev, before.vecRev)
	}
}
