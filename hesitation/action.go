package hesitation

import (
	"errors"
	"fmt"
	"strings"
)

// ErrUnknownAction is returned (wrapped) by ParseAction for a name that is
// not an action kind.
var ErrUnknownAction = errors.New("unknown action")

// Action is the kind of thing the agent intends to do with its draft.
type Action string

// Action kinds.
const (
	// ActionReply sends the draft to the user. Hedged from the lower
	// threshold, held from the upper one.
	ActionReply Action = "reply"
	// ActionQuestion asks the user something. Asking is itself a form of
	// hesitation, so it always proceeds.
	ActionQuestion Action = "question"
	// ActionRecordLesson writes memory (a record that adds a lesson). A
	// wrong memory outlives a wrong reply, so it holds from the lower
	// threshold.
	ActionRecordLesson Action = "record_lesson"
	// ActionTask creates a task or plan item. It needs review from the
	// lower threshold and holds from the upper one.
	ActionTask Action = "task"
	// ActionCommit commits changes; world-changing, holds from the lower
	// threshold like every world-changing kind.
	ActionCommit Action = "commit"
	// ActionPush pushes to a remote; world-changing.
	ActionPush Action = "push"
	// ActionDelete deletes files or data; world-changing.
	ActionDelete Action = "delete"
	// ActionDeploy deploys or releases; world-changing.
	ActionDeploy Action = "deploy"
	// ActionMigrate runs a migration; world-changing.
	ActionMigrate Action = "migrate"
	// ActionOther is any other world-changing action.
	ActionOther Action = "other"
)

// actionKinds lists every action kind in a fixed order.
var actionKinds = [...]Action{ActionReply, ActionQuestion, ActionRecordLesson, ActionTask, ActionCommit, ActionPush, ActionDelete, ActionDeploy, ActionMigrate, ActionOther}

// ActionKinds returns every action kind in a fixed order, as a new slice.
func ActionKinds() []Action { return append([]Action(nil), actionKinds[:]...) }

// actionAliases maps accepted spellings to kinds.
var actionAliases = map[string]Action{
	"chat": ActionReply, "answer": ActionReply, "respond": ActionReply, "response": ActionReply,
	"ask": ActionQuestion, "clarify": ActionQuestion,
	"record": ActionRecordLesson, "remember": ActionRecordLesson, "lesson": ActionRecordLesson, "memory": ActionRecordLesson, "write_memory": ActionRecordLesson,
	"todo": ActionTask, "plan": ActionTask,
	"rm": ActionDelete, "remove": ActionDelete,
	"migration": ActionMigrate, "release": ActionDeploy,
	"world_changing": ActionOther, "world-changing": ActionOther,
}

// ParseAction parses an action kind, case-insensitively, accepting the
// kinds' names, '-' for '_', and a few aliases ("chat", "ask", "remember",
// "rm"). It returns an error wrapping ErrUnknownAction that lists the valid
// kinds. It is safe for concurrent use.
func ParseAction(s string) (Action, error) {
	k := strings.ToLower(strings.TrimSpace(s))
	for _, a := range actionKinds {
		if k == string(a) || strings.ReplaceAll(k, "-", "_") == string(a) {
			return a, nil
		}
	}
	if a, ok := actionAliases[k]; ok {
		return a, nil
	}
	names := make([]string, len(actionKinds))
	for i, a := range actionKinds {
		names[i] = string(a)
	}
	return "", fmt.Errorf("%w %q: want one of %s", ErrUnknownAction, s, strings.Join(names, ", "))
}

// ParseActions parses a comma-separated list of action kinds, ignoring
// empty items. It returns the first ParseAction error.
func ParseActions(s string) ([]Action, error) {
	var out []Action
	for _, part := range strings.Split(s, ",") {
		if strings.TrimSpace(part) == "" {
			continue
		}
		a, err := ParseAction(part)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// WorldChanging reports whether a changes state outside the conversation
// (commit, push, delete, deploy, migrate, other).
func (a Action) WorldChanging() bool {
	switch a {
	case ActionCommit, ActionPush, ActionDelete, ActionDeploy, ActionMigrate, ActionOther:
		return true
	}
	return false
}

// Behaviour is what the caller should do with one intended action.
type Behaviour string

// Behaviours.
const (
	// Proceed: carry out the action as intended.
	Proceed Behaviour = "proceed"
	// Hedge: carry it out, but mark the uncertainty in the text.
	Hedge Behaviour = "hedge"
	// Hold: do not carry it out now; keep it for review (re-check soon).
	Hold Behaviour = "hold"
	// NeedsReview: carry it out, flagged for review.
	NeedsReview Behaviour = "needs_review"
)

// Step is the behaviour decided for one action.
type Step struct {
	// Action is the intended action.
	Action Action `json:"action"`
	// Behaviour is what to do with it.
	Behaviour Behaviour `json:"behaviour"`
}

// behaviourFor applies the per-kind rules to a score.
func behaviourFor(a Action, score int, cfg Config) Behaviour {
	switch {
	case a == ActionQuestion:
		return Proceed
	case a == ActionReply:
		if score >= cfg.HoldThreshold {
			return Hold
		}
		if score >= cfg.HedgeThreshold {
			return Hedge
		}
	case a == ActionTask:
		if score >= cfg.HoldThreshold {
			return Hold
		}
		if score >= cfg.HedgeThreshold {
			return NeedsReview
		}
	default: // record_lesson and world-changing kinds
		if score >= cfg.HedgeThreshold {
			return Hold
		}
	}
	return Proceed
}
