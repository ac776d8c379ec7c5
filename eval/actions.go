package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/innate-mcp/innate-mcp/hook"
	"github.com/innate-mcp/innate-mcp/internal/metric"
	"github.com/innate-mcp/innate-mcp/internal/split"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/terms"
)

// ActionCall is one real tool call of the actions set (DIR/repos/<slug>/
// calls.jsonl): what an agent did in a repository, in Claude Code's shape
// (file paths relative to the repository's root), and its label.
type ActionCall struct {
	ID        string          `json:"id"`
	Repo      string          `json:"repo"`
	Session   string          `json:"session"`
	Seq       int             `json:"seq"`
	ToolName  string          `json:"tool_name"`
	ToolInput json.RawMessage `json:"tool_input"`
	// Skipped: the chat shows the user refused the call; it did not run.
	Skipped bool `json:"skipped"`
	// Partial: the chat showed an edit without its text or its path, so
	// the call cannot show a breach of a rule about what is written or
	// where.
	Partial bool         `json:"partial"`
	Label   *ActionLabel `json:"label"`
}

// ActionLabel says whether a call breaks one of its repository's rules, as
// a person who never saw the code judged it.
type ActionLabel struct {
	Breach   bool   `json:"breach"`
	RuleFile string `json:"rule_file"`
	Rule     string `json:"rule"` // verbatim from the rule file
	Reason   string `json:"reason"`
	Unsure   bool   `json:"unsure"`
}

// ActionSource is one repository of the set (DIR/sources.jsonl).
type ActionSource struct {
	Repo      string   `json:"repo"`
	Commit    string   `json:"commit"`
	Licence   string   `json:"licence"`
	RuleFiles []string `json:"rule_files"`
	// Half is the part of the set the repository is in: tune (read while
	// the reader was built) or check (only measured).
	Half string `json:"half"`
	// Batch names the round of building the repository was added in, when
	// the set grew in rounds ("a", "d"): a batch added after a change of
	// the program measures it on material nobody has read.
	Batch string `json:"batch,omitempty"`
}

// Slug is the directory of a repository in the set: owner__name.
func (s ActionSource) Slug() string { return strings.ReplaceAll(s.Repo, "/", "__") }

// ActionsOptions configures Actions.
type ActionsOptions struct {
	// Handler makes the hook handler of the replay for a project root (its
	// knowledge base and the sync of its rule files, as the command
	// wires them).
	Handler func(root string) *hook.Handler
	// Lesson reads a lesson, to compare the rule an answer quotes with the
	// label's.
	Lesson func(ctx context.Context, id string) (kb.Lesson, error)
	// Root is a directory to lay the repositories out in.
	Root string
	// NoOverrides replays without the user's overrides: no call the hook
	// asked about runs, so no check learns from being let through.
	NoOverrides bool
	// Dump, when not nil, receives one JSON line per call with the hook's
	// answer and the label.
	Dump io.Writer
	// Progress, when not nil, is told how far the run is.
	Progress func(done, total int)
	// Consultant, when set, is a directory of recorded consultant answers,
	// <repository slug>/<rule file's path, "/" as "__">.json, applied to
	// the knowledge base KB after a repository's rule files are synced.
	Consultant string
	KB         *kb.KB
}

// ActionFigures are the replay's figures over a set of repositories.
type ActionFigures struct {
	Repos    int `json:"repos"`
	Calls    int `json:"calls"`
	Breaches int `json:"breaches"`
	Asks     int `json:"asks"`
	Reminds  int `json:"reminders"`

	AsksPer100 float64 `json:"asks_per_100_calls"`
	// AskPrecision is the share of asks on calls labelled a breach;
	// AskPrecisionRule of asks on a breach that quote the broken rule.
	AskPrecision     float64 `json:"ask_precision"`
	AskPrecisionRule float64 `json:"ask_precision_quoting_the_broken_rule"`
	// Flags are asks and reminders.
	FlagsPer100   float64 `json:"flags_per_100_calls"`
	FlagPrecision float64 `json:"flag_precision"`
	// RecallRule is the share of breaches flagged with the broken rule
	// quoted; RecallAskedRule of those asked about with it.
	RecallRule      float64 `json:"breach_recall_right_rule"`
	RecallAskedRule float64 `json:"breach_recall_asked_right_rule"`
	// Shown are the breaches in calls that are not Partial, and
	// RecallShownRule RecallRule over them: a replay can catch no more.
	Shown           int     `json:"breaches_shown"`
	RecallShownRule float64 `json:"breach_recall_right_rule_shown"`
	// Per 100 compliant calls, those asked about and those flagged (asked
	// or reminded): the false interruptions, whatever share of the calls
	// break a rule (a set written to test the rules is dense in breaches).
	CompliantAsksPer100  float64 `json:"compliant_asked_per_100"`
	CompliantFlagsPer100 float64 `json:"compliant_flagged_per_100"`
	P50ms                float64 `json:"pre_tool_use_p50_ms"`
	P95ms                float64 `json:"pre_tool_use_p95_ms"`
}

// ActionsReport is what Actions prints: every repository, and the tune and
// check halves (each repository's half in sources.jsonl).
type ActionsReport struct {
	ActionFigures
	Tune  ActionFigures `json:"tune"`
	Check ActionFigures `json:"check"`
	// Batches are the figures of each batch, when sources.jsonl names
	// them.
	Batches map[string]ActionFigures `json:"batches,omitempty"`
	// Consultant counts the recorded consultant answers applied.
	Consultant *ConsultFigures `json:"consultant,omitempty"`
	// Context is the tokens the hooks added to each session's context.
	Context ContextFigures `json:"context"`
}

// actionOutcome is one call's replay.
type actionOutcome struct {
	call     ActionCall
	ask      bool
	remind   bool
	quotes   bool // the answer quotes the rule the label names
	text     string
	tokens   int // the context the answer added
	duration time.Duration
}

// Actions replays the real tool calls of the actions set through the
// PreToolUse hook, as Claude Code sends them (SessionStart first, then per
// call PreToolUse and, for a call that ran, PostToolUse), each
// repository's rule files laid out at its root, and measures the answers
// against the labels. A call the hook asked about and the label calls a
// breach is taken as refused (no PostToolUse); one it asked about wrongly
// is let through, as a user would, which counts as an override.
func Actions(ctx context.Context, dir string, opts ActionsOptions) (ActionsReport, error) {
	sources, err := readSources(dir)
	if err != nil {
		return ActionsReport{}, err
	}
	var calls []ActionCall
	for _, s := range sources {
		cs, err := readJSONL[ActionCall](filepath.Join(dir, "repos", s.Slug(), "calls.jsonl"))
		if err != nil {
			return ActionsReport{}, err
		}
		for _, c := range cs {
			if c.Label == nil {
				return ActionsReport{}, fmt.Errorf("%s: call %s has no label", s.Repo, c.ID)
			}
		}
		calls = append(calls, cs...)
	}
	half, batch := map[string]string{}, map[string]string{}
	for _, s := range sources {
		half[s.Repo], batch[s.Repo] = s.Half, s.Batch
	}
	var outs []actionOutcome
	var cf *ConsultFigures
	tokens := &sessionTokens{}
	done := 0
	for _, s := range sources {
		root := filepath.Join(opts.Root, s.Slug())
		if err := layOut(filepath.Join(dir, "repos", s.Slug(), "rules"), root); err != nil {
			return ActionsReport{}, fmt.Errorf("%s: %w", s.Repo, err)
		}
		h := opts.Handler(root)
		var mine []ActionCall
		for _, c := range calls {
			if c.Repo == s.Repo {
				mine = append(mine, c)
			}
		}
		sort.SliceStable(mine, func(i, j int) bool {
			if mine[i].Session != mine[j].Session {
				return mine[i].Session < mine[j].Session
			}
			return mine[i].Seq < mine[j].Seq
		})
		started := map[string]bool{}
		for _, c := range mine {
			session := s.Slug() + "/" + c.Session
			if !started[session] {
				started[session] = true
				in := hook.Input{SessionID: session, Cwd: root, Event: hook.SessionStart, Source: "startup"}
				out, err := h.Handle(ctx, in)
				if err != nil {
					return ActionsReport{}, fmt.Errorf("%s: SessionStart: %w", c.ID, err)
				}
				// What SessionStart gave before it left out the files
				// Claude Code loads itself, on a session of its own.
				before := *h
				before.Config.SessionStart.RepeatLoadedFiles = true
				before.Config.SessionBudgetTokens = 0
				in.SessionID += "#before"
				outBefore, err := before.Handle(ctx, in)
				if err != nil {
					return ActionsReport{}, fmt.Errorf("%s: SessionStart: %w", c.ID, err)
				}
				tokens.start(session, hook.Tokens(out), hook.Tokens(outBefore))
				if len(started) == 1 && opts.Consultant != "" {
					if cf == nil {
						cf = &ConsultFigures{}
					}
					if err := consultRepo(ctx, opts, root, s.Slug(), cf); err != nil {
						return ActionsReport{}, fmt.Errorf("%s: %w", s.Repo, err)
					}
				}
			}
			o, err := replay(ctx, h, root, session, c, opts)
			if err != nil {
				return ActionsReport{}, fmt.Errorf("%s: %w", c.ID, err)
			}
			tokens.add(session, o.tokens)
			outs = append(outs, o)
			if opts.Dump != nil {
				if err := json.NewEncoder(opts.Dump).Encode(o.dump()); err != nil {
					return ActionsReport{}, err
				}
			}
			done++
			if opts.Progress != nil && (done%100 == 0 || done == len(calls)) {
				opts.Progress(done, len(calls))
			}
		}
	}
	rep := ActionsReport{
		ActionFigures: summariseActions(outs, func(string) bool { return true }),
		Tune:          summariseActions(outs, func(r string) bool { return half[r] == split.Tune }),
		Check:         summariseActions(outs, func(r string) bool { return half[r] == split.Check }),
		Consultant:    cf,
		Context:       tokens.figures(),
	}
	for _, s := range sources {
		if s.Batch == "" {
			continue
		}
		if rep.Batches == nil {
			rep.Batches = map[string]ActionFigures{}
		}
		if _, ok := rep.Batches[s.Batch]; !ok {
			b := s.Batch
			rep.Batches[b] = summariseActions(outs, func(r string) bool { return batch[r] == b })
		}
	}
	return rep, nil
}

// lessonRef is a lesson's id in a hook's answer.
var lessonRef = regexp.MustCompile(`\[(L[0-9a-f]+)\]`)

// replay sends one call through PreToolUse and, when it ran, PostToolUse.
func replay(ctx context.Context, h *hook.Handler, root, session string, c ActionCall, opts ActionsOptions) (actionOutcome, error) {
	input, err := absolutePaths(c.ToolInput, root)
	if err != nil {
		return actionOutcome{}, err
	}
	in := hook.Input{SessionID: session, Cwd: root, Event: hook.PreToolUse, ToolName: c.ToolName, ToolInput: input, ToolUseID: c.ID}
	start := time.Now()
	out, err := h.Handle(ctx, in)
	o := actionOutcome{call: c, duration: time.Since(start)}
	if err != nil {
		return o, fmt.Errorf("PreToolUse: %w", err)
	}
	text := ""
	if sp := out.Specific; sp != nil {
		o.ask = sp.PermissionDecision != ""
		o.remind = !o.ask && sp.AdditionalContext != ""
		text = sp.PermissionDecisionReason + sp.AdditionalContext
	}
	o.text = text
	o.tokens = hook.Tokens(out)
	if m := lessonRef.FindStringSubmatch(text); m != nil && c.Label.Rule != "" && opts.Lesson != nil {
		if l, err := opts.Lesson(ctx, m[1]); err == nil {
			o.quotes = sameRule(l.Content, c.Label.Rule)
		}
	}
	runs := !c.Skipped && !(o.ask && (c.Label.Breach || opts.NoOverrides))
	if runs {
		in.Event = hook.PostToolUse
		if _, err := h.Handle(ctx, in); err != nil {
			return o, fmt.Errorf("PostToolUse: %w", err)
		}
	}
	return o, nil
}

// absolutePaths makes a call's file_path or notebook_path absolute under
// root, as Claude Code sends them.
func absolutePaths(input json.RawMessage, root string) (json.RawMessage, error) {
	var m map[string]any
	if err := json.Unmarshal(input, &m); err != nil {
		return nil, fmt.Errorf("tool_input: %w", err)
	}
	for _, k := range []string{"file_path", "notebook_path"} {
		if p, ok := m[k].(string); ok && p != "" && !filepath.IsAbs(p) && !strings.Contains(p, `:\`) {
			m[k] = filepath.Join(root, filepath.FromSlash(p))
		}
	}
	return json.Marshal(m)
}

// sameRule reports whether a lesson's content is the rule a label quotes:
// most of the label's words are in it, or most of its words in the label's.
func sameRule(content, label string) bool {
	a, b := terms.Distinct(content), terms.Distinct(label)
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	in := func(x, y map[string]struct{}) float64 {
		n := 0
		for t := range x {
			if _, ok := y[t]; ok {
				n++
			}
		}
		return float64(n) / float64(len(x))
	}
	return in(b, a) >= 0.6 || in(a, b) >= 0.6
}

// consultRepo applies the recorded answers for a repository's rule files,
// laid out at root.
func consultRepo(ctx context.Context, opts ActionsOptions, root, slug string, f *ConsultFigures) error {
	if opts.KB == nil {
		return fmt.Errorf("a consultant's answers need the knowledge base (ActionsOptions.KB)")
	}
	return filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		if strings.HasPrefix(rel, ".git"+string(filepath.Separator)) || strings.HasPrefix(rel, ".innate") {
			return nil
		}
		name := strings.ReplaceAll(filepath.ToSlash(rel), "/", "__") + ".json"
		return applyConsultant(ctx, opts.KB, root, p, filepath.Join(opts.Consultant, slug, name), f)
	})
}

// layOut copies a repository's rule files under root, with a .git
// directory so that root is a project.
func layOut(rules, root string) error {
	if err := os.MkdirAll(filepath.Join(root, ".git"), 0o700); err != nil {
		return err
	}
	return filepath.WalkDir(rules, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(rules, p)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dst := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o600)
	})
}

func (o actionOutcome) dump() any {
	answer := "none"
	switch {
	case o.ask:
		answer = "ask"
	case o.remind:
		answer = "remind"
	}
	return map[string]any{"id": o.call.ID, "answer": answer, "quotes_label_rule": o.quotes, "breach": o.call.Label.Breach,
		"rule": o.call.Label.Rule, "unsure": o.call.Label.Unsure, "said": o.text, "ms": metric.Round4(float64(o.duration.Microseconds()) / 1000)}
}

// summariseActions computes the figures over the calls of the
// repositories keep selects.
func summariseActions(outs []actionOutcome, keep func(repo string) bool) ActionFigures {
	var f ActionFigures
	repos := map[string]bool{}
	var askRight, askRule, flagRight, recallFlag, recallAsk, recallShown, compliantAsked, compliantFlagged int
	var ms []float64
	for _, o := range outs {
		if !keep(o.call.Repo) {
			continue
		}
		repos[o.call.Repo] = true
		f.Calls++
		ms = append(ms, float64(o.duration.Microseconds())/1000)
		b := o.call.Label.Breach
		if b {
			f.Breaches++
			if !o.call.Partial {
				f.Shown++
			}
		}
		if o.ask {
			f.Asks++
			if b {
				askRight++
				if o.quotes {
					askRule++
				}
			}
		}
		if o.remind {
			f.Reminds++
		}
		if !b && o.ask {
			compliantAsked++
		}
		if !b && (o.ask || o.remind) {
			compliantFlagged++
		}
		if (o.ask || o.remind) && b {
			flagRight++
			if o.quotes {
				recallFlag++
				if !o.call.Partial {
					recallShown++
				}
				if o.ask {
					recallAsk++
				}
			}
		}
	}
	f.Repos = len(repos)
	f.AsksPer100 = ratio(100*f.Asks, f.Calls)
	f.AskPrecision = ratio(askRight, f.Asks)
	f.AskPrecisionRule = ratio(askRule, f.Asks)
	f.FlagsPer100 = ratio(100*(f.Asks+f.Reminds), f.Calls)
	f.FlagPrecision = ratio(flagRight, f.Asks+f.Reminds)
	f.RecallRule = ratio(recallFlag, f.Breaches)
	f.RecallAskedRule = ratio(recallAsk, f.Breaches)
	f.RecallShownRule = ratio(recallShown, f.Shown)
	f.CompliantAsksPer100 = ratio(100*compliantAsked, f.Calls-f.Breaches)
	f.CompliantFlagsPer100 = ratio(100*compliantFlagged, f.Calls-f.Breaches)
	if len(ms) > 0 {
		slices.Sort(ms)
		f.P50ms = metric.Round4(ms[len(ms)/2])
		f.P95ms = metric.Round4(ms[min(len(ms)-1, len(ms)*95/100)])
	}
	return f
}

// readJSONL reads a JSONL file of T.
func readJSONL[T any](path string) ([]T, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	var out []T
	for {
		var v T
		if err := dec.Decode(&v); err == io.EOF {
			return out, nil
		} else if err != nil {
			return nil, fmt.Errorf("%s: record %d: %w", path, len(out)+1, err)
		}
		out = append(out, v)
	}
}

// ratio is n/d rounded, 0 when d is 0.
func ratio(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return metric.Round4(float64(n) / float64(d))
}

// readSources reads a set's DIR/sources.jsonl, each repository's half
// checked.
func readSources(dir string) ([]ActionSource, error) {
	sources, err := readJSONL[ActionSource](filepath.Join(dir, "sources.jsonl"))
	if err != nil {
		return nil, err
	}
	for _, s := range sources {
		if s.Half != split.Tune && s.Half != split.Check {
			return nil, fmt.Errorf("%s: half is %q: say tune or check", s.Repo, s.Half)
		}
	}
	return sources, nil
}
