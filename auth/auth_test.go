package auth

import (
	"errors"
	"strings"
	"testing"

	"github.com/innate-mcp/innate-mcp/sanitize"
)

func TestScopes(t *testing.T) {
	tests := []struct {
		have, need Scope
		ok         bool
	}{
		{Read, Read, true}, {Read, Write, false}, {Read, Admin, false},
		{Write, Read, true}, {Write, Write, true}, {Write, Admin, false},
		{Admin, Read, true}, {Admin, Write, true}, {Admin, Admin, true},
		{Scope("root"), Read, false},
	}
	for _, tt := range tests {
		if got := tt.have.Allows(tt.need); got != tt.ok {
			t.Errorf("%s allows %s = %v, want %v", tt.have, tt.need, got, tt.ok)
		}
	}
	if s, err := ParseScope(""); err != nil || s != Write {
		t.Errorf("default scope %q, %v", s, err)
	}
	if _, err := ParseScope("root"); !errors.Is(err, ErrScope) {
		t.Errorf("ParseScope(root): %v", err)
	}
}

func TestNewToken(t *testing.T) {
	a, ha := NewToken()
	b, hb := NewToken()
	if a == b || ha == hb || !LooksLikeToken(a) || Hash(a) != ha || ha == a {
		t.Errorf("tokens %q %q hashes %q %q", a, b, ha, hb)
	}
	if LooksLikeToken("inn_short") || LooksLikeToken(ha) {
		t.Error("not tokens taken for tokens")
	}
}

func TestMayUse(t *testing.T) {
	tests := []struct {
		projects []string
		project  string
		write    bool
		ok       bool
	}{
		{nil, "/a", true, true},
		{nil, "", true, true},
		{[]string{"/a"}, "/a", true, true},
		{[]string{"/a"}, "/b", false, false},
		{[]string{"/a"}, "/b", true, false},
		{[]string{"/a"}, "", false, true},
		{[]string{"/a"}, "", true, false},
	}
	for _, tt := range tests {
		if got := MayUse(tt.projects, tt.project, tt.write); got != tt.ok {
			t.Errorf("MayUse(%v, %q, write %v) = %v, want %v", tt.projects, tt.project, tt.write, got, tt.ok)
		}
	}
}

func TestTokensAreRedacted(t *testing.T) {
	secret, _ := NewToken()
	out, n := sanitize.Redact("Authorization: Bearer " + secret + " please")
	if len(n) == 0 || strings.Contains(out, secret[len(Prefix):len(Prefix)+16]) {
		t.Errorf("token not redacted: %q", out)
	}
}
