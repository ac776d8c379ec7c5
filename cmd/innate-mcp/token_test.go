package main

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/innate-mcp/innate-mcp/auth"
	"github.com/innate-mcp/innate-mcp/kb"
)

func TestCLI_tokens(t *testing.T) {
	env := testEnv(t)
	out, err := run(t, env, "", "token", "create", "--name", "ci", "--project", "/srv/shop", "--scope", "read")
	if err != nil {
		t.Fatal(err)
	}
	secret := strings.TrimSpace(out)
	if !auth.LooksLikeToken(secret) {
		t.Fatalf("create printed %q, want the token alone", out)
	}
	// Only the hash is stored: neither the list nor the database file
	// holds the secret.
	list, err := run(t, env, "", "token", "list")
	if err != nil {
		t.Fatal(err)
	}
	var ts []kb.Token
	if err := json.Unmarshal([]byte(list), &ts); err != nil || len(ts) != 1 || ts[0].Name != "ci" || ts[0].Scope != "read" || ts[0].Projects[0] != "/srv/shop" {
		t.Fatalf("list %s: %v", list, err)
	}
	if strings.Contains(list, secret) || strings.Contains(list, auth.Hash(secret)) {
		t.Error("the list shows the secret or its hash")
	}
	for _, suffix := range []string{"", "-wal"} {
		if b, err := os.ReadFile(env["INNATE_DB"] + suffix); err == nil && strings.Contains(string(b), secret[len(auth.Prefix):]) {
			t.Errorf("the database file%s holds the secret", suffix)
		}
	}
	if _, err := run(t, env, "", "token", "create", "--name", "ci"); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("duplicate name: %v", err)
	}
	for _, bad := range [][]string{{"token", "create"}, {"token", "create", "--name", "x", "--scope", "root"}, {"token"}, {"token", "rotate"}} {
		if _, err := run(t, env, "", bad...); !errors.Is(err, errUsage) {
			t.Errorf("%v: %v, want a usage error", bad, err)
		}
	}
	if out, err := run(t, env, "", "token", "revoke", "ci"); err != nil || !strings.Contains(out, "revoked ci") {
		t.Errorf("revoke: %q, %v", out, err)
	}
	list, _ = run(t, env, "", "token", "list")
	if !strings.Contains(list, `"revoked_at"`) {
		t.Errorf("revoked token: %s", list)
	}
	if _, err := run(t, env, "", "token", "revoke", "bob"); err == nil || !strings.Contains(err.Error(), "no token named") {
		t.Errorf("unknown token: %v", err)
	}
}
