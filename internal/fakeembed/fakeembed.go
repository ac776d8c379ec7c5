// Package fakeembed is a deterministic test double for the embedder: it
// hashes a text's lexical terms into a fixed number of dimensions, so texts
// that share terms are similar and texts that share none are nearly
// orthogonal. It never loads a model, which keeps unit tests fast.
package fakeembed

import (
	"context"
	"errors"
	"hash/fnv"
	"math"

	"github.com/innate-mcp/innate-mcp/terms"
)

// Embedder is the hashing embedder. The zero value is not usable; use New.
// It is safe for concurrent use.
type Embedder struct {
	name string
	dim  int
	// Fail, when set, is returned by every call (to test error paths).
	Fail error
}

// New returns a hashing embedder with the given dimension.
func New(dim int) *Embedder { return &Embedder{name: "fake-hash", dim: dim} }

// Named returns a copy of e reporting another model name.
func (e *Embedder) Named(name string) *Embedder { c := *e; c.name = name; return &c }

// Name implements kb.Embedder.
func (e *Embedder) Name() string { return e.name }

// Dim implements kb.Embedder.
func (e *Embedder) Dim() int { return e.dim }

// Remote implements kb.Embedder.
func (e *Embedder) Remote() bool { return false }

// Embed implements kb.Embedder.
func (e *Embedder) Embed(ctx context.Context, text string) ([]float32, error) {
	if e.Fail != nil {
		return nil, e.Fail
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	v := make([]float32, e.dim)
	for _, t := range terms.Tokens(text) {
		h := fnv.New64a()
		h.Write([]byte(t))
		x := h.Sum64()
		v[x%uint64(e.dim)] += 1
		v[(x>>20)%uint64(e.dim)] += 0.5
	}
	// A small constant component keeps empty texts embeddable.
	v[0] += 0.05
	var n float64
	for _, x := range v {
		n += float64(x * x)
	}
	s := float32(1 / math.Sqrt(n))
	for i := range v {
		v[i] *= s
	}
	return v, nil
}

// EmbedBatch implements kb.Embedder.
func (e *Embedder) EmbedBatch(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v, err := e.Embed(ctx, t)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// ErrDown is a ready-made failure for Fail.
var ErrDown = errors.New("embedder down")
