package embed

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/embed/internal/usefile"
)

// reportPercentiles adds p50-ms and p90-ms metrics: the latency
// targets are medians, and the median resists the noise of a shared machine
// better than the mean ns/op.
func reportPercentiles(b *testing.B, lat []time.Duration) {
	b.Helper()
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	ms := func(q float64) float64 { return float64(lat[int(q*float64(len(lat)-1))]) / 1e6 }
	b.ReportMetric(ms(0.5), "p50-ms")
	b.ReportMetric(ms(0.9), "p90-ms")
}

// benchText returns an English-like text of exactly n tokens.
func benchText(tb testing.TB, n int) string {
	tb.Helper()
	tok := builtinTok(tb)
	words := strings.Fields("the agent kept retrying the flaky integration test instead of reading the error message which said the database migration had not been applied so every run failed")
	text := ""
	for i := 0; len(tok.Encode(text)) < n; i++ {
		next := strings.TrimSpace(text + " " + words[i%len(words)])
		if len(tok.Encode(next)) > n {
			next = strings.TrimSpace(text + " a") // "▁a" is one token
		}
		text = next
	}
	if got := len(tok.Encode(text)); got != n {
		tb.Fatalf("benchText(%d) has %d tokens", n, got)
	}
	return text
}

// BenchmarkEmbed measures one Embed call; run with -cpu 1 for the
// single-core latency figures (the package doc quotes them).
func BenchmarkEmbed(b *testing.B) {
	e := Builtin()
	if err := e.Preload(); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for _, n := range []int{1, 10, 32, 64, 128} {
		text := benchText(b, n)
		b.Run(fmt.Sprintf("tokens=%d", n), func(b *testing.B) {
			lat := make([]time.Duration, 0, b.N)
			cpu0 := cpuTime()
			for b.Loop() {
				t0 := time.Now()
				if _, err := e.Embed(ctx, text); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(t0))
			}
			// CPU time per call: what a call costs when it is not waiting
			// for a core (other processes share this machine).
			b.ReportMetric(float64(cpuTime()-cpu0)/1e6/float64(len(lat)), "cpu-ms")
			reportPercentiles(b, lat)
		})
	}
}

// BenchmarkEmbedBatch embeds 64 texts of 10-40 tokens per op; compare
// -cpu 1 and -cpu 2 to see EmbedBatch use every core: texts/s, and cores,
// the process CPU time per wall-clock second (about 2 on an idle 2-core
// machine with -cpu 2; less when other processes compete).
func BenchmarkEmbedBatch(b *testing.B) {
	e := Builtin()
	if err := e.Preload(); err != nil {
		b.Fatal(err)
	}
	texts := make([]string, 64)
	for i := range texts {
		texts[i] = benchText(b, 10+i%31)
	}
	ctx := context.Background()
	cpu0 := cpuTime()
	for b.Loop() {
		if _, err := e.EmbedBatch(ctx, texts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(texts))/b.Elapsed().Seconds(), "texts/s")
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.Elapsed()), "cores")
}

// BenchmarkLoad decodes the embedded weights and builds the model, the
// one-time cost of the first Embed.
func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		r, err := usefile.Open(weightsData)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := loadModel(r, true); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTokenizer measures tokenization of a 100-word text and the
// window of a 1 MB text.
func BenchmarkTokenizer(b *testing.B) {
	tok := builtinTok(b)
	short := strings.Repeat("the handler crashed with a nil pointer ", 14)
	big := strings.Repeat("the handler crashed with a nil pointer dereference; ", 1<<20/52)
	b.Run("100words", func(b *testing.B) {
		for b.Loop() {
			tok.Encode(short)
		}
	})
	b.Run("1MB-window", func(b *testing.B) {
		for b.Loop() {
			tok.window(big)
		}
	})
}
