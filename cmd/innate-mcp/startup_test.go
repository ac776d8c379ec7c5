package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/embed"
	"github.com/innate-mcp/innate-mcp/kb"
)

// fakeUSE stands in for the built-in embedder when building large test
// databases: same name and dimension, pseudo-random vectors.
type fakeUSE struct{}

func (fakeUSE) Name() string { return embed.BuiltinName }
func (fakeUSE) Dim() int     { return embed.Dim }
func (fakeUSE) Remote() bool { return false }
func (fakeUSE) Embed(_ context.Context, text string) ([]float32, error) {
	h := fnv.New64a()
	h.Write([]byte(text))
	r := rand.New(rand.NewPCG(h.Sum64(), 3))
	v := make([]float32, embed.Dim)
	var n float64
	for i := range v {
		x := r.NormFloat64()
		v[i], n = float32(x), n+x*x
	}
	for i := range v {
		v[i] /= float32(math.Sqrt(n))
	}
	return v, nil
}
func (f fakeUSE) EmbedBatch(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i], _ = f.Embed(ctx, t)
	}
	return out, nil
}

// lessonsDB builds a database of n synthetic lessons.
func lessonsDB(tb testing.TB, n int) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "kb.db")
	ctx := context.Background()
	db := openStore(tb, path)
	defer db.Close()
	k, err := kb.New(kb.Config{Store: db, Embedder: fakeUSE{}})
	if err != nil {
		tb.Fatal(err)
	}
	ls := make([]kb.NewLesson, n)
	for i := range ls {
		ls[i] = kb.NewLesson{Content: fmt.Sprintf("Lesson %d: prefer table tests for parser %d and check error %d.", i, i%97, i%89),
			Trigger: fmt.Sprintf("writing tests for module %d", i%113)}
	}
	if _, err := k.Add(ctx, ls, nil); err != nil {
		tb.Fatal(err)
	}
	return path
}

// initializeOnce spawns the server and returns how long the initialize
// response took to arrive after the process was started.
func initializeOnce(tb testing.TB, bin, db string) time.Duration {
	tb.Helper()
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(), "INNATE_DB="+db, "INNATE_LOG_LEVEL=error")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	start := time.Now()
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	defer func() {
		stdin.Close()
		cmd.Process.Kill()
		cmd.Wait()
	}()
	fmt.Fprintln(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`)
	line, err := bufio.NewReader(stdout).ReadString('\n')
	elapsed := time.Since(start)
	if err != nil || len(line) == 0 {
		tb.Fatalf("no initialize response: %v", err)
	}
	return elapsed
}

// TestStartup_largeDatabase answers the handshake on a database of
// startupLessons lessons (10k without the race detector); the time is
// measured by BenchmarkStartup, not asserted here.
func TestStartup_largeDatabase(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a large database")
	}
	db := lessonsDB(t, startupLessons)
	initializeOnce(t, buildBinary(t), db)
}

// BenchmarkStartup measures spawn-to-initialize-response with 10k lessons
// in the database (target: ≤ 150 ms).
func BenchmarkStartup(b *testing.B) {
	bin := buildBinary(b)
	db := lessonsDB(b, 10_000)
	initializeOnce(b, bin, db) // migrations and page cache warm
	var total time.Duration
	n := 0
	for b.Loop() {
		total += initializeOnce(b, bin, db)
		n++
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(n), "ms/initialize")
}

// lessonsDBFrom imports the first limit lessons (all when limit is 0) of a
// JSONL lesson file into a new database at path with the stand-in embedder,
// and returns how many it imported.
func lessonsDBFrom(tb testing.TB, path, file string, limit int) int {
	tb.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		tb.Fatal(err)
	}
	ls, err := parseJSONL(bytes.NewReader(data))
	if err != nil {
		tb.Fatal(err)
	}
	if limit > 0 && limit < len(ls) {
		ls = ls[:limit]
	}
	ctx := context.Background()
	db := openStore(tb, path)
	defer db.Close()
	k, err := kb.New(kb.Config{Store: db, Embedder: fakeUSE{}})
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := k.Add(ctx, ls, nil); err != nil {
		tb.Fatal(err)
	}
	return len(ls)
}
