package kb

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/innate-mcp/innate-mcp/hesitation"
	"github.com/innate-mcp/innate-mcp/sanitize"
)

// HesitateRequest is the input of hesitate: a draft the agent is about to
// act on, the actions it intends, and what backs the draft.
type HesitateRequest struct {
	Draft       string   `json:"draft" jsonschema_description:"The draft reply, plan or lesson you are about to act on. Required."`
	Actions     []string `json:"actions,omitempty" jsonschema_description:"What you intend to do with it: reply (default), question, record_lesson, task, commit, push, delete, deploy, migrate, other."`
	Query       string   `json:"query,omitempty" jsonschema_description:"The user's request the draft answers."`
	ToolOutputs []string `json:"tool_outputs,omitempty" jsonschema_description:"Outputs of tools or commands run for this draft (test runs, greps, fetched docs): they back claims."`
	TestsRun    bool     `json:"tests_run,omitempty" jsonschema_description:"true when the test suite ran after the last change."`
	Sources     []string `json:"sources,omitempty" jsonschema_description:"Sources the draft cites (URLs, documents, recalled lessons)."`
	Files       []string `json:"files,omitempty" jsonschema_description:"Files read for this draft."`
}

// HesitateResult is the output of hesitate.
type HesitateResult struct {
	TraceID string `json:"trace_id"`
	hesitation.Result
	Disabled bool `json:"disabled,omitempty"`
}

// Limits on hesitate input besides the draft size of hesitation.Config.
const (
	maxHesitateList  = 64
	maxHesitateBytes = 1 << 20 // all tool outputs, sources and files together
)

// Hesitate checks a draft before the agent acts on it: a deterministic
// score, the signals behind it, what to do per intended action, and the
// learned error patterns it repeats. The call is logged for review (not on
// a read-only knowledge base). The draft and the situation are checked with
// their secrets redacted: signals quote placeholders, never a secret, and
// their spans point into the draft as given. Errors wrapping ErrInput
// describe input the caller can fix.
func (k *KB) Hesitate(ctx context.Context, req HesitateRequest) (HesitateResult, error) {
	cfg := k.HesitationConfig()
	if strings.TrimSpace(req.Draft) == "" {
		return HesitateResult{}, inputErrorf("draft", "is empty: pass the reply or plan you are about to act on")
	}
	if len(req.Draft) > cfg.MaxDraftBytes {
		return HesitateResult{}, inputErrorf("draft", "is %d bytes; the limit is %d: check the part you are about to act on", len(req.Draft), cfg.MaxDraftBytes)
	}
	if len(req.Actions) > maxHesitateList || len(req.ToolOutputs) > maxHesitateList || len(req.Sources) > maxHesitateList || len(req.Files) > maxHesitateList {
		return HesitateResult{}, inputErrorf("", "actions, tool_outputs, sources and files take at most %d items each", maxHesitateList)
	}
	if n := listBytes(req.ToolOutputs) + listBytes(req.Sources) + listBytes(req.Files) + len(req.Query); n > maxHesitateBytes {
		return HesitateResult{}, inputErrorf("tool_outputs", "query, tool outputs, sources and files hold %d bytes; the limit is %d: pass the relevant excerpts", n, maxHesitateBytes)
	}
	actions := make([]hesitation.Action, 0, len(req.Actions))
	for i, a := range req.Actions {
		act, err := hesitation.ParseAction(a)
		if err != nil {
			return HesitateResult{}, inputErrorf(fmt.Sprintf("actions[%d]", i), "%q is not an action: use reply, question, record_lesson, task, commit, push, delete, deploy, migrate or other", a)
		}
		actions = append(actions, act)
	}
	now := k.now().UTC()
	patterns, err := k.livePatterns(ctx, now)
	if err != nil {
		return HesitateResult{}, err
	}
	// The draft and the situation are checked redacted: signals quote
	// pieces of them (an identifier, a value) without the name that marks a
	// secret as one, which no later redaction could recognise. Spans are
	// mapped back to the draft as given.
	logged := req
	var rs []sanitize.Redaction
	logged.Draft, rs = sanitize.Redact(req.Draft)
	logged.Query, _ = sanitize.Redact(req.Query)
	logged.ToolOutputs, logged.Sources, logged.Files = redactAll(req.ToolOutputs), redactAll(req.Sources), redactAll(req.Files)
	cfg.MaxDraftBytes = max(cfg.MaxDraftBytes, len(logged.Draft)) // placeholders may be longer than secrets
	sit := hesitation.Situation{Query: logged.Query, ToolOutputs: logged.ToolOutputs, TestsRun: req.TestsRun,
		Sources: logged.Sources, Files: logged.Files, Now: now}
	res, err := hesitation.Check(logged.Draft, actions, sit, patterns, cfg)
	if errors.Is(err, hesitation.ErrDraftTooLarge) {
		return HesitateResult{}, inputErrorf("draft", "is too large: %v", err)
	}
	if err != nil {
		return HesitateResult{}, fmt.Errorf("hesitate: %w", err)
	}
	for i := range res.Signals {
		sp := &res.Signals[i].Span
		sp.Start, sp.End = unredactedOffset(rs, sp.Start, false), unredactedOffset(rs, sp.End, true)
	}
	out := HesitateResult{TraceID: newID("t_"), Result: res, Disabled: !cfg.Enabled}
	held := false
	for _, s := range res.Plan {
		held = held || s.Behaviour == hesitation.Hold || s.Behaviour == hesitation.NeedsReview
	}
	if k.readOnly {
		return out, nil // nothing logged
	}
	reqJSON, resJSON, err := traceJSON(logged, out)
	if err != nil {
		return HesitateResult{}, err
	}
	err = k.store.Update(ctx, func(tx Tx) error {
		if err := tx.InsertTrace(ctx, Trace{ID: out.TraceID, Tool: "hesitate", Session: k.session, CreatedAt: now,
			Request: reqJSON, Response: resJSON}); err != nil {
			return err
		}
		if err := tx.LogHesitation(ctx, HesitationEntry{TraceID: out.TraceID, CreatedAt: now, Result: res, Held: held, Actions: actions}); err != nil {
			return err
		}
		for _, id := range res.MatchedPatterns {
			for _, p := range patterns {
				if p.ID == id {
					if err := tx.PutPattern(ctx, hesitation.Triggered(p, now)); err != nil {
						return err
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		return HesitateResult{}, err
	}
	return out, nil
}

// livePatterns returns the error patterns that have not decayed away.
func (k *KB) livePatterns(ctx context.Context, now time.Time) ([]hesitation.Pattern, error) {
	cfg := k.HesitationConfig()
	all, err := k.store.ErrorPatterns(ctx)
	if err != nil {
		return nil, fmt.Errorf("read error patterns: %w", err)
	}
	live := all[:0]
	for _, p := range all {
		if !hesitation.Expired(p, now, cfg) {
			live = append(live, p)
		}
	}
	return live, nil
}

// HesitationEntry is one hesitate call in the audit log.
type HesitationEntry struct {
	TraceID   string
	CreatedAt time.Time
	Result    hesitation.Result
	Held      bool // some action was held or marked for review
	Actions   []hesitation.Action
}

// learnCorrection turns a correction into an error pattern: a new one, or
// a strengthened similar one. A correction whose text yields no keywords is
// kept without a pattern.
func (k *KB) learnCorrection(ctx context.Context, tx Tx, c CorrectionInput, now time.Time, res *RecordResult) error {
	src := hesitation.Source(c.Source)
	if src == "" {
		src = hesitation.SourceUserCorrection
	}
	text := c.Text
	if len(c.Keywords) > 0 {
		text = strings.Join(c.Keywords, " ") + "\n" + c.Text
	}
	p, err := hesitation.NewPattern(text, c.Draft, src, now)
	if errors.Is(err, hesitation.ErrNoKeywords) {
		res.Changes = append(res.Changes, Change{What: "correction kept; it has no distinctive keywords to watch for"})
		return nil
	}
	if err != nil {
		return inputErrorf("correction", "%v", err)
	}
	existing, err := tx.ErrorPatterns(ctx)
	if err != nil {
		return err
	}
	if i, ok := hesitation.FindSimilar(existing, p.Keywords); ok {
		p = hesitation.Strengthen(existing[i], now)
		res.Changes = append(res.Changes, Change{What: fmt.Sprintf("error pattern %s strengthened (%d corrections): %s",
			p.ID, p.Corrections, strings.Join(p.Keywords, ", "))})
	} else {
		res.Changes = append(res.Changes, Change{What: fmt.Sprintf("new error pattern %s: %s", p.ID, strings.Join(p.Keywords, ", "))})
	}
	res.PatternID = p.ID
	return tx.PutPattern(ctx, p)
}

// applyReview records whether a held hesitate item was rightly held.
func (k *KB) applyReview(ctx context.Context, tx Tx, traceID, verdict string, now time.Time, res *RecordResult) error {
	t, err := tx.Trace(ctx, traceID)
	if errors.Is(err, ErrNotFound) {
		return inputErrorf("trace_id", "%q is unknown: pass the trace_id hesitate returned", traceID)
	}
	if err != nil {
		return err
	}
	if t.Tool != "hesitate" {
		return inputErrorf("review", "applies to a hesitate trace; %s is a %s trace", traceID, t.Tool)
	}
	if err := tx.ReviewHesitation(ctx, traceID, verdict, now); err != nil {
		return err
	}
	res.Changes = append(res.Changes, Change{What: fmt.Sprintf("hesitation %s reviewed: %s", traceID, verdict)})
	return nil
}

// redactAll returns the texts with their secrets redacted.
func redactAll(texts []string) []string {
	if texts == nil {
		return nil
	}
	out := make([]string, len(texts))
	for i, t := range texts {
		out[i], _ = sanitize.Redact(t)
	}
	return out
}

// unredactedOffset maps a byte offset in a text redacted with rs (in input
// order) to the text before redaction. An offset inside a placeholder maps
// to the start of the secret it replaced, or to its end for the end of a
// span.
func unredactedOffset(rs []sanitize.Redaction, off int, end bool) int {
	shift := 0 // offset before redaction minus offset after, so far
	for _, r := range rs {
		start := r.Start - shift // of the placeholder
		stop := start + len(sanitize.Placeholder(r.Kind))
		if off < start {
			break
		}
		if off < stop {
			if end && off > start {
				return r.End
			}
			return r.Start
		}
		shift = r.End - stop
	}
	return off + shift
}

func listBytes(l []string) int {
	n := 0
	for _, s := range l {
		n += len(s)
	}
	return n
}
