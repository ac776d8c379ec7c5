package gitref

import (
	"os"
	"path/filepath"
	"testing"
)

func TestHeadBranch(t *testing.T) {
	for _, tc := range []struct{ head, want string }{
		{"ref: refs/heads/main\n", "main"},
		{"ref: refs/heads/feature/login\n", "feature/login"},
		{"ref:refs/heads/master", "master"},
		{"4e0be584f3c1d2e5a6b7c8d9e0f1a2b3c4d5e6f7\n", ""}, // detached
		{"ref: refs/remotes/origin/main\n", ""},
		{"ref: refs/heads/\n", ""},
		{"", ""},
	} {
		if got := HeadBranch([]byte(tc.head)); got != tc.want {
			t.Errorf("HeadBranch(%q) = %q, want %q", tc.head, got, tc.want)
		}
	}
}

func TestBranch(t *testing.T) {
	root := t.TempDir()
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	repo := filepath.Join(root, "repo")
	write(filepath.Join(repo, ".git", "HEAD"), "ref: refs/heads/main\n")
	write(filepath.Join(repo, ".git", "refs", "heads", "main"), "4e0be584f3c1d2e5a6b7c8d9e0f1a2b3c4d5e6f7\n")
	// A branch known from packed-refs only.
	packed := filepath.Join(root, "packed")
	write(filepath.Join(packed, ".git", "HEAD"), "ref: refs/heads/release/1.0\n")
	write(filepath.Join(packed, ".git", "packed-refs"), "# pack-refs with: peeled\n4e0be584f3c1d2e5a6b7c8d9e0f1a2b3c4d5e6f7 refs/heads/release/1.0\n")
	// A fresh repository: HEAD names a branch with no commit yet.
	fresh := filepath.Join(root, "fresh")
	write(filepath.Join(fresh, ".git", "HEAD"), "ref: refs/heads/main\n")
	sub := filepath.Join(repo, "src", "pkg")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	// A linked worktree: its .git is a file naming its git directory.
	wt := filepath.Join(root, "wt")
	write(filepath.Join(repo, ".git", "worktrees", "wt", "HEAD"), "ref: refs/heads/topic\n")
	write(filepath.Join(repo, ".git", "worktrees", "wt", "commondir"), "../..\n")
	write(filepath.Join(repo, ".git", "refs", "heads", "topic"), "4e0be584f3c1d2e5a6b7c8d9e0f1a2b3c4d5e6f7\n")
	write(filepath.Join(wt, ".git"), "gitdir: "+filepath.Join(repo, ".git", "worktrees", "wt")+"\n")
	// A worktree whose .git file is broken.
	bad := filepath.Join(root, "bad")
	write(filepath.Join(bad, ".git"), "nonsense\n")

	for _, tc := range []struct{ dir, want string }{
		{repo, "main"},
		{sub, "main"},
		{wt, "topic"},
		{packed, "release/1.0"},
		{fresh, ""},
		{bad, ""},
		{filepath.Join(root, "nowhere"), ""},
		{"", ""},
	} {
		if got := Branch(tc.dir); got != tc.want {
			t.Errorf("Branch(%q) = %q, want %q", tc.dir, got, tc.want)
		}
	}
}

func FuzzHeadBranch(f *testing.F) {
	f.Add([]byte("ref: refs/heads/main\n"))
	f.Add([]byte("gitdir: ../x"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if br := HeadBranch(b); br != "" && (len(br) > len(b)) {
			t.Fatalf("branch %q longer than its HEAD", br)
		}
		_ = GitDir(b)
	})
}

// BenchmarkBranch: what reading the branch costs a hook, from a directory
// three levels below the repository's root.
func BenchmarkBranch(b *testing.B) {
	root := b.TempDir()
	for _, f := range []struct{ p, s string }{{".git/HEAD", "ref: refs/heads/main\n"}, {".git/refs/heads/main", "4e0be584f3c1d2e5a6b7c8d9e0f1a2b3c4d5e6f7\n"}} {
		p := filepath.Join(root, filepath.FromSlash(f.p))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f.s), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	dir := filepath.Join(root, "a", "b", "c")
	for b.Loop() {
		if Branch(dir) != "main" {
			b.Fatal("no branch")
		}
	}
}
