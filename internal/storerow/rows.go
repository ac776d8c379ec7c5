package storerow

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/innate-mcp/innate-mcp/internal/bm25"
	"github.com/innate-mcp/innate-mcp/internal/vecindex"
	"github.com/innate-mcp/innate-mcp/kb"
)

// Scan reads the columns of one row into dest: the Scan method of
// *sql.Row and *sql.Rows (database/sql) and of pgx.Row and pgx.Rows, so
// that one function decodes a row for either store.
type Scan = func(dest ...any) error

// Rows is a result set being read: *sql.Rows and pgx.Rows both are. Its
// closing stays with the store (their Close methods differ).
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// Collect reads every row of rows with read, in order, and returns them;
// it stops at the first error, read's or the result set's, and returns it
// unwrapped (the store adds what it was reading).
func Collect[T any](rows Rows, read func(scan Scan) (T, error)) ([]T, error) {
	var out []T
	for rows.Next() {
		v, err := read(rows.Scan)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// Each calls fn with every row of rows, in order; it stops at the first
// error, fn's or the result set's, and returns it unwrapped.
func Each(rows Rows, fn func(scan Scan) error) error {
	for rows.Next() {
		if err := fn(rows.Scan); err != nil {
			return err
		}
	}
	return rows.Err()
}

// timeFormat is how both stores keep times: sortable UTC text (PostgreSQL
// too, see its schema's comment for why not TIMESTAMPTZ).
const timeFormat = "2006-01-02T15:04:05.000000000Z"

// FormatTime is the stored form of t.
func FormatTime(t time.Time) string { return t.UTC().Format(timeFormat) }

// ParseTime reads a stored time; the zero time when s is not one.
func ParseTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t
}

// CorrectionRow decodes a correction: its trace, project, text, keywords
// (a JSON array), session and time.
func CorrectionRow(scan Scan) (kb.Correction, error) {
	var c kb.Correction
	var kw, created string
	if err := scan(&c.TraceID, &c.Project, &c.Text, &kw, &c.Session, &created); err != nil {
		return kb.Correction{}, err
	}
	if err := json.Unmarshal([]byte(kw), &c.Keywords); err != nil {
		return kb.Correction{}, fmt.Errorf("keywords: %w", err)
	}
	c.CreatedAt = ParseTime(created)
	return c, nil
}

// EvidenceRow decodes a piece of evidence: its trace, lesson, kind,
// signal, reason, session and time.
func EvidenceRow(scan Scan) (kb.Evidence, error) {
	var e kb.Evidence
	var kind, created string
	if err := scan(&e.TraceID, &e.LessonID, &kind, &e.Signal, &e.Reason, &e.Session, &created); err != nil {
		return kb.Evidence{}, err
	}
	e.Kind, e.CreatedAt = kb.EvidenceKind(kind), ParseTime(created)
	return e, nil
}

// Candidate is a search candidate as both stores build it from a loaded
// row: the lesson, its BM25 from its term statistics (stats and length;
// nil stats score 0), and its dense similarities from its content and
// trigger vectors as stored.
func Candidate(l kb.Lesson, seq int64, content, trigger, stats []byte, length int, lq *bm25.Query, scorer vecindex.Scorer) (kb.Candidate, error) {
	c := kb.Candidate{Lesson: l}
	var err error
	if c.Lexical, err = lq.ScoreStats(seq, stats, length); err != nil {
		return kb.Candidate{}, fmt.Errorf("lesson %s: %w", l.ID, err)
	}
	sc := scorer.Score(vecindex.Decode(content), vecindex.Decode(trigger))
	c.Content, c.RawContent, c.Trigger, c.RawTrigger, c.HasTrigger = sc.Content, sc.RawContent, sc.Trigger, sc.RawTrigger, sc.HasTrigger
	return c, nil
}
