package embed

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// memoryBudget is the limit on what the loaded model adds to the
// process.
const memoryBudget = 100 << 20

type memFigures struct {
	HeapDelta int64 `json:"heap_delta"` // live heap after GC
	SysDelta  int64 `json:"sys_delta"`  // memory obtained from the OS by the Go runtime
	RSSDelta  int64 `json:"rss_delta"`  // resident set, including the touched embedded weights; -1 if unknown
}

// TestBuiltin_Memory loads the model in a fresh process, embeds a long
// text and a batch on every core, and checks what that added.
func TestBuiltin_Memory(t *testing.T) {
	if os.Getenv("EMBED_MEMORY_CHILD") == "1" {
		memoryChild(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestBuiltin_Memory$", "-test.v")
	cmd.Env = append(os.Environ(), "EMBED_MEMORY_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	var f memFigures
	found := false
	for _, line := range strings.Split(string(out), "\n") {
		if _, rest, ok := strings.Cut(line, "MEMORY "); ok {
			if err := json.Unmarshal([]byte(rest), &f); err != nil {
				t.Fatal(err)
			}
			found = true
		}
	}
	if !found {
		t.Fatalf("child printed no figures:\n%s", out)
	}
	t.Logf("model adds: heap %.1f MB, Go runtime sys %.1f MB, RSS %.1f MB", mb(f.HeapDelta), mb(f.SysDelta), mb(f.RSSDelta))
	if f.SysDelta > memoryBudget {
		t.Errorf("Go runtime memory grew by %.1f MB, budget %d MB", mb(f.SysDelta), memoryBudget>>20)
	}
	// The race detector's shadow memory inflates RSS several times over.
	if f.RSSDelta > memoryBudget && !raceEnabled {
		t.Errorf("RSS grew by %.1f MB, budget %d MB", mb(f.RSSDelta), memoryBudget>>20)
	}
}

func memoryChild(t *testing.T) {
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	rss0 := rss()
	e := Builtin()
	ctx := context.Background()
	if _, err := e.Embed(ctx, strings.Repeat("memory check ", 200)); err != nil {
		t.Fatal(err)
	}
	texts := make([]string, 64)
	for i := range texts {
		texts[i] = strings.Repeat("word ", 10+i)
	}
	if _, err := e.EmbedBatch(ctx, texts); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&m1)
	rss1 := rss()
	f := memFigures{
		HeapDelta: int64(m1.HeapAlloc) - int64(m0.HeapAlloc),
		SysDelta:  int64(m1.Sys) - int64(m0.Sys),
		RSSDelta:  -1,
	}
	if rss0 >= 0 && rss1 >= 0 {
		f.RSSDelta = rss1 - rss0
	}
	b, _ := json.Marshal(f)
	t.Logf("MEMORY %s", b)
}

// rss returns the resident set size from /proc/self/statm, or -1.
func rss() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return -1
	}
	fields := strings.Fields(string(b))
	if len(fields) < 2 {
		return -1
	}
	pages, err := strconv.ParseInt(fields[1], 10, 64)
	if err != nil {
		return -1
	}
	return pages * int64(os.Getpagesize())
}

func mb(n int64) float64 { return float64(n) / (1 << 20) }
