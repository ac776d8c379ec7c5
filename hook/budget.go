package hook

import "github.com/innate-mcp/innate-mcp/internal/clip"

// Tokens is the context an answer adds to the agent's, about 4 bytes a
// token, rounded up: additional context, a block's reason (Stop), and a
// denial's reason. An ask's reason is shown to the user, not the agent.
func Tokens(o Output) int {
	n := len(o.Reason)
	if o.Specific != nil {
		n += len(o.Specific.AdditionalContext)
		if o.Specific.PermissionDecision == "deny" {
			n += len(o.Specific.PermissionDecisionReason)
		}
	}
	return clip.TokensOfBytes(n)
}

// budget counts an answer's tokens in the session's state, by event, and
// leaves out an answer that is context alone once the session's budget
// would be passed. Without state, it counts nothing and leaves all in.
func (h *Handler) budget(in Input, out Output) (Output, error) {
	if h.State == nil || in.SessionID == "" {
		return out, nil
	}
	n := Tokens(out)
	if n == 0 {
		return out, nil // nothing reaches the agent's context: nothing to count
	}
	decision := out.Decision != "" || out.Specific != nil && out.Specific.PermissionDecision != ""
	keep := true
	err := h.State.Update(in.SessionID, func(s *SessionState) {
		used := 0
		for _, t := range s.Injected {
			used += t
		}
		if !decision && h.Config.SessionBudgetTokens > 0 && used+n > h.Config.SessionBudgetTokens {
			keep = false
			s.Withheld += n
			return
		}
		if s.Injected == nil {
			s.Injected = map[string]int{}
		}
		s.Injected[in.Event] += n
	})
	if err != nil {
		return out, err
	}
	if !keep {
		h.log().Debug("session context budget reached", "session", in.SessionID, "event", in.Event, "tokens", n)
		return Output{}, nil
	}
	return out, nil
}
