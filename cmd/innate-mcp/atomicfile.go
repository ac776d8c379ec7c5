package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/innate-mcp/innate-mcp/internal/atomicfile"
	"github.com/innate-mcp/innate-mcp/internal/regfile"
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
		return fmt.Errorf("exists and is %s: export writes a regular file", regfile.Type(st))
	}
	return nil
}

// writeFileAtomic writes path with write into a new file of mode 0600
// (package atomicfile), never through a symbolic link: checkTarget refuses
// one, and the rename replaces a link put there meanwhile instead of
// following it.
func writeFileAtomic(path string, write func(io.Writer) error) error {
	if err := checkTarget(path); err != nil {
		return err
	}
	return atomicfile.Write(path, 0o600, write)
}
