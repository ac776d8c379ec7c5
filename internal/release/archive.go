package main

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"
)

// archiveFile is one regular file of an archive; Name uses slashes.
type archiveFile struct {
	Name string
	Mode int64
	Data []byte
}

// archiveEntries returns the files sorted by name, each preceded by the
// directories it needs that came before: the order is a function of the
// names alone.
func archiveEntries(files []archiveFile) (dirs map[string]bool, order []string, byName map[string]archiveFile) {
	dirs = map[string]bool{}
	byName = map[string]archiveFile{}
	for _, f := range files {
		byName[f.Name] = f
		for d := path.Dir(f.Name); d != "."; d = path.Dir(d) {
			dirs[d+"/"] = true
		}
	}
	for d := range dirs {
		order = append(order, d)
	}
	for n := range byName {
		order = append(order, n)
	}
	slices.Sort(order) // "a/" sorts before "a/b"
	return dirs, order, byName
}

// writeTarGz writes files as a gzipped tar with no trace of the machine or
// the time of the build: every entry has mtime, owner root (uid and gid 0,
// no names) and a fixed mode; the gzip header has no name and no time.
func writeTarGz(w io.Writer, files []archiveFile, mtime time.Time) error {
	gz, err := gzip.NewWriterLevel(w, gzip.DefaultCompression)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(gz)
	dirs, order, byName := archiveEntries(files)
	for _, n := range order {
		h := &tar.Header{Name: n, ModTime: mtime, Format: tar.FormatUSTAR}
		if dirs[n] {
			h.Typeflag, h.Mode = tar.TypeDir, 0o755
		} else {
			f := byName[n]
			h.Typeflag, h.Mode, h.Size = tar.TypeReg, f.Mode, int64(len(f.Data))
		}
		if err := tw.WriteHeader(h); err != nil {
			return fmt.Errorf("tar %s: %w", n, err)
		}
		if !dirs[n] {
			if _, err := tw.Write(byName[n].Data); err != nil {
				return fmt.Errorf("tar %s: %w", n, err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		return fmt.Errorf("tar: %w", err)
	}
	if err := gz.Close(); err != nil {
		return fmt.Errorf("gzip: %w", err)
	}
	return nil
}

// writeZip writes files as a zip with fixed times and modes, entries
// sorted, deflated.
func writeZip(w io.Writer, files []archiveFile, mtime time.Time) error {
	zw := zip.NewWriter(w)
	dirs, order, byName := archiveEntries(files)
	for _, n := range order {
		h := &zip.FileHeader{Name: n, Method: zip.Deflate, Modified: mtime}
		if dirs[n] {
			h.Method = zip.Store
			h.SetMode(fs.ModeDir | 0o755)
		} else {
			h.SetMode(fs.FileMode(byName[n].Mode))
		}
		fw, err := zw.CreateHeader(h)
		if err != nil {
			return fmt.Errorf("zip %s: %w", n, err)
		}
		if !strings.HasSuffix(n, "/") {
			if _, err := fw.Write(byName[n].Data); err != nil {
				return fmt.Errorf("zip %s: %w", n, err)
			}
		}
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("zip: %w", err)
	}
	return nil
}
