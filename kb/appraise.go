package kb

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/innate-mcp/innate-mcp/appraise"
	"github.com/innate-mcp/innate-mcp/internal/metric"
	"github.com/innate-mcp/innate-mcp/route"
	"github.com/innate-mcp/innate-mcp/sanitize"
)

// AppraiseRequest is the input of appraise: the recall situation, the
// candidate under judgement and the user's latest message. Plain data.
type AppraiseRequest struct {
	Query   string   `json:"query,omitempty" jsonschema_description:"The situation: what you are about to do, or the question at hand. Required unless message is given (it then defaults to the message)."`
	Error   string   `json:"error,omitempty" jsonschema_description:"An error message or failing test output you are facing, if any."`
	Files   []string `json:"files,omitempty" jsonschema_description:"Paths of the files involved."`
	Stage   string   `json:"stage,omitempty" jsonschema_description:"Stage of the work, e.g. plan, edit, debug, test, review, commit."`
	Project string   `json:"project,omitempty" jsonschema_description:"Project identifier (a repository root path or name). Defaults to the client's workspace root or the server's git root."`
	// Candidate is the draft under judgement; it is sanitised, folded into
	// the resonance query and never echoed back.
	Candidate string `json:"candidate,omitempty" jsonschema_description:"The draft answer or plan under judgement. Optional. It is never echoed back."`
	Message   string `json:"message,omitempty" jsonschema_description:"The user's latest message, verbatim, for the engagement route. Optional; the route reads the query when it is absent."`
	Session   string `json:"session,omitempty" jsonschema_description:"An id of the conversation: a point already raised in it is raised again only after a cooldown. Defaults to the server's session."`
	Mode      string `json:"mode,omitempty" jsonschema:"enum=focus,enum=brainstorm,enum=quiet" jsonschema_description:"How readily flagged points are raised: focus (default), brainstorm (more readily), quiet (only when an anti-trigger matches)."`
}

// Situation returns the request's situation. It is safe for concurrent use.
func (r AppraiseRequest) Situation() Situation {
	return Situation{Query: r.Query, Error: r.Error, Files: r.Files, Stage: r.Stage, Project: r.Project}
}

// AppraiseResult is the output of appraise: the verdict (package appraise,
// fields inlined in JSON) and the engagement route. Plain data, safe to
// read concurrently.
type AppraiseResult struct {
	appraise.Verdict
	Route RouteAdvice `json:"route" jsonschema_description:"What to do with the user's message next, from the router: a suggestion, not an order."`
}

// RouteAdvice is the engagement router's decision as the agent sees it;
// the routing log keeps the full route.Decision. Plain data.
type RouteAdvice struct {
	Mode       route.Mode             `json:"mode" jsonschema:"enum=respond,enum=clarify,enum=gather,enum=acknowledge,enum=ignore" jsonschema_description:"respond: answer; clarify: ask first; gather: look things up first (recall more, read the code, run the tests); acknowledge: a brief social reply; ignore: nothing to answer."`
	Scores     map[route.Mode]float64 `json:"scores" jsonschema_description:"Every mode's score."`
	Confidence float64                `json:"confidence" jsonschema_description:"Router confidence: (top − second) / |top|, in [0,1]."`
	Margin     float64                `json:"margin" jsonschema_description:"Score gap between mode and runner_up."`
	Ambiguous  bool                   `json:"ambiguous" jsonschema_description:"true when the top two modes are within the tie margin: you decide between mode and runner_up."`
	RunnerUp   route.Mode             `json:"runner_up,omitempty" jsonschema_description:"The second-best mode."`
}

// MaxSessionBytes limits an appraise session id (a constant).
const MaxSessionBytes = 128

// calibrationCache holds the calibration fitted from the verdict log at a
// revision; it is refitted only when the revision changes.
type calibrationCache struct {
	mu  sync.Mutex
	ok  bool
	rev int64
	cal appraise.Calibration
}

// Appraise judges a situation and, optionally, a candidate: it folds the
// candidate into the situation, scores the lessons on recall's one scoring
// path, re-reads the scores as a verdict (package appraise) with the
// session's hand-raise history and the calibration fitted from the verdict
// log, routes the user's message, and logs the verdict, its flagged and
// skipped points and the routing decision in one short transaction (a
// read-only knowledge base logs nothing). A candidate carrying a
// prompt-injection instruction is neutralised (judged as if absent);
// secrets in it are redacted before it is embedded or logged. Errors
// wrapping ErrInput describe input the caller can fix. Appraise is safe for
// concurrent use.
func (k *KB) Appraise(ctx context.Context, req AppraiseRequest) (AppraiseResult, error) {
	req, mode, err := k.cleanAppraise(req)
	if err != nil {
		return AppraiseResult{}, err
	}
	sit := req.Situation()
	if err := sit.validate(); err != nil {
		return AppraiseResult{}, err
	}
	probe := sit
	if req.Candidate != "" {
		probe.Query = sit.Query + "\n" + req.Candidate
	}
	// The session's state and the calibration are read while the lessons
	// are scored: the two reads are independent.
	type stateResult struct {
		state AppraiseState
		cal   appraise.Calibration
		err   error
	}
	stc := make(chan stateResult, 1)
	go func() {
		var r stateResult
		r.state, r.err = k.store.AppraiseState(ctx, req.Session, appraise.HistoryWindow)
		if r.err != nil {
			r.err = fmt.Errorf("read appraise state: %w", r.err)
		} else {
			r.cal, r.err = k.calibration(ctx, r.state.CalibrationRev)
		}
		stc <- r
	}()
	ranked, _, err := k.rank(ctx, &probe, rankPoolTop)
	sr := <-stc
	if err != nil {
		return AppraiseResult{}, err
	}
	if sr.err != nil {
		return AppraiseResult{}, sr.err
	}
	state, cal := sr.state, sr.cal
	redactSituation(&sit)
	notRule := k.notRulesOf(ctx, sit.Project)
	breaches, outright := k.planBreaches(ctx, sit.Project, req.Candidate, sit.Query+"\n"+strings.Join(sit.Files, "\n"), notRule)
	res := appraise.Appraise(appraise.Input{Lessons: k.appraiseLessons(ranked, sit.Project, notRule), Candidate: req.Candidate, Mode: mode,
		Situation: sit.Query + "\n" + strings.Join(sit.Files, "\n"), History: history(state.Recent), Calibration: cal, Patterns: &k.patterns,
		Breaches: breaches, Outright: outright}, k.AppraiseConfig())
	res.Verdict.TraceID = newID("t_")

	warmth := route.Warmth{ResonatingLessons: res.Resonating, TopResonance: res.TopResonance,
		MeanConfidence: res.MeanConfidence, SessionTraces: state.SessionTraces}
	routed := req.Message
	if routed == "" {
		routed = sit.Query
	}
	start := time.Now()
	dec := route.Route(route.Input{Message: routed, Warmth: warmth, Prev: state.Route}, k.RouteWeights())
	elapsed := time.Since(start)

	out := AppraiseResult{Verdict: res.Verdict, Route: RouteAdvice{Mode: dec.Mode, Scores: roundScores(dec.Scores),
		Confidence: metric.Round4(dec.Confidence), Margin: metric.Round4(dec.Margin), Ambiguous: dec.Ambiguous, RunnerUp: dec.RunnerUp}}
	req.Query, req.Error, req.Files, req.Stage = sit.Query, sit.Error, sit.Files, sit.Stage // redacted
	if k.readOnly {
		return out, nil // nothing logged
	}
	if err := k.logAppraisal(ctx, req, out, res, warmth, dec, elapsed); err != nil {
		return AppraiseResult{}, err
	}
	return out, nil
}

// cleanAppraise checks the fields appraise adds to a situation and returns
// a cleaned copy of req, with its mode parsed: the candidate trimmed,
// neutralised when it carries a prompt-injection instruction, and redacted;
// the message trimmed and redacted; the query defaulted to the message, the
// session to the KB's and the mode to focus. The situation's own fields are
// checked by Situation.validate.
func (k *KB) cleanAppraise(req AppraiseRequest) (AppraiseRequest, appraise.Mode, error) {
	mode, err := appraise.ParseMode(req.Mode)
	if err != nil {
		return AppraiseRequest{}, "", inputErrorf("mode", "is %q; use focus, brainstorm or quiet", req.Mode)
	}
	for _, f := range []struct{ name, v string }{{"candidate", req.Candidate}, {"message", req.Message}} {
		if len(f.v) > MaxQueryBytes {
			return AppraiseRequest{}, "", inputErrorf(f.name, "is %d bytes; the limit is %d: pass the essential part", len(f.v), MaxQueryBytes)
		}
		if !utf8.ValidString(f.v) {
			return AppraiseRequest{}, "", inputErrorf(f.name, "is not valid UTF-8")
		}
	}
	if len(req.Session) > MaxSessionBytes || !utf8.ValidString(req.Session) {
		return AppraiseRequest{}, "", inputErrorf("session", "must be valid UTF-8 of at most %d bytes", MaxSessionBytes)
	}
	out := req
	out.Mode = string(mode)
	out.Message, _ = sanitize.Redact(strings.TrimSpace(req.Message))
	if strings.TrimSpace(req.Query) == "" && out.Message != "" {
		out.Query = out.Message
	}
	candidate := strings.TrimSpace(req.Candidate)
	if f, bad := sanitize.Injection(candidate); bad {
		k.log.Warn("appraise candidate neutralised: prompt-injection instruction", "rule", f.Rule)
		candidate = ""
	}
	out.Candidate, _ = sanitize.Redact(candidate)
	if out.Session == "" {
		out.Session = k.session
	}
	return out, mode, nil
}

// appraiseLessons converts scored candidates for package appraise, applying
// recall's project rule: another project's lesson counts only on a strong
// match. notRule holds the lessons a consultant read as no rule.
func (k *KB) appraiseLessons(ranked []Scored, project string, notRule map[string]bool) []appraise.Lesson {
	out := make([]appraise.Lesson, 0, len(ranked))
	for _, s := range ranked {
		own := own(s.Lesson, project)
		b := s.Breakdown
		if s.OtherProject && b.Resonance < k.weights.StrongMatch {
			continue
		}
		l := s.Lesson
		out = append(out, appraise.Lesson{
			ID: l.ID, Content: l.Content, Trigger: l.Trigger, AntiTrigger: l.AntiTrigger,
			Caution: l.Kind == KindCaution, Origin: l.Origin,
			Score: s.Score, Resonance: b.Resonance, Calibration: b.Calibration,
			Lexical: b.Lexical, HasTrigger: s.HasTrigger, TriggerCos: b.TriggerCos,
			AntiTriggerHit: b.AntiTrigger, Confidence: l.Confidence, Context: b.Context,
			Successes: l.Counters.Successes, Failures: l.Counters.Failures,
			Approvals: l.Counters.Approvals, Rejects: l.Counters.Rejects, Directive: l.Directive, Own: own,
			NotRule: notRule[l.ID],
		})
	}
	return out
}

// history turns a session's recent appraisals (newest first) into the
// hand-raise history.
func history(recent []RecentAppraisal) appraise.History {
	h := appraise.History{Calls: len(recent), Raised: map[string][]int{}}
	for i, r := range recent {
		for _, id := range r.Raised {
			h.Raised[id] = append(h.Raised[id], i+1)
		}
	}
	return h
}

// calibration returns the calibration fitted from the verdict log, refitting
// it when the log's revision has changed.
func (k *KB) calibration(ctx context.Context, rev int64) (appraise.Calibration, error) {
	k.cal.mu.Lock()
	defer k.cal.mu.Unlock()
	if k.cal.ok && k.cal.rev == rev {
		return k.cal.cal, nil
	}
	pts, err := k.store.CalibrationPoints(ctx)
	if err != nil {
		return appraise.Calibration{}, fmt.Errorf("read calibration points: %w", err)
	}
	c := k.AppraiseConfig()
	k.cal.cal = appraise.Fit(pts, int(c.CalibrationMinBin), int(c.CalibrationMinPoints))
	k.cal.rev, k.cal.ok = rev, true
	return k.cal.cal, nil
}

// Calibration returns the strength-to-confidence map appraise uses now,
// fitted from the verdict log (the identity until enough outcomes are
// recorded). It returns an error when the verdict log cannot be read. It is
// safe for concurrent use.
func (k *KB) Calibration(ctx context.Context) (appraise.Calibration, error) {
	st, err := k.store.AppraiseState(ctx, k.session, 0)
	if err != nil {
		return appraise.Calibration{}, err
	}
	return k.calibration(ctx, st.CalibrationRev)
}

// AppraiseConfig returns the critic's configuration. It is safe for
// concurrent use.
func (k *KB) AppraiseConfig() appraise.Config { return *k.appraiseCfg.Load() }

// logAppraisal writes the appraisal's trace, verdict log row (with raised
// and skipped points) and routing log row in one transaction.
func (k *KB) logAppraisal(ctx context.Context, req AppraiseRequest, out AppraiseResult, res appraise.Result,
	warmth route.Warmth, dec route.Decision, elapsed time.Duration) error {
	reqJSON, resJSON, err := traceJSON(req, out)
	if err != nil {
		return err
	}
	now := k.now().UTC()
	sit := req.Situation()
	t := Trace{ID: out.TraceID, Tool: "appraise", Session: req.Session, Project: req.Project, SituationKey: sit.key(),
		CreatedAt: now, Request: reqJSON, Response: resJSON}
	for i, c := range out.Contributors {
		t.Returned = append(t.Returned, ReturnedEntry{LessonID: c.LessonID, Rank: i + 1, Score: c.Strength})
	}
	v := out.Verdict
	vr := VerdictRecord{TraceID: v.TraceID, Session: req.Session, CreatedAt: now, Mode: appraise.Mode(req.Mode),
		HasCandidate: res.HasCandidate, Support: metric.Round4(res.Support), Valence: v.Valence, Directional: res.Directional,
		Strength: v.Strength, Confidence: v.Confidence, Dispersion: v.Dispersion, Band: v.Band,
		Abstained: v.Abstained, AbstainReason: v.AbstainReason, Evidence: metric.Round4(res.Evidence),
		Agreement: metric.Round4(res.Agreement), Resonating: res.Resonating, TopResonance: metric.Round4(res.TopResonance),
		Contributors: v.Contributors, Raises: res.Raises}
	rr := RoutingRecord{TraceID: v.TraceID, Session: req.Session, CreatedAt: now, Warmth: warmth, Decision: dec,
		Weights: k.RouteWeights().Params(), Elapsed: elapsed}
	return k.store.Update(ctx, func(tx Tx) error {
		if err := tx.InsertTrace(ctx, t); err != nil {
			return err
		}
		if err := tx.InsertVerdict(ctx, vr); err != nil {
			return err
		}
		return tx.InsertRouting(ctx, rr)
	})
}

func roundScores(m map[route.Mode]float64) map[route.Mode]float64 {
	out := make(map[route.Mode]float64, len(m))
	for k, v := range m {
		out[k] = metric.Round4(v)
	}
	return out
}
