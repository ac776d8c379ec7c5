package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// maxHookErrorLog bounds the hooks' error log; past it the older half is
// dropped.
const maxHookErrorLog = 256 << 10

// hookErrorLog is the file the hooks note their errors in (they fail open
// and print nothing, so this is where a user sees why they were silent):
// innate-mcp/hooks/log/errors.log in the data directory.
func (m *Main) hookErrorLog() (string, error) {
	dir, err := dataDir(m.Getenv)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "innate-mcp", "hooks", "log", "errors.log"), nil
}

// noteHookError appends one line to the hooks' error log: the time, the
// event and the error. It never fails the hook.
func (m *Main) noteHookError(event string, err error) {
	p, perr := m.hookErrorLog()
	if perr != nil || err == nil {
		return
	}
	if os.MkdirAll(filepath.Dir(p), 0o700) != nil {
		return
	}
	if fi, err := os.Stat(p); err == nil && fi.Size() > maxHookErrorLog {
		if b, err := os.ReadFile(p); err == nil {
			b = b[len(b)/2:]
			if i := bytes.IndexByte(b, '\n'); i >= 0 {
				b = b[i+1:]
			}
			os.WriteFile(p, b, 0o600)
		}
	}
	f, ferr := os.OpenFile(p, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if ferr != nil {
		return
	}
	defer f.Close()
	line := strings.ReplaceAll(err.Error(), "\n", " ")
	fmt.Fprintf(f, "%s %s %s\n", time.Now().UTC().Format(time.RFC3339), event, line)
}

// lastLines returns up to n last lines of a file (none when it is absent).
func lastLines(path string, n int) []string {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) == 1 && lines[0] == "" {
		return nil
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return lines
}
