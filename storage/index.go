package storage

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"sync"
	"sync/atomic"

	chromem "github.com/philippgille/chromem-go"
)

// errNoEmbedding is what the chromem collection's embedding function
// returns: the index only ever receives precomputed vectors, and a nil
// function would make chromem-go fall back to OpenAI.
var errNoEmbedding = errors.New("the vector index takes precomputed embeddings only")

// index is the in-memory chromem-go vector index over the recallable
// lessons, derived from SQLite. Each lesson is one document whose vector is
// its key: the normalised sum of its content and trigger vectors, so that
// the key's cosine to a query rises with both similarities; exact per
// channel cosines are computed for the candidates afterwards.
type index struct {
	db *DB

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
	centre     atomic.Pointer[centring]
}

// centring holds the mean directions removed from vectors before dense
// similarities are scored, which counters hubness: a few lessons near the
// centre of the embedding space otherwise look similar to everything.
type centring struct {
	content, trigger []float32
}

// centreShrink is the pseudo-count that shrinks the mean towards zero in a
// small knowledge base, where the sample mean is mostly the lessons
// themselves and removing it would erase their own signal.
const centreShrink = 50

func newIndex(db *DB) *index { return &index{db: db, present: map[int64]bool{}} }

// accumulate adds (sign +1) or removes (sign -1) a lesson's vectors from the
// running sums.
func (ix *index) accumulate(content, trigger []float32, sign int) {
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
func (ix *index) snapshotCentre() {
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
	ix.centre.Store(&centring{content: mean(ix.sumC, ix.nC), trigger: mean(ix.sumT, ix.nT)})
}

// ensure builds the index on first use and otherwise brings it up to date
// with the database's vector revision, which every process's writes bump.
func (ix *index) ensure(ctx context.Context) error {
	rev, err := ix.db.vecRev(ctx)
	if err != nil {
		return err
	}
	if ix.isCurrent(rev) {
		return nil
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.isCurrent(rev) {
		return nil
	}
	if !ix.built.Load() {
		db := chromem.NewDB()
		coll, err := db.CreateCollection("lessons", nil, func(context.Context, string) ([]float32, error) {
			return nil, errNoEmbedding
		})
		if err != nil {
			return fmt.Errorf("create vector index: %w", err)
		}
		ix.coll = coll
	}
	from := ix.rev.Load()
	if !ix.built.Load() {
		from = -1
	}
	maxRev, err := ix.load(ctx, from)
	if errors.Is(err, errDimMismatch) && from >= 0 {
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

// reset empties the index before a full rebuild; the caller holds mu.
func (ix *index) reset() error {
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

// isCurrent reports whether the index reflects revision rev.
func (ix *index) isCurrent(rev int64) bool {
	return ix.built.Load() && ix.rev.Load() >= rev
}

// load adds, replaces or removes the lessons whose vectors or recallability
// changed after revision from (-1: all), and returns the highest revision seen.
func (ix *index) load(ctx context.Context, from int64) (int64, error) {
	q := `SELECT l.seq, l.state, l.vec_rev, v.content, v.trigger FROM lessons l JOIN lesson_vectors v ON v.seq = l.seq`
	var args []any
	if from >= 0 {
		q += ` WHERE l.vec_rev > ?`
		args = append(args, from)
	} else {
		q += ` WHERE l.state != 'archived'`
	}
	rows, err := ix.db.sql.QueryContext(ctx, q, args...)
	if err != nil {
		return 0, fmt.Errorf("load vectors: %w", err)
	}
	defer rows.Close()
	var (
		docs   []chromem.Document
		remove []string
		maxRev int64
	)
	for rows.Next() {
		var (
			seq, rev  int64
			state     string
			cblob, tb []byte
		)
		if err := rows.Scan(&seq, &state, &rev, &cblob, &tb); err != nil {
			return 0, fmt.Errorf("load vectors: %w", err)
		}
		maxRev = max(maxRev, rev)
		id := strconv.FormatInt(seq, 10)
		cv, tv := decodeVec(cblob), decodeVec(tb)
		if state == "archived" {
			if ix.present[seq] {
				remove = append(remove, id)
				ix.accumulate(cv, tv, -1)
				delete(ix.present, seq)
			}
			continue
		}
		key := keyVector(cv, tv)
		if key == nil {
			continue
		}
		if d := int64(len(key)); ix.dim.Load() == 0 {
			ix.dim.Store(d)
		} else if ix.dim.Load() != d {
			return 0, fmt.Errorf("load vectors: lesson %d has dimension %d, the index %d: %w (run `innate-mcp reembed`)", seq, d, ix.dim.Load(), errDimMismatch)
		}
		if !ix.present[seq] {
			ix.accumulate(cv, tv, +1)
			ix.present[seq] = true
		}
		docs = append(docs, chromem.Document{ID: id, Embedding: key})
	}
	if err := rows.Err(); err != nil {
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
	ix.db.log.Debug("vector index refreshed", "from_rev", from, "added", len(docs), "removed", len(remove))
	return maxRev, nil
}

// query returns up to n lesson seqs nearest to vec by key vector.
func (ix *index) query(ctx context.Context, vec []float32, n int) ([]int64, error) {
	count := int(ix.n.Load())
	if count == 0 || n <= 0 {
		return nil, nil
	}
	if d := ix.dim.Load(); d != 0 && int64(len(vec)) != d {
		return nil, fmt.Errorf("query vector has dimension %d, the index %d: %w", len(vec), d, errDimMismatch)
	}
	// chromem-go errors when n exceeds the collection size.
	res, err := ix.coll.QueryEmbedding(ctx, vec, min(n, ix.coll.Count()), nil, nil)
	if err != nil {
		return nil, fmt.Errorf("query vector index: %w", err)
	}
	out := make([]int64, 0, len(res))
	for _, r := range res {
		seq, err := strconv.ParseInt(r.ID, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("vector index: bad document id %q", r.ID)
		}
		out = append(out, seq)
	}
	return out, nil
}

var errDimMismatch = errors.New("embedding dimension mismatch")

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

// vecRev reads the database's vector revision.
func (db *DB) vecRev(ctx context.Context) (int64, error) {
	var rev int64
	if err := db.sql.QueryRowContext(ctx, `SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'vec_rev'`).Scan(&rev); err != nil {
		return 0, fmt.Errorf("read vector revision: %w", err)
	}
	return rev, nil
}

// WarmUp builds the vector index ahead of the first search. Servers call it
// in the background once the MCP handshake has been answered.
func (db *DB) WarmUp(ctx context.Context) error { return db.index.ensure(ctx) }
