package main

import (
	"bytes"
	"os"
	"testing"
)

// TestGenerated checks that embed/gemm_amd64.s is this generator's output
// (regenerate with: go run ./embed/internal/asmgen > embed/gemm_amd64.s).
func TestGenerated(t *testing.T) {
	var b bytes.Buffer
	if err := write(&b); err != nil {
		t.Fatal(err)
	}
	have, err := os.ReadFile("../../gemm_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), have) {
		t.Error("embed/gemm_amd64.s is stale: run go generate ./embed")
	}
}
