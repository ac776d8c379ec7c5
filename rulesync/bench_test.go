package rulesync_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/rulesync"
)

// benchProject is a project with the rules set's CLAUDE.md, an AGENTS.md
// and three Cursor rules, synced once.
func benchProject(b testing.TB, opt rulesync.Options) (*env, *rulesync.Syncer) {
	e := newEnv(b)
	writeFile(b, filepath.Join(e.root, "AGENTS.md"), []byte("# Agents\n\n- Run `make lint` before a commit.\n- Keep functions short.\n"))
	for _, n := range []string{"go", "ts", "sql"} {
		writeFile(b, filepath.Join(e.root, ".cursor", "rules", n+".mdc"), []byte("---\ndescription: "+n+"\nglobs: **/*."+n+"\n---\n- Format "+n+" files before committing.\n"))
	}
	s := e.syncer(opt)
	if rep := e.sync(b, s, e.root); len(rep.Imported) != 5 {
		b.Fatalf("first sync imported %d files; want 5", len(rep.Imported))
	}
	return e, s
}

// BenchmarkSyncUnchanged is the check of a project whose files did not
// change, past the per-process interval: every file stat'ed and compared
// with the stored state, nothing read, hashed or embedded.
func BenchmarkSyncUnchanged(b *testing.B) {
	e, s := benchProject(b, rulesync.Options{Interval: -1})
	ctx := context.Background()
	for b.Loop() {
		if _, err := s.Sync(ctx, e.root); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSyncUnchangedWithinInterval is the same call within the
// interval: nothing is looked at.
func BenchmarkSyncUnchangedWithinInterval(b *testing.B) {
	e, s := benchProject(b, rulesync.Options{Interval: time.Hour})
	ctx := context.Background()
	for b.Loop() {
		if _, err := s.Sync(ctx, e.root); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSyncChanged is the check of a project whose CLAUDE.md had one
// rule reworded since: read, hashed, parsed, embedded and re-imported.
func BenchmarkSyncChanged(b *testing.B) {
	e, s := benchProject(b, rulesync.Options{Interval: -1})
	ctx := context.Background()
	path := filepath.Join(e.root, "CLAUDE.md")
	orig, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	edited := bytes.Replace(orig, []byte(frontendRule), []byte(frontendEdit), 1)
	versions := [][]byte{edited, orig}
	i := 0
	for b.Loop() {
		b.StopTimer()
		writeFile(b, path, versions[i%2])
		i++
		b.StartTimer()
		rep, err := s.Sync(ctx, e.root)
		if err != nil || len(rep.Imported) != 1 {
			b.Fatalf("sync after an edit: %+v, %v", rep, err)
		}
	}
}

// TestSync_unchangedCheckUnder5ms holds the unchanged check, past the
// interval, to its budget of 5 ms a call (the median of 21).
func TestSync_unchangedCheckUnder5ms(t *testing.T) {
	e, s := benchProject(t, rulesync.Options{Interval: -1})
	ctx := context.Background()
	var took []time.Duration
	for range 21 {
		start := time.Now()
		rep, err := s.Sync(ctx, e.root)
		took = append(took, time.Since(start))
		if err != nil || len(rep.Imported) != 0 || rep.Skipped != "" {
			t.Fatalf("unchanged check: %+v, %v", rep, err)
		}
	}
	slices.Sort(took)
	if med := took[len(took)/2]; med > 5*time.Millisecond {
		t.Fatalf("an unchanged check takes %v (median), over 5 ms", med)
	}
}

// BenchmarkSyncNestedLook is the check of an unchanged project once
// NestedInterval has passed: the tree is walked again for nested rule files
// (here 1,000 directories four deep, each with two source files, and
// node_modules with as many, not entered).
func BenchmarkSyncNestedLook(b *testing.B) {
	e := newEnv(b)
	for i := range 10 {
		for j := range 10 {
			for k := range 10 {
				for _, top := range []string{"src", "node_modules"} {
					dir := filepath.Join(e.root, top, string(rune('a'+i)), string(rune('a'+j)), string(rune('a'+k)))
					writeFile(b, filepath.Join(dir, "x.go"), []byte("package x\n"))
					writeFile(b, filepath.Join(dir, "y.go"), []byte("package x\n"))
				}
			}
		}
	}
	writeFile(b, filepath.Join(e.root, "src", "a", "CLAUDE.md"), []byte("- Never edit files under generated/.\n"))
	now := time.Now()
	s := e.syncer(rulesync.Options{Interval: -1, Now: func() time.Time { return now }})
	if rep := e.sync(b, s, e.root); len(rep.Imported) != 2 {
		b.Fatalf("first sync imported %+v; want CLAUDE.md and src/a/CLAUDE.md", rep.Imported)
	}
	ctx := context.Background()
	for b.Loop() {
		now = now.Add(2 * rulesync.NestedInterval)
		if _, err := s.Sync(ctx, e.root); err != nil {
			b.Fatal(err)
		}
	}
}
