package storage

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/kb"
)

func TestTokens_createListFindRevoke(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	at := time.Date(2026, 11, 24, 5, 0, 0, 0, time.UTC)
	if err := db.CreateToken(ctx, kb.Token{ID: "tk_a", Name: "ci", Scope: "read", Projects: []string{"/p"}, CreatedAt: at}, "h1"); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateToken(ctx, kb.Token{ID: "tk_b", Name: "alice", Scope: "admin", CreatedAt: at.Add(time.Minute)}, "h2"); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateToken(ctx, kb.Token{ID: "tk_c", Name: "ci", Scope: "write", CreatedAt: at}, "h3"); !errors.Is(err, kb.ErrExists) {
		t.Errorf("duplicate name: %v, want ErrExists", err)
	}
	ts, err := db.Tokens(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 2 || ts[0].Name != "ci" || ts[0].Projects[0] != "/p" || ts[1].Scope != "admin" || ts[1].RevokedAt != nil {
		t.Fatalf("tokens %+v", ts)
	}
	got, err := db.TokenByHash(ctx, "h2")
	if err != nil || got.Name != "alice" {
		t.Errorf("by hash: %+v, %v", got, err)
	}
	if _, err := db.TokenByHash(ctx, "nope"); !errors.Is(err, kb.ErrNotFound) {
		t.Errorf("unknown hash: %v", err)
	}
	if err := db.RevokeToken(ctx, "ci", at.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := db.RevokeToken(ctx, "tk_a", at.Add(2*time.Hour)); err != nil { // by id, again
		t.Fatal(err)
	}
	if got, _ := db.TokenByHash(ctx, "h1"); got.RevokedAt == nil || !got.RevokedAt.Equal(at.Add(time.Hour)) {
		t.Errorf("revoked at %v, want the first revocation", got.RevokedAt)
	}
	if err := db.RevokeToken(ctx, "bob", at); !errors.Is(err, kb.ErrNotFound) {
		t.Errorf("unknown token: %v", err)
	}
}
