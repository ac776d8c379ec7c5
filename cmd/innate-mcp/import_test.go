package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/innate-mcp/innate-mcp/rulefile"
)

// TestCLI_importRefuses: import refuses what is not a regular file, what
// does not look like lessons or rules, and files and lines over their
// limits, saying why, before it opens the database.
func TestCLI_importRefuses(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	huge := filepath.Join(dir, "huge.jsonl") // sparse: nothing is written
	if f, err := os.Create(huge); err != nil {
		t.Fatal(err)
	} else {
		f.Truncate(maxJSONLFileBytes + 1)
		f.Close()
	}
	cases := []struct {
		name, path, want string
	}{
		{"device", os.DevNull, "is a character device: import reads regular files"},
		{"directory", dir, "is a directory"},
		{"not lessons", write("passwd", []byte("root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1::/usr/sbin:/usr/sbin/nologin\n")),
			"does not look like lessons or rules"},
		{"long line", write("long.jsonl", []byte(`{"content": "`+strings.Repeat("a", 2<<20)+`"}`+"\n")),
			"line 1 is longer than 1 MiB, the limit for one line"},
		{"large rule file", write("big.md", bytes.Repeat([]byte("- Use gofmt on every file.\n"), (rulefile.MaxFileBytes/27)+1)),
			"holds more than 4 MiB, the limit for a rule file"},
		{"large JSONL file", huge, "holds more than 512 MiB, the limit for a lesson JSONL file"},
		{"binary rule file", write("bin.md", []byte("# Rules\n\x00\x01\x02\x03")), "not a text file"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := testEnv(t)
			_, err := run(t, env, "", "import", tc.path)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "import "+tc.path) {
				t.Fatalf("import %s: %v, want an error saying %q", tc.path, err, tc.want)
			}
			if _, err := os.Stat(env["INNATE_DB"]); !os.IsNotExist(err) {
				t.Fatalf("import %s opened the database", tc.path)
			}
		})
	}
	// Files named otherwise are read by their first bytes.
	env := testEnv(t)
	out, err := run(t, env, "", "import", write("lessons.json", []byte(`{"content": "Prefer table tests."}`+"\n")),
		write("RULES", []byte("# Style\n\n- Wrap errors with context.\n")))
	if err != nil || !strings.Contains(out, `"added": 2`) {
		t.Fatalf("import by content: %s %v", out, err)
	}
}

// TestCLI_importProgressAndResume: a large import shows its progress on a
// terminal (only there), and an interrupted one is resumed by running it
// again: what was stored is skipped as duplicates.
func TestCLI_importProgressAndResume(t *testing.T) {
	env := testEnv(t)
	var lines bytes.Buffer
	const n = 300
	for i := range n {
		fmt.Fprintf(&lines, `{"content": "Check the widget%s frobnication of module%s before release."}`+"\n", letters(i), letters(i+7))
	}
	file := filepath.Join(t.TempDir(), "lessons.jsonl")
	if err := os.WriteFile(file, lines.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	m := &Main{Getenv: func(k string) string { return env[k] }, Getwd: func() (string, error) { return t.TempDir(), nil },
		IsTerminal: func(io.Writer) bool { return true }}

	// Interrupted (as by ^C) when the first batch is stored.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stderr := &cancelOnWrite{cancel: cancel, after: "import: "}
	err := m.Run(ctx, []string{"import", file}, strings.NewReader(""), io.Discard, stderr)
	if err == nil || !strings.Contains(err.Error(), "run the same import again to resume") || !strings.Contains(err.Error(), "of 300 lessons") {
		t.Fatalf("interrupted import: %v", err)
	}
	if !strings.Contains(stderr.String(), "\rimport: 256 of 300 lessons (85%)") {
		t.Fatalf("progress on a terminal: %q", stderr.String())
	}

	var out bytes.Buffer
	var errb bytes.Buffer
	if err := m.Run(context.Background(), []string{"import", file}, strings.NewReader(""), &out, &errb); err != nil {
		t.Fatal(err)
	}
	var rep struct{ Added, Duplicates int }
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil || rep.Added != n-256 || rep.Duplicates != 256 {
		t.Fatalf("resumed import: %s (%v); want %d added, 256 duplicates", out.String(), err, n-256)
	}
	if !strings.HasSuffix(errb.String(), "import: 300 of 300 lessons (100%)\n") {
		t.Fatalf("progress: %q", errb.String())
	}
	// Not a terminal: no progress.
	errb.Reset()
	m.IsTerminal = nil
	if err := m.Run(context.Background(), []string{"import", file}, strings.NewReader(""), io.Discard, &errb); err != nil || errb.Len() != 0 {
		t.Fatalf("import to a non-terminal: stderr %q, %v", errb.String(), err)
	}
}

// cancelOnWrite is a stderr that cancels a context once it is written a
// line holding after.
type cancelOnWrite struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	after  string
	cancel func()
}

func (w *cancelOnWrite) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if bytes.Contains(p, []byte(w.after)) {
		w.cancel()
	}
	return w.buf.Write(p)
}

func (w *cancelOnWrite) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}
