package main

import (
	"bytes"
	"io"
	"os"
	"testing"
)

// TestGenerated checks that embed/gemm_amd64.s and gemm_arm64.s are this
// generator's output (regenerate with go generate ./embed).
func TestGenerated(t *testing.T) {
	for file, gen := range map[string]func(io.Writer) error{
		"../../gemm_amd64.s": write,
		"../../gemm_arm64.s": writeARM64,
	} {
		var b bytes.Buffer
		if err := gen(&b); err != nil {
			t.Fatal(err)
		}
		have, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b.Bytes(), have) {
			t.Errorf("%s is stale: run go generate ./embed", file)
		}
	}
}
