package pgstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/innate-mcp/innate-mcp/internal/pgtest"
	"github.com/innate-mcp/innate-mcp/internal/storetest"
	"github.com/innate-mcp/innate-mcp/kb"
)

// secret is a credential of a real shape (not a live one), as in
// internal/storetest: a store must never keep it.
const secret = "ghp_R7kD2mQ9vX4tL8nB3cF6hJ1pW5sZ0yA2uE9g"

// cluster starts one throwaway PostgreSQL for a test and returns a
// function that creates an empty database in it for each subtest, with
// the DSN to open it again (as another instance would).
func cluster(t *testing.T) func(t *testing.T) (*DB, string) {
	c := pgtest.Start(t)
	var mu sync.Mutex
	n := 0
	return func(t *testing.T) (*DB, string) {
		t.Helper()
		ctx := context.Background()
		mu.Lock()
		n++
		name := fmt.Sprintf("kb_%d", n)
		mu.Unlock()
		conn, err := pgx.Connect(ctx, c.DSN)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, `CREATE DATABASE `+name); err != nil {
			t.Fatal(err)
		}
		dsn := strings.Replace(c.DSN, "/postgres?", "/"+name+"?", 1)
		return open(t, dsn), dsn
	}
}

func open(t *testing.T, dsn string) *DB {
	t.Helper()
	db, err := Open(context.Background(), dsn, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

const dim = storetest.Dim

// newLesson is internal/storetest's: a vector of its own per text.
func newLesson(content, project string) kb.NewLesson { return storetest.NewLesson(content, project) }

func insert(t *testing.T, db *DB, nl kb.NewLesson) kb.Lesson {
	t.Helper()
	var l kb.Lesson
	err := db.Update(context.Background(), func(tx kb.Tx) error {
		var err error
		l, err = tx.InsertLesson(context.Background(), nl, time.Now())
		return err
	})
	if err != nil {
		t.Fatalf("insert %q: %v", nl.Content, err)
	}
	return l
}

var errStop = errors.New("stop here")

func TestDB(t *testing.T) {
	newDB := cluster(t)
	ctx := context.Background()

	t.Run("MigrateConcurrentlyOnce", func(t *testing.T) {
		_, dsn := newDB(t)
		// Instances starting at once: each migrates under the lock.
		var wg sync.WaitGroup
		errs := make([]error, 4)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				db, err := Open(ctx, dsn, Options{})
				if err == nil {
					db.Close()
				}
				errs[i] = err
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("instance %d: %v", i, err)
			}
		}
		db := open(t, dsn)
		var versions []int
		rows, err := db.pool.Query(ctx, `SELECT version FROM schema_version`)
		if err != nil {
			t.Fatal(err)
		}
		versions, err = pgx.CollectRows(rows, pgx.RowTo[int])
		if err != nil || !slices.Equal(versions, []int{SchemaVersion()}) {
			t.Errorf("schema_version rows %v, %v; want [%d]", versions, err, SchemaVersion())
		}
		if v, ok, err := db.Meta(ctx, "vec_rev"); v != "0" || !ok || err != nil {
			t.Errorf("vec_rev %q, %v, %v", v, ok, err)
		}
	})

	t.Run("EmbedderInfo", func(t *testing.T) {
		db, _ := newDB(t)
		if _, _, ok, err := db.EmbedderInfo(ctx); ok || err != nil {
			t.Errorf("empty database: ok=%v, %v; want none", ok, err)
		}
		if err := db.SetEmbedderInfo(ctx, "model-a", 384); err != nil {
			t.Fatal(err)
		}
		if err := db.SetEmbedderInfo(ctx, "model-b", 512); err != nil {
			t.Fatal(err)
		}
		if m, d, ok, err := db.EmbedderInfo(ctx); m != "model-b" || d != 512 || !ok || err != nil {
			t.Errorf("got=%q %d %v %v, want model-b 512", m, d, ok, err)
		}
		if err := db.SetMeta(ctx, "embedder_dim", "many"); err != nil {
			t.Fatal(err)
		}
		if _, _, _, err := db.EmbedderInfo(ctx); err == nil {
			t.Error("a dimension that is not a number reads without error")
		}
	})

	t.Run("SetMetaDefault", func(t *testing.T) {
		db, _ := newDB(t)
		if v, err := db.SetMetaDefault(ctx, "k", "first"); v != "first" || err != nil {
			t.Errorf("got=%q, %v, want first", v, err)
		}
		if v, err := db.SetMetaDefault(ctx, "k", "second"); v != "first" || err != nil {
			t.Errorf("got=%q, %v, want the value in force, first", v, err)
		}
		if v, err := db.SetMetaDefault(ctx, "s", "token "+secret); strings.Contains(v, secret) || err != nil {
			t.Errorf("got=%q, %v: the secret is kept", v, err)
		}
	})

	t.Run("LessonRoundTripAndStatistics", func(t *testing.T) {
		db, _ := newDB(t)
		nl := newLesson("Use pnpm, not npm.", "/srv/shop")
		nl.Trigger, nl.Tags = "installing packages", []string{"js"}
		nl.TriggerVec = []float32{1, 0, 0, 0, 0, 0, 0, 0}
		l := insert(t, db, nl)
		got, err := db.Lesson(ctx, l.ID)
		if err != nil || got.Content != nl.Content || got.Trigger != nl.Trigger || got.Project != "/srv/shop" ||
			got.Origin != kb.OriginUserStated || got.State != kb.StateActive || !slices.Equal(got.Tags, []string{"js"}) || got.Hash == "" {
			t.Errorf("lesson %+v, %v", got, err)
		}
		c, tr, err := db.Vectors(ctx, l.ID)
		if err != nil || !slices.Equal(c, nl.ContentVec) || !slices.Equal(tr, nl.TriggerVec) {
			t.Errorf("vectors %v %v, %v", c, tr, err)
		}
		if _, err := db.Lesson(ctx, "L_missing"); !errors.Is(err, kb.ErrNotFound) {
			t.Errorf("missing lesson: %v, want ErrNotFound", err)
		}
		if _, _, err := db.Vectors(ctx, "L_missing"); !errors.Is(err, kb.ErrNotFound) {
			t.Errorf("missing vectors: %v, want ErrNotFound", err)
		}
		// The requested id is kept when free, replaced when taken.
		nl2 := newLesson("Second lesson.", "")
		nl2.ID = l.ID
		if l2 := insert(t, db, nl2); l2.ID == l.ID {
			t.Errorf("a taken id was reused: %s", l2.ID)
		}
		nl3 := newLesson("Third lesson.", "")
		nl3.ID = "L_mine"
		if l3 := insert(t, db, nl3); l3.ID != "L_mine" {
			t.Errorf("id %s, want the free id requested", l3.ID)
		}
		// The statistics hold the three recallable lessons, not an archived one.
		arch := newLesson("Archived lesson.", "")
		arch.State = kb.StateArchived
		insert(t, db, arch)
		docs, _, _ := db.Meta(ctx, "lex_docs")
		if docs != "3" {
			t.Errorf("lex_docs %s, want 3", docs)
		}
		var df, postings int
		if err := db.pool.QueryRow(ctx, `SELECT df FROM term_df WHERE term = 'pnpm'`).Scan(&df); err != nil || df != 1 {
			t.Errorf("df(pnpm) %d, %v, want 1", df, err)
		}
		if err := db.pool.QueryRow(ctx, `SELECT count(*) FROM term_postings WHERE term = 'archiv'`).Scan(&postings); err != nil || postings != 0 {
			t.Errorf("an archived lesson has %d postings, %v", postings, err)
		}
		if rev, _, _ := db.Meta(ctx, "vec_rev"); rev != "4" {
			t.Errorf("vec_rev %s, want 4 after four inserts", rev)
		}
	})

	t.Run("LessonsFilterAndOrder", func(t *testing.T) {
		db, _ := newDB(t)
		a := insert(t, db, newLesson("Alpha rule for the shop.", "/srv/shop"))
		b := insert(t, db, newLesson("Beta rule for everyone.", ""))
		pending := newLesson("Gamma rule for the shop.", "/srv/shop")
		pending.State, pending.Origin = kb.StatePending, kb.OriginAgentInferred
		c := insert(t, db, pending)
		collect := func(f kb.LessonFilter) []string {
			var ids []string
			if err := db.Lessons(ctx, f, func(l kb.Lesson) error { ids = append(ids, l.ID); return nil }); err != nil {
				t.Fatal(err)
			}
			return ids
		}
		for _, tt := range []struct {
			name string
			f    kb.LessonFilter
			want []string
		}{
			{"all", kb.LessonFilter{}, []string{a.ID, b.ID, c.ID}},
			{"project", kb.LessonFilter{Project: "/srv/shop"}, []string{a.ID, c.ID}},
			{"global", kb.LessonFilter{Global: true, Project: "/srv/shop"}, []string{b.ID}},
			{"states", kb.LessonFilter{States: []kb.State{kb.StatePending, kb.StateArchived}}, []string{c.ID}},
			{"origin", kb.LessonFilter{Origin: kb.OriginUserStated}, []string{a.ID, b.ID}},
		} {
			if got := collect(tt.f); !slices.Equal(got, tt.want) {
				t.Errorf("%s: got=%v, want %v in the order stored", tt.name, got, tt.want)
			}
		}
		if err := db.Lessons(ctx, kb.LessonFilter{}, func(kb.Lesson) error { return errStop }); !errors.Is(err, errStop) {
			t.Errorf("fn's error: %v", err)
		}
		// Inside a transaction fn may use the transaction.
		err := db.Update(ctx, func(tx kb.Tx) error {
			return tx.Lessons(ctx, kb.LessonFilter{Global: true}, func(l kb.Lesson) error {
				_, err := tx.Lesson(ctx, l.ID)
				return err
			})
		})
		if err != nil {
			t.Error(err)
		}
	})

	t.Run("UpdateRollsBackOnError", func(t *testing.T) {
		db, _ := newDB(t)
		var id string
		err := db.Update(ctx, func(tx kb.Tx) error {
			l, err := tx.InsertLesson(ctx, newLesson("Never kept.", ""), time.Now())
			if err != nil {
				return err
			}
			id = l.ID
			if _, err := tx.Lesson(ctx, id); err != nil {
				return fmt.Errorf("the transaction does not see its own write: %w", err)
			}
			return fmt.Errorf("wrapped: %w", errStop)
		})
		if !errors.Is(err, errStop) || err.Error() != "wrapped: stop here" {
			t.Fatalf("Update returned %v, want fn's error unchanged", err)
		}
		if _, err := db.Lesson(ctx, id); !errors.Is(err, kb.ErrNotFound) {
			t.Errorf("the lesson of a failed transaction is there: %v", err)
		}
		if docs, _, _ := db.Meta(ctx, "lex_docs"); docs != "0" {
			t.Errorf("lex_docs %s after a rollback, want 0", docs)
		}
	})

	t.Run("CancelledUpdateRollsBack", func(t *testing.T) {
		db, _ := newDB(t)
		cctx, cancel := context.WithCancel(ctx)
		err := db.Update(cctx, func(tx kb.Tx) error {
			if err := tx.InsertTrace(cctx, kb.Trace{ID: "t_cancel", Tool: "recall", CreatedAt: time.Now(), Request: []byte(`{}`), Response: []byte(`{}`)}); err != nil {
				return err
			}
			cancel()
			return nil
		})
		if err == nil {
			t.Fatal("an Update whose ctx ended committed")
		}
		if _, err := db.Trace(ctx, "t_cancel"); !errors.Is(err, kb.ErrNotFound) {
			t.Errorf("the trace of a cancelled transaction: %v", err)
		}
		// The pool is still usable.
		if err := db.SetEmbedderInfo(ctx, "m", dim); err != nil {
			t.Error(err)
		}
	})

	t.Run("OtherInstanceSeesWrites", func(t *testing.T) {
		db, dsn := newDB(t)
		other := open(t, dsn)
		l := insert(t, db, newLesson("Written by one instance.", "/p"))
		if got, err := other.Lesson(ctx, l.ID); err != nil || got.Content != l.Content {
			t.Errorf("the other instance reads %+v, %v", got, err)
		}
		l2 := insert(t, other, newLesson("Written by the other.", "/p"))
		if _, err := db.Lesson(ctx, l2.ID); err != nil {
			t.Errorf("the first instance does not see the other's write: %v", err)
		}
	})

	t.Run("TracesAndOutcomes", func(t *testing.T) {
		db, _ := newDB(t)
		a := insert(t, db, newLesson("Lesson a.", ""))
		b := insert(t, db, newLesson("Lesson b.", ""))
		tr := kb.Trace{ID: "t_1", Tool: "recall", Session: "s", Project: "/p", SituationKey: "k", CreatedAt: time.Now(),
			Request: []byte(`{"query":"q"}`), Response: []byte(`{"empty":true}`),
			Returned: []kb.ReturnedEntry{{LessonID: b.ID, Rank: 2, Score: 0.5}, {LessonID: a.ID, Rank: 1, Score: 0.9}}}
		err := db.Update(ctx, func(tx kb.Tx) error {
			if err := tx.InsertTrace(ctx, tr); err != nil {
				return err
			}
			return tx.SetTraceOutcome(ctx, tr.ID, kb.OutcomeSuccess)
		})
		if err != nil {
			t.Fatal(err)
		}
		got, err := db.Trace(ctx, tr.ID)
		if err != nil || got.Tool != "recall" || got.Session != "s" || got.SituationKey != "k" || got.Outcome != kb.OutcomeSuccess ||
			string(got.Request) != `{"query":"q"}` || !got.CreatedAt.Equal(tr.CreatedAt) {
			t.Errorf("trace %+v, %v", got, err)
		}
		want := []kb.ReturnedEntry{{LessonID: a.ID, Rank: 1, Score: 0.9}, {LessonID: b.ID, Rank: 2, Score: 0.5}}
		if !slices.Equal(got.Returned, want) {
			t.Errorf("returned %v, want %v in rank order", got.Returned, want)
		}
		err = db.Update(ctx, func(tx kb.Tx) error {
			if err := tx.SetTraceOutcome(ctx, tr.ID, ""); err != nil {
				return err
			}
			got, err := tx.Trace(ctx, tr.ID)
			if err != nil || got.Outcome != "" {
				t.Errorf("cleared outcome: %+v, %v", got, err)
			}
			if _, err := tx.Trace(ctx, "t_missing"); !errors.Is(err, kb.ErrNotFound) {
				t.Errorf("missing trace: %v", err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		// A statement that fails aborts a PostgreSQL transaction: Update
		// then fails too, even when fn goes on.
		err = db.Update(ctx, func(tx kb.Tx) error {
			if err := tx.InsertTrace(ctx, kb.Trace{ID: tr.ID, Tool: "recall", CreatedAt: time.Now()}); err == nil {
				t.Error("a trace id stored twice")
			}
			return nil
		})
		if err == nil {
			t.Error("Update committed a transaction whose statement failed")
		}
	})

	t.Run("CorrectionsByProjectNewestFirst", func(t *testing.T) {
		db, _ := newDB(t)
		base := time.Now().Add(-time.Hour)
		for i, c := range []kb.Correction{
			{Project: "/p", Text: "first", Keywords: []string{"npm"}, CreatedAt: base},
			{Project: "/q", Text: "other project", CreatedAt: base.Add(time.Minute)},
			{Text: "no project", CreatedAt: base.Add(2 * time.Minute)},
			{Project: "/p", Text: "second", TraceID: "t_x", CreatedAt: base.Add(3 * time.Minute)},
			{Project: "/p", Text: "too old", CreatedAt: base.Add(-time.Hour)},
		} {
			c.Session = fmt.Sprint(i)
			if err := db.Update(ctx, func(tx kb.Tx) error { return tx.InsertCorrection(ctx, c) }); err != nil {
				t.Fatal(err)
			}
		}
		got, err := db.Corrections(ctx, "/p", base.Add(-time.Minute), 10)
		var texts []string
		for _, c := range got {
			texts = append(texts, c.Text)
		}
		if err != nil || !slices.Equal(texts, []string{"second", "no project", "first"}) {
			t.Errorf("corrections %v, %v", texts, err)
		}
		if got[0].TraceID != "t_x" || !slices.Equal(got[2].Keywords, []string{"npm"}) {
			t.Errorf("fields %+v", got)
		}
		if got, _ := db.Corrections(ctx, "/p", base.Add(-time.Minute), 1); len(got) != 1 {
			t.Errorf("limit 1: %d corrections", len(got))
		}
	})

	t.Run("Tokens", func(t *testing.T) {
		db, _ := newDB(t)
		storetest.Tokens(t, db)
	})

	t.Run("SecretsAreRedacted", func(t *testing.T) {
		db, _ := newDB(t)
		tr := kb.Trace{ID: "t_secret", Tool: "record", CreatedAt: time.Now(),
			Request: []byte(`{"message":"the token is ` + secret + `"}`), Response: []byte(`{}`)}
		var l kb.Lesson
		if err := db.Update(ctx, func(tx kb.Tx) error {
			if err := tx.InsertTrace(ctx, tr); err != nil {
				return err
			}
			var err error
			if l, err = tx.InsertLesson(ctx, newLesson("Export GH_TOKEN="+secret+" before the release.", ""), time.Now()); err != nil {
				return err
			}
			return tx.InsertCorrection(ctx, kb.Correction{Text: "use " + secret, Keywords: []string{secret}, CreatedAt: time.Now()})
		}); err != nil {
			t.Fatal(err)
		}
		if err := db.SetMeta(ctx, "note", secret); err != nil {
			t.Fatal(err)
		}
		// Nothing anywhere in the database holds it: every text column of
		// every table, read as PostgreSQL prints rows.
		rows, err := db.pool.Query(ctx, `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`)
		if err != nil {
			t.Fatal(err)
		}
		tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		for _, table := range tables {
			var n int
			if err := db.pool.QueryRow(ctx, `SELECT count(*) FROM `+table+` r WHERE r::text LIKE '%' || $1 || '%'`, secret).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n > 0 {
				t.Errorf("table %s keeps the secret in %d rows", table, n)
			}
		}
		got, err := db.Lesson(ctx, l.ID)
		if err != nil || !strings.Contains(got.Content, "before the release") {
			t.Errorf("redacted lesson %+v, %v", got, err)
		}
		gt, err := db.Trace(ctx, tr.ID)
		if err != nil || !strings.HasPrefix(string(gt.Request), `{"message":`) {
			t.Errorf("redacted trace request %s, %v: want valid JSON kept", gt.Request, err)
		}
	})

	t.Run("ConcurrentWritesAllLand", func(t *testing.T) {
		db, dsn := newDB(t)
		stores := []*DB{db, open(t, dsn)}
		const writers, each = 4, 25
		var wg sync.WaitGroup
		errs := make(chan error, writers*each)
		for w := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				st := stores[w%len(stores)]
				for i := range each {
					err := st.Update(ctx, func(tx kb.Tx) error {
						if err := tx.InsertTrace(ctx, kb.Trace{ID: fmt.Sprintf("t_c%d_%d", w, i), Tool: "recall", CreatedAt: time.Now(),
							Request: []byte(`{}`), Response: []byte(`{}`)}); err != nil {
							return err
						}
						_, err := tx.InsertLesson(ctx, newLesson(fmt.Sprintf("Lesson %d of writer %d.", i, w), ""), time.Now())
						return err
					})
					if err != nil {
						errs <- err
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Errorf("write: %v", err)
		}
		for w := range writers {
			for i := range each {
				if _, err := db.Trace(ctx, fmt.Sprintf("t_c%d_%d", w, i)); err != nil {
					t.Errorf("trace %d/%d lost: %v", w, i, err)
				}
			}
		}
		if docs, _, _ := db.Meta(ctx, "lex_docs"); docs != fmt.Sprint(writers*each) {
			t.Errorf("lex_docs %s, want %d", docs, writers*each)
		}
		if rev, _, _ := db.Meta(ctx, "vec_rev"); rev != fmt.Sprint(writers*each) {
			t.Errorf("vec_rev %s, want %d", rev, writers*each)
		}
	})
}
