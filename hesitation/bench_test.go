package hesitation

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/internal/clip"
)

// benchParagraph is realistic agent prose: claims, code names, numbers,
// hedges and a little Chinese.
const benchParagraph = "I updated parser.go so that ReadConfig() now returns ErrNotFound when the file is missing; " +
	"the old code called os.Open twice. It should work with Go 1.22 and the --race flag, but I have not run the full suite yet. " +
	"Clearly the cache in internal/cache was the root cause, therefore the fix is final. " +
	"Some users reported 3 crashes per 1,000 requests on v2.4.1 since 2023-11-02. 我認為這可能是設定檔的問題，所以已修復。\n"

// draftOfSize repeats benchParagraph to n bytes, cut on a rune boundary.
func draftOfSize(n int) string {
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(benchParagraph)
	}
	return clip.Bytes(b.String(), n)
}

// benchPatterns builds n distinct patterns from synthetic corrections.
func benchPatterns(tb testing.TB, n int) []Pattern {
	tb.Helper()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ps := make([]Pattern, 0, n)
	for i := 0; i < n; i++ {
		c := fmt.Sprintf("I told you not to touch module%d or call helper%d.Run with --flag%d; 不是有說不要改設定%d", i, i, i, i)
		d := fmt.Sprintf("I'll edit module%d and call helper%d.Run --flag%d to refresh table%d.", i, i, i, i)
		p, err := NewPattern(c, d, SourceUserCorrection, now)
		if err != nil {
			tb.Fatal(err)
		}
		ps = append(ps, p)
	}
	return ps
}

func benchmarkCheck(b *testing.B, size, npat int) {
	draft := draftOfSize(size)
	ps := benchPatterns(b, npat)
	cfg := DefaultConfig()
	sit := Situation{Query: "Why does ReadConfig fail?", ToolOutputs: []string{"--- FAIL: TestReadConfig (0.00s)\nFAIL"}, Now: time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)}
	acts := []Action{ActionReply, ActionCommit}
	b.SetBytes(int64(len(draft)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Check(draft, acts, sit, ps, cfg); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheck_2KB_200Patterns backs the claim: <= 100 µs for a 2 KB
// draft with 200 error patterns.
func BenchmarkCheck_2KB_200Patterns(b *testing.B) { benchmarkCheck(b, 2<<10, 200) }

// BenchmarkCheck_100KB backs the claim: <= 2 ms for a 100 KB draft.
func BenchmarkCheck_100KB(b *testing.B) { benchmarkCheck(b, 100<<10, 200) }

// BenchmarkHedges_2KB measures cue detection alone.
func BenchmarkHedges_2KB(b *testing.B) {
	text := draftOfSize(2 << 10)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Hedges(text)
	}
}

// BenchmarkExtractKeywords measures learning a pattern from a correction.
func BenchmarkExtractKeywords(b *testing.B) {
	c := "不是有說不要用 rm -rf 刪除資料夾嗎？為何還是用了 I told you to use the trash command instead."
	d := draftOfSize(1 << 10)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		ExtractKeywords(c, d)
	}
}
