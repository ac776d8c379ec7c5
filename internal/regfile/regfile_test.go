package regfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ok := write("ok.md", "- a rule\n")
	big := write("big.md", strings.Repeat("x", 11))
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO here:", err)
	}
	if data, st, err := ReadFile(OS{}, ok, 10); err != nil || string(data) != "- a rule\n" || st.Size() != 9 {
		t.Errorf("ReadFile(ok) = %q, %v", data, err)
	}
	var tl *TooLargeError
	if _, _, err := ReadFile(OS{}, big, 10); !errors.As(err, &tl) || tl.N != 11 || !strings.Contains(err.Error(), "more than 10 bytes") {
		t.Errorf("ReadFile(big) err = %v; want a TooLargeError of 11 bytes", err)
	}
	// A FIFO is refused before it is opened (opening it would block), a
	// directory too; both name what they are.
	for path, want := range map[string]string{fifo: "is a named pipe", dir: "is a directory"} {
		if _, _, err := ReadFile(OS{}, path, 10); !IsNotRegular(err) || err.Error() != want {
			t.Errorf("ReadFile(%s) err = %v; want %q", path, err, want)
		}
	}
	// Through an os.Root, a link out of the root is not followed.
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	outside := filepath.Join(t.TempDir(), "secret.md")
	os.WriteFile(outside, []byte("secret"), 0o600)
	if err := os.Symlink(outside, filepath.Join(dir, "link.md")); err != nil {
		t.Fatal(err)
	}
	if data, _, err := ReadFile(r, "link.md", 10); err == nil {
		t.Errorf("ReadFile through the root followed a link out of it: %q", data)
	}
	if data, _, err := ReadFile(r, "ok.md", 10); err != nil || string(data) != "- a rule\n" {
		t.Errorf("ReadFile through the root = %q, %v", data, err)
	}
}

// grower gives n bytes, more than its file said it held.
type grower struct{ n int }

func (g *grower) Read(p []byte) (int, error) {
	if g.n == 0 {
		return 0, io.EOF
	}
	k := min(len(p), g.n)
	g.n -= k
	return k, nil
}

func TestReadAll_aFileThatGrowsPastTheLimit(t *testing.T) {
	if _, err := ReadAll(&grower{n: 1 << 20}, 1000); err == nil || !strings.Contains(err.Error(), "more than 1000 bytes") {
		t.Errorf("err = %v; want the limit passed", err)
	}
	if data, err := ReadAll(&grower{n: 1000}, 1000); err != nil || len(data) != 1000 {
		t.Errorf("exactly the limit: %d bytes, %v", len(data), err)
	}
}

func TestByteSize(t *testing.T) {
	for n, want := range map[int64]string{4 << 20: "4 MiB", 512 << 20: "512 MiB", 1 << 30: "1 GiB", 64 << 10: "64 KiB", 1000: "1000 bytes"} {
		if got := ByteSize(n); got != want {
			t.Errorf("ByteSize(%d) = %q; want %q", n, got, want)
		}
	}
}
