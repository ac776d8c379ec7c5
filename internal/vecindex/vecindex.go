// Package vecindex is the knowledge base's in-memory vector index: a
// chromem-go collection over the recallable lessons of a store, derived
// from it and brought up to date from the store's vector revision, which
// every process's writes bump. Both stores (SQLite's storage and
// PostgreSQL's pgstore) keep one per process, so that a dense search costs
// no round trip, and score their candidates with the same centred cosines.
package vecindex

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	chromem "github.com/philippgille/chromem-go"
)

// ErrDimMismatch reports vectors of another dimension than the index's:
// the lessons were embedded with another model (run `innate-mcp reembed`).
var ErrDimMismatch = errors.New("embedding dimension mismatch")

// errNoEmbedding is what the chromem collection's embedding function
// returns: the index only ever receives precomputed vectors, and a nil
// function would make chromem-go fall back to OpenAI.
var errNoEmbedding = errors.New("the vector index takes precomputed embeddings only")

// Row is one lesson's vectors as a store holds them.
type Row struct {
	Seq      int64 // the lesson's sequence number, its key in the index
	Rev      int64 // the vector revision of its last change
	Archived bool  // no longer recallable: removed from the index
	Content  []float32
	Trigger  []float32 // nil without trigger
}

// Source is the store an index is derived from.
type Source interface {
	// Revision returns the store's vector revision, which every write of
	// a lesson's vectors or recallability advances.
	Revision(ctx context.Context) (int64, error)
	// Changes calls fn for every lesson whose vectors or recallability
	// changed after revision from, or for every recallable lesson when
	// from < 0.
	Changes(ctx context.Context, from int64, fn func(Row) error) error
}

// Index is the vector index of one store. Each lesson is one document
// whose vector is its key: the normalised sum of its content and trigger
// vectors, so that the key's cosine to a query rises with both
// similarities; exact per channel cosines are computed for the candidates
// afterwards (see Centring.Score). It is safe for concurrent use.
type Index struct {
	src Source
	log *slog.Logger

	mu    sync.Mutex // serialises builds and refreshes
	coll  *chromem.Collection
	built atomic.Bool
	rev   atomic.Int64 // vector revision the index reflects
	n     atomic.Int64 // documents in the index
	dim   atomic.Int64

	// Running sums of the content and trigger vectors of the indexed
	// lessons (guarded by mu), and the centring snapshot derived from them.
	present    map[int64]bool
	sumC, sumT []float64
	nC, nT     int
	centre     atomic.Pointer[Centring]
}

// Centring holds the mean directions removed from vectors before dense
// similarities are scored, which counters hubness: a few lessons near the
// centre of the embedding space otherwise look similar to everything.
type Centring struct {
	content, trigger []float32
}

// centreShrink is the pseudo-count that shrinks the mean towards zero in a
// small knowledge base, where the sample mean is mostly the lessons
// themselves and removing it would erase their own signal.
const centreShrink = 50

// New returns the (empty, not yet built) index of src; log receives a
// debug line per refresh.
func New(src Source, log *slog.Logger) *Index {
	if log == nil {
		log = slog.Default()
	}
	return &Index{src: src, log: log, present: map[int64]bool{}}
}

// accumulate adds (sign +1) or removes (sign -1) a lesson's vectors from the
// running sums.
func (ix *Index) accumulate(content, trigger []float32, sign int) {
	if len(ix.sumC) == 0 && len(content) > 0 {
		ix.sumC = make([]float64, len(content))
		ix.sumT = make([]float64, len(content))
	}
	if len(content) == len(ix.sumC) {
		for i, x := range content {
			ix.sumC[i] += float64(sign) * float64(x)
		}
		ix.nC += sign
	}
	if len(trigger) == len(ix.sumT) && len(trigger) > 0 {
		for i, x := range trigger {
			ix.sumT[i] += float64(sign) * float64(x)
		}
		ix.nT += sign
	}
}

// snapshotCentre recomputes the shrunk means from the running sums.
func (ix *Index) snapshotCentre() {
	mean := func(sum []float64, n int) []float32 {
		if n <= 0 || len(sum) == 0 {
			return nil
		}
		m := make([]float32, len(sum))
		for i, x := range sum {
			m[i] = float32(x / float64(n+centreShrink))
		}
		return m
	}
	ix.centre.Store(&Centring{content: mean(ix.sumC, ix.nC), trigger: mean(ix.sumT, ix.nT)})
}

// Ensure builds the index on first use and otherwise brings it up to date
// with the store's vector revision.
func (ix *Index) Ensure(ctx context.Context) error {
	rev, err := ix.src.Revision(ctx)
	if err != nil {
		return err
	}
	return ix.EnsureRevision(ctx, rev)
}

// EnsureRevision brings the index up to date with revision rev, which the
// caller has just read (a change feed's notification carries it).
func (ix *Index) EnsureRevision(ctx context.Context, rev int64) error {
	if ix.IsCurrent(rev) {
		return nil
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.IsCurrent(rev) {
		return nil
	}
	if !ix.built.Load() {
		if err := ix.reset(); err != nil {
			return err
		}
	}
	from := ix.rev.Load()
	if !ix.built.Load() {
		from = -1
	}
	maxRev, err := ix.load(ctx, from)
	if errors.Is(err, ErrDimMismatch) && from >= 0 {
		// The lessons were re-embedded with another model: start over.
		if err := ix.reset(); err != nil {
			return err
		}
		maxRev, err = ix.load(ctx, -1)
	}
	if err != nil {
		return err
	}
	ix.snapshotCentre()
	ix.rev.Store(max(rev, maxRev))
	ix.n.Store(int64(ix.coll.Count()))
	ix.built.Store(true)
	return nil
}

// reset empties the index before a full build; the caller holds mu.
func (ix *Index) reset() error {
	coll, err := chromem.NewDB().CreateCollection("lessons", nil, func(context.Context, string) ([]float32, error) {
		return nil, errNoEmbedding
	})
	if err != nil {
		return fmt.Errorf("create vector index: %w", err)
	}
	ix.coll = coll
	ix.present = map[int64]bool{}
	ix.sumC, ix.sumT, ix.nC, ix.nT = nil, nil, 0, 0
	ix.dim.Store(0)
	return nil
}

// IsCurrent reports whether the index is built and reflects revision rev.
func (ix *Index) IsCurrent(rev int64) bool {
	return ix.built.Load() && ix.rev.Load() >= rev
}

// Revision returns the vector revision the index reflects (-1 before it
// is built).
func (ix *Index) Revision() int64 {
	if !ix.built.Load() {
		return -1
	}
	return ix.rev.Load()
}

// load adds, replaces or removes the lessons whose vectors or
// recallability changed after revision from (-1: all), and returns the
// highest revision seen; the caller holds mu.
func (ix *Index) load(ctx context.Context, from int64) (int64, error) {
	var (
		docs   []chromem.Document
		remove []string
		maxRev int64
	)
	err := ix.src.Changes(ctx, from, func(r Row) error {
		maxRev = max(maxRev, r.Rev)
		id := strconv.FormatInt(r.Seq, 10)
		if r.Archived {
			if ix.present[r.Seq] {
				remove = append(remove, id)
				ix.accumulate(r.Content, r.Trigger, -1)
				delete(ix.present, r.Seq)
			}
			return nil
		}
		key := keyVector(r.Content, r.Trigger)
		if key == nil {
			return nil
		}
		if d := int64(len(key)); ix.dim.Load() == 0 {
			ix.dim.Store(d)
		} else if ix.dim.Load() != d {
			return fmt.Errorf("lesson %d has dimension %d, the index %d: %w (run `innate-mcp reembed`)", r.Seq, d, ix.dim.Load(), ErrDimMismatch)
		}
		if !ix.present[r.Seq] {
			ix.accumulate(r.Content, r.Trigger, +1)
			ix.present[r.Seq] = true
		}
		docs = append(docs, chromem.Document{ID: id, Embedding: key})
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("load vectors: %w", err)
	}
	if len(remove) > 0 {
		// Never call Delete with empty filters and no ids: chromem-go would
		// delete every document.
		if err := ix.coll.Delete(ctx, nil, nil, remove...); err != nil {
			return 0, fmt.Errorf("remove archived lessons from index: %w", err)
		}
	}
	if len(docs) > 0 {
		if err := ix.coll.AddDocuments(ctx, docs, 4); err != nil {
			return 0, fmt.Errorf("add lessons to index: %w", err)
		}
	}
	ix.log.Debug("vector index refreshed", "from_rev", from, "added", len(docs), "removed", len(remove))
	return maxRev, nil
}

// Query returns up to n lesson seqs nearest to vec by key vector.
// tieSlack is how many more documents than asked a query reads, to break
// ties at the cut by sequence.
const tieSlack = 8

func (ix *Index) Query(ctx context.Context, vec []float32, n int) ([]int64, error) {
	count := int(ix.n.Load())
	if count == 0 || n <= 0 {
		return nil, nil
	}
	if d := ix.dim.Load(); d != 0 && int64(len(vec)) != d {
		return nil, fmt.Errorf("query vector has dimension %d, the index %d: %w", len(vec), d, ErrDimMismatch)
	}
	ix.mu.Lock()
	coll := ix.coll
	ix.mu.Unlock()
	// chromem-go errors when n exceeds the collection size. It scans in
	// parallel, so documents of equal similarity come in any order: a few
	// more are asked for, more again while the ones past the cut tie with
	// the last kept, and the ties are broken by sequence, so that the same
	// query over the same documents gives the same candidates.
	type hit struct {
		seq int64
		sim float32
	}
	var hits []hit
	for k := min(n+tieSlack, coll.Count()); ; k = min(2*k, coll.Count()) {
		res, err := coll.QueryEmbedding(ctx, vec, k, nil, nil)
		if err != nil {
			return nil, fmt.Errorf("query vector index: %w", err)
		}
		hits = hits[:0]
		for _, r := range res {
			seq, err := strconv.ParseInt(r.ID, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("vector index: bad document id %q", r.ID)
			}
			hits = append(hits, hit{seq, r.Similarity})
		}
		slices.SortStableFunc(hits, func(a, b hit) int {
			if c := cmp.Compare(b.sim, a.sim); c != 0 {
				return c
			}
			return cmp.Compare(a.seq, b.seq)
		})
		if len(hits) <= n || k >= coll.Count() || hits[len(hits)-1].sim != hits[n-1].sim {
			break
		}
	}
	out := make([]int64, 0, min(n, len(hits)))
	for _, h := range hits[:min(n, len(hits))] {
		out = append(out, h.seq)
	}
	return out, nil
}

// Centre returns the centring of the index as last refreshed (none before
// it is built).
func (ix *Index) Centre() *Centring {
	if c := ix.centre.Load(); c != nil {
		return c
	}
	return &Centring{}
}

// Scores are a candidate's dense similarities to a query.
type Scores struct {
	// Content and Trigger are the cosines after the centring's mean
	// direction is removed from both sides; RawContent and RawTrigger the
	// plain cosines.
	Content, RawContent float64
	Trigger, RawTrigger float64 // when HasTrigger
	HasTrigger          bool
}

// Scorer scores candidates against one query vector.
type Scorer struct {
	c             *Centring
	query, qc, qt []float32
}

// Scorer returns the scorer of query under this centring.
func (c *Centring) Scorer(query []float32) Scorer {
	return Scorer{c: c, query: query, qc: centred(query, c.content), qt: centred(query, c.trigger)}
}

// Score returns the similarities of a lesson's content and trigger
// vectors (trigger nil when it has none) to the query.
func (s Scorer) Score(content, trigger []float32) Scores {
	var out Scores
	out.RawContent = Dot(s.query, content)
	out.Content = Cosine(s.qc, centred(content, s.c.content))
	if trigger != nil {
		out.RawTrigger = Dot(s.query, trigger)
		out.Trigger, out.HasTrigger = Cosine(s.qt, centred(trigger, s.c.trigger)), true
	}
	return out
}

// keyVector is the normalised sum of the content and trigger vectors, or
// the content vector alone when there is no trigger.
func keyVector(content, trigger []float32) []float32 {
	if len(content) == 0 {
		return nil
	}
	key := make([]float32, len(content))
	copy(key, content)
	if len(trigger) == len(content) {
		for i, x := range trigger {
			key[i] += x
		}
	}
	var n float64
	for _, x := range key {
		n += float64(x) * float64(x)
	}
	if n == 0 {
		return nil
	}
	s := float32(1 / math.Sqrt(n))
	for i := range key {
		key[i] *= s
	}
	return key
}

// centred returns v minus mean (v itself when there is no mean).
func centred(v, mean []float32) []float32 {
	if len(mean) != len(v) {
		return v
	}
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = x - mean[i]
	}
	return out
}

// Cosine is the cosine of two vectors of any norm; 0 when either is zero
// or their lengths differ.
func Cosine(a, b []float32) float64 {
	d := Dot(a, b)
	na, nb := Dot(a, a), Dot(b, b)
	if na <= 0 || nb <= 0 {
		return 0
	}
	return d / math.Sqrt(na*nb)
}

// Dot is the dot product of two vectors: their cosine when both are
// L2-normalised, as stored and query vectors are. 0 when their lengths
// differ.
func Dot(a, b []float32) float64 {
	if len(a) != len(b) || len(a) == 0 {
		return 0
	}
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return float64(s0 + s1 + s2 + s3)
}

// Encode stores a vector as little-endian float32s.
func Encode(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

// Decode is the inverse of Encode; nil for an empty blob.
func Decode(b []byte) []float32 {
	if len(b) == 0 {
		return nil
	}
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}
