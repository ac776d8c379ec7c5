package storetest

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/check"
	"github.com/innate-mcp/innate-mcp/kb"
)

// checksStoredAndScoped: a lesson's reader checks land with it; PutChecks
// replaces one origin's and keeps the state and record of those kept;
// Checks selects a project's active lessons and the global ones only;
// UpdateCheck writes state and record, ErrNotFound for a missing one; the
// spec's text is redacted.
func checksStoredAndScoped(t *testing.T, s kb.Admin, reopen func() kb.Admin) {
	ctx := context.Background()
	npm := check.Check{Kind: check.PreferInstead, Instead: "pnpm", Command: &check.CommandPattern{Programs: []string{"npm"}},
		Quote: "Use pnpm, not npm", From: check.Provenance{By: check.ByReader, Version: 1}}
	gen := check.Check{Kind: check.Forbid, Write: &check.WritePattern{Paths: []string{"generated/"}}, From: check.Provenance{By: check.ByReader, Version: 1}}
	nl := newLesson("Use pnpm, not npm", "/p/a")
	nl.Checks = []check.Check{npm}
	a := insert(t, s, nl)
	b := insert(t, s, newLesson("Never edit generated files", "/p/b"))
	g := insert(t, s, newLesson("A global rule", ""))
	arch := newLesson("An archived rule", "/p/a")
	arch.State = kb.StateArchived
	arch.Checks = []check.Check{gen}
	insert(t, s, arch)
	now := time.Now().UTC().Truncate(time.Millisecond)
	update(t, s, func(ctx context.Context, tx kb.Tx) error {
		if err := tx.PutChecks(ctx, b.ID, check.ByReader, []check.Check{gen}, now); err != nil {
			return err
		}
		person := gen
		person.From = check.Provenance{By: check.ByPerson, Note: "token " + secret}
		return tx.PutChecks(ctx, g.ID, check.ByPerson, []check.Check{person}, now)
	})
	ids := func(cs []kb.StoredCheck) string {
		var out []string
		for _, c := range cs {
			out = append(out, c.LessonID)
		}
		return strings.Join(out, ",")
	}
	got, err := s.Checks(ctx, kb.CheckFilter{Project: "/p/a"})
	if err != nil {
		t.Fatal(err)
	}
	if want := a.ID + "," + g.ID; ids(got) != want {
		t.Fatalf("project /p/a checks of %s, want %s (its active lessons and the global one)", ids(got), want)
	}
	if got[0].Check.Command == nil || got[0].Check.Instead != "pnpm" || got[0].Check.Rule != a.ID || got[0].State != kb.CheckActive || got[0].ID != kb.CheckID(a.ID, npm) {
		t.Errorf("stored check = %+v", got[0])
	}
	if strings.Contains(got[1].Check.From.Note, secret) {
		t.Error("a secret in a check's spec reached the store")
	}
	if got, _ := s.Checks(ctx, kb.CheckFilter{}); ids(got) != g.ID {
		t.Errorf("no project: checks of %s, want only the global %s", ids(got), g.ID)
	}
	// Record a firing and demote; then put the reader's checks again with
	// one kept and one new: the kept one keeps its record.
	id := got[0].ID
	var fired kb.StoredCheck
	update(t, s, func(ctx context.Context, tx kb.Tx) error {
		c, err := tx.Check(ctx, kb.CheckID(a.ID, npm))
		if err != nil {
			return err
		}
		c.Fired, c.Overridden, c.State, c.LastFired, c.UpdatedAt = 3, 2, kb.CheckRemind, &now, now
		fired = c
		return tx.UpdateCheck(ctx, c)
	})
	_ = id
	yarn := npm
	yarn.Command = &check.CommandPattern{Programs: []string{"yarn"}}
	update(t, s, func(ctx context.Context, tx kb.Tx) error {
		return tx.PutChecks(ctx, a.ID, check.ByReader, []check.Check{npm, yarn}, now.Add(time.Second))
	})
	cs, err := reopen().Checks(ctx, kb.CheckFilter{Lesson: a.ID})
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 2 {
		t.Fatalf("lesson %s has %d checks, want 2", a.ID, len(cs))
	}
	k := cs[0]
	if k.ID != fired.ID || k.Fired != 3 || k.Overridden != 2 || k.State != kb.CheckRemind || k.LastFired == nil || !k.LastFired.Equal(now) {
		t.Errorf("kept check lost its record: %+v", k)
	}
	if cs[1].State != kb.CheckActive || cs[1].Fired != 0 || cs[1].Check.Command.Programs[0] != "yarn" {
		t.Errorf("new check = %+v", cs[1])
	}
	// Putting none removes that origin's, not another's.
	update(t, s, func(ctx context.Context, tx kb.Tx) error { return tx.PutChecks(ctx, a.ID, check.ByReader, nil, now) })
	if cs, _ := s.Checks(ctx, kb.CheckFilter{Lesson: a.ID}); len(cs) != 0 {
		t.Errorf("after putting none: %d checks", len(cs))
	}
	if cs, _ := s.Checks(ctx, kb.CheckFilter{Lesson: g.ID}); len(cs) != 1 || cs[0].Check.From.By != check.ByPerson {
		t.Errorf("the person's check of %s: %+v", g.ID, cs)
	}
	err = s.Update(ctx, func(tx kb.Tx) error {
		if _, err := tx.Check(ctx, "k000000000000"); !errors.Is(err, kb.ErrNotFound) {
			t.Errorf("Check of a missing id: %v, want ErrNotFound", err)
		}
		err := tx.UpdateCheck(ctx, kb.StoredCheck{ID: "k000000000000", State: kb.CheckActive, UpdatedAt: now})
		if !errors.Is(err, kb.ErrNotFound) {
			t.Errorf("UpdateCheck of a missing id: %v, want ErrNotFound", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
