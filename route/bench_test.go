package route

import (
	"strings"
	"testing"
)

// The target: routing ≤ 1 ms p50 apart from the KB lookup. One Route
// call is one decision; ns/op is the per-decision time.

func benchRoute(b *testing.B, msg string) {
	w := DefaultWeights()
	in := Input{Message: msg, Warmth: moderate, Prev: &SessionState{Mode: Clarify}}
	Route(in, w) // parse the lexicon outside the timing
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		Route(in, w)
	}
}

func BenchmarkRoute_Greeting(b *testing.B) { benchRoute(b, "hi") }
func BenchmarkRoute_English(b *testing.B) {
	benchRoute(b, "can you fix the nil pointer panic in storage/db.go Open() like last time?")
}
func BenchmarkRoute_Chinese(b *testing.B) {
	benchRoute(b, "帮我修复 storage/db.go 里的空指针，像上次那样处理，可以吗？")
}
func BenchmarkRoute_Japanese(b *testing.B) {
	benchRoute(b, "前回と同じように storage/db.go のパニックを直してください")
}

// A 20 KB pasted log with a question at the end: the router reads 4 KiB
// (MaxScanBytes), the worst case for one decision.
func BenchmarkRoute_LongPaste(b *testing.B) {
	benchRoute(b, strings.Repeat("2024-01-01 INFO request served in 3ms by handler.ServeHTTP\n", 350)+"why does it panic?")
}

func BenchmarkExtract_English(b *testing.B) {
	msg := "can you fix the nil pointer panic in storage/db.go Open() like last time?"
	Extract(msg)
	b.ReportAllocs()
	for b.Loop() {
		Extract(msg)
	}
}
