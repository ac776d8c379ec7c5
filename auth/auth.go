// Package auth is the team server's access control: bearer tokens (made
// here, stored only as their hash), their scopes, and the projects a token
// may read and write. It does no I/O; the store keeps the tokens.
package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Scope is what a token may do.
type Scope string

// The scopes, each allowing what the one before it does.
const (
	// Read: recall, appraise, hesitate, stats.
	Read Scope = "read"
	// Write: Read, and record.
	Write Scope = "write"
	// Admin: Write, and the operator's actions (approve, reject, archive,
	// restore lessons; the dashboard).
	Admin Scope = "admin"
)

// ParseScope reads a scope; "" is write.
func ParseScope(s string) (Scope, error) {
	switch Scope(s) {
	case "":
		return Write, nil
	case Read, Write, Admin:
		return Scope(s), nil
	}
	return "", fmt.Errorf("%w %q: use read, write or admin", ErrScope, s)
}

// ErrScope is wrapped by the error for an unknown scope.
var ErrScope = errors.New("unknown scope")

// rank orders the scopes.
func (s Scope) rank() int { return slices.Index([]Scope{Read, Write, Admin}, s) }

// Allows reports whether s allows what need asks for.
func (s Scope) Allows(need Scope) bool { return s.rank() >= 0 && s.rank() >= need.rank() }

// Prefix starts every token, so that a secret scanner (and sanitize's
// redaction) can tell one.
const Prefix = "inn_"

// tokenBytes is the entropy of a token.
const tokenBytes = 32

// NewToken returns a new secret token and its hash.
func NewToken() (secret, hash string) {
	b := make([]byte, tokenBytes)
	rand.Read(b) // never fails (crypto/rand, Go 1.24+)
	secret = Prefix + hex.EncodeToString(b)
	return secret, Hash(secret)
}

// Hash is the stored form of a token: its SHA-256, hex. A token is random
// and long, so a fast hash is the right one (no password stretching).
func Hash(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// LooksLikeToken reports whether s has a token's form.
func LooksLikeToken(s string) bool {
	return strings.HasPrefix(s, Prefix) && len(s) == len(Prefix)+2*tokenBytes
}

// MayUse reports whether a token limited to projects (none: every project)
// may read or write project (a lesson or call of no project is global:
// every token may read it, only an unlimited token may write it).
func MayUse(projects []string, project string, write bool) bool {
	if len(projects) == 0 {
		return true
	}
	if project == "" {
		return !write
	}
	return slices.Contains(projects, project)
}
