package hesitation

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"sort"
)

// ErrDraftTooLarge is returned (wrapped) by Check for a draft longer than
// Config.MaxDraftBytes.
var ErrDraftTooLarge = errors.New("draft too large")

// Result is the outcome of Check.
type Result struct {
	// Score is the hesitation score, 0 (sure) to 100 (do not act): the sum
	// of the signal weights, rounded and capped.
	Score int `json:"score"`
	// Confident is Score < Threshold.
	Confident bool `json:"confident"`
	// Threshold is the score from which some action stops simply
	// proceeding: Config.HedgeThreshold.
	Threshold int `json:"threshold"`
	// Signals are the reasons, heaviest first.
	Signals []Signal `json:"signals"`
	// Plan holds one step per intended action, in input order.
	Plan []Step `json:"plan"`
	// Reflection is one sentence for the agent's next step; empty when no
	// signal fired.
	Reflection string `json:"reflection"`
	// MatchedPatterns are the IDs of the error patterns the draft matched,
	// strongest first; the caller records them with Triggered.
	MatchedPatterns []string `json:"matched_patterns"`
}

// Check scores a draft before the agent acts on it. actions are what the
// agent intends to do (an empty list means a single reply); sit is the
// evidence at hand; patterns are learned error patterns. It is a pure,
// deterministic function with no I/O, safe for concurrent use.
//
// It returns an error wrapping ErrInvalidConfig for a bad cfg,
// ErrUnknownAction for an action that is not one of the Action constants,
// or ErrDraftTooLarge for a draft over cfg.MaxDraftBytes. With
// cfg.Enabled false it returns score 0 and proceed for every action.
func Check(draft string, actions []Action, sit Situation, patterns []Pattern, cfg Config) (Result, error) {
	if err := cfg.Validate(); err != nil {
		return Result{}, fmt.Errorf("check: %w", err)
	}
	if len(draft) > cfg.MaxDraftBytes {
		return Result{}, fmt.Errorf("check: %w: %d bytes, limit %d", ErrDraftTooLarge, len(draft), cfg.MaxDraftBytes)
	}
	if len(actions) == 0 {
		actions = []Action{ActionReply}
	}
	reply := false
	for _, a := range actions {
		if !isCanonical(a) {
			return Result{}, fmt.Errorf("check: %w %q", ErrUnknownAction, string(a))
		}
		reply = reply || a == ActionReply
	}
	res := Result{Threshold: cfg.HedgeThreshold, Signals: []Signal{}, MatchedPatterns: []string{}}
	if !cfg.Enabled {
		res.Confident = true
		res.Plan = planFor(actions, 0, cfg)
		return res, nil
	}

	sc := scanText(draft)
	q := scanText(sit.Query)
	in := &detectInput{draft: draft, sc: sc, sents: sentences(sc.folded), sit: sit, cfg: cfg, reply: reply, creative: q.has(catCreative)}
	in.tokens = draftTokens(draft, sc.folded, newKeyFilter(patterns, len(draft)), specTallier(in, &in.specs))
	var sigs []*Signal
	sigs = append(sigs, absoluteClaims(in), unsupportedSpecifics(in), noHedge(in), overconfidence(in),
		unverifiedSuccess(in), capabilityGap(in), unseenReference(in, q))
	pat, ids := errorPatterns(in, patterns)
	if pat != nil {
		pat.Span = firstKeyword(sc.folded, patterns, ids[0])
		sigs = append(sigs, pat)
		res.MatchedPatterns = ids
	}
	total := 0.0
	for _, s := range sigs {
		if s != nil && s.Weight > 0 {
			res.Signals = append(res.Signals, *s)
			total += s.Weight
		}
	}
	sort.SliceStable(res.Signals, func(i, j int) bool {
		if res.Signals[i].Weight != res.Signals[j].Weight {
			return res.Signals[i].Weight > res.Signals[j].Weight
		}
		return res.Signals[i].Type < res.Signals[j].Type
	})
	res.Score = int(math.Min(MaxScore, math.Round(total)))
	res.Confident = res.Score < res.Threshold
	res.Plan = planFor(actions, res.Score, cfg)
	res.Reflection = reflection(res)
	return res, nil
}

// isCanonical reports whether a is spelled as one of the Action constants.
func isCanonical(a Action) bool {
	for _, k := range actionKinds {
		if a == k {
			return true
		}
	}
	return false
}

// planFor decides the behaviour of every action at a score.
func planFor(actions []Action, score int, cfg Config) []Step {
	plan := make([]Step, len(actions))
	for i, a := range actions {
		plan[i] = Step{Action: a, Behaviour: behaviourFor(a, score, cfg)}
	}
	return plan
}

// firstKeyword returns the span of the earliest keyword of pattern id in
// the folded draft, or {0, 0}.
func firstKeyword(folded []byte, patterns []Pattern, id string) Span {
	best := Span{-1, -1}
	for i := range patterns {
		p := &patterns[i]
		if p.ID != id {
			continue
		}
		for _, k := range p.Keywords {
			if i := indexWord(folded, k); i >= 0 && (best.Start < 0 || i < best.Start) {
				best = Span{i, i + len(k)}
			}
		}
		break
	}
	if best.Start < 0 {
		return Span{}
	}
	return best
}

// indexWord returns the first occurrence of k in s that stands as a word
// (see atBoundary), or -1.
func indexWord(s []byte, k string) int {
	if k == "" {
		return -1
	}
	for off := 0; off < len(s); {
		i := bytes.Index(s[off:], []byte(k))
		if i < 0 {
			return -1
		}
		i += off
		if atBoundary(s, i, i+len(k)) {
			return i
		}
		off = i + 1
	}
	return -1
}

// reflection turns the heaviest signal into one sentence for the agent.
func reflection(r Result) string {
	if len(r.Signals) == 0 {
		return ""
	}
	var advice string
	switch s := r.Signals[0]; s.Type {
	case SignalErrorPattern:
		advice = "this repeats a mistake you were corrected for before, so re-read that correction and change course before acting"
	case SignalUnverifiedSuccess:
		advice = "run the tests and read their output before claiming success, or say plainly that it is untested"
	case SignalUnsupportedSpecific:
		advice = "back the specific details with a source, test or tool output, or mark them as unverified"
	case SignalAbsoluteClaim:
		advice = "soften the absolute wording or cite the evidence that makes it certain"
	case SignalCapabilityGap:
		advice = "you said you could not access or verify something, so gather that evidence first or state what remains unverified"
	case SignalUnseenReference:
		advice = "the request refers to material you have not seen, so fetch it or ask for it before answering"
	case SignalNoHedge:
		advice = "say how sure you are, since a long answer with no hedging reads as certain"
	case SignalOverconfidence:
		advice = "show the reasoning that leads to your conclusions, not only the conclusions"
	default:
		advice = "re-examine the draft before acting"
	}
	return fmt.Sprintf("Hesitation %d/100 (%s): %s.", r.Score, r.Signals[0].Type, advice)
}
