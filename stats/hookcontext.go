package stats

import (
	"slices"

	"github.com/innate-mcp/innate-mcp/hook"
	"github.com/innate-mcp/innate-mcp/internal/metric"
)

// HookContextSection is what the hooks added to agents' context, over the
// sessions whose state they keep (those of the last days, hook.StateTTL):
// tokens per session, and per event on average.
type HookContextSection struct {
	Sessions int `json:"sessions"`
	// TokensPerSession spreads the tokens one session was given.
	TokensMean float64 `json:"tokens_per_session_mean"`
	TokensP50  int     `json:"tokens_per_session_p50"`
	TokensP95  int     `json:"tokens_per_session_p95"`
	TokensMax  int     `json:"tokens_per_session_max"`
	// ByEvent is the mean tokens per session of each event.
	ByEvent map[string]float64 `json:"by_event"`
	// Withheld is the tokens left out past a session's budget, in all.
	Withheld int `json:"withheld"`
}

// HookContext summarises the hooks' session states.
func HookContext(states []hook.SessionState) HookContextSection {
	sec := HookContextSection{ByEvent: map[string]float64{}}
	var per []int
	for _, s := range states {
		if len(s.Injected) == 0 && s.Withheld == 0 {
			continue
		}
		n := 0
		for ev, t := range s.Injected {
			n += t
			sec.ByEvent[ev] += float64(t)
		}
		per = append(per, n)
		sec.Withheld += s.Withheld
	}
	sec.Sessions = len(per)
	if len(per) == 0 {
		return sec
	}
	slices.Sort(per)
	total := 0
	for _, n := range per {
		total += n
	}
	sec.TokensMean = metric.Round4(float64(total) / float64(len(per)))
	sec.TokensP50 = metric.Quantile(per, 0.5)
	sec.TokensP95 = metric.Quantile(per, 0.95)
	sec.TokensMax = per[len(per)-1]
	for ev := range sec.ByEvent {
		sec.ByEvent[ev] = metric.Round4(sec.ByEvent[ev] / float64(len(per)))
	}
	return sec
}
