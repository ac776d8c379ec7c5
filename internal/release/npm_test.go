package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// needNode skips the test when node or npm is missing, unless
// INNATE_REQUIRE_NODE=1 (CI sets it where they are installed) makes that
// a failure.
func needNode(t *testing.T) {
	t.Helper()
	for _, c := range []string{"node", "npm", "npx"} {
		if _, err := exec.LookPath(c); err != nil {
			if os.Getenv("INNATE_REQUIRE_NODE") == "1" {
				t.Fatalf("%s is not on PATH and INNATE_REQUIRE_NODE=1: install Node.js (with npm) or unset it", c)
			}
			t.Skipf("%s is not on PATH: the npm packages are tested with Node.js and npm", c)
		}
	}
}

// npmEnv is an environment in which npm and the server touch only dir:
// its own home, cache and empty user configuration, no update check, and
// a registry that does not answer, so that any attempt to reach the network
// fails instead of reaching it.
func npmEnv(dir string) []string {
	home := filepath.Join(dir, "home")
	for _, d := range []string{home, filepath.Join(dir, "run")} {
		os.MkdirAll(d, 0o700)
	}
	os.WriteFile(filepath.Join(dir, "npmrc"), nil, 0o600)
	return append(os.Environ(),
		"HOME="+home,
		"XDG_DATA_HOME="+filepath.Join(home, ".local", "share"),
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_RUNTIME_DIR="+filepath.Join(dir, "run"),
		"INNATE_DB="+filepath.Join(dir, "innate.db"),
		"INNATE_MCP_BINARY=",
		"npm_config_cache="+filepath.Join(dir, "npm-cache"),
		"npm_config_userconfig="+filepath.Join(dir, "npmrc"),
		"npm_config_update_notifier=false",
		"npm_config_registry=http://127.0.0.1:9/",
		"npm_config_fund=false",
		"npm_config_audit=false",
	)
}

func runCmd(t *testing.T, ctx context.Context, env []string, dir string, name string, args ...string) []byte {
	t.Helper()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env, cmd.Dir = env, dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s%s", name, strings.Join(args, " "), err, out, stderr.Bytes())
	}
	return out
}

// TestNPM_installAndServe packs the launcher and the host's platform
// package with npm pack, installs both from the tarballs into a temporary
// prefix offline (the launcher's other optional dependencies, the other
// platforms, are not to be had), and runs the installed command: version,
// an MCP initialize handshake over stdio, the binary's exit status, and a
// SIGTERM passed on to the binary.
func TestNPM_installAndServe(t *testing.T) {
	needNode(t)
	h := hostTarget()
	if !h.supported() {
		t.Skipf("the release does not build for this machine (%s)", h)
	}
	res := buildRelease(t, []Target{h})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	tmp := t.TempDir()
	env := npmEnv(tmp)
	packs := filepath.Join(tmp, "packs")
	os.MkdirAll(packs, 0o755)

	out := runCmd(t, ctx, env, packs, "npm", "pack", "--json", "--pack-destination", packs, res.NPMLauncher, res.NPMPlatforms[h])
	var packed []struct {
		Filename string
		Files    []struct{ Path string }
	}
	if err := json.Unmarshal(out, &packed); err != nil || len(packed) != 2 {
		t.Fatalf("npm pack --json: %v\n%s", err, out)
	}
	var tarballs []string
	for _, p := range packed {
		tarballs = append(tarballs, "./"+p.Filename)
	}
	prefix := filepath.Join(tmp, "prefix")
	start := time.Now()
	runCmd(t, ctx, env, packs, "npm", append([]string{"install", "--prefix", prefix, "--offline", "--no-audit", "--no-fund"}, tarballs...)...)
	t.Logf("npm install (offline) took %.1f s", time.Since(start).Seconds())

	bin := filepath.Join(prefix, "node_modules", ".bin", "innate-mcp")
	if runtime.GOOS == "windows" {
		bin += ".cmd"
	}
	want := "innate-mcp " + testVersion + "\n"
	if got := string(runCmd(t, ctx, env, tmp, bin, "version")); got != want {
		t.Errorf("installed innate-mcp version: %q, want %q", got, want)
	}
	if got := string(runCmd(t, ctx, env, tmp, "npx", "--offline", "--prefix", prefix, "innate-mcp", "version")); got != want {
		t.Errorf("npx --prefix innate-mcp version: %q, want %q", got, want)
	}

	t.Run("exit status", func(t *testing.T) {
		cmd := exec.CommandContext(ctx, bin, "no-such-command")
		cmd.Env = env
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 {
			t.Errorf("innate-mcp no-such-command through the launcher: %v, want exit status 2 (a usage error)", err)
		}
		if !strings.Contains(stderr.String(), `unknown command "no-such-command"`) {
			t.Errorf("the binary's stderr does not come through: %q", stderr.String())
		}
	})

	t.Run("MCP initialize and SIGTERM", func(t *testing.T) {
		if runtime.GOOS == "windows" {
			t.Skip("no SIGTERM on Windows")
		}
		cmd := exec.CommandContext(ctx, bin)
		cmd.Env = env
		stdin, _ := cmd.StdinPipe()
		stdout, _ := cmd.StdoutPipe()
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer cmd.Process.Kill()
		init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"release-test","version":"1"}}}` + "\n"
		if _, err := stdin.Write([]byte(init)); err != nil {
			t.Fatal(err)
		}
		lines := make(chan string)
		go func() {
			defer close(lines)
			sc := bufio.NewScanner(stdout)
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				lines <- sc.Text()
			}
		}()
		var line string
		select {
		case line = <-lines:
		case <-time.After(60 * time.Second):
			t.Fatalf("no answer to initialize within 60 s; stderr:\n%s", stderr.String())
		}
		var resp struct {
			ID     int
			Result struct {
				ServerInfo struct{ Name, Version string }
			}
		}
		if err := json.Unmarshal([]byte(line), &resp); err != nil {
			t.Fatalf("initialize answer %q: %v", line, err)
		}
		if resp.ID != 1 || resp.Result.ServerInfo.Name != "innate-mcp" || resp.Result.ServerInfo.Version != testVersion {
			t.Errorf("initialize: id %d serverInfo %+v, want id 1, innate-mcp %s", resp.ID, resp.Result.ServerInfo, testVersion)
		}

		// SIGTERM to the launcher alone (as a client stopping its server
		// does): the launcher passes it on, the server stops cleanly while
		// stdin is still open, and the launcher exits as it did. Were the
		// signal not passed on, the launcher would wait for ever, or die and
		// leave the server running (stdout would stay open).
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		deadline := time.After(60 * time.Second)
		for open := true; open; {
			select {
			case _, open = <-lines:
			case <-deadline:
				t.Fatalf("the server still runs 60 s after SIGTERM to the launcher; stderr:\n%s", stderr.String())
			}
		}
		err := cmd.Wait()
		if err != nil {
			t.Errorf("after SIGTERM the launcher exited with %v, want 0 (the server stops cleanly); stderr:\n%s", err, stderr.String())
		}
		stdin.Close()
	})

	t.Run("no platform package", func(t *testing.T) {
		// The launcher alone, as npm leaves it with --omit=optional: it says
		// what is missing and how to get it.
		cmd := exec.CommandContext(ctx, "node", filepath.Join(res.NPMLauncher, "bin", "innate-mcp.js"), "version")
		cmd.Env = env
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 {
			t.Errorf("launcher without its platform package: %v, want exit status 1", err)
		}
		if !strings.Contains(stderr.String(), h.NPMName()) || !strings.Contains(stderr.String(), "INNATE_MCP_BINARY") {
			t.Errorf("launcher without its platform package says %q: want the package's name and INNATE_MCP_BINARY", stderr.String())
		}
	})
}
