package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/innate-mcp/innate-mcp/embed"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/mcpserver"
)

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// cliSession is the session id CLI calls record under: each invocation is
// its own session unless INNATE_SESSION names one.
func (m *Main) cliSession() string {
	if s := m.Getenv("INNATE_SESSION"); s != "" {
		return s
	}
	return fmt.Sprintf("cli-%d", os.Getpid())
}

// currentProject is the project a CLI call defaults to: INNATE_PROJECT, else
// the working directory's (mcpserver.ProjectRoot).
func (m *Main) currentProject() string {
	if p := m.Getenv("INNATE_PROJECT"); p != "" {
		return p
	}
	cwd, err := m.Getwd()
	if err != nil {
		return ""
	}
	return mcpserver.ProjectRoot(cwd)
}

// checkSetInt refuses a flag given explicitly with a value outside
// [lo, hi], in the words the MCP tools use.
func checkSetInt(fs *flag.FlagSet, name string, v, lo, hi int) error {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	if set && (v < lo || v > hi) {
		return fmt.Errorf("%w: --%s is %d; it must be an integer from %d to %d", errUsage, name, v, lo, hi)
	}
	return nil
}

// readArgs decodes a tool's JSON arguments from stdin. When stdin holds
// nothing, or is a terminal nobody is piping into, it returns a usage error
// that says what the command needs: need.
func readArgs(stdin io.Reader, v any, need string) error {
	b, err := readStdin(stdin)
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return fmt.Errorf("%w: %s", errUsage, need)
	}
	return mcpserver.DecodeStrict(bytes.NewReader(b), v)
}

// readStdin reads up to 64 MiB of stdin; a terminal or no stdin reads as
// nothing, so that a command run by hand without input says what it needs
// instead of waiting.
func readStdin(stdin io.Reader) ([]byte, error) {
	if stdin == nil || isTerminal(stdin) {
		return nil, nil
	}
	b, err := io.ReadAll(io.LimitReader(stdin, 64<<20))
	if err != nil {
		return nil, fmt.Errorf("read stdin: %w", err)
	}
	return b, nil
}

// What each command needs when it is given nothing.
const (
	needRecall       = "nothing to recall: pass QUERY or --query TEXT (or --error, --file), or the recall tool's JSON arguments on stdin (innate-mcp recall -h)"
	needAppraise     = "nothing to appraise: pass QUERY or --query TEXT (with --candidate), or the appraise tool's JSON arguments on stdin (innate-mcp appraise -h)"
	needRecord       = "nothing to record: pass flags (--lesson TEXT, --trace ID --outcome success, --correction TEXT, …) or the record tool's JSON arguments on stdin (innate-mcp record -h)"
	needHesitate     = "no draft: pipe the draft to check on stdin, as in innate-mcp hesitate --action commit < DRAFT (innate-mcp hesitate -h)"
	needHesitateJSON = `no JSON on stdin: pass the hesitate tool's arguments ({"draft": "…"}) on stdin, or drop --json and pipe the draft itself`
)

func (m *Main) runRecall(ctx context.Context, g *globals, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var req kb.RecallRequest
	var files stringList
	fs := newFlagSet("recall", g, stderr, "[flags] [QUERY...]   (no query: JSON arguments on stdin)")
	fs.StringVar(&req.Query, "query", "", "what you are about to do")
	fs.StringVar(&req.Error, "error", "", "error message you face")
	fs.Var(&files, "file", "file involved (repeatable)")
	fs.StringVar(&req.Stage, "stage", "", "stage: plan, edit, debug, test, review, commit")
	fs.StringVar(&req.Project, "project", "", "project (default: INNATE_PROJECT or the git root)")
	fs.IntVar(&req.Top, "top", 0, "maximum lessons (default 5)")
	fs.IntVar(&req.BudgetTokens, "budget-tokens", 0, "cap on returned text, in tokens")
	if err := fs.Parse(args); err != nil {
		return err
	}
	// --top 0 is refused as top: 0 is over MCP; leaving it out means 5.
	if err := checkSetInt(fs, "top", req.Top, 1, kb.MaxTop); err != nil {
		return err
	}
	req.Files = files
	if req.Query == "" && fs.NArg() > 0 {
		req.Query = strings.Join(fs.Args(), " ")
	}
	if req.Query == "" && req.Error == "" && len(files) == 0 {
		if err := readArgs(stdin, &req, needRecall); err != nil {
			return err
		}
	}
	if req.Project == "" {
		req.Project = m.currentProject()
	}
	a, err := m.open(ctx, g, stderr, m.cliSession(), logAccess)
	if err != nil {
		return err
	}
	defer a.close()
	m.syncProject(ctx, a, req.Project)
	res, err := a.kb.Recall(ctx, req)
	if err != nil {
		return err
	}
	return writeJSON(stdout, res)
}

func (m *Main) runRecord(ctx context.Context, g *globals, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var (
		req                               kb.RecordRequest
		used, up, down, tags              stringList
		lesson, trigger, anti, origin, kd string
		correction                        string
		global                            bool
		outcome, heeded                   string
	)
	fs := newFlagSet("record", g, stderr, "[flags]   (no flags: JSON arguments on stdin)")
	fs.StringVar(&req.TraceID, "trace", "", "trace_id of the recall this is about")
	fs.StringVar(&outcome, "outcome", "", "success, failure or unknown")
	fs.Var(&used, "used", "id of a returned lesson you used (repeatable)")
	fs.Var(&up, "up", "id of a lesson that helped (repeatable)")
	fs.Var(&down, "down", "ID:REASON for a lesson that was wrong (repeatable)")
	fs.StringVar(&lesson, "lesson", "", "text of a new lesson")
	fs.StringVar(&trigger, "trigger", "", "situation the new lesson applies to")
	fs.StringVar(&anti, "anti-trigger", "", "when the new lesson does not apply")
	fs.Var(&tags, "tag", "tag of the new lesson (repeatable)")
	fs.StringVar(&origin, "origin", "", "user_stated or agent_inferred (default)")
	fs.StringVar(&kd, "kind", "", "rule (default) or caution")
	fs.BoolVar(&global, "global", false, "the new lesson applies to every project")
	fs.StringVar(&correction, "correction", "", "a correction the user made")
	fs.StringVar(&req.Project, "project", "", "project of the new lesson")
	fs.StringVar(&heeded, "verdict-heeded", "", "for an appraise trace: true when you changed course because of the verdict, false when not")
	fs.StringVar(&req.Misroute, "misroute", "", "for an appraise trace: missed_clarify, missed_gather, over_engagement or under_engagement")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: record takes flags or JSON on stdin, not arguments (%q)", errUsage, fs.Arg(0))
	}
	if heeded != "" {
		h, err := strconv.ParseBool(heeded)
		if err != nil {
			return fmt.Errorf("%w: --verdict-heeded %q: use true or false", errUsage, heeded)
		}
		req.VerdictHeeded = &h
	}
	flagsGiven := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name != "db" && f.Name != "log-level" && f.Name != "log-file" {
			flagsGiven = true
		}
	})
	if flagsGiven {
		req.Outcome, req.Used = kb.Outcome(outcome), used
		for _, id := range up {
			req.Feedback = append(req.Feedback, kb.FeedbackItem{LessonID: id, Signal: "up"})
		}
		for _, d := range down {
			id, reason, _ := strings.Cut(d, ":")
			req.Feedback = append(req.Feedback, kb.FeedbackItem{LessonID: id, Signal: "down", Reason: reason})
		}
		if lesson != "" {
			req.Lesson = &kb.LessonInput{Content: lesson, Trigger: trigger, AntiTrigger: anti, Tags: tags,
				Origin: kb.Origin(origin), Kind: kb.Kind(kd), Global: global}
		}
		if correction != "" {
			req.Correction = &kb.CorrectionInput{Text: correction}
		}
	} else if err := readArgs(stdin, &req, needRecord); err != nil {
		return err
	}
	if req.Project == "" && req.Lesson != nil && !req.Lesson.Global {
		req.Project = m.currentProject()
	}
	// A person runs the command: the origin they give is taken as given.
	req.Author = kb.AuthorPerson
	a, err := m.open(ctx, g, stderr, m.cliSession(), writeAccess)
	if err != nil {
		return err
	}
	defer a.close()
	res, err := a.kb.Record(ctx, req)
	if err != nil {
		return err
	}
	return writeJSON(stdout, res)
}

func (m *Main) runEmbed(ctx context.Context, g *globals, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var model string
	fs := newFlagSet("embed", g, stderr, "[--model NAME] TEXT...")
	fs.StringVar(&model, "model", "", "model: use-lite (built-in, default), or a remote model with INNATE_EMBEDDER=ollama|openai")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("%w: embed needs at least one TEXT argument", errUsage)
	}
	cfg := embed.ConfigFromEnv(m.Getenv)
	if model != "" {
		cfg.Model = model
	}
	e, err := embed.New(cfg)
	if err != nil {
		return err
	}
	vecs, err := e.EmbedBatch(ctx, fs.Args())
	if err != nil {
		return err
	}
	return writeJSON(stdout, struct {
		Model   string      `json:"model"`
		Dim     int         `json:"dim"`
		Vectors [][]float32 `json:"vectors"`
	}{e.Name(), e.Dim(), vecs})
}

func (m *Main) runVersion(ctx context.Context, g *globals, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("version", g, stderr, "")
	if err := fs.Parse(args); err != nil {
		return err
	}
	_, err := fmt.Fprintf(stdout, "innate-mcp %s\n", version)
	return err
}

// isInput reports whether err is the caller's to fix.
func isInput(err error) bool { return errors.Is(err, kb.ErrInput) }
