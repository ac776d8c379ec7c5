package kb_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/innate-mcp/innate-mcp/directive"
	"github.com/innate-mcp/innate-mcp/internal/fakeembed"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/storage"
)

// TestKB_readOnly: over a read-only store recall, appraise and hesitate
// answer and write nothing, and record fails with ErrReadOnly and the
// reason given.
func TestKB_readOnly(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	id := e.add(t, kb.NewLesson{Content: "Run go vet before every commit.", Trigger: "committing Go code", Origin: kb.OriginUserStated})[0]
	ro, err := storage.Open(ctx, e.path, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	const why = "the database file kb.db is read-only: chmod u+w kb.db"
	k, err := kb.New(kb.Config{Store: ro, Embedder: fakeembed.New(256), Session: "ro", ReadOnly: true, ReadOnlyReason: why})
	if err != nil {
		t.Fatal(err)
	}
	traces := func() int {
		t.Helper()
		var n int
		if err := e.db.SQL().QueryRow(`SELECT (SELECT count(*) FROM traces) + (SELECT count(*) FROM verdict_log) + (SELECT count(*) FROM hesitation_log)`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := traces()

	res, err := k.Recall(ctx, kb.RecallRequest{Query: "about to commit my Go code, run go vet"})
	if err != nil || len(res.Lessons) == 0 || res.Lessons[0].ID != id || !strings.Contains(res.Note, "read-only") {
		t.Fatalf("read-only recall: %+v, %v", res, err)
	}
	if _, err := k.Appraise(ctx, kb.AppraiseRequest{Query: "commit Go code", Candidate: "I will run go vet and commit."}); err != nil {
		t.Fatalf("read-only appraise: %v", err)
	}
	if _, err := k.Hesitate(ctx, kb.HesitateRequest{Draft: "I think it probably works; pushing now.", Actions: []string{"push"}}); err != nil {
		t.Fatalf("read-only hesitate: %v", err)
	}
	if n := traces(); n != before {
		t.Fatalf("read-only calls wrote %d rows", n-before)
	}
	_, err = k.Record(ctx, kb.RecordRequest{TraceID: res.TraceID, Outcome: kb.OutcomeSuccess})
	if !errors.Is(err, kb.ErrReadOnly) || !strings.Contains(err.Error(), why) || !strings.Contains(err.Error(), "nothing was written") {
		t.Fatalf("read-only record: %v, want ErrReadOnly with the reason", err)
	}
	if _, err := k.Add(ctx, []kb.NewLesson{{Content: "Another lesson.", Origin: kb.OriginUserStated}}, nil); !errors.Is(err, kb.ErrReadOnly) {
		t.Fatalf("read-only add: %v, want ErrReadOnly", err)
	}
}

// TestKB_addRecordsParserVersion: a database written only by an import
// records the directive parser's version, so that a read-only process
// opening it later does not take its directives for an older parser's.
func TestKB_addRecordsParserVersion(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	e.add(t, kb.NewLesson{Content: "Never push directly to `main`.", Origin: kb.OriginUserStated})
	v, err := e.db.DirectiveVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if v != directive.Version {
		t.Fatalf("stored parser version %d after an import, want %d", v, directive.Version)
	}
}

// TestKB_recordedLessonCarriesDirective: a lesson learnt through record on
// a fresh database is stored with its directive, as an imported one is.
func TestKB_recordedLessonCarriesDirective(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	res, err := e.kb.Record(ctx, kb.RecordRequest{Lesson: &kb.LessonInput{Content: "Never push directly to `main`.", Origin: kb.OriginUserStated}})
	if err != nil {
		t.Fatal(err)
	}
	l, err := e.kb.Lesson(ctx, res.LessonID)
	if err != nil {
		t.Fatal(err)
	}
	if l.Directive == nil || !l.Directive.Directs() || len(l.Directive.Dont) == 0 || l.Directive.Dont[0].Text != "main" {
		t.Fatalf("recorded lesson's directive = %+v, want one forbidding `main`", l.Directive)
	}
}
