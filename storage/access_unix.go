//go:build unix

package storage

import (
	"errors"
	"io/fs"

	"golang.org/x/sys/unix"
)

// writable reports, without opening it, whether this process may write
// the file or directory at path: nil, an error wrapping fs.ErrNotExist,
// or the refusal (permission denied, read-only file system).
func writable(path string) error {
	err := unix.Access(path, unix.W_OK)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, unix.ENOENT):
		return &fs.PathError{Op: "access", Path: path, Err: fs.ErrNotExist}
	}
	return &fs.PathError{Op: "access", Path: path, Err: err}
}

// isReadOnlyFS reports whether err is EROFS.
func isReadOnlyFS(err error) bool { return errors.Is(err, unix.EROFS) }
