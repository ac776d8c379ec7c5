package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// recordCall is a tools/call of record teaching lesson i, under id.
func recordCall(id, i int) []byte {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": map[string]any{
		"name": "record", "arguments": map[string]any{"lesson": map[string]any{
			"content": fmt.Sprintf("Shutdown lesson %s: finish what was read before exiting.", letters(i)), "origin": "user_stated"}}}})
	return b
}

// exportCount returns how many lessons the database holds.
func exportCount(t *testing.T, db string) int {
	t.Helper()
	out, err := runOn(t, db, "", "export")
	if err != nil {
		t.Fatalf("export: %v", err)
	}
	return strings.Count(string(out), "\n")
}

// recordOK reports whether a response is a record result that stored a
// lesson.
func recordOK(msg map[string]any) bool {
	res, _ := msg["result"].(map[string]any)
	if res == nil {
		return false
	}
	if isErr, _ := res["isError"].(bool); isErr {
		return false
	}
	sc, _ := res["structuredContent"].(map[string]any)
	id, _ := sc["lesson_id"].(string)
	return id != ""
}

// TestE2E_stdinClosedFinishesCalls: a client writes the handshake and a
// burst of records and closes stdin at once, as clients do to shut a server
// down. Every call gets its response, every lesson is stored, and the
// server exits 0.
func TestE2E_stdinClosedFinishesCalls(t *testing.T) {
	db := filepath.Join(t.TempDir(), "kb.db")
	const n = 16
	var in bytes.Buffer
	in.WriteString(lineInit + "\n" + lineInitialized + "\n")
	for i := range n {
		in.Write(recordCall(10+i, i))
		in.WriteByte('\n')
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dir := t.TempDir()
	m := &Main{
		Getenv: func(k string) string {
			switch k {
			case "INNATE_DB":
				return db
			case "INNATE_LOG_LEVEL":
				return "warn"
			}
			return os.Getenv(k)
		},
		Getwd: func() (string, error) { return dir, nil },
	}
	// The reader ends as soon as it has been read, as a closed stdin does.
	var stdout, stderr bytes.Buffer
	if err := m.Run(ctx, []string{"serve"}, &in, &stdout, &stderr); err != nil {
		t.Fatalf("serve: %v (stderr: %s)", err, stderr.String())
	}
	got := map[int]map[string]any{}
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var msg map[string]any
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("stdout line %q: %v", line, err)
		}
		if id, ok := msg["id"].(float64); ok {
			got[int(id)] = msg
		}
	}
	for i := range n {
		if msg := got[10+i]; !recordOK(msg) {
			t.Errorf("record %d: response %v, want a stored lesson", 10+i, msg)
		}
	}
	if c := exportCount(t, db); c != n {
		t.Fatalf("database holds %d lessons, want %d (stderr: %s)", c, n, stderr.String())
	}
}

// TestE2E_sigtermFinishesCallsInFlight: SIGTERM in the middle of a burst
// of records stops the server reading, but every call it had read still
// runs, answers and is stored; the server exits 0.
func TestE2E_sigtermFinishesCallsInFlight(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGTERM on Windows")
	}
	db := filepath.Join(t.TempDir(), "kb.db")
	c := spawnProcess(t, db)
	c.initialize()
	const n = 40
	chans := make([]chan map[string]any, n)
	for i := range n {
		chans[i] = c.send("tools/call", map[string]any{"name": "record", "arguments": map[string]any{"lesson": map[string]any{
			"content": fmt.Sprintf("Signal lesson %s: finish what was read before exiting.", letters(i)), "origin": "user_stated"}}})
	}
	var first map[string]any
	select {
	case first = <-chans[0]:
	case <-time.After(60 * time.Second):
		t.Fatalf("no response to the first record (stderr: %s)", c.stderr.String())
	}
	if err := c.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-c.done:
	case <-time.After(30 * time.Second):
		t.Fatalf("server did not close stdout after SIGTERM (stderr: %s)", c.stderr.String())
	}
	if err := c.cmd.Wait(); err != nil {
		t.Fatalf("exit after SIGTERM: %v (stderr: %s)", err, c.stderr.String())
	}
	answered := 0
	for i, ch := range chans {
		msg := first
		if i > 0 {
			select {
			case msg = <-ch:
			default:
				continue // never read: the signal came first
			}
		}
		answered++
		if !recordOK(msg) {
			t.Errorf("record %d: response %v, want a stored lesson", i, msg)
		}
	}
	if got := exportCount(t, db); got != answered {
		t.Fatalf("database holds %d lessons, %d records were answered", got, answered)
	}
	t.Logf("%d of %d records were read before SIGTERM, and all of them finished", answered, n)
}

// The handshake's lines.
const (
	lineInit        = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`
	lineInitialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)
