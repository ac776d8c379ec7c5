package check

import (
	"cmp"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/innate-mcp/innate-mcp/action"
)

// History is what a session did before the action being checked.
type History struct {
	// Commands are the commands that ran, oldest first.
	Commands []action.Command
	// Touched are the paths written, relative to the project root.
	Touched []string
	// Branch is the branch checked out where the session works, "" when
	// not known (no repository, a detached HEAD).
	Branch string
	// SinceCommit are the paths written or staged (`git add`, Stages)
	// since the session's last `git commit` (since it began, when it made
	// none); empty when it wrote and staged none or that is not known.
	SinceCommit []string
}

// Prepared is a check ready to match: its regular expressions compiled.
// Safe for concurrent use.
type Prepared struct {
	Check   Check
	text    *regexp.Regexp
	must    *regexp.Regexp
	mustNot *regexp.Regexp
	// mustNotAnywhere: MustNot has no anchor, so it rules out text
	// anywhere in the message (a trailer), not a form of the first line.
	mustNotAnywhere bool
	// mustLines, mustNotLines: the pattern names a line break, so it is
	// a form of the whole message (a blank line before the body), not
	// of its first line.
	mustLines, mustNotLines bool
	// textAnchored: the write's pattern holds a line's or the text's
	// start or end.
	textAnchored bool
}

// Prepare validates a check and compiles it.
func Prepare(c Check) (*Prepared, error) {
	if err := Validate(c); err != nil {
		return nil, err
	}
	if c.Kind == PreferInstead && c.Command != nil {
		c.Command = insteadExcepted(c.Command, c.Instead)
	}
	c.Command, c.Before = asRead(c.Command), asRead(c.Before)
	p := &Prepared{Check: c}
	if c.Write != nil && c.Write.Text != "" {
		p.text = regexp.MustCompile(c.Write.Text)
		p.textAnchored = anchored(c.Write.Text)
	}
	if m := c.Message; m != nil {
		if m.Must != "" {
			p.must = regexp.MustCompile(m.Must)
			p.mustLines = namesLineBreak(m.Must)
		}
		if m.MustNot != "" {
			p.mustNot = regexp.MustCompile(m.MustNot)
			p.mustNotAnywhere = !anchored(m.MustNot)
			p.mustNotLines = namesLineBreak(m.MustNot)
		}
	}
	return p, nil
}

// insteadExcepted returns a copy of a preferring check's pattern that
// never rules out what the check asks for instead, when that is a command
// of one of the pattern's programs ("cargo fmt", instead "cargo +nightly
// fmt --all"): its program, subcommand and toolchain, with any options,
// as the reader's own exceptions are.
func insteadExcepted(cp *CommandPattern, instead string) *CommandPattern {
	a := action.Shell(instead, action.Env{})
	if !a.Parsed || len(a.Commands) != 1 || !slices.Contains(cp.Programs, a.Commands[0].Program) || len(a.Commands[0].Via) > 0 {
		// Not one command of the check's programs; or one asked for
		// through a runner (`uv run pytest`), which is what the check reads.
		return cp
	}
	ip := patternOf(a.Commands[0])
	if len(cp.Flags) == 0 {
		// The check rules out a command whatever its options: what is
		// asked instead is that command with any options. One that rules
		// out an option (`gh pr merge --merge`, instead `--squash`) keeps
		// the options asked for.
		ip.Flags = slices.DeleteFunc(ip.Flags, func(f string) bool { return strings.HasPrefix(f, "-") })
	}
	out := *cp
	out.Except = append(slices.Clip(cp.Except), ip)
	return &out
}

// asRead returns a copy of a command pattern as the hooks read a command:
// its programs named by a path ("./lint.sh", "bin/rails") by their base
// name, and a toolchain picked ("+nightly") or `--` among its flags, not
// its subcommand or arguments; the pattern itself is not changed.
func asRead(cp *CommandPattern) *CommandPattern {
	if cp == nil {
		return nil
	}
	out := *cp
	out.Programs = slices.Clone(cp.Programs)
	for i, x := range out.Programs {
		// As the hooks read a command's program: its base name, lower
		// case, without a Windows executable suffix (`build.cmd` is
		// `build`).
		out.Programs[i] = action.ProgramName(x)
	}
	toolchain := func(w string) bool {
		return slices.ContainsFunc(out.Programs, func(x string) bool { return action.PicksToolchain(x, w) })
	}
	// "cargo +nightly fmt": the toolchain picked is no subcommand nor a
	// file, but an option of the command, as the hooks read it; so is the
	// end of the options, `--`.
	if len(out.Sub) > 0 && toolchain(out.Sub[0]) {
		out.Flags = append(slices.Clone(out.Flags), out.Sub[0])
		out.Sub = out.Sub[1:]
	}
	if len(out.Args) > 0 && !slices.ContainsFunc(out.Args, func(a string) bool { return !toolchain(a) && a != "--" }) {
		out.Flags = append(slices.Clone(out.Flags), out.Args...)
		out.Args = nil
	}
	if len(cp.Except) > 0 {
		out.Except = make([]*CommandPattern, len(cp.Except))
		for i, x := range cp.Except {
			out.Except[i] = asRead(x)
		}
	}
	return &out
}

// Hit is a check an action breaks.
type Hit struct {
	Check Check
	// Evidence is what of the action breaks it: a command, a path, a
	// message's first line.
	Evidence string
	// Why says how, in a few words ("runs npm", "writes generated/a.go",
	// "no `make lint` before `git commit` in this session").
	Why string
}

// Match reports whether an action breaks the check.
func (p *Prepared) Match(a action.Action, h History) (Hit, bool) {
	c := p.Check
	if c.When != nil && len(c.When.Touched) > 0 && !touched(c.When.Touched, a, h) {
		return Hit{}, false
	}
	if c.When != nil && len(c.When.In) > 0 && !within(c.When.In, a, h) {
		return Hit{}, false
	}
	hit := func(evidence, why string) (Hit, bool) {
		return Hit{Check: c, Evidence: evidence, Why: why}, true
	}
	switch {
	case c.Kind == RequireBefore:
		for i, cmd := range a.Commands {
			if !c.Command.matches(cmd) {
				continue
			}
			if ranBefore(c.Before, h.Commands) || ranBefore(c.Before, a.Commands[:i]) {
				return Hit{}, false
			}
			if Committing(cmd) && verifies(c.Before) && docsAlone(SinceCommit(h.SinceCommit, a.Writes, a.Commands[:i])) {
				// Docs alone since the last commit: nothing for a test or
				// a build to verify (as Stop reads a turn's edits).
				return Hit{}, false
			}
			return hit(cmd.Text, fmt.Sprintf("`%s` with no %s before it in the session", clipQuote(cmd.Text), c.Before.Short()))
		}
	case c.Command != nil:
		branch := h.Branch
		for _, cmd := range a.Commands {
			if c.Command.matches(cmd) && onBranch(c.When, branch) {
				why := "runs `" + clipQuote(cmd.Text) + "`"
				if c.When != nil && len(c.When.Branch) > 0 {
					why += " on " + branch
				}
				return hit(cmd.Text, why)
			}
			if b, ok := cmd.SwitchesTo(); ok {
				branch = b
			}
		}
	case c.Write != nil:
		for _, w := range a.Writes {
			if !c.Write.scope(w) {
				continue
			}
			if len(c.Write.Holds) > 0 {
				if what, ok := holds(c.Write.Holds, w); ok {
					return hit(cmp.Or(w.Path, what), written(w)+" with "+what)
				}
				continue
			}
			if p.text == nil {
				return hit(w.Path, written(w))
			}
			if !w.TextKnown || w.NameOnly && p.textAnchored || w.Unplaced() && c.Kind == Require {
				// A fragment of a file known by its name alone: where its
				// lines stand is not known either; nor whether a fragment
				// of a file not known at all lacks what the file needs.
				continue
			}
			found := p.text.MatchString(w.Text)
			if found && c.Kind != Require && w.Gone != "" {
				// An edit that rewrites lines holding the pattern, and
				// adds no more of it than it takes away, keeps what was
				// there: it introduces nothing the rule forbids.
				found = len(p.text.FindAllStringIndex(w.Text, -1)) > len(p.text.FindAllStringIndex(w.Gone, -1))
			}
			if c.Kind == Require && !found {
				return hit(w.Path, written(w)+" without what the rule asks for")
			}
			if c.Kind != Require && found {
				quote := clipQuote(p.text.FindString(w.Text))
				return hit(cmp.Or(w.Path, quote), written(w)+" with "+quote)
			}
		}
	case c.Message != nil:
		for _, m := range a.Messages {
			if len(c.Message.Kinds) > 0 && !slices.Contains(c.Message.Kinds, m.Kind) ||
				len(c.Message.Kinds) == 0 && m.Kind != action.CommitMessage && m.Kind != action.PRTitle {
				continue // no kinds: commit messages and PR titles, not names nor descriptions
			}
			first := firstLine(m.Text)
			// Of a message known only in part, the first line is whole
			// when the known part runs past it; a pattern that needs the
			// end of what it reads judges no more than a whole line, and
			// one of the whole message's lines none.
			whole := !m.Partial || strings.Contains(m.Text, "\n")
			if p.must != nil && p.mustLines {
				if !m.Partial && !p.must.MatchString(m.Text) {
					return hit(first, fmt.Sprintf("the %s %q is not %s", kindWord(m.Kind), clipQuote(first), c.Message.name()))
				}
			} else if p.must != nil && whole && !p.must.MatchString(first) {
				return hit(first, fmt.Sprintf("the %s %q is not %s", kindWord(m.Kind), clipQuote(first), c.Message.name()))
			}
			if p.mustNot != nil && p.mustNotLines && m.Partial {
				continue
			}
			if p.mustNot != nil && (!m.Partial || whole && !p.mustNotAnywhere || !strings.Contains(c.Message.MustNot, "$")) {
				text := first
				if p.mustNotAnywhere || p.mustNotLines {
					text = m.Text
				}
				if loc := p.mustNot.FindStringIndex(text); loc != nil {
					why := fmt.Sprintf("the %s %q", kindWord(m.Kind), clipQuote(first))
					if found := text[loc[0]:loc[1]]; p.mustNotAnywhere && found != "" {
						return hit(found, why+fmt.Sprintf(" holds %q", clipQuote(found)))
					}
					return hit(first, why)
				}
			}
		}
	}
	return Hit{}, false
}

// matches reports whether a command fits the pattern.
func (p *CommandPattern) matches(c action.Command) bool {
	if len(p.Classes) > 0 {
		if !slices.ContainsFunc(p.Classes, func(cl string) bool { return InClass(c, cl) }) {
			return false
		}
	} else if !slices.Contains(p.Programs, "*") {
		ids := identities(c)
		if !slices.ContainsFunc(p.Programs, func(x string) bool { return programMatch(x, ids) }) {
			return false
		}
	}
	if len(p.Sub) > 0 {
		sub := c.Sub(len(p.Sub))
		if seq := runnerForm(c, p.Programs, len(p.Sub)); seq != nil {
			sub = seq
		}
		// A pattern named by another name (gofmt for `go fmt`) has no
		// subcommand of its own to match.
		if len(sub) < len(p.Sub) {
			return false
		}
		if len(p.Sub) == 1 && multiTarget[c.Program] {
			// `mvn clean verify site` runs `mvn verify`, `make fmt lint`
			// runs `make lint`: any of its targets is the one named.
			if !slices.ContainsFunc(c.Positionals(), func(w string) bool { return subWord(p.Sub[0], w) }) {
				return false
			}
		} else {
			for i, s := range p.Sub {
				if !subWord(s, sub[i]) {
					return false
				}
			}
		}
	}
	for _, f := range p.Flags {
		if !hasFlag(c, f) {
			return false
		}
	}
	if len(p.Lacks) > 0 && !slices.ContainsFunc(p.Lacks, func(f string) bool { return !hasFlag(c, f) }) {
		return false // it carries every flag required
	}
	if len(p.Args) > 0 {
		pos := c.Positionals()
		if len(pos) >= len(p.Sub) {
			pos = pos[len(p.Sub):]
		}
		if !slices.ContainsFunc(pos, func(a string) bool {
			return slices.ContainsFunc(p.Args, func(g string) bool { return argGlob(g, a) })
		}) {
			return false
		}
	}
	if len(p.PipeTo) > 0 {
		if !slices.ContainsFunc(c.PipeTo, func(x string) bool { return slices.Contains(p.PipeTo, x) || slices.Contains(p.PipeTo, "*") }) {
			return false
		}
	}
	for _, v := range p.NotVia {
		// A runner named by its program alone ("uv") covers its forms
		// ("uv run").
		if slices.ContainsFunc(c.Via, func(via string) bool { return via == v || strings.HasPrefix(via, v+" ") }) {
			return false
		}
	}
	for _, x := range p.Except {
		if x != nil && x.matches(c) {
			return false
		}
	}
	return true
}

// subWord reports whether a command's word is a pattern's subcommand
// word: equal in any case, or matched by its glob ("lint:*", "format*").
func subWord(pattern, word string) bool {
	return pattern == "*" || strings.EqualFold(pattern, word) || subGlob(pattern, word)
}

// runnerForm is the first n words after the program for a pattern that
// names the runner a command went through (`uv` with sub `run lefthook` for
// `uv run lefthook run -a`, `bundle` with `exec rspec`): the runner's own words,
// the program, and its subcommands. It is nil when the pattern names the
// program itself.
func runnerForm(c action.Command, programs []string, n int) []string {
	if slices.Contains(programs, c.Program) {
		return nil
	}
	for _, v := range c.Via {
		words := strings.Fields(v)
		if len(words) == 0 || !slices.Contains(programs, words[0]) {
			continue
		}
		seq := append(append(slices.Clone(words[1:]), c.Program), c.Sub(n)...)
		return seq[:min(n, len(seq))]
	}
	return nil
}

// scope reports whether a write is one the pattern is about.
func (w *WritePattern) scope(x action.Write) bool {
	if w.New && !x.New || w.Delete && !x.Delete {
		return false
	}
	if x.Dir && (w.ReadsText() || !w.New) {
		return false // a new directory holds no text, and is no edit
	}
	if len(w.Paths) == 0 {
		return true
	}
	if x.Unplaced() {
		return w.ReadsText() // any file: its text alone decides
	}
	if x.NameOnly || x.PathTail {
		return GlobsTail(w.Paths, x.Path)
	}
	return Globs(w.Paths, x.Path)
}

// programMatch reports whether a pattern's program names one of a
// command's identities: exactly, or as a glob of its base name
// ("test_*" runs `./e2e/cli/test_use`).
func programMatch(x string, ids []string) bool {
	if slices.Contains(ids, x) {
		return true
	}
	if !strings.ContainsAny(x, "*?[") {
		return false
	}
	return slices.ContainsFunc(ids, func(id string) bool {
		ok, _ := path.Match(x, id)
		return ok
	})
}

// argGlob reports whether an argument matches a pattern's glob: as a path
// (.gitignore's way), as itself, or, for a URL ("https://github.com/*"),
// as a whole string in which "*" is any text.
func argGlob(g, a string) bool {
	if a == g || Glob(g, a) {
		return true
	}
	if !strings.Contains(a, "://") && !strings.Contains(g, "://") {
		return false
	}
	return wildcard(g, a)
}

// wildcard matches s against a pattern in which "*" is any text and "?"
// any one byte; everything else is itself.
func wildcard(pat, s string) bool {
	// The classic two-pointer match, with backtracking to the last "*".
	p, i, star, mark := 0, 0, -1, 0
	for i < len(s) {
		switch {
		case p < len(pat) && (pat[p] == '?' || pat[p] == s[i]):
			p++
			i++
		case p < len(pat) && pat[p] == '*':
			star, mark = p, i
			p++
		case star >= 0:
			p, mark = star+1, mark+1
			i = mark
		default:
			return false
		}
	}
	for p < len(pat) && pat[p] == '*' {
		p++
	}
	return p == len(pat)
}

// holds reports what a write's new text holds of one of the text classes,
// when it brings it in: an edit that only keeps what its old text held
// introduces nothing.
func holds(classes []string, w action.Write) (string, bool) {
	if !w.TextKnown {
		return "", false
	}
	for _, cl := range classes {
		find := textClasses[cl].find
		if textClasses[cl].old && w.Was != "" {
			if what, ok := find(w.Was); ok {
				return what, true
			}
		}
		if what, ok := find(w.Text); ok {
			if w.Gone != "" && !textClasses[cl].old {
				if _, before := find(w.Gone); before {
					continue
				}
			}
			return what, true
		}
	}
	return "", false
}

// onBranch reports whether a command run with branch checked out meets
// the condition's branches (any branch, when it gives none).
func onBranch(w *Condition, branch string) bool {
	if w == nil || len(w.Branch) == 0 {
		return true
	}
	if branch == "" {
		return false
	}
	for _, b := range w.Branch {
		if ok, _ := path.Match(b, branch); ok || b == branch {
			return true
		}
	}
	return false
}

// touched reports whether the action or its session wrote a path matching
// one of the globs.
func touched(globs []string, a action.Action, h History) bool {
	for _, g := range globs {
		for _, w := range a.Writes {
			if Glob(g, w.Path) {
				return true
			}
		}
		for _, p := range h.Touched {
			if Glob(g, p) {
				return true
			}
		}
	}
	return false
}

// subGlob matches a subcommand word against a pattern word with a
// wildcard ("test:*" matches test:unit), case-insensitively.
func subGlob(pattern, word string) bool {
	if !strings.ContainsAny(pattern, "*?[") {
		return false
	}
	ok, err := path.Match(strings.ToLower(pattern), strings.ToLower(word))
	return err == nil && ok
}

// within reports whether an action works in one of dirs: it, or an
// earlier action of its session, wrote a file under one, or it runs a
// command in one.
func within(dirs []string, a action.Action, h History) bool {
	for _, d := range dirs {
		g := "/" + strings.Trim(d, "/") + "/"
		for _, c := range a.Commands {
			if c.Dir != "" && c.Dir != "?" && Glob(g, c.Dir) {
				return true
			}
		}
	}
	globs := make([]string, len(dirs))
	for i, d := range dirs {
		globs[i] = "/" + strings.Trim(d, "/") + "/"
	}
	return touched(globs, a, h)
}

// written says what a write does to its file: "writes a/b.go", or "shows
// code" for one with no file.
func written(w action.Write) string {
	if w.Unplaced() {
		return "shows code"
	}
	return writeVerb(w) + " " + w.Path
}

func writeVerb(w action.Write) string {
	switch {
	case w.Delete:
		return "removes"
	case w.Dir:
		return "makes"
	case w.New:
		return "creates"
	}
	return "writes"
}
