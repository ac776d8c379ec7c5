package vecindex

import (
	"context"
	"errors"
	"math"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"
)

// fakeSource is a store of rows in memory.
type fakeSource struct {
	mu    sync.Mutex
	rev   int64
	rows  map[int64]Row
	reads int
}

func (f *fakeSource) Revision(context.Context) (int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.rev, nil
}

func (f *fakeSource) Changes(_ context.Context, from int64, fn func(Row) error) error {
	f.mu.Lock()
	var rows []Row
	for _, seq := range slicesSorted(f.rows) {
		r := f.rows[seq]
		if (from < 0 && !r.Archived) || (from >= 0 && r.Rev > from) {
			rows = append(rows, r)
		}
	}
	f.reads++
	f.mu.Unlock()
	for _, r := range rows {
		if err := fn(r); err != nil {
			return err
		}
	}
	return nil
}

func slicesSorted(m map[int64]Row) []int64 {
	var ks []int64
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

func (f *fakeSource) put(seq int64, archived bool, content ...float32) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.rev++
	f.rows[seq] = Row{Seq: seq, Rev: f.rev, Archived: archived, Content: norm(content)}
}

func norm(v []float32) []float32 {
	var n float64
	for _, x := range v {
		n += float64(x * x)
	}
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(float64(x) / math.Sqrt(n))
	}
	return out
}

func TestIndex_followsTheRevision(t *testing.T) {
	ctx := context.Background()
	src := &fakeSource{rows: map[int64]Row{}}
	src.put(1, false, 1, 0, 0)
	src.put(2, false, 0, 1, 0)
	ix := New(src, nil)
	if ix.Revision() != -1 {
		t.Fatal("an index not built reports a revision")
	}
	if err := ix.Ensure(ctx); err != nil {
		t.Fatal(err)
	}
	if got, _ := ix.Query(ctx, norm([]float32{0.9, 0.1, 0}), 1); !slices.Equal(got, []int64{1}) {
		t.Errorf("nearest to x: %v, want [1]", got)
	}
	// Nothing changed: no read.
	reads := src.reads
	if err := ix.Ensure(ctx); err != nil || src.reads != reads {
		t.Errorf("a current index read the source again (%d reads, %v)", src.reads-reads, err)
	}
	// A new lesson and an archived one: only the change is read.
	src.put(3, false, 0, 0, 1)
	src.put(1, true, 1, 0, 0)
	if err := ix.Ensure(ctx); err != nil {
		t.Fatal(err)
	}
	if got, _ := ix.Query(ctx, norm([]float32{1, 0, 0.2}), 3); !slices.Equal(got, []int64{3, 2}) {
		t.Errorf("after the changes: %v, want [3 2] (1 archived)", got)
	}
	if ix.Revision() != 4 {
		t.Errorf("revision %d, want 4", ix.Revision())
	}
	// Re-embedded with another dimension: the index starts over.
	src.mu.Lock()
	for seq, r := range src.rows {
		src.rev++
		r.Rev, r.Content = src.rev, norm([]float32{float32(seq), 1})
		src.rows[seq] = r
	}
	src.mu.Unlock()
	if err := ix.Ensure(ctx); err != nil {
		t.Fatalf("after re-embedding: %v", err)
	}
	if _, err := ix.Query(ctx, norm([]float32{1, 0, 0}), 2); !errors.Is(err, ErrDimMismatch) {
		t.Errorf("a query of the old dimension: %v, want ErrDimMismatch", err)
	}
	if got, err := ix.Query(ctx, norm([]float32{3, 1}), 5); err != nil || len(got) != 2 {
		t.Errorf("rebuilt index holds %v (%v), want the 2 recallable lessons", got, err)
	}
}

func TestScorer(t *testing.T) {
	c := &Centring{}
	q := norm([]float32{1, 1})
	s := c.Scorer(q).Score(norm([]float32{1, 0}), nil)
	if math.Abs(s.RawContent-math.Sqrt(0.5)) > 1e-6 || s.HasTrigger {
		t.Errorf("scores %+v", s)
	}
	// With a mean removed, a lesson along the mean scores lower than its raw cosine.
	c = &Centring{content: []float32{0.5, 0}}
	s = c.Scorer(q).Score(norm([]float32{1, 0}), norm([]float32{0, 1}))
	if !s.HasTrigger || s.Content >= s.RawContent {
		t.Errorf("centred scores %+v", s)
	}
	if Dot([]float32{1}, []float32{1, 2}) != 0 || Cosine([]float32{0, 0}, []float32{1, 0}) != 0 {
		t.Error("mismatched or zero vectors must score 0")
	}
	if v := []float32{1.5, -2, 0}; !slices.Equal(Decode(Encode(v)), v) || Decode(nil) != nil {
		t.Error("Encode/Decode round trip")
	}
}

// BenchmarkIndex_memory reports the heap an index holds per lesson at the
// built-in encoder's dimension (512), with n lessons of content and
// trigger vectors, and the time of a query over them. The README's memory
// figures for 100k and 1M lessons scale bytes/lesson.
// Run: go test ./internal/vecindex -run X -bench Index_memory -benchtime 1x
func BenchmarkIndex_memory(b *testing.B) {
	const n, dim = 20_000, 512
	for b.Loop() {
		src := &fakeSource{rows: make(map[int64]Row, n)}
		x := uint32(1)
		rnd := func() []float32 {
			v := make([]float32, dim)
			for i := range v {
				x = x*1664525 + 1013904223
				v[i] = float32(x>>8)/float32(1<<24) - 0.5
			}
			return norm(v)
		}
		for seq := range int64(n) {
			src.rev++
			src.rows[seq] = Row{Seq: seq, Rev: src.rev, Content: rnd(), Trigger: rnd()}
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		ix := New(src, nil)
		if err := ix.Ensure(context.Background()); err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		q := rnd()
		start := time.Now()
		const queries = 20
		for range queries {
			if _, err := ix.Query(context.Background(), q, 32); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/n, "bytes/lesson")
		b.ReportMetric(float64(time.Since(start).Microseconds())/queries/1000, "ms/query")
		runtime.KeepAlive(ix)
	}
}

// TestQuery_tiesBySequence: documents of equal similarity come back in
// sequence order, and the cut keeps the lowest sequences, on every query:
// chromem-go's parallel scan gives them in any order.
func TestQuery_tiesBySequence(t *testing.T) {
	src := &fakeSource{rows: map[int64]Row{}}
	for seq := int64(1); seq <= 200; seq++ {
		src.put(seq, false, 1, 0, 0, 0)
	}
	src.put(500, false, 0, 1, 0, 0)
	ix := New(src, nil)
	ctx := context.Background()
	if err := ix.Ensure(ctx); err != nil {
		t.Fatal(err)
	}
	want := []int64{1, 2, 3, 4, 5}
	for range 20 {
		got, err := ix.Query(ctx, norm([]float32{1, 0, 0, 0}), 5)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("Query = %v, want %v", got, want)
		}
	}
}
