// Package regfile reads the files a person hands the program (import's
// arguments, a project's agent rule files): regular files only, checked
// before they are opened (opening a named pipe blocks until a writer comes;
// a device such as /dev/zero never ends) and again once open, read within a
// size limit that a file growing while it is read cannot pass.
package regfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Dir is where files are opened: OS for paths as given, or an *os.Root,
// which refuses names and symbolic links that lead outside its directory.
type Dir interface {
	Stat(name string) (fs.FileInfo, error)
	Open(name string) (*os.File, error)
}

// OS opens paths as given, relative to the working directory.
type OS struct{}

// Stat is os.Stat.
func (OS) Stat(name string) (fs.FileInfo, error) { return os.Stat(name) }

// Open is os.Open.
func (OS) Open(name string) (*os.File, error) { return os.Open(name) }

// NotRegularError is a file that is not a regular file.
type NotRegularError struct {
	// Type names what it is ("a named pipe"), as Type does.
	Type string
}

func (e *NotRegularError) Error() string { return "is " + e.Type }

// TooLargeError is a file that holds more than its limit.
type TooLargeError struct {
	// N is how many bytes were seen: the file's size, or limit+1 when it
	// grew past the limit while it was read.
	N, Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("holds more than %s (%d bytes read)", ByteSize(e.Limit), e.N)
}

// Open opens name in dir for reading when it is a regular file: it is
// stat'ed first (following symbolic links) and again once open, and
// anything else is a *NotRegularError. The file's information comes back
// with it.
func Open(dir Dir, name string) (*os.File, fs.FileInfo, error) {
	st, err := dir.Stat(name)
	if err != nil {
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, nil, &NotRegularError{Type: Type(st)}
	}
	f, err := dir.Open(name)
	if err != nil {
		return nil, nil, err
	}
	if st, err = f.Stat(); err != nil {
		f.Close()
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, &NotRegularError{Type: Type(st)}
	}
	return f, st, nil
}

// ReadAll reads r to its end, or fails with a *TooLargeError once it has
// given more than limit bytes (it reads one byte past the limit to tell).
func ReadAll(r io.Reader, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &TooLargeError{N: int64(len(data)), Limit: limit}
	}
	return data, nil
}

// ReadFile reads the regular file name in dir, refusing one larger than
// limit before reading it (by its size) and while reading it (it may grow).
func ReadFile(dir Dir, name string, limit int64) ([]byte, fs.FileInfo, error) {
	f, st, err := Open(dir, name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	if st.Size() > limit {
		return nil, st, &TooLargeError{N: st.Size(), Limit: limit}
	}
	data, err := ReadAll(f, limit)
	return data, st, err
}

// IsNotRegular reports whether err is or wraps a *NotRegularError.
func IsNotRegular(err error) bool {
	var e *NotRegularError
	return errors.As(err, &e)
}

// Type names the kind of file st describes ("a named pipe").
func Type(st fs.FileInfo) string {
	switch m := st.Mode(); {
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not a regular file"
}

// ByteSize prints a size limit in the largest binary unit that divides it
// ("4 MiB").
func ByteSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
