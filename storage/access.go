package storage

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/innate-mcp/innate-mcp/kb"
)

// prepareWritable makes sure a writable Open can write the database at
// path: its directory exists (created 0700), the file exists (created 0600,
// so that its -wal and -shm files, which SQLite creates with the database
// file's mode, are 0600 too), and the file, its -wal and -shm files, and
// when those are missing the directory, are writable by this process. A
// refusal wraps kb.ErrReadOnly and says which of them is read-only and what
// to do.
func prepareWritable(path string) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		if isDenied(err) {
			return fmt.Errorf("%w: cannot create the directory of the database %s: %v: create it, or choose another path with --db or INNATE_DB",
				kb.ErrReadOnly, path, err)
		}
		return fmt.Errorf("create the directory of the database %s: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	switch {
	case err == nil:
		// Closed at once: closing a descriptor drops every POSIX lock the
		// process holds on the file, so none is kept open beside SQLite's.
		if err := f.Close(); err != nil {
			return fmt.Errorf("create database %s: %w", path, err)
		}
		return nil
	case errors.Is(err, fs.ErrExist):
	case isDenied(err):
		return readOnlyDirError(dir, path, err)
	default:
		return fmt.Errorf("create database %s: %w", path, err)
	}
	if err := writable(path); err != nil {
		return readOnlyFileError(path, path, err)
	}
	missing := false
	for _, side := range []string{path + "-wal", path + "-shm"} {
		err := writable(side)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			missing = true
		case err != nil:
			return readOnlyFileError(path, side, err)
		}
	}
	if missing {
		if err := writable(dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return readOnlyDirError(dir, path, err)
		}
	}
	return nil
}

// readOnlyFileError says that file (the database at path or one of its
// -wal and -shm files) cannot be written, and what to do: make writable
// every one of the three that is read-only.
func readOnlyFileError(path, file string, cause error) error {
	mode := ""
	if st, err := os.Stat(file); err == nil {
		mode = " (" + st.Mode().Perm().String() + ")"
	}
	var fix []string
	for _, f := range []string{path, path + "-wal", path + "-shm"} {
		if err := writable(f); err != nil && !errors.Is(err, fs.ErrNotExist) {
			fix = append(fix, f)
		}
	}
	if len(fix) == 0 {
		fix = []string{file}
	}
	return fmt.Errorf("%w: the database file %s is read-only%s: %v: make it writable for this user (chmod u+w %s) to record; "+
		"commands that only read (stats, lessons list, export, recall) work as it is", kb.ErrReadOnly, file, mode, cause, strings.Join(fix, " "))
}

// readOnlyDirError says that dir, the directory of the database at path,
// cannot be written, and what to do.
func readOnlyDirError(dir, path string, cause error) error {
	base := filepath.Base(path)
	return fmt.Errorf("%w: the directory %s of the database is not writable: %v: SQLite creates %s, %s-wal and %s-shm there; "+
		"make the directory writable for this user, or move the database to a writable directory (--db or INNATE_DB)",
		kb.ErrReadOnly, dir, cause, base, base, base)
}

// isDenied reports whether err is a refusal to write: permission denied,
// or a read-only file system.
func isDenied(err error) bool {
	return errors.Is(err, fs.ErrPermission) || isReadOnlyFS(err)
}
