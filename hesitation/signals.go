package hesitation

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/innate-mcp/innate-mcp/internal/clip"
	"github.com/innate-mcp/innate-mcp/terms"
)

// SignalType names a hesitation signal.
type SignalType string

// Signal types; Weights holds the weight of each.
const (
	// SignalAbsoluteClaim: absolute wording with no source in the draft
	// or the situation.
	SignalAbsoluteClaim SignalType = "absolute_claim"
	// SignalUnsupportedSpecific: numbers, versions, dates, API or flag
	// names that no query, tool output, source, file or citation backs.
	SignalUnsupportedSpecific SignalType = "unsupported_specific"
	// SignalNoHedge: a long reply with no hedging at all.
	SignalNoHedge SignalType = "no_hedge"
	// SignalOverconfidence: conclusion markers outnumber reasoning markers.
	SignalOverconfidence SignalType = "overconfidence"
	// SignalUnverifiedSuccess: a success claim with no test run, or with
	// test output that reports failures.
	SignalUnverifiedSuccess SignalType = "unverified_success"
	// SignalErrorPattern: the draft matches a learned error pattern.
	SignalErrorPattern SignalType = "error_pattern"
	// SignalCapabilityGap: the draft admits it could not access, run or
	// verify something.
	SignalCapabilityGap SignalType = "capability_gap"
	// SignalUnseenReference: the query refers to material the situation
	// does not hold, and the draft answers without admitting that.
	SignalUnseenReference SignalType = "unseen_reference"
)

// Signal is one reason to hesitate.
type Signal struct {
	// Type names the detector.
	Type SignalType `json:"type"`
	// Detail says what was found, for people and logs.
	Detail string `json:"detail"`
	// Weight is the signal's contribution to the score.
	Weight float64 `json:"weight"`
	// Span is the byte range in the draft of the first place the signal
	// concerns; {0, 0} when it concerns the situation (unseen_reference).
	Span Span `json:"span"`
}

// detectInput is everything the detectors share for one Check call.
type detectInput struct {
	draft    string
	sc       *scanned
	sents    []Span
	sit      Situation
	cfg      Config
	specs    specTally // unsupported checkable details of the draft
	tokens   *tokenSet // token hashes of the draft, when patterns are given
	reply    bool      // a reply is among the actions
	creative bool      // the query asks for creative writing
}

// sentenceOf returns the sentence span containing offset i.
func (in *detectInput) sentenceOf(i int) Span {
	k := sort.Search(len(in.sents), func(k int) bool { return in.sents[k].End > i })
	if k < len(in.sents) && in.sents[k].Start <= i {
		return in.sents[k]
	}
	return Span{i, i}
}

// isQuestion reports whether the sentence is a question.
func (in *detectInput) isQuestion(sp Span) bool {
	t := strings.TrimRight(in.draft[sp.Start:sp.End], " \t\"')")
	return strings.HasSuffix(t, "?") || strings.HasSuffix(t, "？")
}

// quote returns s shortened for a detail string.
func quote(s string) string { return fmt.Sprintf("%q", clip.Bytes(s, 40)) }

// absoluteClaims: absolute wording with no source anywhere.
func absoluteClaims(in *detectInput) *Signal {
	ms := in.sc.byCat[catAbsolute]
	if len(ms) == 0 || in.creative || in.sc.has(catCitation) || len(in.sit.Sources) > 0 || len(in.sit.ToolOutputs) > 0 {
		return nil
	}
	return &Signal{Type: SignalAbsoluteClaim, Weight: in.cfg.Weights.AbsoluteClaim,
		Detail: fmt.Sprintf("%d absolute claim(s) without a source, first %s", len(ms), quote(in.draft[ms[0].start:ms[0].end])),
		Span:   Span{ms[0].start, ms[0].end}}
}

// specTally counts the unsupported specifics of a draft and keeps the
// first few as examples.
type specTally struct {
	n     int
	facts int // those that are not identifiers
	first []specific
}

// specTallier returns a callback for draftTokens that tallies the
// specifics found neither in the situation's evidence nor in a sentence
// with a citation, or nil when the signal is off or muted.
func specTallier(in *detectInput, t *specTally) func(specific) {
	if in.creative || in.cfg.Weights.UnsupportedSpecific == 0 {
		return nil
	}
	var ev *hashSet
	for _, e := range in.sit.evidenceTexts() {
		if e != "" {
			ev = tokenHashes(terms.FoldASCII(e), ev)
		}
	}
	return func(sp specific) {
		if ev.contains(sp.hash) || in.sc.anyIn(catCitation, in.sentenceOf(sp.span.Start)) {
			return
		}
		t.n++
		if sp.kind != specIdentifier {
			t.facts++
		}
		if len(t.first) < 3 {
			t.first = append(t.first, sp)
		}
	}
}

// unsupportedSpecifics: numbers, versions, dates, identifiers and flags not
// found in the situation and not in a sentence with a citation. Naming a
// function or a type ("math.Round") is not a checkable fact by itself: the
// signal needs a number, version, date or flag among them.
func unsupportedSpecifics(in *detectInput) *Signal {
	t := in.specs
	if t.facts == 0 {
		return nil
	}
	share := float64(t.n) / float64(in.cfg.SpecificSaturation)
	if share > 1 {
		share = 1
	}
	ex := make([]string, len(t.first))
	for i, sp := range t.first {
		ex[i] = sp.kind.String() + " " + quote(in.draft[sp.span.Start:sp.span.End])
	}
	return &Signal{Type: SignalUnsupportedSpecific, Weight: in.cfg.Weights.UnsupportedSpecific * share,
		Detail: fmt.Sprintf("%d specific(s) with no citation, test or tool output behind them: %s", t.n, strings.Join(ex, ", ")),
		Span:   t.first[0].span}
}

// noHedge: a long reply that never marks uncertainty.
func noHedge(in *detectInput) *Signal {
	if !in.reply || in.creative || !longer(in.draft, in.cfg.LongReplyRunes) {
		return nil
	}
	if hedged(in.draft, in.sc) || in.sc.has(catDisclaimer) {
		return nil
	}
	return &Signal{Type: SignalNoHedge, Weight: in.cfg.Weights.NoHedge,
		Detail: fmt.Sprintf("reply of %d characters with no hedging", utf8.RuneCountInString(in.draft)),
		Span:   Span{0, len(in.draft)}}
}

// overconfidence: more conclusions than reasoning.
func overconfidence(in *detectInput) *Signal {
	c := in.sc.byCat[catConclusion]
	r := len(in.sc.byCat[catReasoning])
	if len(c) < in.cfg.MinConclusions || r >= len(c) {
		return nil
	}
	return &Signal{Type: SignalOverconfidence, Weight: in.cfg.Weights.Overconfidence,
		Detail: fmt.Sprintf("%d conclusion marker(s) vs %d reasoning marker(s)", len(c), r),
		Span:   Span{c[0].start, c[0].end}}
}

// unverifiedSuccess: a claim of success with no test run behind it, or
// with test output that reports failures.
//
// A draft that also says plainly what was not run or tested has qualified
// its claim: that is the honest hand-over, not an unverified one.
func unverifiedSuccess(in *detectInput) *Signal {
	if in.sc.has(catUntested) {
		return nil
	}
	var claims []match
	for _, m := range in.sc.byCat[catSuccess] {
		sent := in.sentenceOf(m.start)
		if in.isQuestion(sent) || negatedBefore(in.sc, sent, m) {
			continue
		}
		claims = append(claims, m)
	}
	if len(claims) == 0 {
		return nil
	}
	ran, failing := in.sit.testEvidence()
	first := quote(in.draft[claims[0].start:claims[0].end])
	switch {
	case failing:
		return &Signal{Type: SignalUnverifiedSuccess, Weight: in.cfg.Weights.UnverifiedSuccess,
			Detail: fmt.Sprintf("claims success (%s) but the test output reports failures", first),
			Span:   Span{claims[0].start, claims[0].end}}
	case !ran:
		return &Signal{Type: SignalUnverifiedSuccess, Weight: in.cfg.Weights.UnverifiedSuccess,
			Detail: fmt.Sprintf("claims success (%s) but no test run is in the situation", first),
			Span:   Span{claims[0].start, claims[0].end}}
	}
	return nil
}

// disclosed reports whether a match lies within a disclosure of what was
// not run or tested.
func (in *detectInput) disclosed(m match) bool {
	for _, u := range in.sc.byCat[catUntested] {
		if m.start < u.end && u.start < m.end {
			return true
		}
	}
	return false
}

// negationReach is how many bytes before a success claim a negation of the
// same sentence may start and still negate it.
const negationReach = 32

// negatedBefore reports a negation in the same sentence within negationReach
// bytes before m ("not fixed yet", "haven't verified", "還沒修好").
func negatedBefore(sc *scanned, sent Span, m match) bool {
	ns := sc.byCat[catNegation] // ordered by start and end
	lo := max(sent.Start, m.start-negationReach)
	k := sort.Search(len(ns), func(k int) bool { return ns[k].start >= lo })
	for ; k < len(ns) && ns[k].start < m.end; k++ {
		n := ns[k]
		if n.end <= m.start {
			return true
		}
		if n.start >= m.start && n.end <= m.end && n.term.lang != "en" {
			return true // CJK negation inside the claim ("沒修好了")
		}
	}
	return false
}

// capabilityGap: the draft admits it could not access, run or verify.
//
// In a reply, saying plainly what was not run or tested ("I have not run
// the tests") is disclosure, not a gap: it is the honest hand-over, and
// never adds to the score. Before a lesson is written or another action
// taken, the same words still say the content is unverified.
func capabilityGap(in *detectInput) *Signal {
	var ms []match
	for _, m := range in.sc.byCat[catDisclaimer] {
		if !in.reply || !in.disclosed(m) {
			ms = append(ms, m)
		}
	}
	if len(ms) == 0 {
		return nil
	}
	return &Signal{Type: SignalCapabilityGap, Weight: in.cfg.Weights.CapabilityGap,
		Detail: fmt.Sprintf("the draft says it could not access or verify something: %s", quote(in.draft[ms[0].start:ms[0].end])),
		Span:   Span{ms[0].start, ms[0].end}}
}

// unseenReference: the query points at material the situation lacks and
// the draft answers without admitting it (that admission is a
// capability_gap instead).
func unseenReference(in *detectInput, q *scanned) *Signal {
	ms := q.byCat[catReference]
	if len(ms) == 0 || in.sit.hasMaterial() || in.sc.has(catDisclaimer) {
		return nil // nothing referred to, material at hand, or the gap admitted
	}
	return &Signal{Type: SignalUnseenReference, Weight: in.cfg.Weights.UnseenReference,
		Detail: fmt.Sprintf("the query refers to %s, which is not in the situation", quote(in.sit.Query[ms[0].start:ms[0].end]))}
}

// errorPatterns: the draft repeats a learned mistake.
func errorPatterns(in *detectInput, patterns []Pattern) (*Signal, []string) {
	if len(patterns) == 0 || in.cfg.Weights.ErrorPattern == 0 {
		return nil, nil
	}
	hits := matchPatterns(in.tokens, patterns, in.sit.Now, in.cfg)
	if len(hits) == 0 {
		return nil, nil
	}
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.id
	}
	top := hits[0]
	return &Signal{Type: SignalErrorPattern, Weight: in.cfg.Weights.ErrorPattern * top.strength,
		Detail: fmt.Sprintf("matches past error %s (%d keyword(s), strength %.2f): %s", top.id, top.hits, top.strength, clip.Bytes(top.desc, 80))}, ids
}

// longer reports whether s has at least n runes, without counting past n.
func longer(s string, n int) bool {
	if len(s) < n {
		return false
	}
	if len(s) >= n*utf8.UTFMax {
		return true
	}
	return utf8.RuneCountInString(s) >= n
}
