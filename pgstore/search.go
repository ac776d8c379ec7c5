package pgstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/innate-mcp/innate-mcp/internal/bm25"
	"github.com/innate-mcp/innate-mcp/internal/storerow"
	"github.com/innate-mcp/innate-mcp/internal/vecindex"
	"github.com/innate-mcp/innate-mcp/kb"
)

// The dense channel: each instance keeps the vectors of the recallable
// lessons in memory (package vecindex, as storage does) and brings its
// index up to date from the database's vector revision (meta vec_rev, and
// each lesson's vec_rev), which every write of a lesson's vectors or
// recallability advances. A search reads the revision first, so an
// instance always sees the writes committed before it; the change feed
// (LISTEN/NOTIFY on vecChannel, see DB.listen) refreshes the index as soon
// as another instance commits, so that the search rarely has to.

// vecChannel is the notification channel of vector revisions: every
// transaction that advances the revision notifies it with the new value,
// delivered when it commits.
const vecChannel = "innate_vec_rev"

// vectorSource is the database as the source of its vector index.
type vectorSource struct{ db *DB }

// Revision reads the database's vector revision.
func (s vectorSource) Revision(ctx context.Context) (int64, error) {
	var rev int64
	if err := s.db.pool.QueryRow(ctx, `SELECT value::bigint FROM meta WHERE key = 'vec_rev'`).Scan(&rev); err != nil {
		return 0, fmt.Errorf("read vector revision: %w", err)
	}
	return rev, nil
}

// Changes calls fn for the lessons changed after revision from (from < 0:
// every recallable lesson).
func (s vectorSource) Changes(ctx context.Context, from int64, fn func(vecindex.Row) error) error {
	q := `SELECT l.seq, l.state, l.vec_rev, v.content, v.trigger FROM lessons l JOIN lesson_vectors v ON v.seq = l.seq`
	var args []any
	if from >= 0 {
		q += ` WHERE l.vec_rev > $1`
		args = append(args, from)
	} else {
		q += ` WHERE l.state != 'archived'`
	}
	rows, err := s.db.pool.Query(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			r         vecindex.Row
			state     string
			cblob, tb []byte
		)
		if err := rows.Scan(&r.Seq, &state, &r.Rev, &cblob, &tb); err != nil {
			return err
		}
		r.Archived = state == string(kb.StateArchived)
		r.Content, r.Trigger = vecindex.Decode(cblob), vecindex.Decode(tb)
		if err := fn(r); err != nil {
			return err
		}
	}
	return rows.Err()
}

// WarmUp implements kb.Admin: it builds the vector index ahead of the
// first search.
func (db *DB) WarmUp(ctx context.Context) error { return db.index.Ensure(ctx) }

// Search implements kb.Store, as storage's Search does: candidates from
// the dense index and from the term postings (and every recallable lesson
// of the probe's project), each with its centred and raw cosines, its
// BM25 and its outcome tally in the probe's situation.
func (db *DB) Search(ctx context.Context, p kb.Probe) ([]kb.Candidate, error) {
	if !p.LexicalOnly {
		if err := db.index.Ensure(ctx); err != nil {
			return nil, err
		}
	}
	pool := p.Pool
	if pool <= 0 {
		pool = kb.DefaultPool
	}
	lexPool := p.LexicalPool
	if lexPool <= 0 {
		lexPool = pool
	}
	// The lexical path (statistics, postings, shortlist) runs while the
	// vector index is scanned, as in storage.
	type lexResult struct {
		lq   *bm25.Query
		seqs []int64
		err  error
	}
	lexc := make(chan lexResult, 1)
	go func() {
		var r lexResult
		if r.lq, r.err = db.prepareLexical(ctx, p.Terms, p.DocFreqs); r.err == nil {
			r.seqs, r.err = db.lexicalCandidates(ctx, r.lq, lexPool)
		}
		lexc <- r
	}()
	var dense []int64
	var derr error
	if !p.LexicalOnly {
		dense, derr = db.index.Query(ctx, p.Vector, pool)
	}
	lr := <-lexc
	if derr != nil {
		return nil, derr
	}
	if lr.err != nil {
		return nil, lr.err
	}
	lq := lr.lq
	seen := make(map[int64]bool, len(lr.seqs)+len(dense))
	seqs := make([]int64, 0, len(lr.seqs)+len(dense))
	add := func(ss []int64) {
		for _, s := range ss {
			if !seen[s] {
				seen[s] = true
				seqs = append(seqs, s)
			}
		}
	}
	add(lr.seqs)
	add(dense)
	if p.Project != "" {
		rows, err := db.pool.Query(ctx, `SELECT seq FROM lessons WHERE project = $1 AND state != 'archived'
			ORDER BY seq DESC LIMIT $2`, p.Project, kb.ProjectCap)
		if err != nil {
			return nil, fmt.Errorf("list project lessons: %w", err)
		}
		own, err := pgx.CollectRows(rows, pgx.RowTo[int64])
		if err != nil {
			return nil, fmt.Errorf("list project lessons: %w", err)
		}
		add(own)
	}
	if len(seqs) == 0 {
		return nil, nil
	}
	return db.candidates(ctx, seqs, p, lq)
}

// candidates loads the lessons and vectors of seqs and fills in every
// channel's value.
func (db *DB) candidates(ctx context.Context, seqs []int64, p kb.Probe, lq *bm25.Query) ([]kb.Candidate, error) {
	rows, err := db.pool.Query(ctx, `SELECT `+lessonColumns+`, v.content, v.trigger, t.len, t.tf
		FROM lessons l JOIN lesson_vectors v ON v.seq = l.seq LEFT JOIN lesson_terms t ON t.seq = l.seq
		WHERE l.seq = ANY($1) AND l.state != 'archived'`, seqs)
	if err != nil {
		return nil, fmt.Errorf("load candidates: %w", err)
	}
	defer rows.Close()
	scorer := db.index.Centre().Scorer(p.Vector)
	out := make([]kb.Candidate, 0, len(seqs))
	for rows.Next() {
		var cb, tb, stats []byte
		var length *int64
		l, seq, err := scanLesson(extendedRow{rows, []any{&cb, &tb, &length, &stats}})
		if err != nil {
			return nil, fmt.Errorf("load candidates: %w", err)
		}
		n := 0
		if length != nil {
			n = int(*length)
		}
		c, err := storerow.Candidate(l, seq, cb, tb, stats, n, lq, scorer)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("load candidates: %w", err)
	}
	if p.SituationKey != "" && len(out) > 0 {
		if err := db.fillContext(ctx, out, p.SituationKey); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// extendedRow appends destinations to a Scan call.
type extendedRow struct {
	r     pgx.Row
	extra []any
}

func (e extendedRow) Scan(dest ...any) error { return e.r.Scan(append(dest, e.extra...)...) }

// fillContext sets each candidate's outcome tally for the situation key.
func (db *DB) fillContext(ctx context.Context, cands []kb.Candidate, key string) error {
	ids := make([]string, len(cands))
	pos := make(map[string]int, len(cands))
	for i, c := range cands {
		ids[i] = c.Lesson.ID
		pos[c.Lesson.ID] = i
	}
	rows, err := db.pool.Query(ctx, `SELECT lesson_id, successes, failures FROM lesson_context
		WHERE key = $1 AND lesson_id = ANY($2)`, key, ids)
	if err != nil {
		return fmt.Errorf("load outcome history: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var t kb.Tally
		if err := rows.Scan(&id, &t.Successes, &t.Failures); err != nil {
			return fmt.Errorf("load outcome history: %w", err)
		}
		cands[pos[id]].SituationTally = t
	}
	return rows.Err()
}

// SetVectors implements kb.Store: it replaces a lesson's vectors and
// advances the vector revision, so that every instance refreshes its
// index.
func (db *DB) SetVectors(ctx context.Context, id string, content, trigger []float32) error {
	return db.update(ctx, func(tx *redactTx) error {
		var seq int64
		if err := tx.QueryRow(ctx, `SELECT seq FROM lessons WHERE id = $1`, id).Scan(&seq); err != nil {
			if errors.Is(err, pgx.ErrNoRows) {
				return kb.ErrNotFound
			}
			return fmt.Errorf("read lesson %s: %w", id, err)
		}
		rev, err := (&Tx{tx: tx}).bumpVecRev(ctx)
		if err != nil {
			return err
		}
		var trig []byte
		if trigger != nil {
			trig = vecindex.Encode(trigger)
		}
		if _, err := tx.Exec(ctx, `UPDATE lesson_vectors SET content = $1, trigger = $2 WHERE seq = $3`, vecindex.Encode(content), trig, seq); err != nil {
			return fmt.Errorf("write vectors of %s: %w", id, err)
		}
		if _, err := tx.Exec(ctx, `UPDATE lessons SET vec_rev = $1 WHERE seq = $2`, rev, seq); err != nil {
			return fmt.Errorf("write vectors of %s: %w", id, err)
		}
		return nil
	})
}

// listen follows the change feed until ctx ends: on a dedicated
// connection (not one of the pool's) it LISTENs on vecChannel and brings
// the vector index, once built, up to the revision each notification
// carries. A lost connection is opened again after a pause; the index
// then catches up from the stored revision, so a notification missed
// meanwhile costs nothing but the wait until the next search.
func (db *DB) listen(ctx context.Context) {
	defer close(db.listenDone)
	pause := 100 * time.Millisecond
	for ctx.Err() == nil {
		err := db.follow(ctx)
		if ctx.Err() != nil {
			return
		}
		db.log.Warn("change feed interrupted; reconnecting", "err", err, "in", pause)
		select {
		case <-ctx.Done():
			return
		case <-time.After(pause):
		}
		pause = min(2*pause, 5*time.Second)
	}
}

// follow runs one LISTEN session of the change feed.
func (db *DB) follow(ctx context.Context) error {
	conn, err := pgx.ConnectConfig(ctx, db.pool.Config().ConnConfig.Copy())
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, `LISTEN `+vecChannel); err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	// Catch up with what was committed while not listening.
	if db.index.Revision() >= 0 {
		if err := db.index.Ensure(ctx); err != nil {
			db.log.Warn("vector index refresh failed", "err", err)
		}
	}
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		rev, err := strconv.ParseInt(n.Payload, 10, 64)
		if err != nil || db.index.Revision() < 0 {
			continue // not built yet: the first search builds it
		}
		if err := db.index.EnsureRevision(ctx, rev); err != nil && ctx.Err() == nil {
			db.log.Warn("vector index refresh failed", "err", err)
		}
	}
}
