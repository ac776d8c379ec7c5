package eval

import (
	"slices"

	"github.com/innate-mcp/innate-mcp/internal/metric"
)

// ContextFigures are the tokens the hooks added to the replayed sessions'
// context: SessionStart's, as it is and as it was when it repeated the
// rules of the files Claude Code loads itself (CLAUDE.md), and all hooks'
// together per session.
type ContextFigures struct {
	Sessions int `json:"sessions"`
	// SessionStartMean is SessionStart's tokens per session; Before the
	// same with the rules of the files Claude Code loads repeated.
	SessionStartMean       float64 `json:"session_start_tokens_mean"`
	SessionStartMeanBefore float64 `json:"session_start_tokens_mean_before"`
	// PerSession spreads the tokens of all hooks in one session.
	PerSessionMean float64 `json:"tokens_per_session_mean"`
	PerSessionP95  int     `json:"tokens_per_session_p95"`
	PerSessionMax  int     `json:"tokens_per_session_max"`
}

// sessionTokens tallies the tokens of each replayed session.
type sessionTokens struct {
	order              []string
	total              map[string]int
	startNow, startWas int
}

func (t *sessionTokens) start(session string, now, before int) {
	if t.total == nil {
		t.total = map[string]int{}
	}
	t.order = append(t.order, session)
	t.total[session] += now
	t.startNow += now
	t.startWas += before
}

func (t *sessionTokens) add(session string, n int) {
	if t.total != nil {
		t.total[session] += n
	}
}

func (t *sessionTokens) figures() ContextFigures {
	f := ContextFigures{Sessions: len(t.order)}
	if f.Sessions == 0 {
		return f
	}
	per := make([]int, 0, len(t.order))
	sum := 0
	for _, s := range t.order {
		per = append(per, t.total[s])
		sum += t.total[s]
	}
	slices.Sort(per)
	n := float64(f.Sessions)
	f.SessionStartMean = metric.Round4(float64(t.startNow) / n)
	f.SessionStartMeanBefore = metric.Round4(float64(t.startWas) / n)
	f.PerSessionMean = metric.Round4(float64(sum) / n)
	f.PerSessionP95 = metric.Quantile(per, 0.95)
	f.PerSessionMax = per[len(per)-1]
	return f
}
