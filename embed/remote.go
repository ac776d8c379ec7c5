package embed

import (
	"context"
	"fmt"
	"math"
	"sync"

	"github.com/philippgille/chromem-go"
)

// remoteConcurrency bounds the requests EmbedBatch has in flight.
const remoteConcurrency = 4

// remote is an HTTP embedding endpoint behind a chromem embedding func.
type remote struct {
	fn chromem.EmbeddingFunc
}

// embedRemote calls the endpoint, checks the vector and normalises a copy.
func (e *Embedder) embedRemote(ctx context.Context, text string) ([]float32, error) {
	v, err := e.remote.fn(ctx, text)
	if err != nil {
		return nil, fmt.Errorf("embed with %s: %w", e.name, err)
	}
	var sq float64
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return nil, fmt.Errorf("%w: %s returned a non-finite value", ErrBadVector, e.name)
		}
		sq += float64(x) * float64(x)
	}
	if len(v) == 0 || sq == 0 {
		return nil, fmt.Errorf("%w: %s returned an empty or zero vector", ErrBadVector, e.name)
	}
	if !e.dim.CompareAndSwap(0, int64(len(v))) {
		if want := e.Dim(); len(v) != want {
			return nil, fmt.Errorf("%w: %s returned %d dimensions, want %d", ErrDimMismatch, e.name, len(v), want)
		}
	}
	out := make([]float32, len(v))
	inv := 1 / math.Sqrt(sq)
	for i, x := range v {
		out[i] = float32(float64(x) * inv)
	}
	return out, nil
}

// embedBatchRemote embeds texts with at most remoteConcurrency requests in
// flight, stopping at the first error.
func (e *Embedder) embedBatchRemote(ctx context.Context, texts []string) ([][]float32, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := make([][]float32, len(texts))
	sem := make(chan struct{}, remoteConcurrency)
	var wg sync.WaitGroup
	var once sync.Once
	var firstErr error
	for i, text := range texts {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			v, err := e.Embed(ctx, text)
			if err != nil {
				once.Do(func() { firstErr = err; cancel() })
				return
			}
			out[i] = v
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}
