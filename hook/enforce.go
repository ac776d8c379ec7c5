package hook

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/innate-mcp/innate-mcp/action"
	"github.com/innate-mcp/innate-mcp/check"
	"github.com/innate-mcp/innate-mcp/internal/clip"
	"github.com/innate-mcp/innate-mcp/internal/gitref"
	"github.com/innate-mcp/innate-mcp/kb"
)

// Limits of what a session's state remembers for the checks.
const (
	// maxCommands is how many shell lines the history keeps.
	maxCommands = 50
	// maxTouched is how many paths written it keeps.
	maxTouched = 200
	// maxAsked is how many asks await their PostToolUse.
	maxAsked = 20
	// maxReminderBytes bounds a reminder: about 60 tokens.
	maxReminderBytes = 240
	// maxOtherRuleBytes bounds each other rule an ask names.
	maxOtherRuleBytes = 100
)

// Asked is a tool call PreToolUse asked about, and the checks it broke.
type Asked struct {
	Call   string   `json:"call"`
	Checks []string `json:"checks"`
}

// callKey identifies a tool call between PreToolUse and PostToolUse: its
// tool_use_id, or its tool and input.
func callKey(in Input) string {
	if in.ToolUseID != "" {
		return in.ToolUseID
	}
	return hashKey(in.ToolName + "\x00" + string(in.ToolInput))
}

// remember adds what an action ran and wrote to the session's history.
func (s *SessionState) remember(act action.Action, in Input) {
	if in.ToolName == "Bash" && len(act.Commands) > 0 {
		var ti struct {
			Command string `json:"command"`
		}
		if err := json.Unmarshal(in.ToolInput, &ti); err == nil && strings.TrimSpace(ti.Command) != "" {
			s.Commands = append(s.Commands, clip.Bytes(ti.Command, 4<<10))
			if len(s.Commands) > maxCommands {
				s.Commands = s.Commands[len(s.Commands)-maxCommands:]
			}
		}
	}
	for _, w := range act.Writes {
		if w.Path != "" && !filepath.IsAbs(w.Path) && !slices.Contains(s.Touched, w.Path) {
			s.Touched = append(s.Touched, w.Path)
		}
	}
	s.SinceCommit = check.SinceCommit(s.SinceCommit, act.Writes, act.Commands)
	if len(s.Touched) > maxTouched {
		s.Touched = s.Touched[len(s.Touched)-maxTouched:]
	}
	if len(s.SinceCommit) > maxTouched {
		s.SinceCommit = s.SinceCommit[len(s.SinceCommit)-maxTouched:]
	}
}

// history is what the session ran and wrote before, read again as actions.
func (s SessionState) history(env action.Env) check.History {
	h := check.History{Touched: s.Touched, SinceCommit: s.SinceCommit}
	for _, line := range s.Commands {
		h.Commands = append(h.Commands, action.Shell(line, env).Commands...)
	}
	return h
}

// root is the directory a call's paths are relative to: the project's
// root, else the working directory.
func (h *Handler) root(in Input, project string) string {
	if project != "" && filepath.IsAbs(project) {
		return project
	}
	return in.Cwd
}

// preToolUse matches the call, parsed (a shell line through a real shell
// parser; a file tool with its path and new text), against the checks of
// the project's rules. A check that matches structurally asks the user
// (or denies a Bash command, as configured), quoting the rule; a check
// that only reminds, once a session for its rule, adds a short reminder;
// otherwise the hook says nothing.
func (h *Handler) preToolUse(ctx context.Context, in Input, project string) (Output, error) {
	root := h.root(in, project)
	// The shell stands in the session's directory, which may be below the
	// root: its relative paths and the directory its commands run in are
	// read from there.
	dir := ""
	if filepath.IsAbs(in.Cwd) && root != "" && filepath.Clean(in.Cwd) != filepath.Clean(root) {
		dir = in.Cwd
	}
	env := action.Env{Root: root, Dir: dir, Exists: func(p string) bool {
		if root == "" || filepath.IsAbs(p) {
			return true // cannot tell: not new
		}
		_, err := os.Stat(filepath.Join(root, filepath.FromSlash(p)))
		return !errors.Is(err, fs.ErrNotExist)
	}}
	act, err := action.FromTool(in.ToolName, in.ToolInput, env)
	if err != nil {
		return Output{}, fmt.Errorf("%w: %v", ErrInput, err)
	}
	if act.Empty() {
		return Output{}, nil
	}
	var st SessionState
	if h.State != nil {
		if st, err = h.State.Read(in.SessionID); err != nil {
			h.log().Debug("read session state", "err", err)
			st = SessionState{}
		}
	}
	hist := st.history(env)
	hist.Branch = gitref.Branch(cmp.Or(in.Cwd, root))
	e, err := h.KB.Enforce(ctx, project, act, hist)
	if err != nil {
		return Output{}, err
	}
	if len(e.Ask) > 0 {
		return h.ask(ctx, in, project, e.Ask)
	}
	// A call may bring several rules to mind: one is reminded, and each
	// once a session, so that the others wait for a call that breaks
	// them and a reminder stays within about 60 tokens.
	for _, r := range e.Remind {
		if slices.Contains(st.Reminded, r.Stored.LessonID) {
			continue
		}
		if h.State != nil {
			if err := h.State.Update(in.SessionID, func(s *SessionState) { s.Reminded = append(s.Reminded, r.Stored.LessonID) }); err != nil {
				return Output{}, err
			}
		}
		if _, err := h.KB.CheckFired(ctx, r.Stored.ID); err != nil {
			h.log().Warn("record a reminder", "check", r.Stored.ID, "err", err)
		}
		return contextOutput(PreToolUse, Reminder(r)), nil
	}
	return Output{}, nil
}

// ask answers a call that breaks checks: the first (a person's before a
// consultant's before the reader's) is quoted.
func (h *Handler) ask(ctx context.Context, in Input, project string, hits []kb.CheckHit) (Output, error) {
	var ids []string
	for _, x := range hits {
		if !slices.Contains(ids, x.Stored.ID) {
			ids = append(ids, x.Stored.ID)
		}
	}
	if h.State != nil {
		err := h.State.Update(in.SessionID, func(s *SessionState) {
			s.Asked = append(s.Asked, Asked{Call: callKey(in), Checks: ids})
			if len(s.Asked) > maxAsked {
				s.Asked = s.Asked[len(s.Asked)-maxAsked:]
			}
		})
		if err != nil {
			return Output{}, err
		}
	}
	for _, id := range ids {
		if _, err := h.KB.CheckFired(ctx, id); err != nil {
			h.log().Warn("record a check's ask", "check", id, "err", err)
		}
	}
	src := ""
	if l, err := h.KB.Lesson(ctx, hits[0].Stored.LessonID); err == nil && l.Source != "" {
		src = " (" + kb.SourceLabel(l.Source, h.root(in, project)) + ")"
	}
	reason := AskReason(hits[0], src) + alsoBreaks(hits)
	decision := "ask"
	if in.ToolName == "Bash" {
		decision = h.Config.PreToolUse.BashDecision
	}
	return Output{Specific: &Specific{HookEventName: PreToolUse, PermissionDecision: decision, PermissionDecisionReason: reason}}, nil
}

// AskReason is what an ask says: the rule, quoted, where it is, what of
// the call breaks it, and what the rule asks for instead.
func AskReason(x kb.CheckHit, source string) string {
	c := x.Stored.Check
	s := fmt.Sprintf("innate-mcp: this breaks the rule %q [%s]%s: %s", clip.Line(c.Quote, 200), x.Stored.LessonID, source, x.Hit.Why)
	if c.Kind == check.PreferInstead && c.Instead != "" {
		s += "; the rule asks for " + c.Instead + " instead"
	}
	return s + ". Allow it only if the user wants an exception (`innate-mcp rules` shows the check)."
}

// alsoBreaks names the other rules a call breaks, after the first hit's:
// up to two, each clipped, and how many more.
func alsoBreaks(hits []kb.CheckHit) string {
	var others []string
	seen := []string{hits[0].Stored.LessonID}
	more := 0
	for _, x := range hits[1:] {
		if slices.Contains(seen, x.Stored.LessonID) {
			continue
		}
		seen = append(seen, x.Stored.LessonID)
		if len(others) == 2 {
			more++
			continue
		}
		others = append(others, fmt.Sprintf("%q [%s]", clip.Line(x.Stored.Check.Quote, maxOtherRuleBytes), x.Stored.LessonID))
	}
	if len(others) == 0 {
		return ""
	}
	s := " It also breaks " + clip.Series(others, "and")
	if more > 0 {
		s += fmt.Sprintf(", and %d more rule(s)", more)
	}
	return s + "."
}

// Reminder is a reminder of a rule, within about 60 tokens.
func Reminder(x kb.CheckHit) string {
	head := "innate-mcp reminder, a rule of this project: "
	tail := " [" + x.Stored.LessonID + "]"
	room := maxReminderBytes - len(head) - len(tail) - 2
	return head + "\"" + clip.Line(x.Stored.Check.Quote, max(room, 40)) + "\"" + tail
}
