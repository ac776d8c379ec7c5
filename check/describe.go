package check

import (
	"fmt"
	"strings"

	"github.com/innate-mcp/innate-mcp/internal/clip"
)

// Short is a command pattern in a few words: "`git push --force`", "`npm`",
// "a test command piped into `tail`".
func (p *CommandPattern) Short() string {
	var b strings.Builder
	switch {
	case len(p.Classes) > 0:
		art := "a "
		if strings.ContainsRune("aeiou", rune(p.Classes[0][0])) {
			art = "an "
		}
		b.WriteString(art + strings.Join(p.Classes, " or ") + " command")
		if len(p.Args) > 0 {
			b.WriteString(" on " + argSeries(p.Args))
		}
	case len(p.Programs) == 1 && p.Programs[0] == "*":
		b.WriteString("any command")
	default:
		// A toolchain picked comes first, as it is written: `cargo
		// +nightly fmt`.
		parts := []string{strings.Join(p.Programs, "|")}
		for _, f := range p.Flags {
			if strings.HasPrefix(f, "+") {
				parts = append(parts, f)
			}
		}
		parts = append(parts, p.Sub...)
		for _, f := range p.Flags {
			if !strings.HasPrefix(f, "+") {
				parts = append(parts, f)
			}
		}
		b.WriteString("`" + strings.Join(parts, " ") + "`")
		if len(p.Args) > 0 {
			// Any one of the words: "`git push` on `main` or `master`".
			b.WriteString(" on " + argSeries(p.Args))
		}
	}
	if (len(p.Classes) > 0 || len(p.Programs) == 1 && p.Programs[0] == "*") && (len(p.Flags) > 0 || len(p.Sub) > 0) {
		b.WriteString(" with `" + strings.Join(append(append([]string{}, p.Sub...), p.Flags...), " ") + "`")
	}
	if len(p.Lacks) > 0 {
		b.WriteString(" without `" + strings.Join(p.Lacks, "` or `") + "`")
	}
	if len(p.PipeTo) > 0 {
		if len(p.PipeTo) == 1 && p.PipeTo[0] == "*" {
			b.WriteString(" piped into another command")
		} else {
			b.WriteString(" piped into `" + strings.Join(p.PipeTo, "` or `") + "`")
		}
	}
	if len(p.NotVia) > 0 {
		b.WriteString(" run without `" + strings.Join(p.NotVia, "` or `") + "`")
	}
	var except []string
	for _, x := range p.Except {
		if x != nil {
			except = append(except, x.Short())
		}
	}
	if len(except) > 0 {
		b.WriteString(" other than " + clip.Series(except, "or"))
	}
	return b.String()
}

// argSeries names a pattern's argument globs, any one of which a command
// is given: all of a few, or the first three and how many more.
func argSeries(args []string) string {
	if len(args) <= 4 {
		return clip.Series(quoted(args), "or")
	}
	return fmt.Sprintf("%s or %d more", strings.Join(quoted(args[:3]), ", "), len(args)-3)
}

// Describe says what a check does, in words: "forbids running `npm`
// (use pnpm)", "forbids writing under `generated/`", "requires commit
// messages to be Conventional Commits", "requires `make lint` before
// `git commit`".
func Describe(c Check) string {
	var s string
	switch {
	case c.Kind == RequireBefore && c.Command != nil && c.Before != nil:
		s = fmt.Sprintf("requires %s earlier in the session before %s", c.Before.Short(), c.Command.Short())
	case c.Command != nil:
		s = "forbids running " + c.Command.Short()
	case c.Write != nil:
		what := "writing"
		switch {
		case c.Write.Delete:
			what = "removing"
		case c.Write.New:
			what = "creating"
		}
		where := globsText(c.Write.Paths)
		switch {
		case len(c.Write.Holds) > 0:
			s = fmt.Sprintf("forbids %s %s in %s", what, clip.Series(holdsWords(c.Write.Holds), "or"), where)
		case c.Write.Text == "":
			s = fmt.Sprintf("forbids %s %s", what, where)
		case c.Kind == Require:
			s = fmt.Sprintf("requires %s %s to hold /%s/", what, where, c.Write.Text)
		default:
			s = fmt.Sprintf("forbids %s /%s/ in %s", what, c.Write.Text, where)
		}
	case c.Message != nil:
		what := "commit messages and PR titles"
		if len(c.Message.Kinds) > 0 {
			var words []string
			for _, k := range c.Message.Kinds {
				words = append(words, kindWord(k)+"s")
			}
			what = clip.Series(words, "and")
		}
		if c.Kind == Require {
			s = fmt.Sprintf("requires %s to be %s", what, c.Message.name())
		} else if len(c.Message.MustNot) > maxShownPattern && c.Message.Name != "" {
			// A long pattern says nothing to a person; its name does.
			s = fmt.Sprintf("requires %s to be %s", what, c.Message.Name)
		} else {
			s = fmt.Sprintf("forbids %s matching /%s/", what, c.Message.MustNot)
		}
	}
	if c.Kind == PreferInstead && c.Instead != "" {
		s += " (use " + c.Instead + " instead)"
	}
	if c.When != nil && len(c.When.Branch) > 0 {
		s += " on branch `" + strings.Join(c.When.Branch, "` or `") + "`"
	}
	if c.When != nil && len(c.When.Touched) > 0 {
		s += ", when the session changed `" + strings.Join(c.When.Touched, "`, `") + "`"
	}
	if c.When != nil && len(c.When.In) > 0 {
		s += ", when the session works in `" + strings.Join(c.When.In, "/`, `") + "/`"
	}
	if c.RemindOnly {
		s += "; reminds only"
	} else if c.Escalate {
		s += "; learned from a correction: reminds once, then asks"
	}
	return s
}

// globsText is a list of path globs in words: the files it holds, then
// the ones it leaves out ("any file but `*.md`, `*.rst` and 3 more").
func globsText(globs []string) string {
	var in, out []string
	for _, g := range globs {
		if x, ok := strings.CutPrefix(g, "!"); ok {
			out = append(out, x)
		} else {
			in = append(in, g)
		}
	}
	where := "any file"
	if len(in) > 0 {
		where = "`" + strings.Join(in, "`, `") + "`"
	}
	if len(out) > 0 {
		shown := out[:min(len(out), 3)]
		where += " but `" + strings.Join(shown, "`, `") + "`"
		if more := len(out) - len(shown); more > 0 {
			where += fmt.Sprintf(" and %d more", more)
		}
	}
	return where
}

// maxShownPattern is the longest message pattern a check's description
// shows; a longer one is described by its name.
const maxShownPattern = 120

// quoted is words in code spans.
func quoted(ws []string) []string {
	q := make([]string, len(ws))
	for i, w := range ws {
		q[i] = "`" + w + "`"
	}
	return q
}

// holdsWords names text classes for a person.
func holdsWords(classes []string) []string {
	out := make([]string, len(classes))
	for i, cl := range classes {
		out[i] = textClasses[cl].words
	}
	return out
}
