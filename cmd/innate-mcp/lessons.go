package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/innate-mcp/innate-mcp/rulesync"

	"github.com/innate-mcp/innate-mcp/internal/clip"
	"github.com/innate-mcp/innate-mcp/internal/metric"

	"github.com/innate-mcp/innate-mcp/confidence"
	"github.com/innate-mcp/innate-mcp/directive"
	"github.com/innate-mcp/innate-mcp/kb"
)

func (m *Main) runLessons(ctx context.Context, g *globals, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var state, tier, project, reason string
	var asJSON bool
	fs := newFlagSet("lessons", g, stderr, "list [--state S] [--tier T] [--project P] | show ID | approve ID | reject ID [--reason R] | archive ID | restore ID   [--json]")
	fs.StringVar(&state, "state", "", "list: only lessons in this state (pending, active, archived)")
	fs.StringVar(&tier, "tier", "", "list: only lessons of this tier (core, strong, moderate, tentative, deprecated)")
	fs.StringVar(&project, "project", "", "list: only lessons of this project")
	fs.StringVar(&reason, "reason", "", "reject/archive: why (kept in the history)")
	fs.BoolVar(&asJSON, "json", false, "print JSON")
	if err := fs.Parse(reorderFlags(fs, args)); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("%w: lessons needs list, show, approve, reject, archive or restore", errUsage)
	}
	acc := writeAccess
	if verb := fs.Arg(0); verb == "list" || verb == "show" {
		acc = readAccess
	}
	a, err := m.open(ctx, g, stderr, m.cliSession(), acc)
	if err != nil {
		return err
	}
	defer a.close()
	verb := fs.Arg(0)
	if verb == "list" {
		return m.listLessons(ctx, a, state, tier, project, asJSON, stdout)
	}
	if fs.NArg() != 2 {
		return fmt.Errorf("%w: lessons %s needs exactly one lesson ID", errUsage, verb)
	}
	id := fs.Arg(1)
	switch verb {
	case "show":
		return m.showLesson(ctx, a, id, asJSON, stdout)
	case "approve", "reject", "archive", "restore":
		l, note, err := a.kb.ApplyAction(ctx, id, kb.LessonAction(verb), reason)
		if err != nil {
			return err
		}
		return writeJSON(stdout, map[string]any{"id": l.ID, "state": l.State, "tier": l.Tier,
			"confidence": metric.Round4(l.Confidence), "change": note})
	}
	return fmt.Errorf("%w: lessons %q: use list, show, approve, reject, archive or restore", errUsage, verb)
}

// reorderFlags moves flags after positional arguments to the front, so
// that `lessons show ID --json` works like `lessons --json show ID`.
func reorderFlags(fs *flag.FlagSet, args []string) []string {
	var flags, rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") && a != "-" {
			flags = append(flags, a)
			if !strings.Contains(a, "=") && i+1 < len(args) && takesValue(fs, a) {
				flags = append(flags, args[i+1])
				i++
			}
			continue
		}
		rest = append(rest, a)
	}
	return append(flags, rest...)
}

// takesValue reports whether a flag of fs is followed by its value: every
// flag but a boolean one (and -h, --help).
func takesValue(fs *flag.FlagSet, arg string) bool {
	name := strings.TrimLeft(arg, "-")
	f := fs.Lookup(name)
	if f == nil {
		return false
	}
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return !ok || !b.IsBoolFlag()
}

// lessonRow is one line of `lessons list`.
type lessonRow struct {
	ID         string          `json:"id"`
	State      kb.State        `json:"state"`
	Tier       confidence.Tier `json:"tier"`
	Confidence float64         `json:"confidence"`
	Origin     kb.Origin       `json:"origin"`
	Project    string          `json:"project,omitempty"`
	Content    string          `json:"content"`
}

func (m *Main) listLessons(ctx context.Context, a *app, state, tier, project string, asJSON bool, stdout io.Writer) error {
	f := kb.LessonFilter{Project: project}
	if state != "" {
		f.States = []kb.State{kb.State(state)}
	}
	var rows []lessonRow
	err := a.store.Lessons(ctx, f, func(l kb.Lesson) error {
		l = a.kb.DecayedToNow(l)
		if tier != "" && string(l.Tier) != tier {
			return nil
		}
		rows = append(rows, lessonRow{l.ID, l.State, l.Tier, metric.Round4(l.Confidence), l.Origin, l.Project, l.Content})
		return nil
	})
	if err != nil {
		return err
	}
	if asJSON {
		if rows == nil {
			rows = []lessonRow{}
		}
		return writeJSON(stdout, rows)
	}
	tw := tabwriter.NewWriter(stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATE\tTIER\tCONF\tORIGIN\tCONTENT")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.2f\t%s\t%s\n", r.ID, r.State, r.Tier, r.Confidence, r.Origin, clip.Line(r.Content, 70))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return writeSyncedFiles(ctx, a, project, stdout)
}

// writeSyncedFiles prints, under the lessons, the rule files the server
// synced (all, or the project's and the global ones) and when.
func writeSyncedFiles(ctx context.Context, a *app, project string, stdout io.Writer) error {
	states, err := rulesync.States(ctx, a.store)
	if err != nil {
		return err
	}
	states = slices.DeleteFunc(states, func(st rulesync.State) bool {
		return len(st.Files) == 0 || (project != "" && st.Project != "" && st.Project != project)
	})
	if len(states) == 0 {
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "\nRULE FILE\tSYNCED\tRULES\tPROJECT")
	for _, st := range states {
		for _, f := range st.Files {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\n", f.Path, f.SyncedAt.Local().Format(time.DateTime), f.Rules, cmp.Or(st.Project, "(global)"))
		}
	}
	return tw.Flush()
}

// lessonDetail is the output of `lessons show`.
type lessonDetail struct {
	kb.Lesson
	Scores  confidence.Scores   `json:"scores"`
	Trend   confidence.Trend    `json:"trend"`
	History []confidence.Change `json:"history"`
	Links   []string            `json:"links,omitempty"`
}

func (m *Main) showLesson(ctx context.Context, a *app, id string, asJSON bool, stdout io.Writer) error {
	l, err := a.kb.Lesson(ctx, id)
	if err != nil {
		return err
	}
	hist, err := a.store.History(ctx, id)
	if err != nil {
		return err
	}
	links, err := a.store.Links(ctx, id)
	if err != nil {
		return err
	}
	d := lessonDetail{Lesson: l, Scores: l.Conf.Scores(a.kb.ConfidenceConfig()), History: hist}
	var series []float64
	for _, h := range hist {
		series = append(series, h.After.Composite)
	}
	d.Trend = confidence.TrendOf(series, a.kb.ConfidenceConfig())
	for _, k := range links {
		d.Links = append(d.Links, fmt.Sprintf("%s %s %s (%s)", k.A, k.Kind, k.B, k.Reason))
	}
	if asJSON {
		return writeJSON(stdout, d)
	}
	tw := tabwriter.NewWriter(stdout, 2, 4, 2, ' ', 0)
	p := func(format string, args ...any) { fmt.Fprintf(tw, format, args...) }
	p("%s\t%s, %s, %s\n", l.ID, l.State, l.Origin, l.Kind)
	if l.Trigger != "" {
		p("trigger\t%s\n", l.Trigger)
	}
	if l.AntiTrigger != "" {
		p("anti-trigger\t%s\n", l.AntiTrigger)
	}
	if l.Project != "" {
		p("project\t%s\n", l.Project)
	}
	if l.Source != "" {
		p("source\t%s\n", kb.SourceLabel(l.Source, l.Project))
	}
	if d := l.Directive; d != nil {
		writeDirective(p, *d)
	}
	p("confidence\t%.3f (%s), trend %s\n", d.Scores.Composite, d.Scores.Tier, d.Trend)
	p("  frequency\t%.3f\t(%d observations, %d contradictions)\n", d.Scores.Frequency, l.Conf.Observations, l.Conf.Contradictions)
	p("  effectiveness\t%.3f\t(%d successes, %d failures)\n", d.Scores.Effectiveness, l.Conf.Successes, l.Conf.Failures)
	p("  human\t%.3f\t(%d approvals, %d rejections, %d explicit approvals, %d explicit rejections)\n", d.Scores.Human,
		l.Conf.Approvals, l.Conf.Rejections, l.Conf.StrongApprovals, l.Conf.StrongRejections)
	p("used\t%d times, recalled %d times\n", l.Counters.Uses, l.Counters.Recalls)
	for _, k := range d.Links {
		p("link\t%s\n", k)
	}
	p("history\n")
	for _, h := range hist {
		ign := ""
		if h.Ignored {
			ign = " (ignored)"
		}
		p("  %s\t%s%s\t%.3f → %.3f\t%s\n", h.At.Format(time.DateTime), h.Kind, ign, h.Before.Composite, h.After.Composite, h.Reason)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// The content last and as written: a rule file's lesson is a document
	// whose lines matter, and would break the table's columns.
	_, err = fmt.Fprintf(stdout, "\ncontent\n%s\n", strings.TrimRight(l.Content, "\n"))
	return err
}

// writeDirective prints a lesson's directive, one line a part:
//
//	directive  forbid
//	  do       use `pnpm`
//	  don't    `npm`, `yarn`
//	  when     installing packages
func writeDirective(p func(string, ...any), d directive.Directive) {
	switch d.Polarity {
	case directive.Context, "":
		p("directive\tcontext (describes; requires and forbids nothing)\n")
	default:
		p("directive\t%s\n", d.Polarity)
	}
	if len(d.Do) > 0 {
		p("  do\t%s\n", objects(d.Do))
	}
	if len(d.Dont) > 0 {
		p("  don't\t%s\n", objects(d.Dont))
	}
	if d.Naming != nil {
		p("  names\t%s\n", d.Naming)
	}
	if d.Indent != nil {
		p("  indent\t%s\n", d.Indent)
	}
	if d.When != "" {
		p("  when\t%s\n", d.When)
	}
	if d.Unless != "" {
		p("  unless\t%s\n", d.Unless)
	}
	if len(d.Globs) > 0 {
		p("  files\t%s\n", strings.Join(d.Globs, ", "))
	}
}

// objects renders a directive's objects on one line: code, flags and paths
// in backticks, each after its verb, examples marked.
func objects(objs []directive.Object) string {
	parts := make([]string, len(objs))
	for i, o := range objs {
		s := o.Text
		switch o.Kind {
		case directive.KindCode, directive.KindFlag, directive.KindPath:
			s = "`" + s + "`"
		}
		if o.Verb != "" {
			s = o.Verb + " " + s
		}
		if o.Example {
			s += " (e.g.)"
		}
		if o.Of != "" {
			s += " (for " + o.Of + ")"
		}
		parts[i] = s
	}
	return strings.Join(parts, ", ")
}
