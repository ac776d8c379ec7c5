package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/internal/mcptest"
)

// BenchmarkRecordContention measures record under cross-process
// contention: procs real server processes of the built binary on one
// database, each answering callers concurrent callers (the stdio server's
// worker pool size) until it has recorded records new lessons. It reports
// the p50 and p99 latency of a call (request written to response read),
// the records per second of the whole run and the servers' CPU time per
// record (start-up and model loading included).
func BenchmarkRecordContention(b *testing.B) {
	const (
		procs   = 4
		callers = 5
		records = 500
	)
	var all []time.Duration
	var elapsed, cpu time.Duration
	round := 0
	for b.Loop() {
		db := filepath.Join(b.TempDir(), "kb.db")
		clients := make([]*rpcClient, procs)
		for p := range clients {
			clients[p] = spawnProcess(b, db)
			clients[p].initialize()
		}
		// One call each first: the embedder is loaded and the index built
		// before the clock starts.
		for p, c := range clients {
			mcptest.Structured(b, c.tool("recall", map[string]any{"query": fmt.Sprintf("warm up process %s", letters(p))}))
		}
		lat := make([][]time.Duration, procs*callers)
		var wg sync.WaitGroup
		start := time.Now()
		for p, c := range clients {
			for w := range callers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := w; i < records; i += callers {
						t0 := time.Now()
						res := c.tool("record", map[string]any{"lesson": map[string]any{
							"content": fmt.Sprintf("Contended lesson %s of process %s in round %s.", letters(i), letters(p), letters(round))}})
						lat[p*callers+w] = append(lat[p*callers+w], time.Since(t0))
						if isErr, _ := res["isError"].(bool); isErr {
							b.Errorf("process %d record %d: %v", p, i, res["content"])
						}
					}
				}()
			}
		}
		wg.Wait()
		elapsed += time.Since(start)
		for _, l := range lat {
			all = append(all, l...)
		}
		for _, c := range clients {
			c.close()
			cpu += c.cmd.ProcessState.UserTime() + c.cmd.ProcessState.SystemTime()
		}
		round++
	}
	slices.Sort(all)
	q := func(f float64) float64 { return float64(all[int(f*float64(len(all)-1))].Microseconds()) / 1000 }
	b.ReportMetric(q(0.50), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
	b.ReportMetric(float64(len(all))/elapsed.Seconds(), "records/s")
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(len(all)), "cpu-ms/record")
}
