package embed

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
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

// benchText returns a text of exactly n tokens.
func benchText(tb testing.TB, n int) string {
	tb.Helper()
	tok := builtinTok(tb)
	words := strings.Fields("the agent kept retrying the flaky integration test instead of reading the error message which said the database migration had not been applied so every run failed")
	var b strings.Builder
	for i := 0; ; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(words[i%len(words)])
		if got := len(tok.Encode(b.String())); got == n {
			return b.String()
		} else if got > n {
			tb.Fatalf("cannot build a %d-token text", n)
		}
	}
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
			for b.Loop() {
				t0 := time.Now()
				if _, err := e.Embed(ctx, text); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(t0))
			}
			reportPercentiles(b, lat)
		})
	}
}
