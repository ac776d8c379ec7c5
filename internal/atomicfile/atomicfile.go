// Package atomicfile writes a file so that it holds either its old
// content or the whole new one, never a part: into a temporary file beside
// it, synced, then renamed over it. The one implementation for exports,
// client configuration files and the hooks' state.
package atomicfile

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Write writes path with write, giving the file mode. The directory must
// exist. A symbolic link at path is replaced, not followed: a caller that
// means to write the file a link points to resolves it first.
func Write(path string, mode fs.FileMode, write func(io.Writer) error) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err := f.Chmod(mode); err != nil {
		return err
	}
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
