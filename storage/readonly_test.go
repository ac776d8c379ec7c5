package storage

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/kb"
)

// TestOpen_newDatabaseIsPrivate: a database created in an existing
// directory is 0600, and so are its -wal and -shm files.
func TestOpen_newDatabaseIsPrivate(t *testing.T) {
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "kb.db")
	db, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	insert(t, db, docs[0]) // the WAL holds data
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if m := st.Mode().Perm(); m != 0o600 {
			t.Errorf("%s: mode %v, want -rw-------", filepath.Base(p), m)
		}
	}
}

// TestOpen_readOnly: a read-only open reads and refuses every write with
// kb.ErrReadOnly; it needs a database of this schema.
func TestOpen_readOnly(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "kb.db")
	db, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	l := insert(t, db, docs[0])[0]
	db.Close()

	ro, err := Open(ctx, path, Options{ReadOnly: true, Retention: kb.DefaultRetention(), PruneInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if got, err := ro.Lesson(ctx, l.ID); err != nil || got.Content != l.Content || !ro.ReadOnly() {
		t.Fatalf("read-only Lesson = %+v, %v", got, err)
	}
	writes := map[string]error{
		"Update":        ro.Update(ctx, func(tx kb.Tx) error { return tx.CountRecalls(ctx, []string{l.ID}) }),
		"SetMeta":       ro.SetMeta(ctx, "k", "v"),
		"DeletePattern": ro.DeletePattern(ctx, "p"),
	}
	_, writes["Prune"] = ro.Prune(ctx, time.Now(), 0)
	for name, err := range writes {
		if !errors.Is(err, kb.ErrReadOnly) || !strings.Contains(err.Error(), "opened read-only") {
			t.Errorf("%s on a read-only database: %v, want kb.ErrReadOnly", name, err)
		}
	}
	if v, err := ro.SetMetaDefault(ctx, "weights", "default"); err != nil || v != "default" {
		t.Errorf("SetMetaDefault on a read-only database = %q, %v; want the default, unstored", v, err)
	}

	if _, err := Open(ctx, filepath.Join(t.TempDir(), "none.db"), Options{ReadOnly: true}); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("read-only open of a missing file: %v, want fs.ErrNotExist", err)
	}
	old := filepath.Join(t.TempDir(), "old.db")
	odb, err := openTo(ctx, old, Options{}, SchemaVersion()-1)
	if err != nil {
		t.Fatal(err)
	}
	odb.Close()
	if _, err := Open(ctx, old, Options{ReadOnly: true}); !errors.Is(err, ErrSchemaOutdated) || !strings.Contains(err.Error(), "open it once writable") {
		t.Errorf("read-only open of an older schema: %v, want ErrSchemaOutdated", err)
	}
}

// TestOpen_readOnlyFileOrDirectory: a database whose file or directory
// this user cannot write is refused by a writable open, with an error that
// names which and what to do, and opens read-only. Permissions do not bind
// root: run as another user.
func TestOpen_readOnlyFileOrDirectory(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes read-only files: run the test as another user")
	}
	ctx := context.Background()
	setup := func(t *testing.T) (dir, path string) {
		dir = t.TempDir()
		path = filepath.Join(dir, "kb.db")
		db, err := Open(ctx, path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		insert(t, db, docs[0])
		db.Close()
		t.Cleanup(func() { os.Chmod(dir, 0o700); os.Chmod(path, 0o600) })
		return dir, path
	}
	readable := func(t *testing.T, path string) {
		t.Helper()
		ro, err := Open(ctx, path, Options{ReadOnly: true})
		if err != nil {
			t.Fatalf("read-only open: %v", err)
		}
		defer ro.Close()
		if ls, err := ro.AllLessons(ctx); err != nil || len(ls) != 1 {
			t.Fatalf("read-only AllLessons: %d lessons, %v", len(ls), err)
		}
	}
	t.Run("file", func(t *testing.T) {
		_, path := setup(t)
		os.Chmod(path, 0o444)
		_, err := Open(ctx, path, Options{})
		if !errors.Is(err, kb.ErrReadOnly) || !strings.Contains(err.Error(), "database file "+path+" is read-only") ||
			!strings.Contains(err.Error(), "chmod u+w "+path) {
			t.Fatalf("writable open of a read-only file: %v", err)
		}
		readable(t, path)
	})
	t.Run("directory", func(t *testing.T) {
		dir, path := setup(t)
		os.Chmod(dir, 0o555)
		_, err := Open(ctx, path, Options{})
		if !errors.Is(err, kb.ErrReadOnly) || !strings.Contains(err.Error(), "directory "+dir+" of the database is not writable") {
			t.Fatalf("writable open in a read-only directory: %v", err)
		}
		readable(t, path) // without -shm: read as immutable
	})
	t.Run("new database", func(t *testing.T) {
		dir := t.TempDir()
		os.Chmod(dir, 0o555)
		t.Cleanup(func() { os.Chmod(dir, 0o700) })
		_, err := Open(ctx, filepath.Join(dir, "kb.db"), Options{})
		if !errors.Is(err, kb.ErrReadOnly) || !strings.Contains(err.Error(), "directory "+dir) {
			t.Fatalf("new database in a read-only directory: %v", err)
		}
	})
}
