package rulesync_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/rulesync"
)

// countingImporter counts imports and their bytes, storing nothing.
type countingImporter struct {
	mu    sync.Mutex
	files []string
	bytes int
}

func (c *countingImporter) ImportRuleFile(_ context.Context, path, _ string, data []byte) (kb.AddReport, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.files = append(c.files, path)
	c.bytes += len(data)
	return kb.AddReport{Added: 1, Items: make([]kb.AddItem, 1)}, nil
}

func TestSync_atMost64FilesAnd16MiBAProject(t *testing.T) {
	e := newEnv(t)
	for i := range 70 {
		writeFile(t, filepath.Join(e.root, ".cursor", "rules", fmt.Sprintf("r%02d.mdc", i)), []byte(fmt.Sprintf("- Rule number %d.\n", i)))
	}
	imp := &countingImporter{}
	s := rulesync.New(imp, e.db, rulesync.Options{Interval: -1, Log: slogTo(e.log)})
	rep := e.sync(t, s, e.root)
	// CLAUDE.md and the first 63 .mdc files by name.
	if len(imp.files) != rulesync.MaxFiles || len(rep.Refused) != 71-rulesync.MaxFiles {
		t.Fatalf("imported %d files, refused %d; want %d and %d", len(imp.files), len(rep.Refused), rulesync.MaxFiles, 71-rulesync.MaxFiles)
	}
	if !strings.HasSuffix(rep.Refused[0].Path, "r63.mdc") || !strings.Contains(rep.Refused[0].Reason, "more than 64 rule files") {
		t.Errorf("first refusal %+v; want r63.mdc, past the limit", rep.Refused[0])
	}

	e2 := newEnv(t)
	chunk := strings.Repeat("- A rule that is long enough to fill a page of rules quickly.\n", (3<<20)/62)
	for i := range 6 { // 6 files of about 3 MiB: the sixth passes 16 MiB
		writeFile(t, filepath.Join(e2.root, ".github", "instructions", fmt.Sprintf("f%d.instructions.md", i)), []byte(chunk))
	}
	imp = &countingImporter{}
	s = rulesync.New(imp, e2.db, rulesync.Options{Interval: -1, Log: slogTo(e2.log)})
	rep = e2.sync(t, s, e2.root)
	if imp.bytes > rulesync.MaxProjectBytes || len(rep.Refused) != 1 || !strings.Contains(rep.Refused[0].Reason, "16 MiB") {
		t.Fatalf("read %d bytes, refused %+v; want at most 16 MiB read and the last file refused", imp.bytes, rep.Refused)
	}
	if !strings.Contains(e2.log.String(), "f5.instructions.md") {
		t.Errorf("no log line names the refused file:\n%s", e2.log.String())
	}
}

func TestSync_aRefusedFileKeepsItsLessons(t *testing.T) {
	e := newEnv(t)
	s := e.syncer(rulesync.Options{})
	e.sync(t, s, e.root)
	big, err := os.OpenFile(filepath.Join(e.root, "CLAUDE.md"), os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(50 << 20); err != nil {
		t.Fatal(err)
	}
	big.Close()
	rep := e.sync(t, s, e.root)
	if len(rep.Refused) != 1 || len(rep.Gone) != 0 {
		t.Fatalf("sync of a rule file grown to 50 MB: %+v; want it refused, not gone", rep)
	}
	if got := e.recallTop(t, frontendQuery); !strings.Contains(got, frontendRule) {
		t.Errorf("the lessons of the refused file went away: recall gives %q", got)
	}
}

func FuzzDecodeState(f *testing.F) {
	f.Add(`{"project":"/p","root":"/p","files":[{"path":"/p/CLAUDE.md","size":3,"mtime":"2026-01-02T03:04:05.000000006Z","hash":"ab","synced_at":"2026-01-02T03:04:05Z","rules":1,"added":1,"changed":0,"removed":0}]}`)
	f.Add(`{"project":"","files":null}`)
	f.Add(`{"bogus":1}`)
	f.Add(`[`)
	f.Fuzz(func(t *testing.T, v string) {
		st, err := rulesync.DecodeState(v)
		if err != nil {
			return
		}
		// What decodes survives a round trip through its stored form.
		b, err := jsonMarshal(st)
		if err != nil {
			t.Fatal(err)
		}
		again, err := rulesync.DecodeState(string(b))
		if err != nil {
			t.Fatalf("a decoded state does not decode again: %v\n%s", err, b)
		}
		if fmt.Sprint(again) != fmt.Sprint(st) {
			t.Fatalf("round trip changed the state:\n%+v\n%+v", st, again)
		}
	})
}
