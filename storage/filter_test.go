package storage

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/kb"
)

func TestDB_lessonsFilter(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	ls := insert(t, db,
		kb.NewLesson{Content: "global user rule", Origin: kb.OriginUserStated},
		kb.NewLesson{Content: "global imported rule"},
		kb.NewLesson{Content: "project user rule", Project: "p", Origin: kb.OriginUserStated},
		kb.NewLesson{Content: "other project user rule", Project: "q", Origin: kb.OriginUserStated},
		kb.NewLesson{Content: "archived project rule", Project: "p", Origin: kb.OriginUserStated, State: kb.StateArchived},
	)
	tests := []struct {
		name   string
		filter kb.LessonFilter
		want   []int // indexes into ls
	}{
		{"all", kb.LessonFilter{}, []int{0, 1, 2, 3, 4}},
		{"project", kb.LessonFilter{Project: "p"}, []int{2, 4}},
		{"global only", kb.LessonFilter{Global: true}, []int{0, 1}},
		{"global overrides project", kb.LessonFilter{Global: true, Project: "p"}, []int{0, 1}},
		{"origin", kb.LessonFilter{Origin: kb.OriginUserStated}, []int{0, 2, 3, 4}},
		{"global user-stated", kb.LessonFilter{Global: true, Origin: kb.OriginUserStated}, []int{0}},
		{"project active", kb.LessonFilter{Project: "p", States: []kb.State{kb.StateActive}}, []int{2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var want []string
			for _, i := range tt.want {
				want = append(want, ls[i].ID)
			}
			var got []string
			if err := db.Lessons(ctx, tt.filter, func(l kb.Lesson) error { got = append(got, l.ID); return nil }); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("Lessons = %v, want %v", got, want)
			}
			// A transaction sees the same, and fn may use it.
			got = nil
			err := db.Update(ctx, func(tx kb.Tx) error {
				return tx.Lessons(ctx, tt.filter, func(l kb.Lesson) error {
					if _, err := tx.Lesson(ctx, l.ID); err != nil {
						return err
					}
					got = append(got, l.ID)
					return nil
				})
			})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("Tx.Lessons = %v, want %v", got, want)
			}
		})
	}
}

func TestTx_linksSeesOwnWrites(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	ls := insert(t, db, kb.NewLesson{Content: "old rule"}, kb.NewLesson{Content: "new rule"}, kb.NewLesson{Content: "unrelated"})
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	var inTx []kb.Link
	err := db.Update(ctx, func(tx kb.Tx) error {
		if err := tx.LinkLessons(ctx, ls[1].ID, ls[0].ID, "supersedes", "reworded", at); err != nil {
			return err
		}
		var err error
		inTx, err = tx.Links(ctx, ls[0].ID)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []kb.Link{{A: ls[1].ID, B: ls[0].ID, Kind: "supersedes", Reason: "reworded", At: at}}
	if !reflect.DeepEqual(inTx, want) {
		t.Fatalf("Tx.Links = %+v, want %+v", inTx, want)
	}
	got, err := db.Links(ctx, ls[1].ID)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("DB.Links = %+v, %v; want %+v", got, err, want)
	}
	if got, err := db.Links(ctx, ls[2].ID); err != nil || len(got) != 0 {
		t.Fatalf("links of an unlinked lesson = %+v, %v", got, err)
	}
}
