package kb

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/innate-mcp/innate-mcp/appraise"
	"github.com/innate-mcp/innate-mcp/check"
	"github.com/innate-mcp/innate-mcp/confidence"
	"github.com/innate-mcp/innate-mcp/directive"
	"github.com/innate-mcp/innate-mcp/hesitation"
	"github.com/innate-mcp/innate-mcp/route"
)

// Embedder turns text into L2-normalised vectors. *embed.Embedder implements
// it; tests use doubles. Implementations must be safe for concurrent use.
type Embedder interface {
	// Name is the model name recorded in the knowledge base.
	Name() string
	// Dim is the vector dimension (0 when not yet known for a remote model).
	Dim() int
	// Embed embeds one text.
	Embed(ctx context.Context, text string) ([]float32, error)
	// EmbedBatch embeds several texts, in order.
	EmbedBatch(ctx context.Context, texts []string) ([][]float32, error)
	// Remote reports whether text leaves the process; secrets are redacted
	// before any text reaches a remote embedder.
	Remote() bool
}

// Store is the knowledge base's persistence: the single source of truth,
// shared by every process that opens the same database. storage.DB
// implements it; a second backend (PostgreSQL) implements the same methods,
// and a backend that lacks one does not compile.
//
// Every implementation guarantees:
//   - it is safe for concurrent use by several goroutines, and several
//     processes may share one database: every read sees the writes other
//     processes committed before it began (a Search with
//     Probe.LexicalOnly excepted, for its dense values);
//   - every text it writes is redacted first (package sanitize; JSON kept
//     valid), whichever method writes it, so no secret reaches the disk;
//   - a read of a lesson, trace or log row that does not exist returns an
//     error wrapping ErrNotFound (compare with errors.Is), never a zero
//     value;
//   - on a database opened read-only every write fails with an error
//     wrapping ErrReadOnly, before anything is written;
//   - a call whose ctx ends before it is done returns an error, and a
//     write transaction it was in is rolled back.
//
// Writes other than SetEmbedderInfo and SetVectors go through Update, whose
// Tx is the only way to change lessons, traces and the logs.
type Store interface {
	// EmbedderInfo returns the embedder model and dimension the database was
	// built with; ok is false for a database that has no lesson vectors yet.
	// A stored dimension that cannot be read is an error, never 0.
	EmbedderInfo(ctx context.Context) (model string, dim int, ok bool, err error)
	// SetEmbedderInfo records the embedder the database is built with,
	// replacing the one recorded before.
	SetEmbedderInfo(ctx context.Context, model string, dim int) error
	// SetVectors replaces a lesson's content and trigger vectors (trigger
	// nil for a lesson without trigger) in a write transaction of its own,
	// and makes every process's next Search see them. ErrNotFound when the
	// lesson does not exist. Reembed uses it after a change of embedder.
	SetVectors(ctx context.Context, id string, content, trigger []float32) error
	// Search returns the lessons found by the dense and lexical channels
	// for probe, each once, with every channel's value and the situation's
	// outcome tally filled in for every candidate (see Probe, Candidate).
	// Only recallable lessons (not archived) are candidates. The order is
	// unspecified: the knowledge base ranks them.
	Search(ctx context.Context, probe Probe) ([]Candidate, error)
	// DocFreqs returns how many recallable lessons hold each lexical term
	// (as package terms makes them); terms no lesson holds are absent.
	DocFreqs(ctx context.Context, terms []string) (map[string]int, error)
	// Update runs fn in one short write transaction (in SQLite BEGIN
	// IMMEDIATE; in a server database one serialisable transaction or a
	// lock that serialises writers): all of fn's writes land together or
	// not at all. When fn returns an error the transaction is rolled back
	// and Update returns that error unchanged (errors.Is works on it).
	// Update calls fn once; the Tx must not be used after fn returns.
	Update(ctx context.Context, fn func(Tx) error) error
	// Lesson returns one lesson by id; ErrNotFound when there is none.
	Lesson(ctx context.Context, id string) (Lesson, error)
	// Lessons calls fn for every lesson matching filter, in the order the
	// lessons were stored; an error from fn stops the iteration and is
	// returned.
	Lessons(ctx context.Context, filter LessonFilter, fn func(Lesson) error) error
	// Vectors returns the stored content and trigger vectors of a lesson
	// (trigger nil when it has none); ErrNotFound when there is none.
	Vectors(ctx context.Context, id string) (content, trigger []float32, err error)
	// ErrorPatterns returns every learned error pattern.
	ErrorPatterns(ctx context.Context) ([]hesitation.Pattern, error)
	// DirectiveVersion returns the directive parser version the stored
	// directives were derived with (0 when never).
	DirectiveVersion(ctx context.Context) (int, error)
	// AppraiseState returns what one appraisal reads of its session: at
	// most window of its recent appraisals (none when window ≤ 0), its
	// router state and its trace count (which an implementation may cap),
	// with the verdict log's calibration revision.
	AppraiseState(ctx context.Context, session string, window int) (AppraiseState, error)
	// Corrections returns the corrections made since a time in project
	// or with no project, newest first, at most limit of them.
	Corrections(ctx context.Context, project string, since time.Time, limit int) ([]Correction, error)
	// Checks returns the checks the filter selects (see CheckFilter), in
	// the order they were stored.
	Checks(ctx context.Context, f CheckFilter) ([]StoredCheck, error)
	// CalibrationPoints returns the verdict log's calibration points,
	// newest first (an implementation may keep only the newest few
	// thousand): every verdict that was not abstained, not censored, had
	// an affirm or caution valence and a success or failure outcome,
	// including those whose traces were pruned.
	CalibrationPoints(ctx context.Context) ([]appraise.Point, error)
}

// LessonFilter selects lessons for listing and export; zero values match all.
type LessonFilter struct {
	States  []State
	Project string
	// Global selects only the lessons of no project; Project is then
	// ignored.
	Global bool
	// Origin, when set, selects only the lessons of that origin.
	Origin Origin
}

// Matches reports whether a lesson passes the filter, as the stores apply
// it in their queries (for lessons already read into memory).
func (f LessonFilter) Matches(l Lesson) bool {
	switch {
	case len(f.States) > 0 && !slices.Contains(f.States, l.State),
		f.Global && l.Project != "",
		!f.Global && f.Project != "" && l.Project != f.Project,
		f.Origin != "" && l.Origin != f.Origin:
		return false
	}
	return true
}

// Link is a recorded relation between two lessons: A contradicts B, or A
// supersedes B (B was archived in favour of A), with the reason given.
type Link struct {
	A, B, Kind, Reason string
	At                 time.Time
}

// Tx is a write transaction, valid only inside the fn given to
// Store.Update. Its reads see the transaction's own writes; nothing it
// writes is visible to others before Update commits. It is used by one
// goroutine at a time. Every method that writes text redacts it first (see
// Store). Methods that report a missing row with ErrNotFound say so; the
// others are given ids the caller has just read.
type Tx interface {
	// Trace returns a trace and the lessons it returned (in rank order);
	// ErrNotFound when there is none.
	Trace(ctx context.Context, id string) (Trace, error)
	// InsertTrace stores a new trace with the lessons it returned; a trace
	// id already stored is an error.
	InsertTrace(ctx context.Context, t Trace) error
	// SetTraceOutcome records what came of a trace ("" clears it).
	SetTraceOutcome(ctx context.Context, id string, o Outcome) error
	// Evidence returns the evidence recorded against a trace, ordered by
	// lesson id and kind.
	Evidence(ctx context.Context, traceID string) ([]Evidence, error)
	// PutEvidence stores e keyed by (trace, lesson, kind), replacing the
	// signal and reason stored under that key; it reports the signal stored
	// before ("" when there was none).
	PutEvidence(ctx context.Context, e Evidence) (previous string, err error)
	// Lesson returns a lesson by id; ErrNotFound when there is none.
	Lesson(ctx context.Context, id string) (Lesson, error)
	// Lessons calls fn for every lesson matching filter, in the order the
	// lessons were stored, as the transaction sees them; fn may use the transaction (the rows are
	// read before fn is first called).
	Lessons(ctx context.Context, filter LessonFilter, fn func(Lesson) error) error
	// Links returns the links that involve a lesson, oldest first.
	Links(ctx context.Context, id string) ([]Link, error)
	// LessonByHash returns the lesson with a content hash (see
	// ContentHash); ErrNotFound when there is none.
	LessonByHash(ctx context.Context, hash string) (Lesson, error)
	// NearDuplicate returns the oldest lesson that is not archived and has
	// the shape hash (see ShapeHash), the project and the kind;
	// ErrNotFound when there is none.
	NearDuplicate(ctx context.Context, shape, project string, kind Kind) (Lesson, error)
	// InsertLesson stores a new lesson with its vectors and indexes it for
	// both search channels; it keeps the requested id when free and
	// generates one otherwise, and returns the lesson as stored.
	InsertLesson(ctx context.Context, nl NewLesson, now time.Time) (Lesson, error)
	// UpdateLesson writes a lesson's state, confidence (with its state and
	// tier), counters, origin and last-used time, and keeps the search
	// channels in step; ErrNotFound when there is no lesson with its id.
	UpdateLesson(ctx context.Context, l Lesson) error
	// AddContextOutcome moves the per-situation outcome tally of a lesson
	// by the given (possibly negative) amounts; a count never falls below
	// zero.
	AddContextOutcome(ctx context.Context, lessonID, key string, successes, failures int) error
	// InsertCorrection keeps a user's correction.
	InsertCorrection(ctx context.Context, c Correction) error
	// CountRecalls adds one to the recall counter of each lesson.
	CountRecalls(ctx context.Context, ids []string) error
	// ErrorPatterns returns every learned error pattern.
	ErrorPatterns(ctx context.Context) ([]hesitation.Pattern, error)
	// PutPattern inserts or replaces an error pattern by id (its creation
	// time is kept from the first insert).
	PutPattern(ctx context.Context, p hesitation.Pattern) error
	// LogHesitation writes a hesitate call to the audit log.
	LogHesitation(ctx context.Context, e HesitationEntry) error
	// ReviewHesitation records the review of a logged hesitate call;
	// ErrNotFound when no hesitate call has that trace id.
	ReviewHesitation(ctx context.Context, traceID, verdict string, at time.Time) error
	// AddHistory appends confidence changes of a lesson to its history, in
	// order.
	AddHistory(ctx context.Context, lessonID string, changes []confidence.Change) error
	// LinkLessons records a relation between two lessons (contradicts,
	// supersedes); repeating a link changes nothing.
	LinkLessons(ctx context.Context, a, b, kind, reason string, at time.Time) error
	// SetDirectives stores the directives of lessons by id and records the
	// parser version they were derived with.
	SetDirectives(ctx context.Context, version int, ds map[string]directive.Directive) error
	// PutChecks makes cs the checks of a lesson of one origin: checks of
	// that origin not in cs are removed, new ones stored active, and the
	// ones kept (by CheckID) keep their state and record while their
	// check is rewritten. NewLesson.Checks are stored by InsertLesson as
	// the reader's.
	PutChecks(ctx context.Context, lessonID string, origin check.Origin, cs []check.Check, now time.Time) error
	// LessonChecks returns the checks of a lesson, of every origin and
	// state, in the order they were stored.
	LessonChecks(ctx context.Context, lessonID string) ([]StoredCheck, error)
	// Check returns one check by id; ErrNotFound when there is none.
	Check(ctx context.Context, id string) (StoredCheck, error)
	// UpdateCheck writes a check's state, approval, record and times;
	// ErrNotFound when there is none with its id.
	UpdateCheck(ctx context.Context, c StoredCheck) error
	// InsertVerdict logs one verdict with its raised and skipped points.
	InsertVerdict(ctx context.Context, v VerdictRecord) error
	// InsertRouting logs one routing decision.
	InsertRouting(ctx context.Context, r RoutingRecord) error
	// SetVerdictOutcome back-fills the outcome of the verdict of a trace
	// ("" keeps the one stored) and, when heeded is not nil, whether the
	// agent heeded it (a heeded verdict is censored: left out of
	// calibration). When anything changed it moves the calibration
	// revision that AppraiseState reports. ErrNotFound when no verdict has
	// that trace id.
	SetVerdictOutcome(ctx context.Context, traceID string, o Outcome, heeded *bool, at time.Time) error
	// SetMisroute records misroute feedback on the routing decision of a
	// trace; ErrNotFound when there is none.
	SetMisroute(ctx context.Context, traceID string, kind route.Misroute, at time.Time) error
}

// DefaultPool is how many candidates each channel of Store.Search
// contributes when a probe does not say.
const DefaultPool = 32

// ProjectCap is the most lessons of a probe's own project that a search
// takes as candidates on top of the pools: a project's rule files hold tens
// to a few hundred rules. A larger project relies on the pools beyond it.
const ProjectCap = 1000

// Probe is what Store.Search looks for.
type Probe struct {
	Vector []float32 // the situation's embedding
	Terms  []string  // the situation's lexical terms
	// DocFreqs, when not nil, holds the terms' document frequencies as
	// DocFreqs returned them, so the search need not read them again.
	DocFreqs     map[string]int
	Pool         int    // candidates taken from the dense channel (and the lexical one unless LexicalPool)
	LexicalPool  int    // candidates taken from the lexical channel; Pool when zero
	SituationKey string // for per-situation outcome history
	// Project, when set, makes every recallable lesson of that project a
	// candidate (up to ProjectCap), whatever the pools found: a project's
	// own rules are few and must not be crowded out by other projects' or
	// global lessons.
	Project string
	// LexicalOnly skips the dense scan, and with it the refresh of the
	// vector index from other processes' writes: candidates come from the
	// full-text index alone (their dense similarities are still computed,
	// centred on the index's mean as last refreshed). Record's search for
	// contradictions uses it.
	LexicalOnly bool
}

// Candidate is a lesson found by at least one channel, with every channel's
// raw value: the KB fuses them.
type Candidate struct {
	Lesson Lesson
	// Content and Trigger are the cosine similarities of the situation to
	// the lesson's content and trigger after the knowledge base's mean
	// direction is removed from both sides (centring counters hubness);
	// RawContent and RawTrigger are the plain cosines.
	Content, RawContent float64
	Trigger, RawTrigger float64 // when HasTrigger
	HasTrigger          bool
	Lexical             float64 // BM25 over the situation's terms, normalised absolutely to [0,1]
	// SituationTally counts the lesson's outcomes in situations with the
	// probe's SituationKey.
	SituationTally Tally
}

// Tally counts outcomes.
type Tally struct {
	Successes int `json:"successes"`
	Failures  int `json:"failures"`
}

// Outcome is what happened after the agent acted.
type Outcome string

// The outcomes record accepts.
const (
	OutcomeSuccess Outcome = "success"
	OutcomeFailure Outcome = "failure"
	OutcomeUnknown Outcome = "unknown"
)

// Trace is one tool call: what was asked, what was returned, and later what
// came of it.
type Trace struct {
	ID           string          `json:"id"`
	Tool         string          `json:"tool"`
	Session      string          `json:"session,omitempty"`
	Project      string          `json:"project,omitempty"`
	SituationKey string          `json:"situation_key,omitempty"`
	CreatedAt    time.Time       `json:"created_at"`
	Request      []byte          `json:"request,omitempty"`  // JSON
	Response     []byte          `json:"response,omitempty"` // JSON
	Returned     []ReturnedEntry `json:"returned,omitempty"`
	Outcome      Outcome         `json:"outcome,omitempty"`
}

// ReturnedEntry is one lesson a trace returned.
type ReturnedEntry struct {
	LessonID string  `json:"lesson_id"`
	Rank     int     `json:"rank"`
	Score    float64 `json:"score"`
}

// traceJSON encodes a call's request and response for its trace: an error,
// never an empty trace, when either cannot be encoded.
func traceJSON(req, res any) (reqJSON, resJSON []byte, err error) {
	if reqJSON, err = json.Marshal(req); err != nil {
		return nil, nil, fmt.Errorf("encode trace request: %w", err)
	}
	if resJSON, err = json.Marshal(res); err != nil {
		return nil, nil, fmt.Errorf("encode trace response: %w", err)
	}
	return reqJSON, resJSON, nil
}

// returned reports whether the trace returned the lesson.
func (t Trace) returned(id string) bool {
	for _, r := range t.Returned {
		if r.LessonID == id {
			return true
		}
	}
	return false
}

// EvidenceKind is the kind of one piece of evidence about a lesson.
type EvidenceKind string

// The kinds of evidence.
const (
	EvidenceUsed     EvidenceKind = "used"     // the agent reported using the lesson
	EvidenceOutcome  EvidenceKind = "outcome"  // credit for the trace's outcome
	EvidenceFeedback EvidenceKind = "feedback" // explicit up / down
)

// Evidence is one recorded fact about a lesson in a trace.
type Evidence struct {
	TraceID   string       `json:"trace_id"`
	LessonID  string       `json:"lesson_id"`
	Kind      EvidenceKind `json:"kind"`
	Signal    string       `json:"signal"`
	Reason    string       `json:"reason,omitempty"`
	Session   string       `json:"session,omitempty"`
	CreatedAt time.Time    `json:"created_at"`
}

// Correction is a user's correction of the agent, kept for hesitate.
type Correction struct {
	TraceID   string    `json:"trace_id,omitempty"`
	Project   string    `json:"project,omitempty"`
	Text      string    `json:"text"`
	Keywords  []string  `json:"keywords,omitempty"`
	Session   string    `json:"session,omitempty"`
	CreatedAt time.Time `json:"created_at"`
}
