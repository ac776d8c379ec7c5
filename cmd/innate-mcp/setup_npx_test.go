package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSetup_fromNpxCacheRegistersAStableCopy: `npx -y innate-mcp setup`
// runs the binary from npx's cache, which npm may clear; setup gives the
// clients a copy in the data directory instead, and says so.
func TestSetup_fromNpxCacheRegistersAStableCopy(t *testing.T) {
	home := t.TempDir()
	cached := filepath.Join(home, ".npm", "_npx", "1a2b3c", "node_modules", "@innate-mcp", "linux-x64", "bin", "innate-mcp")
	if err := os.MkdirAll(filepath.Dir(cached), 0o755); err != nil {
		t.Fatal(err)
	}
	bin, err := os.ReadFile(buildBinary(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cached, bin, 0o755); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(home, "data")
	cmd := exec.Command(cached, "setup", "cursor", "--scope", "user", "--no-hooks")
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_DATA_HOME="+data, "INNATE_DB="+filepath.Join(home, "kb.db"), "INNATE_LOG_LEVEL=warn")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if out, err := cmd.Output(); err != nil {
		t.Fatalf("setup from the npx cache: %v\n%s\n%s", err, out, stderr.String())
	}
	stable := filepath.Join(data, "innate-mcp", "bin", "innate-mcp")
	if !strings.Contains(stderr.String(), stable) {
		t.Errorf("setup does not say where the copy is: %q", stderr.String())
	}
	copied, err := os.ReadFile(stable)
	if err != nil || !bytes.Equal(copied, bin) {
		t.Fatalf("the copy %s: %v (equal: %v)", stable, err, bytes.Equal(copied, bin))
	}
	if st, _ := os.Stat(stable); st.Mode().Perm()&0o100 == 0 {
		t.Errorf("the copy is not executable: %v", st.Mode())
	}
	raw, err := os.ReadFile(filepath.Join(home, ".cursor", "mcp.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		MCPServers map[string]struct {
			Command string `json:"command"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal(raw, &cfg); err != nil {
		t.Fatal(err)
	}
	if got := cfg.MCPServers["innate"].Command; got != stable {
		t.Errorf("Cursor is given %q, want the stable copy %q (not npx's cache)", got, stable)
	}
}
