package hook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/innate-mcp/innate-mcp/action"
	"github.com/innate-mcp/innate-mcp/check"
	"github.com/innate-mcp/innate-mcp/hesitation"
	"github.com/innate-mcp/innate-mcp/internal/clip"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/runlog"
)

// The events the hooks answer, as Claude Code names them.
const (
	SessionStart     = "SessionStart"
	UserPromptSubmit = "UserPromptSubmit"
	PreToolUse       = "PreToolUse"
	PostToolUse      = "PostToolUse"
	Stop             = "Stop"
)

// Events lists them.
var Events = []string{SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Stop}

// Input is a hook event as Claude Code sends it on stdin: the common
// fields and each event's own.
type Input struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	Event          string `json:"hook_event_name"`
	// SessionStart: startup, resume, clear or compact.
	Source string `json:"source"`
	// UserPromptSubmit.
	Prompt string `json:"prompt"`
	// PreToolUse and PostToolUse.
	ToolName     string          `json:"tool_name"`
	ToolUseID    string          `json:"tool_use_id"`
	ToolInput    json.RawMessage `json:"tool_input"`
	ToolResponse json.RawMessage `json:"tool_response"`
	// Stop: true when Claude is already continuing because of a Stop
	// hook's block.
	StopHookActive bool `json:"stop_hook_active"`
	// Stop, in newer versions of Claude Code: the reply being stopped on.
	LastAssistantMessage string `json:"last_assistant_message"`
}

// MaxInputBytes bounds the event read from stdin.
const MaxInputBytes = 8 << 20

// ErrInput is wrapped by the error for an event the hooks cannot read.
var ErrInput = errors.New("bad hook input")

// ErrInternal marks a defect met while answering an event (a panic,
// recovered): the hook fails open and the log holds the stack.
var ErrInternal = errors.New("internal error")

// ReadInput reads an event. event, when not empty, is the event named on
// the command line, which the payload must agree with.
func ReadInput(r io.Reader, event string) (Input, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxInputBytes+1))
	if err != nil {
		return Input{}, fmt.Errorf("%w: %v", ErrInput, err)
	}
	if len(b) > MaxInputBytes {
		return Input{}, fmt.Errorf("%w: larger than %d MiB", ErrInput, MaxInputBytes>>20)
	}
	var in Input
	if err := json.Unmarshal(b, &in); err != nil {
		return Input{}, fmt.Errorf("%w: %v", ErrInput, err)
	}
	if in.Event == "" {
		in.Event = event
	}
	if event != "" && in.Event != event {
		return Input{}, fmt.Errorf("%w: the payload is a %s event, the command names %s", ErrInput, in.Event, event)
	}
	if !slices.Contains(Events, in.Event) {
		return Input{}, fmt.Errorf("%w: unknown event %q (the hooks are %s)", ErrInput, in.Event, strings.Join(Events, ", "))
	}
	return in, nil
}

// Output is a hook's answer, in Claude Code's documented form. The zero
// value prints nothing.
type Output struct {
	// Decision "block" with Reason (Stop).
	Decision string `json:"decision,omitempty"`
	Reason   string `json:"reason,omitempty"`
	// Specific holds hookSpecificOutput.
	Specific *Specific `json:"hookSpecificOutput,omitempty"`
}

// Specific is hookSpecificOutput.
type Specific struct {
	HookEventName            string `json:"hookEventName"`
	AdditionalContext        string `json:"additionalContext,omitempty"`
	PermissionDecision       string `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string `json:"permissionDecisionReason,omitempty"`
}

// Empty reports whether the output says nothing (the hook then prints
// nothing).
func (o Output) Empty() bool { return o.Decision == "" && o.Specific == nil }

// Knowledge is what the hooks use of the knowledge base (kb.KB).
type Knowledge interface {
	Recall(ctx context.Context, req kb.RecallRequest) (kb.RecallResult, error)
	Appraise(ctx context.Context, req kb.AppraiseRequest) (kb.AppraiseResult, error)
	Hesitate(ctx context.Context, req kb.HesitateRequest) (kb.HesitateResult, error)
	Record(ctx context.Context, req kb.RecordRequest) (kb.RecordResult, error)
	Lesson(ctx context.Context, id string) (kb.Lesson, error)
	Lessons(ctx context.Context, filter kb.LessonFilter, fn func(kb.Lesson) error) error
	RecentCorrections(ctx context.Context, project string, since time.Time, limit int) ([]kb.Correction, error)
	Enforce(ctx context.Context, project string, act action.Action, h check.History) (kb.Enforcement, error)
	CheckFired(ctx context.Context, id string) (kb.StoredCheck, error)
	CheckOverridden(ctx context.Context, id string) (kb.StoredCheck, error)
	Checks(ctx context.Context, f kb.CheckFilter) ([]kb.StoredCheck, error)
}

// Capture is what a user's message says of the agent's work: a
// correction of it, or a standing rule (RuleText, verbatim from the
// message).
type Capture struct {
	Correction bool
	Rule       bool
	RuleText   string
	// Directive is, for a correction, what it tells the agent to do or
	// avoid, verbatim ("use pnpm, not npm"); "" when it directs nothing.
	Directive string
}

// Handler answers hook events.
type Handler struct {
	KB     Knowledge
	Config Config
	// Project returns the project identifier of a working directory, as
	// the MCP server derives it (its git root).
	Project func(cwd string) string
	// Capture reads a user's message against the agent's previous reply;
	// nil captures nothing.
	Capture func(message, previousReply string) Capture
	// State keeps what one hook call tells a later one of the same
	// session; nil keeps nothing.
	State *StateDir
	// SyncRules brings the knowledge base in line with the project's agent
	// rule files (package rulesync) before SessionStart reads its rules;
	// nil syncs nothing. It logs its own failures.
	// Every event but Stop runs it first.
	SyncRules func(ctx context.Context, project string)
	// Consult returns what SessionStart adds about the project's rules
	// that no consultant compiled yet (an invitation to the agent), after
	// starting a configured consultant in the background; nil adds
	// nothing. It must not block.
	Consult func(ctx context.Context, project string) string
	Log     *slog.Logger
	Now     func() time.Time
}

func (h *Handler) now() time.Time {
	if h.Now != nil {
		return h.Now()
	}
	return time.Now()
}

func (h *Handler) log() *slog.Logger {
	if h.Log != nil {
		return h.Log
	}
	return slog.New(slog.DiscardHandler)
}

// Handle answers one event. An error is ours, never the agent's: the
// caller logs it and prints nothing (every hook fails open). What an
// answer adds to the agent's context counts against the session's budget
// (Config.SessionBudgetTokens): past it, context alone is left out, while
// a decision (an ask, a block) still comes.
func (h *Handler) Handle(ctx context.Context, in Input) (out Output, err error) {
	defer func() {
		// A hook fails open: a defect here must never stop the agent's
		// call (a Go panic exits with status 2, which Claude Code reads as
		// "block"). The caller logs the error; the stack goes to the log.
		if r := recover(); r != nil {
			h.log().Error("hook panicked", "event", in.Event, "panic", r, "stack", string(debug.Stack()))
			out, err = Output{}, fmt.Errorf("%w: %s hook: %v", ErrInternal, in.Event, r)
		}
	}()
	out, err = h.handle(ctx, in)
	if err != nil || out.Empty() {
		return out, err
	}
	return h.budget(in, out)
}

func (h *Handler) handle(ctx context.Context, in Input) (Output, error) {
	project := ""
	if h.Project != nil && in.Cwd != "" {
		project = h.Project(in.Cwd)
	}
	// Every hook brings the project's rule files in first (a size and
	// time check when nothing changed): a hook installed mid-session, or a
	// CLAUDE.md edited a moment ago, is seen by the next event.
	if h.SyncRules != nil && project != "" && in.Event != Stop {
		h.SyncRules(ctx, project)
	}
	switch in.Event {
	case SessionStart:
		if h.Config.SessionStart.Enabled {
			return h.sessionStart(ctx, in, project)
		}
	case UserPromptSubmit:
		if h.Config.UserPromptSubmit.Enabled {
			return h.userPromptSubmit(ctx, in, project)
		}
	case PreToolUse:
		if h.Config.PreToolUse.Enabled {
			return h.preToolUse(ctx, in, project)
		}
	case PostToolUse:
		if h.Config.PostToolUse.Enabled {
			return Output{}, h.postToolUse(ctx, in, project)
		}
	case Stop:
		if h.Config.Stop.Enabled {
			return h.stop(ctx, in, project)
		}
	}
	return Output{}, nil
}

func contextOutput(event, text string) Output {
	if strings.TrimSpace(text) == "" {
		return Output{}
	}
	return Output{Specific: &Specific{HookEventName: event, AdditionalContext: text}}
}

// userPromptSubmit recalls lessons for the prompt and captures
// corrections and standing rules.
func (h *Handler) userPromptSubmit(ctx context.Context, in Input, project string) (Output, error) {
	var lines []string
	recorded := ""
	if c := h.Config.UserPromptSubmit; c.Capture && h.Capture != nil && strings.TrimSpace(in.Prompt) != "" {
		line, id, err := h.capture(ctx, in, project)
		if err != nil {
			h.log().Warn("capture", "err", err)
		} else if line != "" {
			lines = append(lines, line)
		}
		recorded = id
	}
	if c := h.Config.UserPromptSubmit; c.Recall && c.MaxLessons > 0 && strings.TrimSpace(in.Prompt) != "" {
		res, err := h.KB.Recall(ctx, kb.RecallRequest{Query: clip.Bytes(in.Prompt, maxQueryBytes), Project: project, Top: c.MaxLessons + 1})
		if err != nil {
			return Output{}, err
		}
		// The lesson just recorded from this very prompt is the user's own
		// words, already in the agent's context: recalling it back costs
		// tokens and tells nothing.
		shown := slices.DeleteFunc(res.Lessons, func(l kb.RecalledLesson) bool { return l.ID == recorded })
		if len(shown) > c.MaxLessons {
			shown = shown[:c.MaxLessons]
		}
		if !res.Empty && len(shown) > 0 {
			lines = append(lines, "innate-mcp recalled lessons that may apply (weigh each by where it came from: rule_file, user_cli and user_message are the user's words, agent is a guess):")
			for _, l := range shown {
				lines = append(lines, fmt.Sprintf("- [%s, %s] %s (matched: %s)", l.ID, l.Provenance.Kind, clip.Line(l.Content, 400), clip.Line(l.Why, 120)))
			}
		}
	}
	return contextOutput(UserPromptSubmit, strings.Join(lines, "\n")), nil
}

// maxQueryBytes bounds the prompt text recall and appraise are given.
const maxQueryBytes = 4 << 10

// capture records a correction or a standing rule the prompt states, and
// returns the line that says so and the lesson recorded.
func (h *Handler) capture(ctx context.Context, in Input, project string) (string, string, error) {
	prev := ""
	if in.TranscriptPath != "" {
		if t, err := ReadTurn(in.TranscriptPath); err == nil {
			// The agent's last reply: the latest turn's, or the one before
			// it when the prompt being submitted is already written down.
			prev = t.Final
			if strings.TrimSpace(t.Prompt) == strings.TrimSpace(in.Prompt) {
				prev = t.PreviousReply
			}
		}
	}
	c := h.Capture(in.Prompt, prev)
	switch {
	case c.Rule && strings.TrimSpace(c.RuleText) != "":
		res, err := h.KB.Record(ctx, kb.RecordRequest{
			Lesson:  &kb.LessonInput{Content: c.RuleText, Origin: kb.OriginUserStated},
			Message: in.Prompt, Project: project, Author: kb.AuthorHook,
		})
		if err != nil {
			return "", "", err
		}
		line := fmt.Sprintf("innate-mcp recorded the user's rule %q%s.", clip.Line(c.RuleText, 200), changedIDs(res))
		id := lessonOf(res)
		if id != "" {
			line += " Undo: innate-mcp lessons reject " + id + "."
		}
		return line, id, nil
	case c.Correction:
		return h.recordCorrection(ctx, in.Prompt, prev, c.Directive, project)
	}
	return "", "", nil
}

// maxDraftBytes bounds the draft text a correction keeps.
const maxDraftBytes = 8 << 10

func changedIDs(res kb.RecordResult) string {
	var ids []string
	for _, c := range res.Changes {
		if c.LessonID != "" && !slices.Contains(ids, c.LessonID) {
			ids = append(ids, c.LessonID)
		}
	}
	if len(ids) == 0 {
		return ""
	}
	return " (" + strings.Join(ids, ", ") + ")"
}

// postToolUse notes what ran: a test run's or build's outcome (for Stop),
// the command and the files written (for the checks of later calls), and
// that the user let a call run that PreToolUse asked about (an override of
// its checks).
func (h *Handler) postToolUse(ctx context.Context, in Input, project string) error {
	if h.State == nil {
		return nil
	}
	root := h.root(in, project)
	act, err := action.FromTool(in.ToolName, in.ToolInput, action.Env{Root: root})
	if err != nil {
		return fmt.Errorf("%w: %v", ErrInput, err)
	}
	var run *Run
	if in.ToolName == "Bash" {
		var ti struct {
			Command string `json:"command"`
		}
		json.Unmarshal(in.ToolInput, &ti)
		if r := runlog.Read(toolResponseText(in.ToolResponse)); r.Ran() {
			run = &Run{Command: clip.Line(ti.Command, 200), Outcome: r.Outcome.String(), Runner: r.Runner,
				Evidence: clip.Line(r.Evidence, 200), At: h.now()}
		}
	}
	key := callKey(in)
	var overridden []string
	err = h.State.Update(in.SessionID, func(s *SessionState) {
		if run != nil {
			s.Runs = append(s.Runs, *run)
			if len(s.Runs) > maxRuns {
				s.Runs = s.Runs[len(s.Runs)-maxRuns:]
			}
		}
		s.remember(act, in)
		for i, a := range s.Asked {
			if a.Call == key {
				overridden = a.Checks
				s.Asked = slices.Delete(s.Asked, i, i+1)
				break
			}
		}
	})
	if err != nil {
		return err
	}
	for _, id := range overridden {
		if _, err := h.KB.CheckOverridden(ctx, id); err != nil {
			h.log().Warn("record an override", "check", id, "err", err)
		}
	}
	return nil
}

// maxRuns is how many runs a session's state keeps.
const maxRuns = 20

// toolResponseText returns the text of a tool response: Bash's stdout and
// stderr, or a plain string.
func toolResponseText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	if raw[0] == '"' {
		var s string
		json.Unmarshal(raw, &s)
		return s
	}
	var r struct {
		Stdout string `json:"stdout"`
		Stderr string `json:"stderr"`
		Output string `json:"output"`
	}
	json.Unmarshal(raw, &r)
	return strings.Join([]string{r.Stdout, r.Stderr, r.Output}, "\n")
}

// stop blocks the agent's stop once per turn when the turn changed code
// and its final text hands the change over as done, but nothing verified
// it: no test, build, type check or run of the program after the turn's
// last edit of code passed and covered the edited files. A turn that
// changed no code, or only docs, is never blocked, and neither is a reply
// that says plainly what was not run, announces a next step, or only asks.
func (h *Handler) stop(ctx context.Context, in Input, project string) (Output, error) {
	if in.StopHookActive {
		return Output{}, nil
	}
	var t Turn
	if in.TranscriptPath != "" {
		var err error
		if t, err = ReadTurn(in.TranscriptPath); err != nil {
			h.log().Debug("read transcript", "err", err)
		}
	}
	final := t.Final
	if in.LastAssistantMessage != "" {
		final = in.LastAssistantMessage
	}
	if strings.TrimSpace(final) == "" {
		return Output{}, nil
	}
	ev := turnEvidence(t, action.Env{Root: project})
	if len(ev.codeEdits) == 0 || ev.verified {
		return Output{}, nil
	}
	ho := hesitation.ReadHandover(clip.Bytes(final, maxDraftBytes*8))
	if ho.Kind != hesitation.HandoverDone {
		return Output{}, nil
	}
	turnKey := hashKey(t.Prompt + "\x00" + final)
	if h.State != nil {
		s, err := h.State.Read(in.SessionID)
		if err == nil && s.BlockedTurn == turnKey {
			return Output{}, nil
		}
		if err := h.State.Update(in.SessionID, func(s *SessionState) { s.BlockedTurn = turnKey }); err != nil {
			return Output{}, err
		}
	}
	return Output{Decision: "block", Reason: stopReason(ho, ev)}, nil
}

// stopReason says why Stop blocks and what to do.
func stopReason(ho hesitation.Handover, ev evidence) string {
	var b strings.Builder
	b.WriteString("innate-mcp: you hand over ")
	b.WriteString(editedFiles(ev.codeEdits))
	if ho.Claim != "" {
		fmt.Fprintf(&b, " as done (%q)", clip.Line(ho.Claim, 60))
	} else {
		b.WriteString(" as done")
	}
	b.WriteString(", but ")
	b.WriteString(ev.why)
	b.WriteString(". Run the tests, the build or the program on what you changed and read the output, or say plainly what you did not run, before you finish.")
	return b.String()
}

// editedFiles names up to three edited files.
func editedFiles(files []string) string {
	var named []string
	for _, f := range files {
		if f != "" && !slices.Contains(named, f) {
			named = append(named, f)
		}
	}
	switch {
	case len(named) == 0:
		return "your edits"
	case len(named) > 3:
		return fmt.Sprintf("your edits of %s and %d more files", strings.Join(named[:3], ", "), len(named)-3)
	}
	return "your edits of " + strings.Join(named, ", ")
}

// evidence is what a turn's tool calls show of its changes and their
// verification.
type evidence struct {
	// codeEdits are the code files the turn changed, relative to the root
	// where it is known ("" for a file tool that did not say).
	codeEdits []string
	// verified: passing runs after the last edit of code cover every file
	// the turn changed.
	verified bool
	// why says what is missing when not verified.
	why string
}

// turnEvidence reads a turn's edits and the verifying runs after its last
// edit of code. The last verifying run must have passed; the passing runs
// after the last failed one must cover every edited file.
func turnEvidence(t Turn, env action.Env) evidence {
	var ev evidence
	lastEdit := -1
	acts := make([]action.Action, len(t.Tools)) // each call parsed once
	for i, c := range t.Tools {
		acts[i] = c.read(env)
		files := codeFiles(c.edits(acts[i]))
		if len(files) > 0 {
			ev.codeEdits = append(ev.codeEdits, files...)
			lastEdit = i
		}
	}
	if lastEdit < 0 {
		return ev
	}
	var passing []verifyingRun
	var last *verifyingRun
	for i, c := range t.Tools[lastEdit+1:] {
		for _, r := range readRuns(c, acts[lastEdit+1+i]) {
			if r.failed {
				passing = passing[:0]
			} else {
				passing = append(passing, r)
			}
			last = &r
		}
	}
	switch {
	case last == nil:
		ev.why = "nothing tested, built or ran it after your last edit"
		return ev
	case last.failed:
		ev.why = fmt.Sprintf("`%s` failed after your last edit (%s)", clip.Line(last.command, 80), clip.Line(last.failure, 120))
		return ev
	}
	for _, f := range ev.codeEdits {
		if !slices.ContainsFunc(passing, func(r verifyingRun) bool { return covers(r.scope, f) }) {
			ev.why = fmt.Sprintf("what ran after your last edit does not cover %s", f)
			return ev
		}
	}
	ev.verified = true
	return ev
}

// codeFiles are the files of code among a call's edits (ToolCall.Edits),
// docs left out.
func codeFiles(edits []string) []string {
	var out []string
	for _, f := range edits {
		if !check.IsDoc(f) {
			out = append(out, f)
		}
	}
	return out
}

// String is the decision and its texts, for logs and tests; "" for nil.
func (s *Specific) String() string {
	if s == nil {
		return ""
	}
	return s.PermissionDecision + "|" + s.PermissionDecisionReason + "|" + s.AdditionalContext
}
