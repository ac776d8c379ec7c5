package kb_test

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	chromem "github.com/philippgille/chromem-go"

	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/storage"
)

// vecEmbedder returns a pseudo-random unit vector seeded by the text: the
// cost of a brute-force search does not depend on the values, and the
// benchmark excludes query embedding (measured on its own in package embed).
type vecEmbedder struct{ dim int }

func (e vecEmbedder) Name() string { return "bench-512" }
func (e vecEmbedder) Dim() int     { return e.dim }
func (e vecEmbedder) Remote() bool { return false }
func (e vecEmbedder) Embed(_ context.Context, text string) ([]float32, error) {
	h := fnv.New64a()
	h.Write([]byte(text))
	return randomUnit(rand.New(rand.NewPCG(h.Sum64(), 1)), e.dim), nil
}
func (e vecEmbedder) EmbedBatch(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i], _ = e.Embed(ctx, t)
	}
	return out, nil
}

func randomUnit(r *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	var n float64
	for i := range v {
		x := r.NormFloat64()
		v[i] = float32(x)
		n += x * x
	}
	s := float32(1 / math.Sqrt(n))
	for i := range v {
		v[i] *= s
	}
	return v
}

// benchWords is a vocabulary for synthetic lessons, drawn with a Zipf law
// so that some terms are common and most are rare, as in real text.
func benchText(r *rand.Rand, z *rand.Zipf, n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "w%dx", z.Uint64())
	}
	_ = r
	return b.String()
}

// benchDB returns a database of n synthetic lessons (half with a trigger),
// built once per size and reused across benchmark runs in the same process;
// TestMain removes them when the process ends. INNATE_BENCH_DIR keeps them
// in that directory instead, reused across processes (for profiling).
var benchDBs sync.Map

// TestMain runs the package's tests and benchmarks, then removes the
// benchmark databases it built.
func TestMain(m *testing.M) {
	code := m.Run()
	if os.Getenv("INNATE_BENCH_DIR") == "" {
		benchDBs.Range(func(_, p any) bool {
			os.RemoveAll(filepath.Dir(p.(string)))
			return true
		})
	}
	os.Exit(code)
}

func benchDB(b testing.TB, n int) string {
	b.Helper()
	if p, ok := benchDBs.Load(n); ok {
		return p.(string)
	}
	if keep := os.Getenv("INNATE_BENCH_DIR"); keep != "" {
		path := filepath.Join(keep, fmt.Sprintf("bench-%d.db", n))
		if _, err := os.Stat(path); err == nil {
			benchDBs.Store(n, path)
			return path
		}
		return buildBenchDB(b, n, path)
	}
	dir, err := os.MkdirTemp("", "innate-bench-*")
	if err != nil {
		b.Fatal(err)
	}
	return buildBenchDB(b, n, filepath.Join(dir, "bench.db"))
}

// buildBenchDB fills a new database at path with n synthetic lessons.
func buildBenchDB(b testing.TB, n int, path string) string {
	b.Helper()
	ctx := context.Background()
	db, err := storage.Open(ctx, path, storage.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	k, err := kb.New(kb.Config{Store: db, Embedder: vecEmbedder{512}})
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 7))
	z := rand.NewZipf(rand.New(rand.NewPCG(8, 8)), 1.1, 2, 20000)
	const batch = 2000
	for start := 0; start < n; start += batch {
		ls := make([]kb.NewLesson, 0, batch)
		for i := start; i < min(n, start+batch); i++ {
			nl := kb.NewLesson{Content: benchText(r, z, 25+r.IntN(30)), Origin: kb.OriginImported}
			if i%2 == 0 {
				nl.Trigger = benchText(r, z, 8)
			}
			ls = append(ls, nl)
		}
		if _, err := k.Add(ctx, ls, nil); err != nil {
			b.Fatal(err)
		}
	}
	benchDBs.Store(n, path)
	return path
}

// openBenchKB opens the benchmark database of n lessons (see benchDB) and a
// knowledge base over it with the benchmark's hash embedder.
func openBenchKB(b *testing.B, n int) (*storage.DB, *kb.KB) {
	b.Helper()
	db, err := storage.Open(context.Background(), benchDB(b, n), storage.Options{})
	if err != nil {
		b.Fatal(err)
	}
	k, err := kb.New(kb.Config{Store: db, Embedder: vecEmbedder{512}})
	if err != nil {
		b.Fatal(err)
	}
	return db, k
}

// BenchmarkRecall measures recall at 10k and 100k lessons side by side with
// chromem-go's own QueryEmbedding over the same lessons' 512-d vectors, in
// the same run. Query embedding is excluded (the benchmark embedder is a
// hash); see BenchmarkEmbed in package embed for it.
func BenchmarkRecall(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		if testing.Short() && n > 10_000 {
			continue
		}
		ctx := context.Background()
		db, k := openBenchKB(b, n)
		r := rand.New(rand.NewPCG(9, 9))
		z := rand.NewZipf(rand.New(rand.NewPCG(10, 10)), 1.1, 2, 20000)
		queries := make([]string, 64)
		for i := range queries {
			queries[i] = benchText(r, z, 12)
		}
		// Warm the index (the first recall builds it).
		if _, err := k.Recall(ctx, kb.RecallRequest{Query: queries[0]}); err != nil {
			b.Fatal(err)
		}
		// The plain queries, then the same queries each with three words no
		// lesson holds, which recall first tries to read as typos or
		// run-together words.
		for _, bc := range []struct{ name, extra string }{
			{"recall", ""},
			{"recall-unknown-words", " transactoins heatmapcolors stirngify"},
		} {
			b.Run(fmt.Sprintf("lessons=%d/%s", n, bc.name), func(b *testing.B) {
				var d []time.Duration
				i := 0
				for b.Loop() {
					start := time.Now()
					res, err := k.Recall(ctx, kb.RecallRequest{Query: queries[i%len(queries)] + bc.extra})
					if err != nil {
						b.Fatal(err)
					}
					d = append(d, time.Since(start))
					if len(res.ReadAs) != 0 {
						b.Fatalf("read %+v in a vocabulary without English words", res.ReadAs)
					}
					i++
				}
				reportP50(b, d)
			})
		}

		// chromem-go alone over the same content vectors.
		cdb := chromem.NewDB()
		coll, err := cdb.CreateCollection("bench", nil, func(context.Context, string) ([]float32, error) {
			return nil, fmt.Errorf("no embedding")
		})
		if err != nil {
			b.Fatal(err)
		}
		var docs []chromem.Document
		err = db.Lessons(ctx, kb.LessonFilter{}, func(l kb.Lesson) error {
			c, _, err := db.Vectors(ctx, l.ID)
			docs = append(docs, chromem.Document{ID: l.ID, Embedding: c})
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
		if err := coll.AddDocuments(ctx, docs, 4); err != nil {
			b.Fatal(err)
		}
		qv := make([][]float32, len(queries))
		for i, q := range queries {
			qv[i], _ = vecEmbedder{512}.Embed(ctx, q)
		}
		b.Run(fmt.Sprintf("lessons=%d/chromem-QueryEmbedding", n), func(b *testing.B) {
			var d []time.Duration
			i := 0
			for b.Loop() {
				start := time.Now()
				if _, err := coll.QueryEmbedding(ctx, qv[i%len(qv)], 10, nil, nil); err != nil {
					b.Fatal(err)
				}
				d = append(d, time.Since(start))
				i++
			}
			reportP50(b, d)
		})
		db.Close()
	}
}

// reportP50 reports the median of the measured durations in milliseconds.
func reportP50(b *testing.B, d []time.Duration) {
	if len(d) == 0 {
		return
	}
	slices.Sort(d)
	b.ReportMetric(float64(d[len(d)/2].Microseconds())/1000, "p50-ms")
}
