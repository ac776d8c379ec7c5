package storerow

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/innate-mcp/innate-mcp/kb"
)

// TokenColumns are the columns of tokens that Token reads, in order.
const TokenColumns = `id, name, scope, projects, created_at, revoked_at`

// TokenArgs are the values of a new token's row, hashed to hash: id, name,
// hash, scope, projects and created_at, in that order.
func TokenArgs(t kb.Token, hash string) ([]any, error) {
	projects, err := Strings(t.Projects)
	if err != nil {
		return nil, fmt.Errorf("encode token projects: %w", err)
	}
	return []any{t.ID, t.Name, hash, t.Scope, projects, FormatTime(t.CreatedAt)}, nil
}

// Token reads one row of TokenColumns.
func Token(scan Scan) (kb.Token, error) {
	var t kb.Token
	var projects, created string
	var revoked *string
	if err := scan(&t.ID, &t.Name, &t.Scope, &projects, &created, &revoked); err != nil {
		return kb.Token{}, err
	}
	if err := json.Unmarshal([]byte(projects), &t.Projects); err != nil {
		return kb.Token{}, fmt.Errorf("token %s: projects: %w", t.ID, err)
	}
	t.CreatedAt = ParseTime(created)
	if revoked != nil {
		at := ParseTime(*revoked)
		t.RevokedAt = &at
	}
	return t, nil
}

// TokenByHash reads the row of TokenColumns of the token a lookup by hash
// found: kb.ErrNotFound when scan says so (the store's reading of "no
// rows").
func TokenByHash(scan Scan) (kb.Token, error) {
	t, err := Token(scan)
	if errors.Is(err, kb.ErrNotFound) {
		return kb.Token{}, kb.ErrNotFound
	}
	if err != nil {
		return kb.Token{}, fmt.Errorf("read token: %w", err)
	}
	return t, nil
}

// VerdictFootingColumns are the columns of verdict_log that
// VerdictFooting reads, in order.
const VerdictFootingColumns = `support, evidence, agreement, top_resonance, resonating`

// VerdictFooting reads the row of VerdictFootingColumns of an appraise
// trace's verdict; an error wrapping kb.ErrNotFound when scan returns one
// (the store's reading of "no rows").
func VerdictFooting(scan Scan) (kb.VerdictFooting, error) {
	var f kb.VerdictFooting
	if err := scan(&f.Support, &f.Evidence, &f.Agreement, &f.TopResonance, &f.Resonating); err != nil {
		return f, fmt.Errorf("read verdict log: %w", err)
	}
	return f, nil
}
