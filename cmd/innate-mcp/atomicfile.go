package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// checkTarget refuses to write path when it is a symbolic link (writing
// through it would replace the file it points to) or exists as anything but
// a regular file.
func checkTarget(path string) error {
	st, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case st.Mode()&fs.ModeSymlink != 0:
		dest, _ := os.Readlink(path)
		return fmt.Errorf("is a symbolic link (to %s): refusing to write through it; name the file itself, or another", dest)
	case !st.Mode().IsRegular():
		return fmt.Errorf("exists and is %s: export writes a regular file", fileType(st))
	}
	return nil
}

// writeFileAtomic writes path with write: into a new file of mode 0600
// beside it, synced, then renamed over path, so that path holds either
// its old content or the whole new one, never a part, and is never
// written through a symbolic link (checkTarget refuses one; rename
// replaces a link put there meanwhile instead of following it).
func writeFileAtomic(path string, write func(io.Writer) error) (err error) {
	if err := checkTarget(path); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*") // mode 0600
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err := write(f); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
