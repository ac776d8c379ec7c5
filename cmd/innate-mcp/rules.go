package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/innate-mcp/innate-mcp/action"
	"github.com/innate-mcp/innate-mcp/check"
	"github.com/innate-mcp/innate-mcp/directive"
	"github.com/innate-mcp/innate-mcp/internal/clip"
	"github.com/innate-mcp/innate-mcp/internal/gitref"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/mcpserver"
)

// rulesUsage is the usage line of `rules`.
const rulesUsage = `[list] [--project DIR] [--json]
   | explain (--action 'COMMAND' | --edit PATH [--text TEXT]) [--ran 'COMMAND']... [--branch NAME] [--project DIR] [--json]
   | add LESSON_ID (--forbid-command 'CMD' | --forbid-write GLOB | --before 'CMD' --then 'CMD' | --message-must REGEX [--name NAME] | --check JSON) [--instead X]
   | approve|remind|disable CHECK_ID
   | compile --rule-file PATH --print-prompt [--json]
   | compile [--all] [--file FILE] [--print-prompt | --apply ANSWER.json|- [--active] | --run] [--json]`

// runRules lists the project's rules as they are enforced, explains why an
// action would or would not be asked about, and lets a person add, approve,
// demote or disable checks.
func (m *Main) runRules(ctx context.Context, g *globals, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var o rulesOpts
	fs := newFlagSet("rules", g, stderr, rulesUsage)
	fs.StringVar(&o.project, "project", "", "the project directory (default: the git root of the working directory, or the directory itself when it holds rule files)")
	fs.BoolVar(&o.json, "json", false, "print JSON")
	fs.StringVar(&o.action, "action", "", "explain: a shell command the agent would run")
	fs.StringVar(&o.edit, "edit", "", "explain: a file the agent would write (relative to the project, or absolute)")
	fs.StringVar(&o.text, "text", "", "explain: the new text of --edit")
	fs.Var(&o.ran, "ran", "explain: a command that ran earlier in the session (repeatable)")
	fs.StringVar(&o.branch, "branch", "", "explain: the branch checked out (default: the project's, from its .git/HEAD)")
	fs.StringVar(&o.forbidCommand, "forbid-command", "", "add: forbid running this command (program, subcommand and flags)")
	fs.StringVar(&o.forbidWrite, "forbid-write", "", "add: forbid writing files matching this glob (as .gitignore reads it)")
	fs.StringVar(&o.before, "before", "", "add: the command that must run earlier in the session, before --then")
	fs.StringVar(&o.then, "then", "", "add: the command that needs --before first (e.g. 'git commit')")
	fs.StringVar(&o.messageMust, "message-must", "", "add: a regular expression every commit message's first line must match")
	fs.StringVar(&o.name, "name", "", "add: what --message-must is, in words")
	fs.StringVar(&o.checkJSON, "check", "", "add: the check as JSON (see docs/hooks.md)")
	fs.StringVar(&o.instead, "instead", "", "add: what the rule asks for instead (the check becomes prefer-instead)")
	fs.BoolVar(&o.compile.printPrompt, "print-prompt", false, "compile: print the prompt a consultant answers (with --json, also the answer's JSON schema)")
	fs.StringVar(&o.compile.apply, "apply", "", "compile: validate and store a consultant's answer (a file, or - for standard input)")
	fs.BoolVar(&o.compile.all, "all", false, "compile: also the rules the built-in reader compiled")
	fs.StringVar(&o.compile.file, "file", "", "compile: only this rule file (as listed, or its base name)")
	fs.BoolVar(&o.compile.active, "active", false, "compile: the consultant's checks ask from the start (default: they remind until approved)")
	fs.StringVar(&o.compile.ruleFile, "rule-file", "", "compile: print the prompt for every rule of this file, read without a database (with --print-prompt)")
	fs.BoolVar(&o.compile.run, "run", false, "compile: ask the configured consultant (a command or an endpoint, see docs/consultant.md) and store its answers")
	if err := fs.Parse(reorderFlags(fs, args)); err != nil {
		return err
	}
	verb := "list"
	if fs.NArg() > 0 {
		verb = fs.Arg(0)
	}
	switch verb {
	case "list", "explain", "compile":
		if fs.NArg() > 1 {
			return fmt.Errorf("%w: rules %s takes no arguments but flags", errUsage, verb)
		}
	case "add", "approve", "remind", "disable":
		if fs.NArg() != 2 {
			return fmt.Errorf("%w: rules %s needs exactly one id", errUsage, verb)
		}
	default:
		return fmt.Errorf("%w: rules %q: use list, explain, compile, add, approve, remind or disable", errUsage, verb)
	}
	if verb == "compile" && o.compile.ruleFile != "" {
		return printFilePrompt(o, stdout)
	}
	dir := o.project
	if dir == "" {
		wd, err := m.Getwd()
		if err != nil {
			return err
		}
		dir = wd
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	named := o.project != ""
	if o.project = mcpserver.ProjectRoot(abs); o.project == "" && named {
		// A directory the user names is the project, git repository or not.
		o.project = abs
	}
	if o.project == "" {
		return fmt.Errorf("%w: %s is in no git repository and holds no rule file: name the project with --project DIR", errUsage, abs)
	}
	a, err := m.open(ctx, g, stderr, m.cliSession(), writeAccess)
	if err != nil {
		return err
	}
	defer a.close()
	if s := m.ruleSyncer(a, nil); s != nil {
		s.Seen(ctx, o.project)
	}
	switch verb {
	case "list":
		return listRules(ctx, a.kb, o, stdout)
	case "explain":
		return explainRules(ctx, a.kb, o, stdout)
	case "compile":
		return m.compileRules(ctx, a, o, stdin, stdout)
	case "add":
		c, err := o.personCheck()
		if err != nil {
			return err
		}
		sc, err := a.kb.AddCheck(ctx, fs.Arg(1), c)
		if err != nil {
			return err
		}
		return writeJSON(stdout, checkRow(sc))
	}
	state := map[string]kb.CheckState{"approve": kb.CheckActive, "remind": kb.CheckRemind, "disable": kb.CheckDisabled}[verb]
	sc, err := a.kb.SetCheckState(ctx, fs.Arg(1), state)
	if err != nil {
		return err
	}
	return writeJSON(stdout, checkRow(sc))
}

// rulesOpts are the flags of `rules`.
type rulesOpts struct {
	project, action, edit, text, branch                         string
	ran                                                         stringList
	json                                                        bool
	forbidCommand, forbidWrite, before, then, messageMust, name string
	checkJSON, instead                                          string
	compile                                                     compileOpts
}

// personCheck builds the check `rules add` was given.
func (o rulesOpts) personCheck() (check.Check, error) {
	n := 0
	for _, v := range []string{o.forbidCommand, o.forbidWrite, o.before + o.then, o.messageMust, o.checkJSON} {
		if v != "" {
			n++
		}
	}
	if n != 1 {
		return check.Check{}, fmt.Errorf("%w: rules add takes one of --forbid-command, --forbid-write, --before with --then, --message-must or --check", errUsage)
	}
	var c check.Check
	switch {
	case o.checkJSON != "":
		dec := json.NewDecoder(strings.NewReader(o.checkJSON))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			return c, fmt.Errorf("%w: --check: %v", errUsage, err)
		}
	case o.forbidCommand != "":
		p, err := check.ParseCommand(o.forbidCommand)
		if err != nil {
			return c, fmt.Errorf("%w: --forbid-command: %v", errUsage, err)
		}
		c = check.Check{Kind: check.Forbid, Command: p}
	case o.forbidWrite != "":
		c = check.Check{Kind: check.Forbid, Write: &check.WritePattern{Paths: []string{o.forbidWrite}}}
	case o.before != "" || o.then != "":
		if o.before == "" || o.then == "" {
			return c, fmt.Errorf("%w: --before and --then go together", errUsage)
		}
		b, err := check.ParseCommand(o.before)
		if err != nil {
			return c, err
		}
		t, err := check.ParseCommand(o.then)
		if err != nil {
			return c, err
		}
		c = check.Check{Kind: check.RequireBefore, Command: t, Before: b}
	case o.messageMust != "":
		c = check.Check{Kind: check.Require, Message: &check.MessagePattern{Must: o.messageMust, Name: o.name}}
	}
	if o.instead != "" {
		c.Kind, c.Instead = check.PreferInstead, o.instead
	}
	c.From = check.Provenance{By: check.ByPerson, Note: "innate-mcp rules add"}
	return c, nil
}

// ruleStatus says what became of a rule.
const (
	statusCompiled   = "compiled"    // it has checks that ask
	statusRemindOnly = "remind-only" // its checks only remind
	statusNoCheck    = "no check"    // it directs, but nothing structural was read: a reminder at most
	statusNotARule   = "not a rule"  // a description, map entry, example or note
)

// ruleRow is one rule of `rules list`.
type ruleRow struct {
	ID      string     `json:"id"`
	Source  string     `json:"source,omitempty"`
	Rule    string     `json:"rule"`
	Status  string     `json:"status"`
	Checks  []checkOut `json:"checks,omitempty"`
	Project string     `json:"project,omitempty"`
}

// checkOut is a check as `rules` prints it.
type checkOut struct {
	ID         string      `json:"id"`
	Says       string      `json:"says"`
	Kind       check.Kind  `json:"kind"`
	By         string      `json:"by"`
	State      string      `json:"state"`
	Approved   bool        `json:"approved,omitempty"`
	Fired      int         `json:"fired"`
	Overridden int         `json:"overridden"`
	LastFired  string      `json:"last_fired,omitempty"`
	Check      check.Check `json:"check"`
}

func checkRow(sc kb.StoredCheck) checkOut {
	by := string(sc.Check.From.By)
	if sc.Check.From.Version > 0 {
		by += fmt.Sprintf(" v%d", sc.Check.From.Version)
	}
	state := string(sc.State)
	if sc.State == kb.CheckActive && !sc.Asks() {
		state = "reminds"
	}
	out := checkOut{ID: sc.ID, Says: check.Describe(sc.Check), Kind: sc.Check.Kind, By: by, State: state, Approved: sc.Approved,
		Fired: sc.Fired, Overridden: sc.Overridden, Check: sc.Check}
	if sc.LastFired != nil {
		out.LastFired = sc.LastFired.Format("2006-01-02 15:04")
	}
	return out
}

// listRules prints each rule of the project (and the global ones) with
// what it compiled to.
func listRules(ctx context.Context, k *kb.KB, o rulesOpts, stdout io.Writer) error {
	rows, err := ruleRows(ctx, k, o.project)
	if err != nil {
		return err
	}
	return printRules(rows, o, stdout)
}

// ruleRows reads the user's active rules of a project and the global ones,
// each with its checks and what it became (compiled, remind-only, no
// check, not a rule).
func ruleRows(ctx context.Context, k *kb.KB, project string) ([]ruleRow, error) {
	var rows []ruleRow
	for _, f := range []kb.LessonFilter{{Project: project, States: []kb.State{kb.StateActive}}, {Global: true, States: []kb.State{kb.StateActive}}} {
		err := k.Lessons(ctx, f, func(l kb.Lesson) error {
			if l.Kind != kb.KindRule || l.Origin != kb.OriginUserStated {
				return nil
			}
			row := ruleRow{ID: l.ID, Source: kb.SourceLabel(l.Source, project), Rule: l.Content, Project: l.Project}
			rows = append(rows, row)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	for i := range rows {
		cs, err := k.Checks(ctx, kb.CheckFilter{Lesson: rows[i].ID})
		if err != nil {
			return nil, err
		}
		l, err := k.Lesson(ctx, rows[i].ID)
		if err != nil {
			return nil, err
		}
		enforced := kb.Enforced(cs)
		asks := false
		for _, c := range cs {
			rows[i].Checks = append(rows[i].Checks, checkRow(c))
		}
		for _, c := range enforced {
			asks = asks || c.Asks()
		}
		switch {
		case asks:
			rows[i].Status = statusCompiled
		case len(enforced) > 0:
			rows[i].Status = statusRemindOnly
		case l.Directive != nil && l.Directive.Directs() && directive.NotARule(l.Content) == "":
			rows[i].Status = statusNoCheck
		default:
			rows[i].Status = statusNotARule
		}
	}
	return rows, nil
}

// printRules prints rule rows, as a table or JSON.
func printRules(rows []ruleRow, o rulesOpts, stdout io.Writer) error {
	if o.json {
		if rows == nil {
			rows = []ruleRow{}
		}
		return writeJSON(stdout, rows)
	}
	if len(rows) == 0 {
		fmt.Fprintf(stdout, "no rules for %s: no rule file was found there (CLAUDE.md, AGENTS.md, .cursorrules, .cursor/rules/*.mdc, …)\n", o.project)
		return nil
	}
	counts := map[string]int{}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	for _, r := range rows {
		counts[r.Status]++
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.ID, r.Status, r.Source, clip.Line(r.Rule, 90))
		for _, c := range r.Checks {
			rec := fmt.Sprintf("fired %d, overridden %d", c.Fired, c.Overridden)
			if c.LastFired != "" {
				rec += ", last " + c.LastFired
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s (%s)\n", c.ID, c.State, c.By, c.Says, rec)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\n%d rules: %d compiled, %d remind-only, %d with no check, %d not rules\n", len(rows),
		counts[statusCompiled], counts[statusRemindOnly], counts[statusNoCheck], counts[statusNotARule])
	return nil
}

// explainRules says why an action would or would not be asked about.
func explainRules(ctx context.Context, k *kb.KB, o rulesOpts, stdout io.Writer) error {
	if (o.action == "") == (o.edit == "") {
		return fmt.Errorf("%w: rules explain needs --action 'COMMAND' or --edit PATH", errUsage)
	}
	env := action.Env{Root: o.project}
	var act action.Action
	if o.action != "" {
		act = action.Shell(o.action, env)
		if !act.Parsed {
			return writeExplain(stdout, o.json, explanation{Answer: "nothing", Why: "the command does not parse as a shell line, and a hook fails open"})
		}
	} else {
		b, _ := json.Marshal(map[string]string{"file_path": o.edit, "new_string": o.text})
		var err error
		if act, err = action.FromTool("Edit", b, env); err != nil {
			return err
		}
	}
	h := check.History{Branch: o.branch}
	if h.Branch == "" {
		h.Branch = gitref.Branch(o.project)
	}
	for _, r := range o.ran {
		h.Commands = append(h.Commands, action.Shell(r, env).Commands...)
	}
	e, err := k.Enforce(ctx, o.project, act, h)
	if err != nil {
		return err
	}
	x := explanation{Action: act, Checked: e.Checked}
	for _, hit := range e.Ask {
		x.Asks = append(x.Asks, explainHit(hit))
	}
	for _, hit := range e.Remind {
		x.Reminds = append(x.Reminds, explainHit(hit))
	}
	switch {
	case len(x.Asks) > 0:
		x.Answer, x.Why = "ask", "a check matches the action structurally"
	case len(x.Reminds) > 0:
		x.Answer, x.Why = "remind", "only checks that remind match (once a session for each rule)"
	default:
		x.Answer, x.Why = "nothing", fmt.Sprintf("none of the project's %d checks matches", e.Checked)
	}
	return writeExplain(stdout, o.json, x)
}

// explanation is what `rules explain` prints.
type explanation struct {
	Answer  string        `json:"answer"`
	Why     string        `json:"why"`
	Asks    []explainedIt `json:"asks,omitempty"`
	Reminds []explainedIt `json:"reminds,omitempty"`
	Checked int           `json:"checks"`
	Action  action.Action `json:"action"`
}

type explainedIt struct {
	Check    string `json:"check"`
	Rule     string `json:"rule"`
	Says     string `json:"says"`
	Evidence string `json:"evidence"`
	How      string `json:"how"`
}

func explainHit(h kb.CheckHit) explainedIt {
	return explainedIt{Check: h.Stored.ID, Rule: h.Stored.Check.Quote, Says: check.Describe(h.Stored.Check), Evidence: h.Hit.Evidence, How: h.Hit.Why}
}

func writeExplain(w io.Writer, asJSON bool, x explanation) error {
	if asJSON {
		return writeJSON(w, x)
	}
	fmt.Fprintf(w, "%s: %s\n", x.Answer, x.Why)
	for _, list := range []struct {
		name string
		its  []explainedIt
	}{{"asks", x.Asks}, {"reminds", x.Reminds}} {
		for _, it := range list.its {
			fmt.Fprintf(w, "- %s %s: %q\n    %s; here: %s\n", list.name, it.Check, clip.Line(it.Rule, 200), it.Says, it.How)
		}
	}
	if x.Answer == "nothing" {
		var seen []string
		for _, c := range x.Action.Commands {
			seen = append(seen, "runs `"+c.Program+"`")
		}
		for _, wr := range x.Action.Writes {
			seen = append(seen, "writes "+wr.Path)
		}
		for _, msg := range x.Action.Messages {
			seen = append(seen, fmt.Sprintf("%s %q", msg.Kind, clip.Line(msg.Text, 60)))
		}
		if len(seen) > 0 {
			fmt.Fprintf(w, "the action, as parsed: %s\n", strings.Join(seen, "; "))
		}
	}
	return nil
}
