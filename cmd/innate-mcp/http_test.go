package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestHTTP_realClientConnects serves MCP over HTTP from the built binary
// and registers it with the real Claude Code CLI when it is installed:
// `claude mcp list` reports it connected with a valid token, and not with
// a wrong one.
func TestHTTP_realClientConnects(t *testing.T) {
	claude, err := exec.LookPath("claude")
	if err != nil {
		t.Skip("the Claude Code CLI is not installed (npm install -g @anthropic-ai/claude-code)")
	}
	if testing.Short() {
		t.Skip("starts a server and the Claude Code CLI")
	}
	dir := t.TempDir()
	env := append(os.Environ(), "INNATE_DB="+filepath.Join(dir, "kb.db"), "INNATE_LOG_LEVEL=warn", "HOME="+dir)
	bin := buildBinary(t)
	create := exec.Command(bin, "token", "create", "--name", "claude")
	create.Env = env
	out, err := create.Output()
	if err != nil {
		t.Fatalf("token create: %v", err)
	}
	token := strings.TrimSpace(string(out))

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	srv := exec.Command(bin, "serve", "--http", addr)
	srv.Env = env
	var logs bytes.Buffer
	srv.Stderr = &logs
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		srv.Process.Signal(os.Interrupt)
		srv.Wait()
	}()
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/healthz")
		if err == nil {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server did not answer /healthz: %v\n%s", err, logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}

	claudeRun := func(args ...string) string {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		c := exec.CommandContext(ctx, claude, args...)
		c.Env = append(os.Environ(), "HOME="+dir)
		c.Dir = dir
		out, _ := c.CombinedOutput()
		return string(out)
	}
	url := fmt.Sprintf("http://%s/mcp", addr)
	claudeRun("mcp", "add", "--scope", "user", "--transport", "http", "innate", url, "--header", "Authorization: Bearer "+token)
	claudeRun("mcp", "add", "--scope", "user", "--transport", "http", "innate-bad", url, "--header", "Authorization: Bearer inn_"+strings.Repeat("0", 64))
	list := claudeRun("mcp", "list")
	var good, bad string
	for _, line := range strings.Split(list, "\n") {
		switch {
		case strings.HasPrefix(line, "innate:"):
			good = line
		case strings.HasPrefix(line, "innate-bad:"):
			bad = line
		}
	}
	t.Logf("claude mcp list:\n%s", list)
	if !strings.Contains(good, "Connected") {
		t.Errorf("claude mcp list with a valid token:\n%s\nserver log:\n%s", list, logs.String())
	}
	if bad == "" || strings.Contains(bad, "✔ Connected") {
		t.Errorf("claude mcp list with a wrong token:\n%s", list)
	}
}
