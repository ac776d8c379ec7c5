package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/innate-mcp/innate-mcp/check"
	"github.com/innate-mcp/innate-mcp/directive"
	"github.com/innate-mcp/innate-mcp/internal/bm25"
	"github.com/innate-mcp/innate-mcp/internal/randid"
	"github.com/innate-mcp/innate-mcp/internal/storerow"
	"github.com/innate-mcp/innate-mcp/internal/vecindex"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/sanitize"
	"github.com/innate-mcp/innate-mcp/terms"
)

// lessonColumns and baseLessonColumns are the columns scanLesson and
// scanBaseLesson read.
const lessonColumns, baseLessonColumns = storerow.LessonColumns, storerow.BaseLessonColumns

// rowScanner is *sql.Row or *sql.Rows.
type rowScanner interface{ Scan(dest ...any) error }

// scanLesson reads one row of lessonColumns.
func scanLesson(r rowScanner) (kb.Lesson, int64, error) { return scanLessonMode(r, false) }

// scanBaseLesson reads one row of baseLessonColumns.
func scanBaseLesson(r rowScanner) (kb.Lesson, int64, error) {
	return storerow.Lesson(notFound(r), false, false)
}

// scanLessonMode reads one row of lessonColumns; with lazy, the confidence
// state is left raw in ConfRaw for the caller to decode when needed.
func scanLessonMode(r rowScanner, lazy bool) (kb.Lesson, int64, error) {
	return storerow.Lesson(notFound(r), lazy, true)
}

// notFound is r's Scan with sql.ErrNoRows read as kb.ErrNotFound.
func notFound(r rowScanner) storerow.Scan {
	return func(dest ...any) error {
		err := r.Scan(dest...)
		if errors.Is(err, sql.ErrNoRows) {
			return kb.ErrNotFound
		}
		return err
	}
}

// Lesson implements kb.Store.
func (db *DB) Lesson(ctx context.Context, id string) (kb.Lesson, error) {
	l, _, err := scanLesson(db.sql.QueryRowContext(ctx, `SELECT `+lessonColumns+` FROM lessons l WHERE l.id = ?`, id))
	return l, err
}

// Lessons implements kb.Store.
func (db *DB) Lessons(ctx context.Context, f kb.LessonFilter, fn func(kb.Lesson) error) error {
	return queryLessons(ctx, db.sql, f, fn)
}

// queryLessons calls fn for every lesson matching f, in the order they
// were stored (seq), while its rows are open.
func queryLessons(ctx context.Context, q queryer, f kb.LessonFilter, fn func(kb.Lesson) error) error {
	var args []any
	query := `SELECT ` + lessonColumns + ` FROM lessons l WHERE 1=1` + storerow.LessonFilter(f,
		func(v any) string { args = append(args, v); return "?" },
		func(col string, vals []string) string {
			for _, v := range vals {
				args = append(args, v)
			}
			return col + ` IN (` + placeholders(len(vals)) + `)`
		})
	rows, err := q.QueryContext(ctx, query+` ORDER BY l.seq`, args...)
	if err != nil {
		return fmt.Errorf("list lessons: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		l, _, err := scanLesson(rows)
		if err != nil {
			return err
		}
		if err := fn(l); err != nil {
			return err
		}
	}
	return rows.Err()
}

// Vectors implements kb.Store.
func (db *DB) Vectors(ctx context.Context, id string) ([]float32, []float32, error) {
	var c, t []byte
	err := db.sql.QueryRowContext(ctx, `SELECT v.content, v.trigger FROM lesson_vectors v JOIN lessons l ON l.seq = v.seq WHERE l.id = ?`, id).Scan(&c, &t)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, kb.ErrNotFound
	}
	if err != nil {
		return nil, nil, fmt.Errorf("read vectors of %s: %w", id, err)
	}
	return vecindex.Decode(c), vecindex.Decode(t), nil
}

// Update implements kb.Store.
func (db *DB) Update(ctx context.Context, fn func(kb.Tx) error) error {
	return db.update(ctx, func(t *redactTx) error { return fn(&tx{tx: t}) })
}

// tx implements kb.Tx over a write transaction, which redacts the text it
// writes and runs its statements prepared once.
type tx struct {
	tx *redactTx
}

var _ kb.Tx = (*tx)(nil)

func (t *tx) Lesson(ctx context.Context, id string) (kb.Lesson, error) {
	l, _, err := scanLesson(t.tx.QueryRowContext(ctx, `SELECT `+lessonColumns+` FROM lessons l WHERE l.id = ?`, id))
	return l, err
}

// Lessons implements kb.Tx. The rows are read before fn is called, so
// that fn may use the transaction.
func (t *tx) Lessons(ctx context.Context, f kb.LessonFilter, fn func(kb.Lesson) error) error {
	var ls []kb.Lesson
	if err := queryLessons(ctx, t.tx, f, func(l kb.Lesson) error { ls = append(ls, l); return nil }); err != nil {
		return err
	}
	for _, l := range ls {
		if err := fn(l); err != nil {
			return err
		}
	}
	return nil
}

func (t *tx) LessonByHash(ctx context.Context, hash string) (kb.Lesson, error) {
	l, _, err := scanLesson(t.tx.QueryRowContext(ctx, `SELECT `+lessonColumns+` FROM lessons l WHERE l.content_hash = ?`, hash))
	return l, err
}

func (t *tx) NearDuplicate(ctx context.Context, shape, project string, kind kb.Kind) (kb.Lesson, error) {
	l, _, err := scanLesson(t.tx.QueryRowContext(ctx, `SELECT `+lessonColumns+` FROM lessons l
		WHERE l.shape_hash = ? AND l.project = ? AND l.kind = ? AND l.state != 'archived' ORDER BY l.seq LIMIT 1`,
		shape, project, string(kind)))
	return l, err
}

// backfillShape is migration 11's data step: the near-duplicate key of
// every lesson stored before it.
func backfillShape(ctx context.Context, sqlTx *redactTx) error {
	rows, err := sqlTx.QueryContext(ctx, `SELECT seq, content, trigger FROM lessons`)
	if err != nil {
		return fmt.Errorf("read lessons: %w", err)
	}
	shapes := map[int64]string{}
	for rows.Next() {
		var seq int64
		var content, trigger string
		if err := rows.Scan(&seq, &content, &trigger); err != nil {
			rows.Close()
			return fmt.Errorf("read lessons: %w", err)
		}
		shapes[seq] = kb.ShapeHash(content, trigger)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read lessons: %w", err)
	}
	stmt, err := sqlTx.PrepareContext(ctx, `UPDATE lessons SET shape_hash = ? WHERE seq = ?`)
	if err != nil {
		return fmt.Errorf("write shape hashes: %w", err)
	}
	defer stmt.Close()
	for seq, shape := range shapes {
		if _, err := stmt.ExecContext(ctx, shape, seq); err != nil {
			return fmt.Errorf("write shape hash of lesson %d: %w", seq, err)
		}
	}
	return nil
}

// bumpVecRev advances the vector revision and returns the new value.
func (t *tx) bumpVecRev(ctx context.Context) (int64, error) {
	var rev int64
	err := t.tx.QueryRowContext(ctx, `UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'vec_rev'
		RETURNING CAST(value AS INTEGER)`).Scan(&rev)
	if err != nil {
		return 0, fmt.Errorf("bump vector revision: %w", err)
	}
	return rev, nil
}

func (t *tx) InsertLesson(ctx context.Context, nl kb.NewLesson, now time.Time) (kb.Lesson, error) {
	// The text is redacted before anything derives from it: the full-text
	// terms are lower-cased, which would hide a secret from the
	// redaction of the statement's arguments.
	nl.Content, nl.Trigger, nl.AntiTrigger = sanitize.RedactValue(nl.Content), sanitize.RedactValue(nl.Trigger), sanitize.RedactValue(nl.AntiTrigger)
	id := nl.ID
	if id != "" {
		var n int
		if err := t.tx.QueryRowContext(ctx, `SELECT count(*) FROM lessons WHERE id = ?`, id).Scan(&n); err != nil {
			return kb.Lesson{}, fmt.Errorf("check lesson id: %w", err)
		}
		if n > 0 {
			id = ""
		}
	}
	if id == "" {
		id = newLessonID()
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
	err = t.tx.QueryRowContext(ctx, `INSERT INTO lessons (`+storerow.InsertLessonColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq`, args...).Scan(&seq)
	if err != nil {
		return kb.Lesson{}, fmt.Errorf("insert lesson: %w", err)
	}
	var trig any
	if nl.TriggerVec != nil {
		trig = vecindex.Encode(nl.TriggerVec)
	}
	if len(nl.ContentVec) == 0 {
		return kb.Lesson{}, errors.New("insert lesson: no content vector")
	}
	if _, err := t.tx.ExecContext(ctx, `INSERT INTO lesson_vectors (seq, content, trigger) VALUES (?, ?, ?)`,
		seq, vecindex.Encode(nl.ContentVec), trig); err != nil {
		return kb.Lesson{}, fmt.Errorf("insert lesson vectors: %w", err)
	}
	if nl.State != kb.StateArchived {
		if err := t.indexText(ctx, seq, nl.Content, nl.Trigger); err != nil {
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

// indexText adds a lesson's terms to the full-text index and its term
// statistics to the collection's.
func (t *tx) indexText(ctx context.Context, seq int64, content, trigger string) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO lessons_fts (rowid, title_terms, content_terms, trigger_terms) VALUES (?, ?, ?, ?)`,
		seq, terms.Join(bm25.Describe(content)), terms.Join(content), terms.Join(trigger))
	if err != nil {
		return fmt.Errorf("index lesson text: %w", err)
	}
	return addStats(ctx, t.tx, seq, bm25.LessonDoc(content, trigger), +1)
}

// unindexText removes a lesson from the full-text index and its term
// statistics from the collection's.
func (t *tx) unindexText(ctx context.Context, seq int64, content, trigger string) error {
	if _, err := t.tx.ExecContext(ctx, `DELETE FROM lessons_fts WHERE rowid = ?`, seq); err != nil {
		return fmt.Errorf("unindex lesson: %w", err)
	}
	if err := addStats(ctx, t.tx, seq, bm25.LessonDoc(content, trigger), -1); err != nil {
		return err
	}
	if _, err := t.tx.ExecContext(ctx, `DELETE FROM lesson_terms WHERE seq = ?`, seq); err != nil {
		return fmt.Errorf("unindex lesson: %w", err)
	}
	return nil
}

func (t *tx) UpdateLesson(ctx context.Context, l kb.Lesson) error {
	var seq int64
	var oldState string
	err := t.tx.QueryRowContext(ctx, `SELECT seq, state FROM lessons WHERE id = ?`, l.ID).Scan(&seq, &oldState)
	if errors.Is(err, sql.ErrNoRows) {
		return kb.ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("read lesson %s: %w", l.ID, err)
	}
	args, err := storerow.UpdateLessonArgs(l, time.Now())
	if err != nil {
		return err
	}
	_, err = t.tx.ExecContext(ctx, `UPDATE lessons SET origin = ?, state = ?, confidence = ?, recalls = ?, uses = ?,
		successes = ?, failures = ?, approvals = ?, rejects = ?, observed = ?, tags = ?, updated_at = ?, last_used_at = ?,
		conf_state = ?, tier = ? WHERE seq = ?`, append(args, seq)...)
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
	if _, err := t.tx.ExecContext(ctx, `UPDATE lessons SET vec_rev = ? WHERE seq = ?`, rev, seq); err != nil {
		return fmt.Errorf("update lesson %s: %w", l.ID, err)
	}
	var content, trigger string
	if err := t.tx.QueryRowContext(ctx, `SELECT content, trigger FROM lessons WHERE seq = ?`, seq).Scan(&content, &trigger); err != nil {
		return fmt.Errorf("read lesson %s: %w", l.ID, err)
	}
	if isIndexed {
		return t.indexText(ctx, seq, content, trigger)
	}
	return t.unindexText(ctx, seq, content, trigger)
}

// SetDirectives implements kb.Tx: it stores the directives of lessons by id
// and records the parser version they were derived with.
func (t *tx) SetDirectives(ctx context.Context, version int, ds map[string]directive.Directive) error {
	for id, d := range ds {
		s, err := storerow.Directive(&d)
		if err != nil {
			return err
		}
		if _, err := t.tx.ExecContext(ctx, `UPDATE lessons SET directive = ? WHERE id = ?`, s, id); err != nil {
			return fmt.Errorf("write directive of %s: %w", id, err)
		}
	}
	_, err := t.tx.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES ('directive_version', ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, strconv.Itoa(version))
	if err != nil {
		return fmt.Errorf("write directive version: %w", err)
	}
	return nil
}

// DirectiveVersion implements kb.Store. A missing or unreadable version
// reads as 0, never derived: the knowledge base then derives every
// directive again and records the version, which repairs it.
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

// newLessonID returns a fresh lesson id such as "L3f2a9c01b2d4".
func newLessonID() string { return randid.New("L", 6) }

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?,", n), ",")
}

// SetVectors implements kb.Store: it replaces a lesson's vectors and
// bumps the vector revision so every process refreshes its index.
func (db *DB) SetVectors(ctx context.Context, id string, content, trigger []float32) error {
	return db.update(ctx, func(sqlTx *redactTx) error {
		t := &tx{tx: sqlTx}
		var seq int64
		if err := sqlTx.QueryRowContext(ctx, `SELECT seq FROM lessons WHERE id = ?`, id).Scan(&seq); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return kb.ErrNotFound
			}
			return fmt.Errorf("read lesson %s: %w", id, err)
		}
		rev, err := t.bumpVecRev(ctx)
		if err != nil {
			return err
		}
		var trig any
		if trigger != nil {
			trig = vecindex.Encode(trigger)
		}
		if _, err := sqlTx.ExecContext(ctx, `UPDATE lesson_vectors SET content = ?, trigger = ? WHERE seq = ?`, vecindex.Encode(content), trig, seq); err != nil {
			return fmt.Errorf("write vectors of %s: %w", id, err)
		}
		if _, err := sqlTx.ExecContext(ctx, `UPDATE lessons SET vec_rev = ? WHERE seq = ?`, rev, seq); err != nil {
			return fmt.Errorf("write vectors of %s: %w", id, err)
		}
		return nil
	})
}
