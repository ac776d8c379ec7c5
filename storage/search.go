package storage

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/innate-mcp/innate-mcp/internal/bm25"
	"github.com/innate-mcp/innate-mcp/internal/storerow"
	"github.com/innate-mcp/innate-mcp/kb"
)

// Search implements kb.Store: candidates from the dense index (by key
// vector) and from the full-text index, each with its exact content and
// trigger cosines, absolute lexical score and outcome tally in the probe's
// situation bucket.
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
	// The lexical path (statistics, FTS5 matches, loading its candidates)
	// runs while chromem-go scans the vectors; the dense candidates that
	// the lexical path did not already load are loaded afterwards.
	type lexResult struct {
		lq    *bm25.Query
		cands []kb.Candidate
		seen  map[int64]bool
		err   error
	}
	lexPool := p.LexicalPool
	if lexPool <= 0 {
		lexPool = pool
	}
	lexc := make(chan lexResult, 1)
	go func() {
		var r lexResult
		r.lq, r.err = db.prepareLexical(ctx, p.Terms, p.DocFreqs)
		if r.err == nil {
			var seqs []int64
			seqs, r.err = db.lexicalCandidates(ctx, r.lq, lexPool)
			r.seen = make(map[int64]bool, len(seqs))
			for _, s := range seqs {
				r.seen[s] = true
			}
			if r.err == nil && len(seqs) > 0 {
				r.cands, r.err = db.candidates(ctx, seqs, p, r.lq)
			}
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
	var rest []int64
	for _, s := range dense {
		if !lr.seen[s] {
			rest = append(rest, s)
			lr.seen[s] = true
		}
	}
	if p.Project != "" {
		own, err := db.projectSeqs(ctx, p.Project)
		if err != nil {
			return nil, err
		}
		for _, s := range own {
			if !lr.seen[s] {
				rest = append(rest, s)
				lr.seen[s] = true
			}
		}
	}
	out := lr.cands
	if len(rest) > 0 {
		more, err := db.candidates(ctx, rest, p, lr.lq)
		if err != nil {
			return nil, err
		}
		out = append(out, more...)
	}
	return out, nil
}

// projectSeqs returns the recallable lessons of a project, most recent
// first, at most kb.ProjectCap.
func (db *DB) projectSeqs(ctx context.Context, project string) ([]int64, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT seq FROM lessons WHERE project = ? AND state != 'archived'
		ORDER BY seq DESC LIMIT ?`, project, kb.ProjectCap)
	if err != nil {
		return nil, fmt.Errorf("list project lessons: %w", err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var s int64
		if err := rows.Scan(&s); err != nil {
			return nil, fmt.Errorf("list project lessons: %w", err)
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// candidates loads the lessons and vectors of seqs and fills in every
// channel's value.
func (db *DB) candidates(ctx context.Context, seqs []int64, p kb.Probe, lq *bm25.Query) ([]kb.Candidate, error) {
	args := make([]any, len(seqs))
	for i, s := range seqs {
		args[i] = s
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT `+lessonColumns+`, v.content, v.trigger, t.len, t.tf
		FROM lessons l JOIN lesson_vectors v ON v.seq = l.seq LEFT JOIN lesson_terms t ON t.seq = l.seq
		WHERE l.seq IN (`+placeholders(len(seqs))+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("load candidates: %w", err)
	}
	defer rows.Close()
	scorer := db.index.Centre().Scorer(p.Vector)
	out := make([]kb.Candidate, 0, len(seqs))
	for rows.Next() {
		var cb, tb, stats []byte
		var length sql.NullInt64
		l, seq, err := scanLessonWith(rows, &cb, &tb, &length, &stats)
		if err != nil {
			return nil, err
		}
		c, err := storerow.Candidate(l, seq, cb, tb, stats, int(length.Int64), lq, scorer)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("load candidates: %w", err)
	}
	if p.SituationKey != "" {
		if err := db.fillContext(ctx, out, p.SituationKey); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// fillContext sets each candidate's outcome tally for the situation key.
func (db *DB) fillContext(ctx context.Context, cands []kb.Candidate, key string) error {
	args := []any{key}
	pos := make(map[string]int, len(cands))
	for i, c := range cands {
		args = append(args, c.Lesson.ID)
		pos[c.Lesson.ID] = i
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT lesson_id, successes, failures FROM lesson_context
		WHERE key = ? AND lesson_id IN (`+placeholders(len(cands))+`)`, args...)
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

// scanLessonWith scans lessonColumns followed by extra columns.
func scanLessonWith(r rowScanner, extra ...any) (kb.Lesson, int64, error) {
	return scanLessonMode(extendedScanner{r, extra}, true)
}

// extendedScanner appends destinations to a Scan call.
type extendedScanner struct {
	r     rowScanner
	extra []any
}

func (e extendedScanner) Scan(dest ...any) error {
	return e.r.Scan(append(dest, e.extra...)...)
}
