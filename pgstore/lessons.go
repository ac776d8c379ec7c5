package pgstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/innate-mcp/innate-mcp/check"
	"github.com/innate-mcp/innate-mcp/directive"
	"github.com/innate-mcp/innate-mcp/internal/bm25"
	"github.com/innate-mcp/innate-mcp/internal/randid"
	"github.com/innate-mcp/innate-mcp/internal/storerow"
	"github.com/innate-mcp/innate-mcp/internal/vecindex"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/sanitize"
)

// lessonColumns is the column list scanLesson reads, in order.
const lessonColumns = storerow.LessonColumns

// scanLesson reads one row of lessonColumns; kb.ErrNotFound when there is
// none.
func scanLesson(r pgx.Row) (kb.Lesson, int64, error) {
	return storerow.Lesson(notFound(r), false, true)
}

// notFound is r's Scan with pgx.ErrNoRows read as kb.ErrNotFound.
func notFound(r pgx.Row) storerow.Scan {
	return func(dest ...any) error {
		err := r.Scan(dest...)
		if errors.Is(err, pgx.ErrNoRows) {
			return kb.ErrNotFound
		}
		return err
	}
}

// querier is the pool or a redactTx.
type querier interface {
	QueryRow(ctx context.Context, query string, args ...any) pgx.Row
	Query(ctx context.Context, query string, args ...any) (pgx.Rows, error)
}

// Lesson implements kb.Store.
func (db *DB) Lesson(ctx context.Context, id string) (kb.Lesson, error) {
	l, _, err := scanLesson(db.pool.QueryRow(ctx, `SELECT `+lessonColumns+` FROM lessons l WHERE l.id = $1`, id))
	return l, err
}

// Lessons implements kb.Store. The rows are read before fn is first
// called, so that fn holds no connection of the pool while it runs.
func (db *DB) Lessons(ctx context.Context, f kb.LessonFilter, fn func(kb.Lesson) error) error {
	return eachLesson(ctx, db.pool, f, fn)
}

// eachLesson reads every lesson matching f, in the order they were stored
// (seq), then calls fn for each.
func eachLesson(ctx context.Context, q querier, f kb.LessonFilter, fn func(kb.Lesson) error) error {
	var args []any
	arg := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	query := `SELECT ` + lessonColumns + ` FROM lessons l WHERE true` + storerow.LessonFilter(f, arg,
		func(col string, vals []string) string { return col + ` = ANY(` + arg(vals) + `)` })
	rows, err := q.Query(ctx, query+` ORDER BY l.seq`, args...)
	if err != nil {
		return fmt.Errorf("list lessons: %w", err)
	}
	var ls []kb.Lesson
	for rows.Next() {
		l, _, err := scanLesson(rows)
		if err != nil {
			rows.Close()
			return err
		}
		ls = append(ls, l)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("list lessons: %w", err)
	}
	for _, l := range ls {
		if err := fn(l); err != nil {
			return err
		}
	}
	return nil
}

// Update implements kb.Store: fn runs in one write transaction (see
// DB.update): all of fn's writes land together or not at all, and fn's
// error is returned unchanged after a rollback.
func (db *DB) Update(ctx context.Context, fn func(kb.Tx) error) error {
	return db.update(ctx, func(t *redactTx) error { return fn(&Tx{tx: t}) })
}

// Tx is a write transaction, valid only inside the fn given to Update. Its
// reads see its own writes. It is used by one goroutine at a time.
type Tx struct {
	tx *redactTx
}

// Lesson returns a lesson by id as the transaction sees it; kb.ErrNotFound
// when there is none.
func (t *Tx) Lesson(ctx context.Context, id string) (kb.Lesson, error) {
	l, _, err := scanLesson(t.tx.QueryRow(ctx, `SELECT `+lessonColumns+` FROM lessons l WHERE l.id = $1`, id))
	return l, err
}

// Lessons calls fn for every lesson matching f, in the order stored, as
// the transaction sees them; fn may use the transaction (the rows are
// read before fn is first called).
func (t *Tx) Lessons(ctx context.Context, f kb.LessonFilter, fn func(kb.Lesson) error) error {
	return eachLesson(ctx, t.tx, f, fn)
}

// bumpVecRev advances the vector revision and returns the new value.
func (t *Tx) bumpVecRev(ctx context.Context) (int64, error) {
	var rev int64
	err := t.tx.QueryRow(ctx, `UPDATE meta SET value = (value::bigint + 1)::text WHERE key = 'vec_rev'
		RETURNING value::bigint`).Scan(&rev)
	if err != nil {
		return 0, fmt.Errorf("bump vector revision: %w", err)
	}
	// Delivered to every listening instance when the transaction commits
	// (see DB.listen); nothing is delivered on a rollback.
	if _, err := t.tx.Exec(ctx, `SELECT pg_notify($1, $2)`, vecChannel, strconv.FormatInt(rev, 10)); err != nil {
		return 0, fmt.Errorf("notify vector revision: %w", err)
	}
	return rev, nil
}

// InsertLesson stores a new lesson with its vectors and, unless it is
// archived, its lexical term statistics; it keeps the requested id when
// free and generates one otherwise, and returns the lesson as stored.
func (t *Tx) InsertLesson(ctx context.Context, nl kb.NewLesson, now time.Time) (kb.Lesson, error) {
	// The text is redacted before anything derives from it: the terms are
	// lower-cased, which would hide a secret from the redaction of the
	// statement's arguments.
	nl.Content, nl.Trigger, nl.AntiTrigger = sanitize.RedactValue(nl.Content), sanitize.RedactValue(nl.Trigger), sanitize.RedactValue(nl.AntiTrigger)
	if len(nl.ContentVec) == 0 {
		return kb.Lesson{}, errors.New("insert lesson: no content vector")
	}
	id := nl.ID
	if id != "" {
		var taken bool
		if err := t.tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM lessons WHERE id = $1)`, id).Scan(&taken); err != nil {
			return kb.Lesson{}, fmt.Errorf("check lesson id: %w", err)
		}
		if taken {
			id = ""
		}
	}
	if id == "" {
		id = randid.New("L", 6)
	}
	rev, err := t.bumpVecRev(ctx)
	if err != nil {
		return kb.Lesson{}, err
	}
	args, err := storerow.InsertLessonArgs(id, nl, now, rev)
	if err != nil {
		return kb.Lesson{}, err
	}
	var seq int64
	err = t.tx.QueryRow(ctx, `INSERT INTO lessons (`+storerow.InsertLessonColumns+`)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27)
		RETURNING seq`, args...).Scan(&seq)
	if err != nil {
		return kb.Lesson{}, fmt.Errorf("insert lesson: %w", err)
	}
	var trig []byte
	if nl.TriggerVec != nil {
		trig = vecindex.Encode(nl.TriggerVec)
	}
	if _, err := t.tx.Exec(ctx, `INSERT INTO lesson_vectors (seq, content, trigger) VALUES ($1, $2, $3)`,
		seq, vecindex.Encode(nl.ContentVec), trig); err != nil {
		return kb.Lesson{}, fmt.Errorf("insert lesson vectors: %w", err)
	}
	if nl.State != kb.StateArchived {
		if err := addStats(ctx, t.tx, seq, bm25.LessonDoc(nl.Content, nl.Trigger), +1); err != nil {
			return kb.Lesson{}, err
		}
	}
	if len(nl.Checks) > 0 {
		if err := t.PutChecks(ctx, id, check.ByReader, nl.Checks, now); err != nil {
			return kb.Lesson{}, err
		}
	}
	return t.Lesson(ctx, id)
}

// LessonByHash returns the lesson with a content hash (see
// kb.ContentHash); kb.ErrNotFound when there is none.
func (t *Tx) LessonByHash(ctx context.Context, hash string) (kb.Lesson, error) {
	l, _, err := scanLesson(t.tx.QueryRow(ctx, `SELECT `+lessonColumns+` FROM lessons l WHERE l.content_hash = $1`, hash))
	return l, err
}

// NearDuplicate returns the oldest lesson that is not archived and has the
// shape hash (see kb.ShapeHash), the project and the kind; kb.ErrNotFound
// when there is none.
func (t *Tx) NearDuplicate(ctx context.Context, shape, project string, kind kb.Kind) (kb.Lesson, error) {
	l, _, err := scanLesson(t.tx.QueryRow(ctx, `SELECT `+lessonColumns+` FROM lessons l
		WHERE l.shape_hash = $1 AND l.project = $2 AND l.kind = $3 AND l.state <> 'archived' ORDER BY l.seq LIMIT 1`,
		shape, project, string(kind)))
	return l, err
}

// UpdateLesson writes a lesson's origin, state, confidence (with its state
// and tier), counters, tags and last-used time, as storage does; its
// updated time becomes now. A lesson that becomes archived leaves the
// search channels, one that becomes recallable again enters them: the
// vector revision moves (the instances' vector indexes drop or take it)
// and its terms are withdrawn from or added to the lexical statistics and
// postings. kb.ErrNotFound when there is no lesson with its id.
func (t *Tx) UpdateLesson(ctx context.Context, l kb.Lesson) error {
	var seq int64
	var oldState string
	err := t.tx.QueryRow(ctx, `SELECT seq, state FROM lessons WHERE id = $1`, l.ID).Scan(&seq, &oldState)
	if errors.Is(err, pgx.ErrNoRows) {
		return kb.ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("read lesson %s: %w", l.ID, err)
	}
	args, err := storerow.UpdateLessonArgs(l, time.Now())
	if err != nil {
		return err
	}
	_, err = t.tx.Exec(ctx, `UPDATE lessons SET origin = $1, state = $2, confidence = $3, recalls = $4, uses = $5,
		successes = $6, failures = $7, approvals = $8, rejects = $9, observed = $10, tags = $11, updated_at = $12,
		last_used_at = $13, conf_state = $14, tier = $15 WHERE seq = $16`, append(args, seq)...)
	if err != nil {
		return fmt.Errorf("update lesson %s: %w", l.ID, err)
	}
	wasIndexed, isIndexed := oldState != string(kb.StateArchived), l.State != kb.StateArchived
	if wasIndexed == isIndexed {
		return nil
	}
	rev, err := t.bumpVecRev(ctx)
	if err != nil {
		return err
	}
	var content, trigger string
	if err := t.tx.QueryRow(ctx, `UPDATE lessons SET vec_rev = $1 WHERE seq = $2 RETURNING content, trigger`, rev, seq).
		Scan(&content, &trigger); err != nil {
		return fmt.Errorf("update lesson %s: %w", l.ID, err)
	}
	sign := -1
	if isIndexed {
		sign = +1
	}
	return addStats(ctx, t.tx, seq, bm25.LessonDoc(content, trigger), sign)
}

// SetDirectives stores the directives of lessons by id and records the
// parser version they were derived with.
func (t *Tx) SetDirectives(ctx context.Context, version int, ds map[string]directive.Directive) error {
	ids := make([]string, 0, len(ds))
	dirs := make([]string, 0, len(ds))
	for id, d := range ds {
		s, err := storerow.Directive(&d)
		if err != nil {
			return err
		}
		ids, dirs = append(ids, id), append(dirs, s)
	}
	if len(ids) > 0 {
		if _, err := t.tx.Exec(ctx, `UPDATE lessons l SET directive = u.directive
			FROM unnest($1::text[], $2::text[]) AS u(id, directive) WHERE l.id = u.id`, ids, dirs); err != nil {
			return fmt.Errorf("write directives: %w", err)
		}
	}
	return setMeta(ctx, t.tx, "directive_version", strconv.Itoa(version))
}

// DirectiveVersion implements kb.Store. A missing or unreadable version
// reads as 0, never derived: the knowledge base then derives every
// directive again and records the version, which repairs it (as in
// storage).
func (db *DB) DirectiveVersion(ctx context.Context) (int, error) {
	v, ok, err := db.Meta(ctx, "directive_version")
	if err != nil || !ok {
		return 0, err
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		db.log.Warn("stored directive version is not a number: deriving the directives again", "value", v)
		return 0, nil
	}
	return n, nil
}

// Vectors implements kb.Store.
func (db *DB) Vectors(ctx context.Context, id string) ([]float32, []float32, error) {
	var c, t []byte
	err := db.pool.QueryRow(ctx, `SELECT v.content, v.trigger FROM lesson_vectors v JOIN lessons l ON l.seq = v.seq WHERE l.id = $1`, id).Scan(&c, &t)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil, kb.ErrNotFound
	}
	if err != nil {
		return nil, nil, fmt.Errorf("read vectors of %s: %w", id, err)
	}
	return vecindex.Decode(c), vecindex.Decode(t), nil
}
