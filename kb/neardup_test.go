package kb_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/kb"
)

// countLessons returns how many lessons the store holds, archived included.
func (e *env) countLessons(tb testing.TB) int {
	tb.Helper()
	n := 0
	if err := e.db.Lessons(context.Background(), kb.LessonFilter{}, func(kb.Lesson) error { n++; return nil }); err != nil {
		tb.Fatal(err)
	}
	return n
}

// TestRecord_nearDuplicateReinforces: five agent-inferred lessons that differ
// only by a number are one lesson, stated once and reinforced four times; the
// rules against self-confirmation decide what the reinforcements are worth.
func TestRecord_nearDuplicateReinforces(t *testing.T) {
	c := &clock{t: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}
	a := newEnv(t, withClock(c, "session-a"))
	state := func(n int) kb.RecordRequest {
		return kb.RecordRequest{Project: "/p", Lesson: &kb.LessonInput{Content: fmt.Sprintf("Concurrent lesson number %d: keep handlers small.", n)}}
	}
	first := a.record(t, state(1))
	id := first.LessonID
	if first.NearDuplicate || first.Duplicate || id == "" {
		t.Fatalf("first statement = %+v, want a new lesson", first)
	}
	for n := 2; n <= 5; n++ {
		res := a.record(t, state(n))
		if !res.NearDuplicate || res.Duplicate || res.LessonID != id {
			t.Fatalf("number %d: %+v, want a near-duplicate of %s", n, res, id)
		}
		if len(res.Changes) != 1 || res.Changes[0].LessonID != id || !strings.Contains(res.Changes[0].What, "reinforced") {
			t.Fatalf("number %d: changes %+v, want one saying %s was reinforced", n, res.Changes, id)
		}
	}
	if n := a.countLessons(t); n != 1 {
		t.Fatalf("%d lessons stored, want 1", n)
	}
	l := a.lesson(t, id)
	// The creating session restates it four times: counted, but it cannot
	// confirm its own lesson.
	if l.Counters.Observed != 4 || l.Conf.Observations != 1 || l.Conf.Ignored != 4 || l.State != kb.StatePending {
		t.Fatalf("after four restatements in the creating session: observed %d, observations %d, ignored %d, %s; want 4, 1, 4, pending",
			l.Counters.Observed, l.Conf.Observations, l.Conf.Ignored, l.State)
	}
	// Another session's restatements count once.
	c.t = c.t.Add(time.Hour)
	b := openEnv(t, a.path, withClock(c, "session-b"))
	for n := 6; n <= 7; n++ {
		if res := b.record(t, state(n)); !res.NearDuplicate || res.LessonID != id {
			t.Fatalf("number %d from session b: %+v", n, res)
		}
	}
	l = a.lesson(t, id)
	if l.Counters.Observed != 6 || l.Conf.Observations != 2 {
		t.Fatalf("after session b: observed %d, observations %d; want 6, 2", l.Counters.Observed, l.Conf.Observations)
	}
	// An exact duplicate behaves as it always did.
	dup := b.record(t, kb.RecordRequest{Project: "/p", Lesson: &kb.LessonInput{Content: "concurrent lesson NUMBER 1:  keep handlers small."}})
	if !dup.Duplicate || dup.NearDuplicate || dup.LessonID != id || a.lesson(t, id).Counters.Observed != 7 {
		t.Fatalf("exact duplicate = %+v", dup)
	}
}

// TestRecord_differentLessonsAreStored: only numbers may differ, in the same
// project and kind, for a lesson to fold into one already held.
func TestRecord_differentLessonsAreStored(t *testing.T) {
	held := kb.LessonInput{Content: "Retry the sync worker at most 3 times on error 503.", Trigger: "sync worker errors"}
	tests := []struct {
		name    string
		project string
		lesson  kb.LessonInput
		folds   bool
	}{
		{"numbers differ", "/p", kb.LessonInput{Content: "Retry the sync worker at most 5 times on error 429.", Trigger: "sync worker errors"}, true},
		{"numbers and case and spacing differ", "/p", kb.LessonInput{Content: "retry the sync worker at most 4 times  on ERROR 500.", Trigger: "Sync worker errors"}, true},
		{"a word differs", "/p", kb.LessonInput{Content: "Retry the sync worker at least 3 times on error 503.", Trigger: "sync worker errors"}, false},
		{"polarity differs", "/p", kb.LessonInput{Content: "Never retry the sync worker at most 3 times on error 503.", Trigger: "sync worker errors"}, false},
		{"the trigger differs", "/p", kb.LessonInput{Content: "Retry the sync worker at most 5 times on error 503.", Trigger: "sync worker timeouts"}, false},
		{"digits inside a word", "/p", kb.LessonInput{Content: "Retry the sync worker at most 3 times on error 503v2.", Trigger: "sync worker errors"}, false},
		{"another project", "/q", kb.LessonInput{Content: "Retry the sync worker at most 5 times on error 503.", Trigger: "sync worker errors"}, false},
		{"global", "/p", kb.LessonInput{Content: "Retry the sync worker at most 5 times on error 503.", Trigger: "sync worker errors", Global: true}, false},
		{"another kind", "/p", kb.LessonInput{Content: "Retry the sync worker at most 5 times on error 503.", Trigger: "sync worker errors", Kind: kb.KindCaution}, false},
		{"stated by the user", "/p", kb.LessonInput{Content: "Retry the sync worker at most 5 times on error 503.", Trigger: "sync worker errors", Origin: kb.OriginUserStated}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			h := held
			id := e.record(t, kb.RecordRequest{Project: "/p", Lesson: &h}).LessonID
			l := tt.lesson
			req := kb.RecordRequest{Project: tt.project, Lesson: &l}
			if l.Origin == kb.OriginUserStated {
				req.Author = kb.AuthorPerson // a person says where the number is the point
			}
			res := e.record(t, req)
			if res.Duplicate {
				t.Fatalf("read as an exact duplicate: %+v", res)
			}
			if got := res.NearDuplicate && res.LessonID == id; got != tt.folds {
				t.Fatalf("reinforced the held lesson = %v, want %v (%+v)", got, tt.folds, res)
			}
			want := 2
			if tt.folds {
				want = 1
			}
			if n := e.countLessons(t); n != want {
				t.Fatalf("%d lessons stored, want %d", n, want)
			}
		})
	}
}

// TestRecord_nearDuplicateOfArchivedIsStored: an archived lesson is not
// reinforced by a restatement in other numbers; the restatement is stored.
func TestRecord_nearDuplicateOfArchivedIsStored(t *testing.T) {
	e := newEnv(t)
	id := e.record(t, kb.RecordRequest{Lesson: &kb.LessonInput{Content: "Step 1: vendor the dependencies."}}).LessonID
	if _, _, err := e.kb.ApplyAction(context.Background(), id, kb.ActionArchive, "outdated"); err != nil {
		t.Fatal(err)
	}
	res := e.record(t, kb.RecordRequest{Lesson: &kb.LessonInput{Content: "Step 2: vendor the dependencies."}})
	if res.NearDuplicate || res.LessonID == id || e.countLessons(t) != 2 {
		t.Fatalf("restatement of an archived lesson = %+v", res)
	}
}

// TestAdd_nearDuplicateReinforces: import reports a near-duplicate as
// reinforcing the lesson it repeats, by id; an export line, which brings
// its own history, is restored as itself.
func TestAdd_nearDuplicateReinforces(t *testing.T) {
	e := newEnv(t)
	var nls []kb.NewLesson
	for n := 1; n <= 5; n++ {
		nls = append(nls, kb.NewLesson{Content: fmt.Sprintf("Concurrent lesson number %d: keep handlers small.", n), Project: "/p"})
	}
	nls = append(nls, kb.NewLesson{Content: "Concurrent lesson number 1: keep handlers small.", Project: "/p"},
		kb.NewLesson{Content: "Concurrent lesson number 9: keep handlers small.", Project: "/p",
			CreatedAt: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), Counters: kb.Counters{Uses: 2}})
	rep, err := e.kb.Add(context.Background(), nls, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Added != 2 || rep.Reinforced != 4 || rep.Duplicates != 1 {
		t.Fatalf("added %d, reinforced %d, duplicates %d; want 2, 4, 1", rep.Added, rep.Reinforced, rep.Duplicates)
	}
	id := rep.Items[0].ID
	for _, it := range rep.Items[1:5] {
		if it.Status != kb.AddReinforced || it.ID != id || !strings.Contains(it.Reason, "reinforced") {
			t.Fatalf("item %d = %+v, want reinforced %s", it.Index, it, id)
		}
	}
	if it := rep.Items[6]; it.Status != kb.AddAdded || it.ID == id {
		t.Fatalf("export line = %+v, want restored as itself", it)
	}
	if got := e.lesson(t, id).Counters.Observed; got != 4 {
		t.Fatalf("observed = %d, want 4", got)
	}
}
