package route

import (
	"errors"
	"fmt"

	"github.com/innate-mcp/innate-mcp/terms"
)

// Misroute is a kind of routing mistake, learned from what the user did in
// the next exchange. The regulator reads misroute rates as pressures; each
// kind names the mode that should have been chosen (Expected). A plain value,
// safe for concurrent use.
type Misroute string

// The misroute kinds, after the seed's post-routing feedback table.
const (
	// MissedClarify: the user had to repeat or clarify, so the agent should
	// have asked first (RESPOND was wrong, CLARIFY was right).
	MissedClarify Misroute = "missed_clarify"
	// MissedGather: the user asked about earlier work, so the agent should have
	// looked it up first (the seed's missed_act).
	MissedGather Misroute = "missed_gather"
	// OverEngagement: a long answer to a greeting or thanks (ACKNOWLEDGE was
	// right). Only the agent knows its answer's length, so only a report
	// through record carries it.
	OverEngagement Misroute = "over_engagement"
	// UnderEngagement: a brief acknowledgement where the user wanted an
	// answer (RESPOND was right).
	UnderEngagement Misroute = "under_engagement"
)

var misroutes = [...]Misroute{MissedClarify, MissedGather, OverEngagement, UnderEngagement}

// ErrUnknownMisroute is returned (wrapped) by ParseMisroute for a string that
// names no misroute kind; compare with errors.Is.
var ErrUnknownMisroute = errors.New("unknown misroute kind")

// Misroutes returns every misroute kind in a fixed order. The slice is fresh;
// it is safe for concurrent use.
func Misroutes() []Misroute { return append([]Misroute(nil), misroutes[:]...) }

// ParseMisroute returns the Misroute named by s; the seed's "missed_act" is
// accepted for MissedGather. It returns an error wrapping ErrUnknownMisroute
// for anything else. It is safe for concurrent use.
func ParseMisroute(s string) (Misroute, error) {
	if s == "missed_act" {
		return MissedGather, nil
	}
	for _, m := range misroutes {
		if string(m) == s {
			return m, nil
		}
	}
	return "", fmt.Errorf("parse misroute %q: %w", s, ErrUnknownMisroute)
}

// Expected returns the mode that should have been chosen, or "" for an
// invalid kind. It is safe for concurrent use.
func (m Misroute) Expected() Mode {
	switch m {
	case MissedClarify:
		return Clarify
	case MissedGather:
		return Gather
	case OverEngagement:
		return Acknowledge
	case UnderEngagement:
		return Respond
	}
	return ""
}

// RepeatOverlap is the share of shared content tokens (Jaccard) above which
// DetectMisroute reads a message as a repeat of the previous one.
// (A constant.)
const RepeatOverlap = 0.6

// DetectMisroute reads the user's next message for signs that the previous
// decision (prevMode, made on prevMessage) was wrong, after the seed's
// post-routing feedback table:
//
//   - after Respond, a clarification ("I meant …", "我的意思是", "つまり") or a
//     repeat of the previous message → MissedClarify;
//   - after Respond, an implicit reference to earlier work → MissedGather;
//   - after Acknowledge, negative feedback or a repeat → UnderEngagement.
//
// OverEngagement cannot be read from the user's text; the agent reports it.
// The boolean is false when nothing points at a misroute. DetectMisroute is
// safe for concurrent use.
func DetectMisroute(prevMode Mode, prevMessage, message string) (Misroute, bool) {
	s := Extract(message)
	if s.Empty {
		return "", false
	}
	repeat := overlap(prevMessage, message) >= RepeatOverlap
	switch prevMode {
	case Respond:
		if s.Clarification || repeat {
			return MissedClarify, true
		}
		if s.ImplicitReference {
			return MissedGather, true
		}
	case Acknowledge:
		if s.Feedback < 0 || repeat {
			return UnderEngagement, true
		}
	}
	return "", false
}

// overlap is the Jaccard similarity of the token sets (English words and
// Han/kana characters) of a and b; 0 when either has fewer than three tokens.
func overlap(a, b string) float64 {
	sa, sb := tokenSet(a), tokenSet(b)
	if len(sa) < 3 || len(sb) < 3 {
		return 0
	}
	inter := 0
	for k := range sa {
		if _, ok := sb[k]; ok {
			inter++
		}
	}
	return float64(inter) / float64(len(sa)+len(sb)-inter)
}

func tokenSet(s string) map[string]struct{} {
	t := tokenize(clip(s))
	set := make(map[string]struct{}, len(t.words)+t.cjkRunes)
	for _, w := range t.words {
		set[w] = struct{}{}
	}
	for _, r := range t.text {
		if terms.IsHanKana(r) {
			set[string(r)] = struct{}{}
		}
	}
	return set
}
