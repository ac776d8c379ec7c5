package kb

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/innate-mcp/innate-mcp/internal/clip"
	"github.com/innate-mcp/innate-mcp/internal/metric"

	"github.com/innate-mcp/innate-mcp/confidence"
	"github.com/innate-mcp/innate-mcp/sanitize"
	"github.com/innate-mcp/innate-mcp/terms"
)

// RecallRequest is the input of recall: the situation the agent is about to
// act in, and how much to return.
type RecallRequest struct {
	Query        string   `json:"query" jsonschema_description:"What you are about to do, in a sentence or two (the task, the plan, the question). Required."`
	Error        string   `json:"error,omitempty" jsonschema_description:"An error message or failing test output you are facing, if any."`
	Files        []string `json:"files,omitempty" jsonschema_description:"Paths of the files involved."`
	Stage        string   `json:"stage,omitempty" jsonschema_description:"Stage of the work, e.g. plan, edit, debug, test, review, commit."`
	Project      string   `json:"project,omitempty" jsonschema_description:"Project identifier (a repository root path or name). Defaults to the client's workspace root or the server's git root."`
	Top          int      `json:"top,omitempty" jsonschema_description:"Maximum number of lessons to return (1-50, default 5)."`
	BudgetTokens int      `json:"budget_tokens,omitempty" jsonschema_description:"Optional cap on the total size of returned lessons, in tokens (about 4 characters each)."`
}

// Situation returns the request's situation.
func (r RecallRequest) Situation() Situation {
	return Situation{Query: r.Query, Error: r.Error, Files: r.Files, Stage: r.Stage, Project: r.Project}
}

// RecalledLesson is one lesson recall returns.
type RecalledLesson struct {
	ID         string    `json:"id"`
	Content    string    `json:"content"`
	Trigger    string    `json:"trigger,omitempty"`
	Score      float64   `json:"score"`
	Breakdown  Breakdown `json:"breakdown"`
	Confidence float64   `json:"confidence"`
	State      State     `json:"state"`
	Origin     Origin    `json:"origin"`
	// Provenance is where the lesson came from (ProvenanceOf).
	Provenance Provenance `json:"provenance"`
	Why        string     `json:"why"`
	// Truncated is set when Content is an excerpt of the lesson (longer
	// than LessonBudgetBytes, or cut to budget_tokens): the whole lesson is
	// at LessonURI(ID).
	Truncated bool `json:"truncated,omitempty"`
}

// RecallResult is the output of recall.
type RecallResult struct {
	TraceID string           `json:"trace_id"`
	Empty   bool             `json:"empty"`
	Lessons []RecalledLesson `json:"lessons"`
	Project string           `json:"project,omitempty"`
	// ReadAs lists the query's terms that no lesson holds and that were
	// read as a likely typo or run-together words (see repairTerms).
	ReadAs []Repair `json:"read_as,omitempty"`
	Note   string   `json:"note,omitempty"`
}

// DefaultTop is how many lessons recall returns when top is not given;
// MaxTop the most it returns.
const (
	DefaultTop = 5
	MaxTop     = 50
)

// LessonBudgetBytes is the most content recall returns for one lesson. A
// lesson imported from a rule file can be a whole document, and five of
// them would fill the agent's context with text it mostly does not need:
// a longer lesson comes back as the excerpt that holds most of the
// situation's terms (clip.Excerpt), marked truncated, with its id to read
// the whole lesson (LessonURI). 600 bytes holds a rule and its example.
const LessonBudgetBytes = 600

// LessonURI is the address of the MCP resource that serves the whole
// lesson id (the server's template innate://lesson/{id}): what recall tells
// the agent to read when it returns an excerpt. Bytes of id other than
// letters, digits and "-._~" are percent-encoded, as the template's simple
// expansion does.
func LessonURI(id string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.WriteString("innate://lesson/")
	for i := 0; i < len(id); i++ {
		c := id[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// excerpt sets the lesson's content to content when it fits in n bytes,
// else to the passage of it that best matches the situation, marked
// truncated, with a note in why on how to read the whole lesson.
func (rl *RecalledLesson) excerpt(content string, n int, info *situationInfo) {
	rl.Content = clip.Excerpt(content, n, info.termsIn)
	if rl.Content == content || rl.Truncated {
		return
	}
	rl.Truncated = true
	rl.Why += fmt.Sprintf("; excerpt of a %d-byte lesson: read %s for the whole", len(content), LessonURI(rl.ID))
}

// readOnlyNote tells the caller of a read-only knowledge base why its
// trace_id cannot be recorded against.
const readOnlyNote = "the knowledge base is read-only: this call was not logged, and record cannot report on its trace_id"

// Recall returns the lessons worth loading before acting in the situation,
// best first, or Empty when nothing clears the relevance floor. It writes a
// trace so that record can credit the returned lessons later (not on a
// read-only knowledge base: Note says so). Errors wrapping ErrInput
// describe input the caller can fix.
func (k *KB) Recall(ctx context.Context, req RecallRequest) (RecallResult, error) {
	sit := req.Situation()
	if err := sit.validate(); err != nil {
		return RecallResult{}, err
	}
	top := req.Top
	switch {
	case top == 0:
		top = DefaultTop
	case top < 0 || top > MaxTop:
		return RecallResult{}, inputErrorf("top", "is %d; use 1 to %d", top, MaxTop)
	}
	if req.BudgetTokens < 0 {
		return RecallResult{}, inputErrorf("budget_tokens", "is negative")
	}
	ranked, info, err := k.rank(ctx, &sit, top)
	if err != nil {
		return RecallResult{}, err
	}
	req.Query, req.Error, req.Files, req.Stage = sit.Query, sit.Error, sit.Files, sit.Stage // redacted by rank
	chosen := k.choose(ranked, top, info)
	res := RecallResult{TraceID: newID("t_"), Project: sit.Project, Lessons: []RecalledLesson{}, ReadAs: info.repairs}
	budget := req.BudgetTokens
	for _, s := range chosen {
		rl := RecalledLesson{
			ID: s.Lesson.ID, Trigger: s.Lesson.Trigger, Score: metric.Round4(s.Score),
			Breakdown: s.Breakdown.rounded(), Confidence: metric.Round4(s.Lesson.Confidence), State: s.Lesson.State,
			Origin: s.Lesson.Origin, Provenance: ProvenanceOf(s.Lesson), Why: s.why(info),
		}
		rl.excerpt(s.Lesson.Content, LessonBudgetBytes, info)
		if req.BudgetTokens > 0 {
			cost := clip.Tokens(rl.Content) + clip.Tokens(rl.Trigger) + lessonOverheadTokens
			if cost > budget {
				if len(res.Lessons) > 0 {
					break
				}
				rl.excerpt(s.Lesson.Content, max(0, budget-lessonOverheadTokens-clip.Tokens(rl.Trigger))*clip.BytesPerToken, info)
				cost = budget
			}
			budget -= cost
		}
		res.Lessons = append(res.Lessons, rl)
	}
	res.Empty = len(res.Lessons) == 0
	if res.Empty {
		res.Note = "nothing in the knowledge base is relevant to this situation; proceed on your own judgement"
	}
	if k.readOnly {
		res.Note = strings.TrimPrefix(res.Note+"; "+readOnlyNote, "; ")
		return res, nil
	}
	if err := k.writeTrace(ctx, res.TraceID, "recall", &sit, req, res, chosen[:len(res.Lessons)], info.settled); err != nil {
		return RecallResult{}, err
	}
	return res, nil
}

// Rank returns every candidate lesson for the situation with its fused
// score and breakdown, best first, without recall's floor, project rules or
// trace. Evaluation and appraise read it; errors wrapping ErrInput describe
// input the caller can fix.
func (k *KB) Rank(ctx context.Context, sit Situation) ([]Scored, error) {
	if err := sit.validate(); err != nil {
		return nil, err
	}
	ranked, _, err := k.rank(ctx, &sit, rankPoolTop)
	return ranked, err
}

// Candidate pools: how many lessons each search channel hands the fused
// scorer for a call that returns top lessons. Fusing reorders what each
// channel found (a lesson one channel ranks low may come first once the
// other channel and its calibration count), so both pools exceed top, and
// neither falls below its minimum however small top is. The dense pool
// grows more slowly: its scan is the expensive part of a search.
const (
	minDensePool   = 16 // dense candidates for the smallest top
	densePerTop    = 2  // dense candidates per lesson asked for
	denseExtra     = 6  // dense candidates added to densePerTop·top
	minLexicalPool = 24 // lexical candidates for the smallest top
	lexicalPerTop  = 3  // lexical candidates per lesson asked for
)

// densePool is the dense channel's pool for a call returning top lessons.
func densePool(top int) int { return max(minDensePool, densePerTop*top+denseExtra) }

// lexicalPool is the lexical channel's pool for a call returning top
// lessons.
func lexicalPool(top int) int { return max(minLexicalPool, lexicalPerTop*top) }

// rankPoolTop is the top that Rank and Appraise size the candidate pools
// for: they read every candidate the pools found rather than a top, so it
// sets how many candidates that is (densePool and lexicalPool of it).
const rankPoolTop = 10

// rank embeds and searches the situation and returns every candidate with
// its fused score, best first. It is the one scoring path recall and
// appraise share.
func (k *KB) rank(ctx context.Context, sit *Situation, top int) ([]Scored, *situationInfo, error) {
	if err := k.checkStore(ctx); err != nil {
		return nil, nil, err
	}
	redactSituation(sit)
	vec, err := k.emb.Embed(ctx, DenseText(sit.embedText()))
	if err != nil {
		return nil, nil, fmt.Errorf("embed situation: %w", err)
	}
	raw := sit.queryTerms()
	qterms, dfs, repairs, err := repairTerms(ctx, k.store, raw)
	if err != nil {
		return nil, nil, err
	}
	cands, err := k.store.Search(ctx, Probe{Vector: vec, Terms: qterms, DocFreqs: dfs, Pool: densePool(top), LexicalPool: lexicalPool(top), SituationKey: sit.key(), Project: sit.Project})
	if err != nil {
		return nil, nil, fmt.Errorf("search: %w", err)
	}
	var phrased map[string]bool
	if phr, err := k.phrasingsFor(ctx, sit.Project); err != nil {
		k.log.Warn("read the rules' phrasings", "project", sit.Project, "err", err)
	} else {
		phrased = phr.lift(cands, raw, vec)
	}
	info := &situationInfo{project: sit.Project, terms: make(map[string]struct{}, len(qterms)), hasTerms: len(qterms) > 0, repairs: repairs, phrased: phrased}
	for _, t := range qterms {
		info.terms[t] = struct{}{}
	}
	var cc, tc []float64
	for _, c := range cands {
		cc = append(cc, c.Content)
		if c.HasTrigger {
			tc = append(tc, c.Trigger)
		}
	}
	info.hoodContent, info.hoodTrigger = neighbourhood(cc), neighbourhood(tc)
	now := k.now()
	ranked := make([]Scored, 0, len(cands))
	for _, c := range cands {
		if c.Lesson.State == StateArchived || !visible(ctx, c.Lesson) {
			continue
		}
		ranked = append(ranked, k.weights.score(c, info, now))
	}
	slices.SortStableFunc(ranked, func(a, b Scored) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return cmpTie(a.Lesson, b.Lesson)
	})
	return ranked, info, nil
}

// cmpTie orders lessons of the same score by what they are, not by their
// random ids, so that a ranking is the same wherever the lessons were
// imported: by source ("file#line", as text), then content, then id.
func cmpTie(a, b Lesson) int {
	if c := strings.Compare(a.Source, b.Source); c != 0 {
		return c
	}
	if c := strings.Compare(a.Content, b.Content); c != 0 {
		return c
	}
	return strings.Compare(a.ID, b.ID)
}

// choose applies recall's rules to ranked candidates: a relevance floor on
// resonance that depends on the lesson's tier (core lessons are recalled
// whenever they resonate, moderate ones only on a clear match, tentative
// and deprecated ones never), other projects only on strong matches, at
// most one pending lesson, at most top lessons; core lessons come first,
// and among lessons of about the same score a pending or agent-inferred
// lesson never outranks one the user stated.
func (k *KB) choose(ranked []Scored, top int, info *situationInfo) []Scored {
	var out []Scored
	pending := 0
	now := k.now()
	// The project's own lessons (and the rules the user stated for every
	// project) are read first: a global corpus many times larger must not
	// crowd them out of the result.
	ranked = slices.Clone(ranked)
	slices.SortStableFunc(ranked, func(a, b Scored) int { return cmpOwn(a, b, info.project) })
	for _, s := range ranked {
		r := s.Breakdown.Resonance
		floor, ok := k.weights.floorOf(s)
		if !ok {
			// Tracked, never injected; but read, so its decay (and its
			// archiving after 30 days deprecated) is brought up to date.
			if s.Lesson.decodeConf() == nil && len(k.settle(&s.Lesson, now)) > 0 {
				info.settled = append(info.settled, s.Lesson.ID)
			}
			continue
		}
		if r < floor && !covers(info, s) {
			continue
		}
		// Decay is computed from timestamps when a lesson is read: the
		// lessons about to be returned are brought up to date (and written
		// back with the trace), and looked at again.
		if err := s.Lesson.decodeConf(); err != nil {
			k.log.Warn("lesson confidence state", "lesson", s.Lesson.ID, "err", err)
			continue
		}
		if len(k.settle(&s.Lesson, now)) > 0 {
			info.settled = append(info.settled, s.Lesson.ID)
		}
		if floor, ok := k.weights.floorOf(s); !ok || r < floor && !covers(info, s) || s.Lesson.State == StateArchived {
			continue
		}
		if s.OtherProject && r < k.weights.StrongMatch {
			continue
		}
		if s.Lesson.State == StatePending {
			if pending == 1 {
				continue
			}
			pending++
		}
		out = append(out, s)
		if len(out) == top {
			break
		}
	}
	slices.SortStableFunc(out, func(a, b Scored) int { return cmpChosen(a, b, info.project, k.conf) })
	return out
}

// cmpChosen orders the lessons recall returns: core lessons first, then
// the project's own, then by confidence.Compare; exact ties go by what the
// lessons are (cmpTie), not by their random ids.
func cmpChosen(a, b Scored, project string, conf confidence.Config) int {
	ca, cb := a.Lesson.Tier == confidence.TierCore, b.Lesson.Tier == confidence.TierCore
	if ca != cb {
		if ca {
			return -1
		}
		return 1
	}
	if c := cmpOwn(a, b, project); c != 0 {
		return c
	}
	// No ids given: confidence.Compare leaves exact ties to cmpTie.
	if c := confidence.Compare(confidence.Candidate{Match: a.Score, State: a.Lesson.Conf},
		confidence.Candidate{Match: b.Score, State: b.Lesson.Conf}, conf); c != 0 {
		return c
	}
	return cmpTie(a.Lesson, b.Lesson)
}

// Coverage that lets a rule the user wrote through below its floor: the
// situation holds at least coverShare of the distinct terms of the rule's
// statement, and at least coverTerms of them.
const (
	coverShare = 0.5
	coverTerms = 2
)

// covers reports whether the situation names most of what a rule the user
// wrote for it is about: a rule of the situation's project (or the user's
// global rules) that directs, whose statement's distinct terms the
// situation holds for the most part. Resonance measures how much of the
// situation a lesson matches, so a long situation dilutes it; a short rule
// such as "Use Zod for form validation" against a paragraph about a form
// that needs validation is covered all the same.
func covers(info *situationInfo, s Scored) bool {
	l := s.Lesson
	if l.Origin == OriginUserStated && !s.OtherProject && info.phrased[l.ID] {
		return true
	}
	if l.Origin != OriginUserStated || s.OtherProject || l.Directive == nil || !l.Directive.Directs() {
		return false
	}
	statement, _, _ := strings.Cut(l.Content, "\n")
	seen := make(map[string]bool)
	held := 0
	for _, t := range terms.Tokens(statement) {
		if seen[t] {
			continue
		}
		seen[t] = true
		if _, ok := info.terms[t]; ok {
			held++
		}
	}
	return held >= coverTerms && float64(held) >= coverShare*float64(len(seen))
}

// own reports whether a lesson is the situation's own: one of its
// project's, or a rule the user stated for every project.
func own(l Lesson, project string) bool {
	if l.Project == "" {
		return l.Origin == OriginUserStated
	}
	return l.Project == project
}

// cmpOwn orders the situation's own lessons before the others.
func cmpOwn(a, b Scored, project string) int {
	oa, ob := own(a.Lesson, project), own(b.Lesson, project)
	switch {
	case oa == ob:
		return 0
	case oa:
		return -1
	}
	return 1
}

// writeTrace stores the trace of a call and counts the returned lessons as
// recalled, in one transaction.
func (k *KB) writeTrace(ctx context.Context, id, tool string, sit *Situation, req, res any, returned []Scored, settled []string) error {
	reqJSON, resJSON, err := traceJSON(req, res)
	if err != nil {
		return err
	}
	t := Trace{ID: id, Tool: tool, Session: k.session, Project: sit.Project, SituationKey: sit.key(),
		CreatedAt: k.now().UTC(), Request: reqJSON, Response: resJSON}
	for i, s := range returned {
		t.Returned = append(t.Returned, ReturnedEntry{LessonID: s.Lesson.ID, Rank: i + 1, Score: metric.Round4(s.Score)})
	}
	return k.store.Update(ctx, func(tx Tx) error {
		if err := tx.InsertTrace(ctx, t); err != nil {
			return err
		}
		if err := k.persistSettled(ctx, tx, settled); err != nil {
			return err
		}
		ids := make([]string, len(returned))
		for i, s := range returned {
			ids[i] = s.Lesson.ID
		}
		return tx.CountRecalls(ctx, ids)
	})
}

// redactSituation replaces secrets in the situation's text, so that they
// reach neither a remote embedder nor the trace log, nor what derives from
// it: the situation key (SituationKey) lower-cases the stage and a file's
// extension, which would hide a secret from the store's redaction.
func redactSituation(s *Situation) {
	s.Query, _ = sanitize.Redact(s.Query)
	s.Error, _ = sanitize.Redact(s.Error)
	s.Stage, _ = sanitize.Redact(s.Stage)
	if len(s.Files) > 0 {
		files := make([]string, len(s.Files))
		for i, f := range s.Files {
			files[i], _ = sanitize.Redact(f)
		}
		s.Files = files
	}
}

func (b Breakdown) rounded() Breakdown {
	b.Content, b.Trigger, b.Lexical = metric.Round4(b.Content), metric.Round4(b.Trigger), metric.Round4(b.Lexical)
	b.Resonance, b.Confidence, b.Context = metric.Round4(b.Resonance), metric.Round4(b.Confidence), metric.Round4(b.Context)
	b.Activation, b.Calibration, b.Penalty = metric.Round4(b.Activation), metric.Round4(b.Calibration), metric.Round4(b.Penalty)
	b.ContentCos, b.TriggerCos = metric.Round4(b.ContentCos), metric.Round4(b.TriggerCos)
	return b
}

// lessonOverheadTokens is what a returned lesson costs a token budget
// beyond its content and trigger: its id, score, breakdown, state, origin
// and why, and the JSON around them.
const lessonOverheadTokens = 16

// persistSettled writes back the decay of lessons a read found out of date,
// re-reading each inside the transaction so no concurrent write is lost.
func (k *KB) persistSettled(ctx context.Context, tx Tx, ids []string) error {
	now := k.now()
	for _, id := range ids {
		l, err := tx.Lesson(ctx, id)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return err
		}
		changes := k.settle(&l, now)
		if len(changes) == 0 {
			continue
		}
		if err := tx.AddHistory(ctx, id, changes); err != nil {
			return err
		}
		if err := tx.UpdateLesson(ctx, l); err != nil {
			return err
		}
	}
	return nil
}
