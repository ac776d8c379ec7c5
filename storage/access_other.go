//go:build !unix

package storage

import (
	"fmt"
	"io/fs"
	"os"
)

// writable reports whether the file at path may be written: nil, an error
// wrapping fs.ErrNotExist, or one wrapping fs.ErrPermission for a file
// marked read-only. Directories are reported writable: without access(2)
// the first write tells.
func writable(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if !st.IsDir() && st.Mode().Perm()&0o200 == 0 {
		return &fs.PathError{Op: "write", Path: path, Err: fmt.Errorf("file is read-only: %w", fs.ErrPermission)}
	}
	return nil
}

// isReadOnlyFS reports whether err is a read-only file system error; not
// told apart here.
func isReadOnlyFS(err error) bool { return false }
