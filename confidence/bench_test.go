package confidence

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// BenchmarkApply measures one record's event on one lesson, decay catch-up
// included (the write path of `record`).
func BenchmarkApply(b *testing.B) {
	cfg := DefaultConfig()
	s := warmState(cfg)
	e := Event{Kind: KindAppliedSuccess, At: t0.Add(3 * 24 * time.Hour), Session: "bench"}
	for b.Loop() {
		if _, _, err := Apply(s, e, cfg); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAsOf measures the read path: catching up one lesson after the
// given downtime.
func BenchmarkAsOf(b *testing.B) {
	cfg := DefaultConfig()
	s := warmState(cfg)
	for _, d := range []time.Duration{0, 30 * 24 * time.Hour, 365 * 24 * time.Hour} {
		b.Run(fmt.Sprint("downtime=", d), func(b *testing.B) {
			for b.Loop() {
				AsOf(s, t0.Add(d), cfg)
			}
		})
	}
}

// BenchmarkAsOfAll catches up every lesson of a knowledge base after a
// month off, as `innate-mcp stats` would on its first read.
func BenchmarkAsOfAll(b *testing.B) {
	cfg := DefaultConfig()
	for _, n := range []int{1_000, 10_000, 100_000} {
		rng := rand.New(rand.NewPCG(1, uint64(n)))
		states := make([]State, n)
		for i := range states {
			states[i] = randomState(rng, cfg)
		}
		now := t0.Add(30 * 24 * time.Hour)
		b.Run(fmt.Sprint("lessons=", n), func(b *testing.B) {
			for b.Loop() {
				for _, s := range states {
					AsOf(s, now, cfg)
				}
			}
		})
	}
}

// BenchmarkCompare sorts recall candidates.
func BenchmarkCompare(b *testing.B) {
	cfg := DefaultConfig()
	rng := rand.New(rand.NewPCG(2, 2))
	for _, n := range []int{10, 100, 1000} {
		cs := make([]Candidate, n)
		for i := range cs {
			cs[i] = Candidate{ID: fmt.Sprint(i), Match: rng.Float64(), State: randomState(rng, cfg)}
		}
		b.Run(fmt.Sprint("candidates=", n), func(b *testing.B) {
			buf := make([]Candidate, n)
			for b.Loop() {
				copy(buf, cs)
				slices.SortFunc(buf, func(x, y Candidate) int { return Compare(x, y, cfg) })
			}
		})
	}
}

// BenchmarkOpposes checks one new lesson against one existing lesson.
func BenchmarkOpposes(b *testing.B) {
	a := "When writing unit tests, never mock the database; use a real SQLite file instead."
	c := "When writing unit tests, mock the database."
	for b.Loop() {
		Opposes(a, c)
	}
}

// BenchmarkClaims extracts the directives of one lesson, the per-lesson cost
// of indexing a knowledge base by action key.
func BenchmarkClaims(b *testing.B) {
	texts := []struct{ lang, text string }{
		{"en", "Use TypeScript for all code; prefer interfaces over types."},
		{"zh", "在写测试时，不要mock数据库。"},
		{"ja", "letではなくconstを使う。"},
	}
	for _, tx := range texts {
		b.Run(tx.lang, func(b *testing.B) {
			for b.Loop() {
				Claims(tx.text)
			}
		})
	}
}
