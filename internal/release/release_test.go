package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"encoding/hex"
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// testVersion is stamped into the test builds: not the default version, so
// that a build that ignores -X fails.
const testVersion = "9.8.7-test.1"

// logWriter shows Build's progress in the test log.
type logWriter struct{ t *testing.T }

func (w logWriter) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// buildRelease builds the release of targets into a new temporary directory.
func buildRelease(t *testing.T, targets []Target) *Result {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: builds innate-mcp (about a minute from a cold build cache)")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH: the release build runs go build")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	start := time.Now()
	res, err := Build(ctx, Options{
		Src: "../..", Out: filepath.Join(t.TempDir(), "dist"), Version: testVersion,
		Targets: targets, MTime: defaultMTime(), Progress: logWriter{t},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("built %s in %.1f s", strings.Join(targetNames(targets), ", "), time.Since(start).Seconds())
	return res
}

func hostTarget() Target { return Target{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH} }

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// treeFiles maps every regular file under dir (relative, slashes) to its
// mode and bytes.
func treeFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		m[filepath.ToSlash(rel)] = info.Mode().String() + " " + string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestBuild_reproducible builds the host's release twice, into two
// directories, and wants the same bytes: binary, archive, SHA256SUMS and
// npm packages. It also checks that the binary is the static, stamped
// program the release promises.
func TestBuild_reproducible(t *testing.T) {
	h := hostTarget()
	if !h.supported() {
		t.Skipf("the release does not build for this machine (%s)", h)
	}
	a := buildRelease(t, []Target{h})
	b := buildRelease(t, []Target{h})

	binA, binB := readFile(t, a.Binaries[h]), readFile(t, b.Binaries[h])
	if !bytes.Equal(binA, binB) {
		t.Errorf("two builds of the same source give different binaries (%d and %d bytes)", len(binA), len(binB))
	}
	if !bytes.Equal(readFile(t, a.Archives[h]), readFile(t, b.Archives[h])) {
		t.Errorf("two builds give different archives %s", filepath.Base(a.Archives[h]))
	}
	if sa, sb := readFile(t, a.Sums), readFile(t, b.Sums); !bytes.Equal(sa, sb) {
		t.Errorf("SHA256SUMS differ:\n%s\n%s", sa, sb)
	}
	for _, dirs := range [][2]string{{a.NPMLauncher, b.NPMLauncher}, {a.NPMPlatforms[h], b.NPMPlatforms[h]}} {
		fa, fb := treeFiles(t, dirs[0]), treeFiles(t, dirs[1])
		if len(fa) != len(fb) {
			t.Errorf("npm package %s: %d files, then %d", filepath.Base(dirs[0]), len(fa), len(fb))
		}
		for n, v := range fa {
			if fb[n] != v {
				t.Errorf("npm package %s: %s differs between the two builds", filepath.Base(dirs[0]), n)
			}
		}
	}

	out, err := exec.Command(a.Binaries[h], "version").Output()
	if err != nil {
		t.Fatalf("%s version: %v", a.Binaries[h], err)
	}
	if got, want := string(out), "innate-mcp "+testVersion+"\n"; got != want {
		t.Errorf("version prints %q, want %q (-X main.version not applied?)", got, want)
	}
	checkBinary(t, h, a.Binaries[h])

	// The archive holds this very binary, with the fixed metadata.
	files := readTarGz(t, readFile(t, a.Archives[h]))
	if !bytes.Equal(files[h.Exe()], binA) {
		t.Errorf("the archive's %s is not the built binary", h.Exe())
	}
	for _, n := range []string{"README.md", "licenses/use-lite/LICENSE", "licenses/use-lite/NOTICE"} {
		if _, ok := files[n]; !ok {
			t.Errorf("the archive has no %s", n)
		}
	}
	checkSums(t, a)
	checkNPMPackages(t, a, []Target{h})
}

// TestBuild_allTargets builds the six targets when INNATE_RELEASE_ALL=1
// (several minutes on two cores): each binary is of its platform and
// static, each archive is listed in SHA256SUMS, each platform has its npm
// package.
func TestBuild_allTargets(t *testing.T) {
	if os.Getenv("INNATE_RELEASE_ALL") != "1" {
		t.Skip("set INNATE_RELEASE_ALL=1 to build all six targets (several minutes)")
	}
	res := buildRelease(t, AllTargets())
	for _, tg := range AllTargets() {
		checkBinary(t, tg, res.Binaries[tg])
		var files map[string][]byte
		if tg.GOOS == "windows" {
			files = readZip(t, readFile(t, res.Archives[tg]))
		} else {
			files = readTarGz(t, readFile(t, res.Archives[tg]))
		}
		if !bytes.Equal(files[tg.Exe()], readFile(t, res.Binaries[tg])) {
			t.Errorf("%s: the archive's %s is not the built binary", tg, tg.Exe())
		}
	}
	checkSums(t, res)
	checkNPMPackages(t, res, AllTargets())
}

// checkBinary checks that the file at path is an executable for tg and,
// where the format says so, statically linked.
func checkBinary(t *testing.T, tg Target, path string) {
	t.Helper()
	switch tg.GOOS {
	case "linux":
		f, err := elf.Open(path)
		if err != nil {
			t.Fatalf("%s: not ELF: %v", tg, err)
		}
		defer f.Close()
		want := map[string]elf.Machine{"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64}[tg.GOARCH]
		if f.Machine != want {
			t.Errorf("%s: ELF machine %v, want %v", tg, f.Machine, want)
		}
		for _, p := range f.Progs {
			if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
				t.Errorf("%s: dynamically linked (program header %v): cgo was not off", tg, p.Type)
			}
		}
	case "darwin":
		f, err := macho.Open(path)
		if err != nil {
			t.Fatalf("%s: not Mach-O: %v", tg, err)
		}
		defer f.Close()
		want := map[string]macho.Cpu{"amd64": macho.CpuAmd64, "arm64": macho.CpuArm64}[tg.GOARCH]
		if f.Cpu != want {
			t.Errorf("%s: Mach-O CPU %v, want %v", tg, f.Cpu, want)
		}
		libs, _ := f.ImportedLibraries()
		// Go links the system's libraries on darwin with or without cgo
		// (libSystem, libresolv, CoreFoundation, Security); anything else
		// would have to be installed beside the binary.
		for _, l := range libs {
			if !strings.HasPrefix(l, "/usr/lib/") && !strings.HasPrefix(l, "/System/Library/") {
				t.Errorf("%s: links %s, not a library of the system: cgo was not off", tg, l)
			}
		}
	case "windows":
		f, err := pe.Open(path)
		if err != nil {
			t.Fatalf("%s: not PE: %v", tg, err)
		}
		defer f.Close()
		want := map[string]uint16{"amd64": pe.IMAGE_FILE_MACHINE_AMD64, "arm64": pe.IMAGE_FILE_MACHINE_ARM64}[tg.GOARCH]
		if f.Machine != want {
			t.Errorf("%s: PE machine %#x, want %#x", tg, f.Machine, want)
		}
	}
}

// checkSums checks SHA256SUMS: one line per archive, sorted, with the
// archive's hash.
func checkSums(t *testing.T, res *Result) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(string(readFile(t, res.Sums)), "\n"), "\n")
	if len(lines) != len(res.Archives) {
		t.Fatalf("SHA256SUMS has %d lines for %d archives:\n%s", len(lines), len(res.Archives), strings.Join(lines, "\n"))
	}
	prev := ""
	for _, l := range lines {
		sum, name, ok := strings.Cut(l, "  ")
		if !ok || name <= prev {
			t.Errorf("SHA256SUMS line %q: want HASH, two spaces, NAME, sorted by name", l)
			continue
		}
		prev = name
		h := sha256.Sum256(readFile(t, filepath.Join(filepath.Dir(res.Sums), name)))
		if hex.EncodeToString(h[:]) != sum {
			t.Errorf("SHA256SUMS: %s has the wrong hash", name)
		}
	}
}

// checkNPMPackages checks the generated package.json files: the launcher
// at the version with a bin and the six platforms as optional
// dependencies at the same version; each built platform's package with its
// os, cpu and executable binary.
func checkNPMPackages(t *testing.T, res *Result, built []Target) {
	t.Helper()
	var launcher struct {
		Name                 string
		Version              string
		Bin                  map[string]string
		OptionalDependencies map[string]string
	}
	if err := json.Unmarshal(readFile(t, filepath.Join(res.NPMLauncher, "package.json")), &launcher); err != nil {
		t.Fatalf("launcher package.json: %v", err)
	}
	if launcher.Name != "innate-mcp" || launcher.Version != testVersion || launcher.Bin["innate-mcp"] != "bin/innate-mcp.js" {
		t.Errorf("launcher package.json: name %q version %q bin %v", launcher.Name, launcher.Version, launcher.Bin)
	}
	if len(launcher.OptionalDependencies) != len(AllTargets()) {
		t.Errorf("launcher optionalDependencies: %v, want the %d platforms", launcher.OptionalDependencies, len(AllTargets()))
	}
	for _, tg := range AllTargets() {
		if v := launcher.OptionalDependencies[tg.NPMName()]; v != testVersion {
			t.Errorf("launcher optionalDependencies[%s] = %q, want %q", tg.NPMName(), v, testVersion)
		}
	}
	for _, tg := range built {
		dir := res.NPMPlatforms[tg]
		var p struct {
			Name, Version string
			OS            []string
			CPU           []string
		}
		if err := json.Unmarshal(readFile(t, filepath.Join(dir, "package.json")), &p); err != nil {
			t.Fatalf("%s package.json: %v", tg, err)
		}
		if p.Name != tg.NPMName() || p.Version != testVersion ||
			len(p.OS) != 1 || p.OS[0] != tg.NPMOS() || len(p.CPU) != 1 || p.CPU[0] != tg.NPMCPU() {
			t.Errorf("%s package.json: %+v", tg, p)
		}
		info, err := os.Stat(filepath.Join(dir, "bin", tg.Exe()))
		if err != nil || info.Mode()&0o111 == 0 {
			t.Errorf("%s npm package: bin/%s missing or not executable (%v)", tg, tg.Exe(), err)
		}
	}
}

func readTarGz(t *testing.T, b []byte) map[string][]byte {
	t.Helper()
	gz, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if gz.Name != "" || !gz.ModTime.IsZero() {
		t.Errorf("gzip header names %q at %v: want neither", gz.Name, gz.ModTime)
	}
	tr := tar.NewReader(gz)
	files := map[string][]byte{}
	prev := ""
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if h.Name <= prev {
			t.Errorf("tar entry %s after %s: entries not sorted", h.Name, prev)
		}
		prev = h.Name
		if h.Uid != 0 || h.Gid != 0 || h.Uname != "" || h.Gname != "" || !h.ModTime.Equal(defaultMTime()) {
			t.Errorf("tar entry %s: uid %d gid %d %q %q mtime %v: want 0, 0, no names, %v", h.Name, h.Uid, h.Gid, h.Uname, h.Gname, h.ModTime, defaultMTime())
		}
		if h.Typeflag == tar.TypeReg {
			if files[h.Name], err = io.ReadAll(tr); err != nil {
				t.Fatal(err)
			}
		}
	}
	return files
}

func readZip(t *testing.T, b []byte) map[string][]byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	prev := ""
	for _, f := range zr.File {
		if f.Name <= prev {
			t.Errorf("zip entry %s after %s: entries not sorted", f.Name, prev)
		}
		prev = f.Name
		if !f.Modified.Equal(defaultMTime()) {
			t.Errorf("zip entry %s: modified %v, want %v", f.Name, f.Modified, defaultMTime())
		}
		if f.Mode().IsDir() {
			continue
		}
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		files[f.Name], err = io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	return files
}

// TestArchives_fixedAndSorted writes the same files, given in two orders,
// twice in each format: the same bytes, entries sorted with their
// directories, fixed metadata and modes.
func TestArchives_fixedAndSorted(t *testing.T) {
	files := []archiveFile{
		{Name: "z-tool", Mode: 0o755, Data: []byte("#!bin\n")},
		{Name: "licenses/x/LICENSE", Mode: 0o644, Data: []byte("license\n")},
		{Name: "README.md", Mode: 0o644, Data: []byte("readme\n")},
	}
	reversed := []archiveFile{files[2], files[1], files[0]}
	for _, format := range []struct {
		name  string
		write func(io.Writer, []archiveFile, time.Time) error
	}{{"tar.gz", writeTarGz}, {"zip", writeZip}} {
		var a, b bytes.Buffer
		if err := format.write(&a, files, defaultMTime()); err != nil {
			t.Fatal(err)
		}
		if err := format.write(&b, reversed, defaultMTime()); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("%s: the same files in another order give other bytes", format.name)
		}
	}

	var tgz bytes.Buffer
	if err := writeTarGz(&tgz, files, defaultMTime()); err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(mustGunzip(t, tgz.Bytes()))
	var names []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		names = append(names, h.Name+" "+fs.FileMode(h.Mode).String())
	}
	want := "README.md -rw-r--r--,licenses/ -rwxr-xr-x,licenses/x/ -rwxr-xr-x,licenses/x/LICENSE -rw-r--r--,z-tool -rwxr-xr-x"
	if got := strings.Join(names, ","); got != want {
		t.Errorf("tar entries:\n got %s\nwant %s", got, want)
	}
	readTarGz(t, tgz.Bytes()) // owners, times

	var z bytes.Buffer
	if err := writeZip(&z, files, defaultMTime()); err != nil {
		t.Fatal(err)
	}
	got := readZip(t, z.Bytes())
	if string(got["z-tool"]) != "#!bin\n" || len(got) != 3 {
		t.Errorf("zip files: %q", got)
	}
	zr, _ := zip.NewReader(bytes.NewReader(z.Bytes()), int64(z.Len()))
	for _, f := range zr.File {
		if f.Name == "z-tool" && f.Mode().Perm() != 0o755 {
			t.Errorf("zip: z-tool has mode %v, want 0755", f.Mode())
		}
	}
}

func mustGunzip(t *testing.T, b []byte) io.Reader {
	t.Helper()
	gz, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return gz
}

func TestParseTargets(t *testing.T) {
	ts, err := parseTargets("linux/arm64, windows/amd64")
	if err != nil || len(ts) != 2 || ts[0] != (Target{"linux", "arm64"}) || ts[1] != (Target{"windows", "amd64"}) {
		t.Errorf("parseTargets(list) = %v, %v", ts, err)
	}
	if ts, _ := parseTargets("all"); len(ts) != 6 {
		t.Errorf("all: %d targets, want 6", len(ts))
	}
	for _, bad := range []string{"linux", "plan9/amd64", "linux/386", ""} {
		if _, err := parseTargets(bad); err == nil {
			t.Errorf("parseTargets(%q): no error", bad)
		}
	}
}

func TestSourceDate(t *testing.T) {
	if d, err := sourceDate(""); err != nil || !d.Equal(defaultMTime()) {
		t.Errorf("unset: %v, %v", d, err)
	}
	if d, err := sourceDate("1700000000"); err != nil || d.Unix() != 1700000000 {
		t.Errorf("1700000000: %v, %v", d, err)
	}
	for _, bad := range []string{"yesterday", "0", "-5"} {
		if _, err := sourceDate(bad); err == nil {
			t.Errorf("SOURCE_DATE_EPOCH=%s: no error", bad)
		}
	}
}

// TestBuild_refuses checks what Build refuses before it builds anything.
func TestBuild_refuses(t *testing.T) {
	ctx := context.Background()
	full := t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "old"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		o    Options
		want string
	}{
		{"not semver", Options{Src: "../..", Out: t.TempDir(), Version: "v1.2", Targets: AllTargets()}, "not a semantic version"},
		{"no targets", Options{Src: "../..", Out: t.TempDir(), Version: "1.2.3"}, "no target"},
		{"unsupported", Options{Src: "../..", Out: t.TempDir(), Version: "1.2.3", Targets: []Target{{"linux", "386"}}}, "not supported"},
		{"not the repo", Options{Src: t.TempDir(), Out: t.TempDir(), Version: "1.2.3", Targets: AllTargets()}, "repository root"},
		{"output not empty", Options{Src: "../..", Out: full, Version: "1.2.3", Targets: AllTargets()}, "not empty"},
	} {
		_, err := Build(ctx, c.o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
}
