package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"text/template"
	"time"
)

// Target is one platform of the release, in Go's names.
type Target struct {
	GOOS, GOARCH string
}

// AllTargets returns the six platforms a release holds.
func AllTargets() []Target {
	var ts []Target
	for _, goos := range []string{"linux", "darwin", "windows"} {
		for _, goarch := range []string{"amd64", "arm64"} {
			ts = append(ts, Target{GOOS: goos, GOARCH: goarch})
		}
	}
	return ts
}

// String is the target as Go writes it: linux/amd64.
func (t Target) String() string { return t.GOOS + "/" + t.GOARCH }

func (t Target) supported() bool { return slices.Contains(AllTargets(), t) }

// Exe is the binary's file name on the target.
func (t Target) Exe() string {
	if t.GOOS == "windows" {
		return "innate-mcp.exe"
	}
	return "innate-mcp"
}

// NPMOS is the target's operating system as Node names it
// (process.platform): linux, darwin, win32.
func (t Target) NPMOS() string {
	if t.GOOS == "windows" {
		return "win32"
	}
	return t.GOOS
}

// NPMCPU is the target's architecture as Node names it (process.arch):
// x64, arm64.
func (t Target) NPMCPU() string {
	if t.GOARCH == "amd64" {
		return "x64"
	}
	return t.GOARCH
}

// NPMName is the name of the target's npm package: @innate-mcp/linux-x64.
func (t Target) NPMName() string { return "@innate-mcp/" + t.NPMOS() + "-" + t.NPMCPU() }

// NPMDir is the directory of the target's npm package under OUT/npm.
func (t Target) NPMDir() string { return "innate-mcp-" + t.NPMOS() + "-" + t.NPMCPU() }

// Archive is the file name of the target's archive for version v.
func (t Target) Archive(v string) string {
	ext := ".tar.gz"
	if t.GOOS == "windows" {
		ext = ".zip"
	}
	return "innate-mcp-" + v + "-" + t.GOOS + "-" + t.GOARCH + ext
}

func targetNames(ts []Target) []string {
	var s []string
	for _, t := range ts {
		s = append(s, t.String())
	}
	return s
}

// Options says what Build builds.
type Options struct {
	// Src is the repository's root: go.mod, cmd/innate-mcp, npm/.
	Src string
	// Out is the output directory; it must be absent or empty.
	Out string
	// Version is stamped into the binaries and names the archives and the
	// npm packages: a semantic version without a leading v.
	Version string
	// Targets are the platforms to build.
	Targets []Target
	// MTime is the modification time of every archive entry.
	MTime time.Time
	// Progress receives a line per step; nil means none.
	Progress io.Writer
	// Go is the go command; "go" when empty.
	Go string
}

// Result is what Build wrote, as paths under Options.Out.
type Result struct {
	// Binaries holds each target's binary.
	Binaries map[Target]string
	// Archives holds each target's archive.
	Archives map[Target]string
	// Sums is the SHA256SUMS file over the archives.
	Sums string
	// NPMLauncher is the launcher package's directory.
	NPMLauncher string
	// NPMPlatforms holds each target's npm package directory.
	NPMPlatforms map[Target]string
}

// semver is a semantic version (semver.org 2.0.0), which npm requires.
var semver = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$`)

// Build builds the release o describes.
func Build(ctx context.Context, o Options) (*Result, error) {
	if !semver.MatchString(o.Version) {
		return nil, fmt.Errorf("version %q is not a semantic version such as 0.2.0 or 0.2.0-rc.1 (npm requires one)", o.Version)
	}
	if len(o.Targets) == 0 {
		return nil, errors.New("no target to build: give -targets all, host or a list such as linux/amd64")
	}
	for _, t := range o.Targets {
		if !t.supported() {
			return nil, fmt.Errorf("target %s is not supported; the release builds %s", t, strings.Join(targetNames(AllTargets()), ", "))
		}
	}
	if o.Go == "" {
		o.Go = "go"
	}
	if o.Progress == nil {
		o.Progress = io.Discard
	}
	src, err := filepath.Abs(o.Src)
	if err != nil {
		return nil, fmt.Errorf("source directory %s: %w", o.Src, err)
	}
	if _, err := os.Stat(filepath.Join(src, "cmd", "innate-mcp")); err != nil {
		return nil, fmt.Errorf("source directory %s is not innate-mcp's repository root (no cmd/innate-mcp): run from there or give -src: %w", src, err)
	}
	out, err := filepath.Abs(o.Out)
	if err != nil {
		return nil, fmt.Errorf("output directory %s: %w", o.Out, err)
	}
	if err := emptyDir(out); err != nil {
		return nil, err
	}
	if v, err := exec.CommandContext(ctx, o.Go, "version").Output(); err == nil {
		fmt.Fprintf(o.Progress, "release: innate-mcp %s with %s", o.Version, v)
	}

	res := &Result{Binaries: map[Target]string{}, Archives: map[Target]string{}, NPMPlatforms: map[Target]string{}}
	extras, err := archiveExtras(src)
	if err != nil {
		return nil, err
	}
	for i, t := range o.Targets {
		start := time.Now()
		fmt.Fprintf(o.Progress, "release: [%d/%d] %s: go build\n", i+1, len(o.Targets), t)
		bin := filepath.Join(out, "bin", t.GOOS+"-"+t.GOARCH, t.Exe())
		if err := goBuild(ctx, o.Go, src, bin, o.Version, t); err != nil {
			return nil, err
		}
		res.Binaries[t] = bin
		exe, err := os.ReadFile(bin)
		if err != nil {
			return nil, fmt.Errorf("read the built binary: %w", err)
		}
		files := append([]archiveFile{{Name: t.Exe(), Mode: 0o755, Data: exe}}, extras...)
		archive := filepath.Join(out, t.Archive(o.Version))
		var buf bytes.Buffer
		if t.GOOS == "windows" {
			err = writeZip(&buf, files, o.MTime)
		} else {
			err = writeTarGz(&buf, files, o.MTime)
		}
		if err != nil {
			return nil, fmt.Errorf("archive %s: %w", t, err)
		}
		if err := os.WriteFile(archive, buf.Bytes(), 0o644); err != nil {
			return nil, fmt.Errorf("write the archive: %w", err)
		}
		res.Archives[t] = archive
		dir, err := writePlatformPackage(src, out, o.Version, t, exe)
		if err != nil {
			return nil, err
		}
		res.NPMPlatforms[t] = dir
		fmt.Fprintf(o.Progress, "release: [%d/%d] %s: %s (%.1f MB), npm/%s, %.1f s\n", i+1, len(o.Targets), t,
			filepath.Base(archive), float64(buf.Len())/1e6, t.NPMDir(), time.Since(start).Seconds())
	}
	if res.NPMLauncher, err = writeLauncherPackage(src, out, o.Version); err != nil {
		return nil, err
	}
	if res.Sums, err = writeSums(out, res.Archives); err != nil {
		return nil, err
	}
	fmt.Fprintf(o.Progress, "release: wrote %d archives, SHA256SUMS and %d npm packages to %s\n", len(res.Archives), len(res.NPMPlatforms)+1, out)
	return res, nil
}

// emptyDir makes dir, which must be absent or empty: the release never
// mixes with or overwrites an earlier one.
func emptyDir(dir string) error {
	ents, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("make the output directory: %w", err)
		}
		return nil
	case err != nil:
		return fmt.Errorf("output directory: %w", err)
	case len(ents) > 0:
		return fmt.Errorf("output directory %s is not empty: remove it (make release does) or give another -out", dir)
	}
	return nil
}

// buildFlags are the flags of go build for a release of version (the
// Dockerfile uses the same).
func buildFlags(version string) []string {
	return []string{"-trimpath", "-buildvcs=false", "-ldflags", "-s -w -buildid= -X main.version=" + version}
}

// goBuild builds cmd/innate-mcp for t into bin. Everything that could make
// two builds of the same source differ is fixed: no cgo, no file system
// paths (-trimpath), no build id, no VCS stamp (a checkout's state would be
// stamped in), the baseline instruction sets, no GOFLAGS from the caller.
func goBuild(ctx context.Context, goCmd, src, bin, version string, t Target) error {
	args := append([]string{"build"}, buildFlags(version)...)
	cmd := exec.CommandContext(ctx, goCmd, append(args, "-o", bin, "./cmd/innate-mcp")...)
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+t.GOOS, "GOARCH="+t.GOARCH,
		"GOAMD64=v1", "GOARM64=v8.0", "GOFLAGS=", "GOEXPERIMENT=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build for %s: %w\n%s", t, err, stderr.Bytes())
	}
	return nil
}

// archiveExtras are the files every archive holds beside the binary: the
// README, and the license and notice of the embedded model (Apache 2.0,
// which asks for both to go with every copy).
func archiveExtras(src string) ([]archiveFile, error) {
	var fs []archiveFile
	for _, f := range []struct{ name, path string }{
		{"README.md", "README.md"},
		{"licenses/use-lite/LICENSE", "embed/model/LICENSE"},
		{"licenses/use-lite/NOTICE", "embed/model/NOTICE"},
	} {
		b, err := os.ReadFile(filepath.Join(src, f.path))
		if err != nil {
			return nil, fmt.Errorf("a file every archive holds: %w", err)
		}
		fs = append(fs, archiveFile{Name: f.name, Mode: 0o644, Data: b})
	}
	return fs, nil
}

// npmData is what the npm templates are executed with.
type npmData struct {
	// Version is the release's version.
	Version string
	// Platforms are all six platforms, for the launcher's
	// optionalDependencies (whether or not this run built them).
	Platforms []Target
	// Platform is the platform package's own target.
	Platform Target
}

// writeLauncherPackage writes the launcher package, npm/innate-mcp from
// the templates, into OUT/npm/innate-mcp.
func writeLauncherPackage(src, out, version string) (string, error) {
	dir := filepath.Join(out, "npm", "innate-mcp")
	d := npmData{Version: version, Platforms: AllTargets()}
	tmpl := filepath.Join(src, "npm", "innate-mcp")
	if err := writeTemplate(filepath.Join(tmpl, "package.json.tmpl"), filepath.Join(dir, "package.json"), d, 0o644); err != nil {
		return "", err
	}
	if err := writeTemplate(filepath.Join(tmpl, "README.md.tmpl"), filepath.Join(dir, "README.md"), d, 0o644); err != nil {
		return "", err
	}
	if err := copyFile(filepath.Join(tmpl, "bin", "innate-mcp.js"), filepath.Join(dir, "bin", "innate-mcp.js"), 0o755); err != nil {
		return "", err
	}
	return dir, nil
}

// writePlatformPackage writes t's npm package, npm/platform from the
// templates with the binary in bin/, into OUT/npm/innate-mcp-OS-CPU.
func writePlatformPackage(src, out, version string, t Target, exe []byte) (string, error) {
	dir := filepath.Join(out, "npm", t.NPMDir())
	d := npmData{Version: version, Platforms: AllTargets(), Platform: t}
	tmpl := filepath.Join(src, "npm", "platform")
	if err := writeTemplate(filepath.Join(tmpl, "package.json.tmpl"), filepath.Join(dir, "package.json"), d, 0o644); err != nil {
		return "", err
	}
	if err := writeTemplate(filepath.Join(tmpl, "README.md.tmpl"), filepath.Join(dir, "README.md"), d, 0o644); err != nil {
		return "", err
	}
	for _, f := range []struct{ from, to string }{
		{"embed/model/LICENSE", "licenses/use-lite/LICENSE"},
		{"embed/model/NOTICE", "licenses/use-lite/NOTICE"},
	} {
		if err := copyFile(filepath.Join(src, f.from), filepath.Join(dir, f.to), 0o644); err != nil {
			return "", err
		}
	}
	if err := writeFile(filepath.Join(dir, "bin", t.Exe()), exe, 0o755); err != nil {
		return "", err
	}
	return dir, nil
}

// writeTemplate executes the text/template in path with d into to; a
// generated package.json must be valid JSON.
func writeTemplate(path, to string, d npmData, mode os.FileMode) error {
	t, err := template.ParseFiles(path)
	if err != nil {
		return fmt.Errorf("npm template: %w", err)
	}
	var b bytes.Buffer
	if err := t.Execute(&b, d); err != nil {
		return fmt.Errorf("npm template %s: %w", path, err)
	}
	if filepath.Base(to) == "package.json" && !json.Valid(b.Bytes()) {
		return fmt.Errorf("npm template %s does not give valid JSON: fix the template (commas between range items?)", path)
	}
	return writeFile(to, b.Bytes(), mode)
}

func copyFile(from, to string, mode os.FileMode) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return fmt.Errorf("npm package file: %w", err)
	}
	return writeFile(to, b, mode)
}

// writeFile writes b to path with mode (umask aside), making its directory.
func writeFile(path string, b []byte, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("make directory: %w", err)
	}
	if err := os.WriteFile(path, b, mode); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Chmod(path, mode); err != nil {
		return fmt.Errorf("chmod %s: %w", path, err)
	}
	return nil
}

// writeSums writes OUT/SHA256SUMS over the archives, sorted by name, in
// the format sha256sum -c reads.
func writeSums(out string, archives map[Target]string) (string, error) {
	var names []string
	for _, a := range archives {
		names = append(names, filepath.Base(a))
	}
	slices.Sort(names)
	var b strings.Builder
	for _, n := range names {
		f, err := os.Open(filepath.Join(out, n))
		if err != nil {
			return "", fmt.Errorf("checksum: %w", err)
		}
		h := sha256.New()
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return "", fmt.Errorf("checksum %s: %w", n, err)
		}
		fmt.Fprintf(&b, "%s  %s\n", hex.EncodeToString(h.Sum(nil)), n)
	}
	path := filepath.Join(out, "SHA256SUMS")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		return "", fmt.Errorf("write SHA256SUMS: %w", err)
	}
	return path, nil
}
