package directive

import (
	"slices"
	"strings"

	"github.com/innate-mcp/innate-mcp/check"
)

// compileRequired compiles what a requiring sentence asks for: a step
// before a commit, a push or a pull request; a tool of a family whose
// other members it rules out; a runner without which its tools must not
// run.
func compileRequired(s string, d Directive) []check.Check {
	var out []check.Check
	var phase *check.CommandPattern
	if ph, ok := phaseIn(s); ok {
		phase = &check.CommandPattern{Programs: []string{ph.program}, Sub: ph.sub}
	}
	out = append(out, requiredFlags(s, d, phase)...)
	out = append(out, lackedFlags(s, d)...)
	var asked []string
	for _, o := range d.Do {
		if !o.Example {
			asked = append(asked, strings.ToLower(o.Text))
		}
	}
	if phase != nil && !slices.ContainsFunc(d.Do, func(o Object) bool { return o.Kind == KindCode || isProgram(o.Text) }) {
		// "`task validate` runs format + lint + test — always run before
		// commits": the one command the sentence names does the jobs.
		if st := soleCommand(s, phase); st != nil {
			return append(out, check.Check{Kind: check.RequireBefore, Command: phase, Before: st})
		}
		// "Always run the tests before committing", "code is formatted and
		// linted before pushing": a command of each job, or a project task
		// named for it, must come first.
		for _, j := range jobWords {
			if namesJob(j.re, s) {
				out = append(out, check.Check{Kind: check.RequireBefore, Command: phase, Before: &check.CommandPattern{Classes: []string{j.class}}})
			}
		}
		return out
	}
	merged := alternativeSteps(s, d.Do)
	for i, o := range d.Do {
		if o.Example || o.Of != "" || o.Kind != KindCode && (!isProgram(o.Text) || attributive(s, o.Text)) {
			continue // a phrase ("descriptive commit messages", "npm workspaces") is no command
		}
		cmd := codeCommand(o.Text, o.Verb)
		if cmd == nil && isProgram(o.Text) {
			cmd = &check.CommandPattern{Programs: []string{strings.ToLower(o.Text)}}
		}
		if alt, ok := merged[i]; ok && phase != nil {
			if alt != nil {
				out = append(out, check.Check{Kind: check.RequireBefore, Command: phase, Before: alt})
			}
			continue
		}
		if phase != nil {
			steps := []*check.CommandPattern{cmd}
			if cmd == nil {
				steps = chainCommands(o.Text)
			}
			for _, st := range steps {
				if st != nil && !slices.Contains(st.Programs, phase.Programs[0]) {
					out = append(out, check.Check{Kind: check.RequireBefore, Command: phase, Before: st})
				}
			}
			continue
		}
		if cmd == nil {
			continue
		}
		// `uv run pytest`, `bundle exec rspec`: the tool only through its
		// runner; a bare runner (`uv run`) rules out its tools run bare.
		if c, ok := runnerCheck(o.Text); ok {
			out = append(out, c)
			continue
		}
		if c, ok := installRivals(cmd, o.Text, asked, s); ok {
			if conditionQualifies(d.When) {
				for i := range c {
					c[i].RemindOnly = true
				}
			}
			out = append(out, c...)
			continue
		}
		if c, ok := jobCheck(s, o, cmd); ok {
			if conditionQualifies(d.When) {
				c.RemindOnly = true
			}
			out = append(out, c)
			continue
		}
		if len(cmd.Programs) == 1 && len(cmd.Sub) == 0 && len(cmd.Flags) == 0 && (o.Verb == "" || o.Verb == "use" || o.Verb == "prefer" || o.Verb == "always") {
			tool := cmd.Programs[0]
			var rivals []string
			for _, f := range commandFamilies {
				if !slices.Contains(f, tool) {
					continue
				}
				for _, r := range f {
					if r != tool && !slices.Contains(asked, r) && !slices.Contains(rivals, r) && !mentionedPositively(s, r) {
						rivals = append(rivals, r)
					}
				}
			}
			if len(rivals) > 0 {
				out = append(out, check.Check{Kind: check.PreferInstead, Instead: tool, Command: &check.CommandPattern{Programs: rivals},
					RemindOnly: qualified(s, []string{tool})})
			}
		}
	}
	return out
}
