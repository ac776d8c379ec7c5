package kb

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/innate-mcp/innate-mcp/confidence"
	"github.com/innate-mcp/innate-mcp/hesitation"
	"github.com/innate-mcp/innate-mcp/sanitize"
)

// RecordRequest is the input of record: what came of an earlier call, and
// anything new to learn.
type RecordRequest struct {
	TraceID    string           `json:"trace_id,omitempty" jsonschema_description:"trace_id returned by the recall (or appraise) this feedback is about. Required with outcome, used or feedback."`
	Outcome    Outcome          `json:"outcome,omitempty" jsonschema:"enum=success,enum=failure,enum=unknown" jsonschema_description:"How the work that followed the trace turned out."`
	Used       []string         `json:"used,omitempty" jsonschema_description:"Ids of the returned lessons you actually applied. Only these receive outcome credit."`
	Feedback   []FeedbackItem   `json:"feedback,omitempty" jsonschema_description:"Explicit judgements of returned lessons."`
	Lesson     *LessonInput     `json:"lesson,omitempty" jsonschema_description:"A new lesson to learn. It starts pending until the user approves it, unless it is the user's own words: origin user_stated, not global, and its content one or more whole sentences of message, word for word (case, punctuation and spacing may differ). Then it is active at once."`
	Correction *CorrectionInput `json:"correction,omitempty" jsonschema_description:"A correction the user made of your work; it teaches hesitate what to watch for."`
	Project    string           `json:"project,omitempty" jsonschema_description:"Project the new lesson belongs to. Defaults to the current project."`
	Message    string           `json:"message,omitempty" jsonschema_description:"The user's latest message, verbatim. When it reads as a correction (\"that's wrong\", \"I told you\", \"不是有說\"…) it is recorded as one. A user_stated lesson whose content is whole sentences of it, word for word, is active at once."`
	Review     string           `json:"review,omitempty" jsonschema:"enum=confirmed,enum=rejected" jsonschema_description:"With the trace_id of a hesitate call that held or flagged an action: confirmed when holding was right, rejected when it was not."`

	// Author is who writes the record; the zero value is the agent. It is
	// never read from JSON: the command line sets AuthorPerson. See
	// trust.go for what each author can make active.
	Author Author `json:"-"`

	correctionCues []string // set when Message was read as a correction
	// VerdictHeeded and Misroute are feedback on an appraise trace.
	VerdictHeeded *bool  `json:"verdict_heeded,omitempty" jsonschema_description:"For an appraise trace: true when you changed course because of the verdict (its outcome then no longer tests it and is left out of calibration), false when you did not."`
	Misroute      string `json:"misroute,omitempty" jsonschema:"enum=missed_clarify,enum=missed_gather,enum=over_engagement,enum=under_engagement" jsonschema_description:"For an appraise trace whose route was wrong: missed_clarify (the user had to repeat or clarify), missed_gather (the user asked about earlier work), over_engagement (a long answer to a greeting or thanks), under_engagement (a brief reply where an answer was wanted)."`
}

// FeedbackItem is one explicit judgement of a lesson a trace returned.
type FeedbackItem struct {
	LessonID string `json:"lesson_id" jsonschema_description:"Id of a lesson the trace returned."`
	Signal   string `json:"signal" jsonschema:"enum=up,enum=down" jsonschema_description:"up: it helped or was right; down: it was wrong or misleading."`
	Reason   string `json:"reason,omitempty" jsonschema_description:"Why. Required for down."`
}

// LessonInput is a new lesson given to record.
type LessonInput struct {
	Content     string   `json:"content" jsonschema_description:"The lesson itself: what to do or avoid, stated so it can be applied."`
	Trigger     string   `json:"trigger,omitempty" jsonschema_description:"The situation it applies to."`
	AntiTrigger string   `json:"anti_trigger,omitempty" jsonschema_description:"When it does NOT apply."`
	Tags        []string `json:"tags,omitempty" jsonschema_description:"Free-form tags."`
	Origin      Origin   `json:"origin,omitempty" jsonschema:"enum=user_stated,enum=agent_inferred" jsonschema_description:"user_stated when the user said it (pass their message verbatim as message; the content must be whole sentences of it, word for word), agent_inferred (default) when you concluded it."`
	Kind        Kind     `json:"kind,omitempty" jsonschema:"enum=rule,enum=caution" jsonschema_description:"rule (default) or caution: something that went wrong and should be watched for."`
	Global      bool     `json:"global,omitempty" jsonschema_description:"true when the lesson applies to every project, not only the current one."`
}

// CorrectionInput is a user's correction given to record.
type CorrectionInput struct {
	Text     string   `json:"text" jsonschema_description:"What the user said when correcting you, verbatim or close to it."`
	Keywords []string `json:"keywords,omitempty" jsonschema_description:"Key terms of the mistake, if you can name them."`
	Draft    string   `json:"draft,omitempty" jsonschema_description:"The draft or action the user corrected, so hesitate can recognise a repeat."`
	Source   string   `json:"source,omitempty" jsonschema:"enum=user_correction,enum=self_review,enum=external" jsonschema_description:"Who found the mistake: user_correction (default), self_review or external (CI, a reviewer)."`
}

// Change is one thing record changed.
type Change struct {
	LessonID string `json:"lesson_id,omitempty"`
	What     string `json:"what"`
}

// Dropped is an id record ignored, with the reason.
type Dropped struct {
	LessonID string `json:"lesson_id"`
	Reason   string `json:"reason"`
}

// RecordResult is the output of record: what changed.
type RecordResult struct {
	TraceID   string    `json:"trace_id"`
	Changes   []Change  `json:"changes"`
	Dropped   []Dropped `json:"dropped,omitempty"`
	LessonID  string    `json:"lesson_id,omitempty"`
	Duplicate bool      `json:"duplicate,omitempty"`
	// NearDuplicate is true when the new lesson said the same as lesson
	// LessonID but for its numbers: it reinforced that lesson and was not
	// stored.
	NearDuplicate bool   `json:"near_duplicate,omitempty"`
	Redacted      int    `json:"redacted,omitempty"`
	PatternID     string `json:"pattern_id,omitempty"`
	// CorrectionCues are the phrases that made the message read as a correction.
	CorrectionCues []string `json:"correction_cues,omitempty"`
}

// MaxCorrectionBytes limits a correction's text.
const MaxCorrectionBytes = 16 << 10

// Record applies feedback about an earlier trace and learns new lessons and
// corrections, all in one transaction: on any error nothing is written.
// Repeating the same record changes nothing (idempotent per trace, lesson
// and signal). Errors wrapping ErrInput describe input the caller can fix;
// on a read-only knowledge base Record fails with an error wrapping
// ErrReadOnly.
func (k *KB) Record(ctx context.Context, req RecordRequest) (RecordResult, error) {
	if k.readOnly {
		return RecordResult{}, k.errReadOnly("record")
	}
	req, redacted, err := req.cleaned()
	if err != nil {
		return RecordResult{}, err
	}
	var nl *NewLesson
	var opposed []string
	var trust recordTrust
	if req.Lesson != nil {
		if err := k.checkStore(ctx); err != nil {
			return RecordResult{}, err
		}
		trust = trustLesson(req)
		l, err := k.prepareLesson(ctx, req, trust)
		if err != nil {
			return RecordResult{}, err
		}
		nl = &l
		if opposed, err = k.opposing(ctx, nl); err != nil {
			return RecordResult{}, err
		}
	}
	res := RecordResult{TraceID: newID("t_"), Changes: []Change{}, Redacted: redacted, CorrectionCues: req.correctionCues}
	now := k.now().UTC()
	err = k.store.Update(ctx, func(tx Tx) error {
		res.Changes, res.Dropped, res.LessonID, res.Duplicate, res.NearDuplicate = nil, nil, "", false, false
		if req.Review != "" {
			if err := k.applyReview(ctx, tx, req.TraceID, req.Review, now, &res); err != nil {
				return err
			}
		} else if req.TraceID != "" {
			if err := k.applyFeedback(ctx, tx, req, now, &res); err != nil {
				return err
			}
		}
		if nl != nil {
			if err := k.learn(ctx, tx, *nl, trust, opposed, now, &res); err != nil {
				return err
			}
		}
		if req.Correction != nil {
			c := Correction{TraceID: req.TraceID, Project: req.Project, Text: req.Correction.Text, Keywords: req.Correction.Keywords, Session: k.session, CreatedAt: now}
			if err := tx.InsertCorrection(ctx, c); err != nil {
				return err
			}
			res.Changes = append(res.Changes, Change{What: "correction kept"})
			if err := k.learnCorrection(ctx, tx, *req.Correction, now, &res); err != nil {
				return err
			}
		}
		if req.Message != "" && req.correctionCues == nil && req.Correction == nil {
			res.Changes = append(res.Changes, Change{What: "message not read as a correction"})
		}
		if res.Changes == nil {
			res.Changes = []Change{}
		}
		reqJSON, resJSON, err := traceJSON(req, res)
		if err != nil {
			return err
		}
		return tx.InsertTrace(ctx, Trace{ID: res.TraceID, Tool: "record", Session: k.session, Project: req.Project,
			CreatedAt: now, Request: reqJSON, Response: resJSON})
	})
	if err != nil {
		return RecordResult{}, err
	}
	return res, nil
}

// Limits of a record request beyond MaxCorrectionBytes.
const (
	// maxReasonBytes bounds the reason of one feedback item: a sentence or
	// a short paragraph.
	maxReasonBytes = 4096
	// maxCorrectionKeywords bounds the keywords of a correction: each
	// becomes a term of the error pattern hesitate matches.
	maxCorrectionKeywords = 32
)

// cleaned checks a record request and returns a cleaned copy, with how
// many secrets were redacted in it: a message that reads as a correction
// becomes the correction (with the cues that made it one), and the free
// text of the lesson and the correction is redacted. req itself, and what
// its pointers point to, are left as they were.
func (req RecordRequest) cleaned() (RecordRequest, int, error) {
	out := req
	if req.Message != "" && req.Correction == nil {
		c, cues, err := correctionOf(req.Message)
		if err != nil {
			return RecordRequest{}, 0, err
		}
		out.Correction, out.correctionCues = c, cues
	}
	if err := out.validateFeedback(); err != nil {
		return RecordRequest{}, 0, err
	}
	n := 0
	if req.Lesson != nil {
		l, redacted, err := req.Lesson.cleaned()
		if err != nil {
			return RecordRequest{}, 0, err
		}
		out.Lesson, n = &l, n+redacted
	}
	if out.Correction != nil {
		c, redacted, err := out.Correction.cleaned()
		if err != nil {
			return RecordRequest{}, 0, err
		}
		out.Correction, n = &c, n+redacted
	}
	return out, n, nil
}

// correctionOf reads the user's message: the correction it makes and the
// cues that made it read as one, or nil when it reads as none.
func correctionOf(message string) (*CorrectionInput, []string, error) {
	if len(message) > MaxCorrectionBytes {
		return nil, nil, inputErrorf("message", "is longer than %d bytes", MaxCorrectionBytes)
	}
	if ok, cues := hesitation.IsCorrection(message); ok {
		return &CorrectionInput{Text: message}, cues, nil
	}
	return nil, nil, nil
}

// validateFeedback checks that the request asks for something, and the
// parts that are feedback on a trace: review, outcome, used, feedback,
// verdict_heeded and misroute.
func (req RecordRequest) validateFeedback() error {
	if req.Outcome == "" && len(req.Used) == 0 && len(req.Feedback) == 0 && req.Lesson == nil && req.Correction == nil &&
		req.Review == "" && req.Message == "" && req.VerdictHeeded == nil && req.Misroute == "" {
		return inputErrorf("", "record needs at least one of outcome, used, feedback, lesson, correction, message, review, verdict_heeded or misroute")
	}
	if req.Review != "" {
		if req.Review != "confirmed" && req.Review != "rejected" {
			return inputErrorf("review", "is %q; use confirmed or rejected", req.Review)
		}
		if req.TraceID == "" {
			return inputErrorf("trace_id", "is required with review: pass the trace_id hesitate returned")
		}
	}
	if req.TraceID == "" && (req.Outcome != "" || len(req.Used) > 0 || len(req.Feedback) > 0 || req.VerdictHeeded != nil || req.Misroute != "") {
		return inputErrorf("trace_id", "is required with outcome, used, feedback, verdict_heeded or misroute: pass the trace_id that recall or appraise returned")
	}
	if err := validateMisroute(req.Misroute); err != nil {
		return err
	}
	switch req.Outcome {
	case "", OutcomeSuccess, OutcomeFailure, OutcomeUnknown:
	default:
		return inputErrorf("outcome", "is %q; use success, failure or unknown", req.Outcome)
	}
	if len(req.Used) > MaxTop*2 {
		return inputErrorf("used", "lists %d ids; a trace returns at most %d lessons", len(req.Used), MaxTop)
	}
	if len(req.Feedback) > MaxTop*2 {
		return inputErrorf("feedback", "has %d items; a trace returns at most %d lessons", len(req.Feedback), MaxTop)
	}
	for i, f := range req.Feedback {
		if err := f.validate(fmt.Sprintf("feedback[%d]", i)); err != nil {
			return err
		}
	}
	return nil
}

// validate checks one feedback item, named field in errors.
func (f FeedbackItem) validate(field string) error {
	switch {
	case f.LessonID == "":
		return inputErrorf(field+".lesson_id", "is empty")
	case f.Signal != "up" && f.Signal != "down":
		return inputErrorf(field+".signal", "is %q; use up or down", f.Signal)
	case f.Signal == "down" && strings.TrimSpace(f.Reason) == "":
		return inputErrorf(field+".reason", "is required with signal down: say what was wrong with the lesson")
	case len(f.Reason) > maxReasonBytes || !utf8.ValidString(f.Reason):
		return inputErrorf(field+".reason", "must be valid UTF-8 of at most %d bytes", maxReasonBytes)
	}
	return nil
}

// cleaned checks a new lesson given to record and returns a copy with
// secrets redacted in its content, trigger and anti-trigger, and how many
// were. A prompt-injection instruction in any of them is refused.
func (in LessonInput) cleaned() (LessonInput, int, error) {
	n := 0
	for _, p := range []*string{&in.Content, &in.Trigger, &in.AntiTrigger} {
		if f, bad := sanitize.Injection(*p); bad {
			return LessonInput{}, 0, inputErrorf("lesson", "carries a prompt-injection instruction (%s); lessons must describe coding practice, not instruct the model", f.Rule)
		}
		var rs []sanitize.Redaction
		*p, rs = sanitize.Redact(*p)
		n += len(rs)
	}
	if in.Origin == OriginImported {
		return LessonInput{}, 0, inputErrorf("lesson.origin", "imported is reserved for `innate-mcp import`; use user_stated or agent_inferred")
	}
	return in, n, nil
}

// cleaned checks a correction given to record and returns a copy with its
// text trimmed and secrets redacted in its text, draft and keywords, and
// how many were. A prompt-injection instruction in its text is refused.
func (c CorrectionInput) cleaned() (CorrectionInput, int, error) {
	c.Text = strings.TrimSpace(c.Text)
	switch {
	case c.Text == "":
		return CorrectionInput{}, 0, inputErrorf("correction.text", "is empty")
	case len(c.Text) > MaxCorrectionBytes || !utf8.ValidString(c.Text):
		return CorrectionInput{}, 0, inputErrorf("correction.text", "must be valid UTF-8 of at most %d bytes", MaxCorrectionBytes)
	case len(c.Keywords) > maxCorrectionKeywords:
		return CorrectionInput{}, 0, inputErrorf("correction.keywords", "has more than %d keywords", maxCorrectionKeywords)
	case len(c.Draft) > MaxContentBytes:
		return CorrectionInput{}, 0, inputErrorf("correction.draft", "is longer than %d bytes: pass the part that was corrected", MaxContentBytes)
	}
	if c.Source != "" {
		if _, err := hesitation.ParseSource(c.Source); err != nil {
			return CorrectionInput{}, 0, inputErrorf("correction.source", "is %q; use user_correction, self_review or external", c.Source)
		}
	}
	if f, bad := sanitize.Injection(c.Text); bad {
		return CorrectionInput{}, 0, inputErrorf("correction.text", "carries a prompt-injection instruction (%s)", f.Rule)
	}
	var rs []sanitize.Redaction
	n := 0
	c.Text, rs = sanitize.Redact(c.Text)
	n += len(rs)
	c.Draft, rs = sanitize.Redact(c.Draft)
	n += len(rs)
	// Keywords become the error pattern's lower-cased keywords, which
	// the store could no longer recognise as secrets.
	c.Keywords = slices.Clone(c.Keywords)
	for i := range c.Keywords {
		c.Keywords[i], rs = sanitize.Redact(c.Keywords[i])
		n += len(rs)
	}
	return c, n, nil
}

// prepareLesson validates and embeds the new lesson of a record request,
// with the origin and source trust gave it.
func (k *KB) prepareLesson(ctx context.Context, req RecordRequest, trust recordTrust) (NewLesson, error) {
	in := req.Lesson
	nl := NewLesson{Content: in.Content, Trigger: in.Trigger, AntiTrigger: in.AntiTrigger, Tags: in.Tags,
		Origin: trust.origin, Kind: in.Kind, Source: trust.source}
	if !in.Global {
		nl.Project = req.Project
	}
	if err := nl.validate(); err != nil {
		return NewLesson{}, err
	}
	if err := k.embedLessons(ctx, []*NewLesson{&nl}); err != nil {
		return NewLesson{}, err
	}
	return nl, nil
}

// applyFeedback credits outcome, use and feedback to the lessons the trace
// returned.
func (k *KB) applyFeedback(ctx context.Context, tx Tx, req RecordRequest, now time.Time, res *RecordResult) error {
	t, err := tx.Trace(ctx, req.TraceID)
	if errors.Is(err, ErrNotFound) {
		return inputErrorf("trace_id", "%q is unknown: pass a trace_id that recall or appraise returned", req.TraceID)
	}
	if err != nil {
		return err
	}
	for i, f := range req.Feedback {
		if !t.returned(f.LessonID) {
			return inputErrorf(fmt.Sprintf("feedback[%d].lesson_id", i), "%q was not returned by trace %s: feedback applies only to lessons the trace returned", f.LessonID, t.ID)
		}
	}
	ev := func(id string, kind EvidenceKind, signal, reason string) Evidence {
		return Evidence{TraceID: t.ID, LessonID: id, Kind: kind, Signal: signal, Reason: reason, Session: k.session, CreatedAt: now}
	}
	seen := map[string]bool{}
	for _, id := range req.Used {
		if seen[id] {
			continue
		}
		seen[id] = true
		if !t.returned(id) {
			res.Dropped = append(res.Dropped, Dropped{LessonID: id, Reason: "not returned by this trace: only returned lessons receive credit"})
			continue
		}
		prev, err := tx.PutEvidence(ctx, ev(id, EvidenceUsed, "used", ""))
		if err != nil {
			return err
		}
		if prev == "" {
			if err := k.updateLesson(ctx, tx, id, res, "marked used", now, func(l *Lesson) (string, error) {
				l.Counters.Uses++
				l.LastUsedAt = &now
				return "", nil
			}); err != nil {
				return err
			}
		}
	}
	if req.Outcome != "" && req.Outcome != t.Outcome {
		if err := tx.SetTraceOutcome(ctx, t.ID, req.Outcome); err != nil {
			return err
		}
		res.Changes = append(res.Changes, Change{What: fmt.Sprintf("trace %s outcome %s", t.ID, req.Outcome)})
		t.Outcome = req.Outcome
	}
	if t.Outcome != "" {
		if err := k.creditOutcome(ctx, tx, t, now, res); err != nil {
			return err
		}
	}
	if err := k.backfillAppraisal(ctx, tx, req, t, now, res); err != nil {
		return err
	}
	for _, f := range req.Feedback {
		prev, err := tx.PutEvidence(ctx, ev(f.LessonID, EvidenceFeedback, f.Signal, f.Reason))
		if err != nil {
			return err
		}
		if prev == f.Signal {
			continue
		}
		err = k.updateLesson(ctx, tx, f.LessonID, res, "feedback "+f.Signal, now, func(l *Lesson) (string, error) {
			moveCount(&l.Counters.Approvals, &l.Counters.Rejects, prev, "up", "down", -1)
			moveCount(&l.Counters.Approvals, &l.Counters.Rejects, f.Signal, "up", "down", +1)
			if prev != "" {
				if err := k.revise(ctx, tx, l, prev, f.Signal, now); err != nil {
					return "", err
				}
			}
			kind := confidence.KindUserApproved
			if f.Signal == "down" {
				kind = confidence.KindUserRejected
			}
			return k.apply(ctx, tx, l, confidence.Event{Kind: kind, At: now, Session: k.session, Note: f.Reason})
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// creditOutcome gives the trace's outcome to every lesson marked used on it,
// once; a changed outcome moves the earlier credit.
func (k *KB) creditOutcome(ctx context.Context, tx Tx, t Trace, now time.Time, res *RecordResult) error {
	evs, err := tx.Evidence(ctx, t.ID)
	if err != nil {
		return err
	}
	signal := string(t.Outcome)
	for _, e := range evs {
		if e.Kind != EvidenceUsed {
			continue
		}
		prev, err := tx.PutEvidence(ctx, Evidence{TraceID: t.ID, LessonID: e.LessonID, Kind: EvidenceOutcome, Signal: signal, Session: k.session, CreatedAt: now})
		if err != nil {
			return err
		}
		if prev == signal {
			continue
		}
		ds, df := outcomeDelta(prev, -1)
		as, af := outcomeDelta(signal, +1)
		if err := tx.AddContextOutcome(ctx, e.LessonID, t.SituationKey, ds+as, df+af); err != nil {
			return err
		}
		err = k.updateLesson(ctx, tx, e.LessonID, res, "outcome "+signal, now, func(l *Lesson) (string, error) {
			l.Counters.Successes += ds + as
			l.Counters.Failures += df + af
			if prev != "" {
				if err := k.revise(ctx, tx, l, prev, signal, now); err != nil {
					return "", err
				}
			}
			return k.apply(ctx, tx, l, confidence.Event{Kind: outcomeKind(Outcome(signal)), At: now, Session: k.session})
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// outcomeDelta converts an outcome signal into success and failure counts.
func outcomeDelta(signal string, sign int) (successes, failures int) {
	switch Outcome(signal) {
	case OutcomeSuccess:
		return sign, 0
	case OutcomeFailure:
		return 0, sign
	}
	return 0, 0
}

// moveCount adds delta to a or b depending on which value signal names.
func moveCount(a, b *int, signal, aName, bName string, delta int) {
	switch signal {
	case aName:
		*a += delta
	case bName:
		*b += delta
	}
}

// updateLesson reads a lesson, brings its decay up to date, changes it
// (change may apply confidence events and returns a note on them), and
// writes it back, noting what changed.
func (k *KB) updateLesson(ctx context.Context, tx Tx, id string, res *RecordResult, what string, now time.Time, change func(*Lesson) (string, error)) error {
	l, err := tx.Lesson(ctx, id)
	if errors.Is(err, ErrNotFound) {
		res.Dropped = append(res.Dropped, Dropped{LessonID: id, Reason: "lesson no longer exists"})
		return nil
	}
	if err != nil {
		return err
	}
	if err := tx.AddHistory(ctx, id, k.settle(&l, now)); err != nil {
		return err
	}
	stateBefore := l.State
	note, err := change(&l)
	if err != nil {
		return err
	}
	if err := tx.UpdateLesson(ctx, l); err != nil {
		return err
	}
	if note != "" {
		what += "; " + note
	}
	if stateBefore == StatePending && l.State == StateActive {
		what += "; confirmed, now active"
	}
	res.Changes = append(res.Changes, Change{LessonID: id, What: what})
	return nil
}

// learn adds a new lesson, or counts a repeat of an existing one: an exact
// duplicate, or a near-duplicate (see reinforce). A claim of the lesson's
// origin that trust did not take is noted in the result.
func (k *KB) learn(ctx context.Context, tx Tx, nl NewLesson, trust recordTrust, opposed []string, now time.Time, res *RecordResult) error {
	if err := k.learnLesson(ctx, tx, nl, trust, opposed, now, res); err != nil {
		return err
	}
	if trust.note != "" {
		res.Changes = append(res.Changes, Change{LessonID: res.LessonID, What: trust.note})
	}
	return nil
}

// learnLesson is learn without the note.
func (k *KB) learnLesson(ctx context.Context, tx Tx, nl NewLesson, trust recordTrust, opposed []string, now time.Time, res *RecordResult) error {
	existing, err := sameLesson(ctx, tx, nl.Content, nl.Trigger, nl.Project)
	switch {
	case err == nil:
		res.LessonID, res.Duplicate = existing.ID, true
		return k.updateLesson(ctx, tx, existing.ID, res, "stated again", now, func(l *Lesson) (string, error) {
			l.Counters.Observed++
			kind := confidence.KindObserved
			if nl.Origin == OriginUserStated && l.Origin != OriginUserStated && (trust.person || l.Project != "" && l.Project == nl.Project) {
				// The user stating what the agent guessed is an explicit
				// approval; quoted by the agent, only of a lesson of the
				// same project (a global one needs a person).
				l.Origin = OriginUserStated
				kind = confidence.KindStrongApproved
			}
			return k.apply(ctx, tx, l, confidence.Event{Kind: kind, At: now, Session: k.session})
		})
	case !errors.Is(err, ErrNotFound):
		return err
	}
	if near, ok, err := nearDuplicate(ctx, tx, nl); err != nil {
		return err
	} else if ok {
		res.LessonID, res.NearDuplicate = near.ID, true
		return k.reinforce(ctx, tx, near.ID, now, res)
	}
	k.initConfidence(&nl, now)
	nl.deriveDirective()
	l, err := tx.InsertLesson(ctx, nl, now)
	if err != nil {
		return err
	}
	res.LessonID = l.ID
	res.Changes = append(res.Changes, Change{LessonID: l.ID, What: fmt.Sprintf("new %s lesson, %s, confidence %.3f (%s)", l.Origin, l.State, l.Confidence, l.Tier)})
	return k.resolveContradictions(ctx, tx, l.ID, opposed, now, &res.Changes)
}
