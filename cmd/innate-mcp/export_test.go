package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCLI_exportOut: export --out writes a 0600 file whole (replacing one
// that is there), and refuses to write through a symbolic link or over
// anything but a regular file, leaving no temporary file behind.
func TestCLI_exportOut(t *testing.T) {
	env := testEnv(t)
	for _, l := range []string{"Prefer table tests.", "Never log secrets."} {
		if _, err := run(t, env, "", "record", "--lesson", l, "--origin", "user_stated"); err != nil {
			t.Fatal(err)
		}
	}
	want, err := run(t, env, "", "export")
	if err != nil || strings.Count(want, "\n") != 2 {
		t.Fatalf("export to stdout: %q, %v", want, err)
	}
	dir := t.TempDir()
	check := func(path string) {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil || string(b) != want {
			t.Fatalf("%s holds %q (%v), want the export", path, b, err)
		}
		if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
			t.Fatalf("%s: mode %v, want -rw-------", path, st.Mode().Perm())
		}
	}
	fresh := filepath.Join(dir, "lessons.jsonl")
	if _, err := run(t, env, "", "export", "--out", fresh); err != nil {
		t.Fatal(err)
	}
	check(fresh)
	old := filepath.Join(dir, "old.jsonl")
	os.WriteFile(old, []byte("stale\n"), 0o644)
	if _, err := run(t, env, "", "export", "--out", old); err != nil {
		t.Fatal(err)
	}
	check(old)

	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("precious\n"), 0o644)
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(victim, link); err != nil {
		t.Fatal(err)
	}
	if _, err := run(t, env, "", "export", "--out", link); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("export through a symbolic link: %v, want it refused", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "precious\n" {
		t.Fatalf("the link's target now holds %q", b)
	}
	if _, err := run(t, env, "", "export", "--out", dir); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Fatalf("export over a directory: %v, want it refused", err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Fatalf("temporary file left behind: %s", e.Name())
		}
	}
}
