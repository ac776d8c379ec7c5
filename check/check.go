package check

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/innate-mcp/innate-mcp/action"
)

// Kind is what a check does with its target. Plain string.
type Kind string

// The kinds of checks.
const (
	// Forbid: an action that matches the target breaks the rule.
	Forbid Kind = "forbid"
	// Require: an action in the target's scope must meet it (a commit
	// message matches Must; a file written holds Text).
	Require Kind = "require"
	// RequireBefore: an action that matches the target needs Before to
	// have run earlier in the session (or earlier in the same line).
	RequireBefore Kind = "require-before"
	// PreferInstead: the target is what the rule replaces; Instead is what
	// it asks for. Matched as Forbid.
	PreferInstead Kind = "prefer-instead"
)

// Origin says who made a check. Plain string.
type Origin string

// The origins of checks; a person's wins over the others.
const (
	ByReader     Origin = "reader"     // the built-in reader (package directive)
	ByPerson     Origin = "person"     // a person, through the CLI or the dashboard
	ByConsultant Origin = "consultant" // a model or agent asked to compile the rule
)

// Provenance is where a check came from.
type Provenance struct {
	By Origin `json:"by"`
	// Version is the reader's version, for checks it made.
	Version int `json:"version,omitempty"`
	// Note is free text: who, or which consultant.
	Note string `json:"note,omitempty"`
}

// Check is one check of a rule. Plain data; exactly one of Command, Write
// and Message is set.
type Check struct {
	Kind    Kind            `json:"kind"`
	Command *CommandPattern `json:"command,omitempty"`
	Write   *WritePattern   `json:"write,omitempty"`
	Message *MessagePattern `json:"message,omitempty"`
	// Before is, for RequireBefore, the step that must come first.
	Before *CommandPattern `json:"before,omitempty"`
	// Instead is, for PreferInstead, what the rule asks for instead, in
	// words or as a command ("pnpm").
	Instead string `json:"instead,omitempty"`
	// When limits the check to sessions that touched some paths.
	When *Condition `json:"when,omitempty"`
	// RemindOnly: the reader could not tell the whole of what the rule
	// rules out (it names a purpose or a target beyond the command: "don't
	// use npm to publish"), so a match reminds of the rule and never asks,
	// until a person approves the check.
	RemindOnly bool `json:"remind_only,omitempty"`
	// Escalate: the check was learned from a user's correction. It
	// reminds the first time an action repeats the corrected mistake, and
	// asks from then on.
	Escalate bool `json:"escalate,omitempty"`
	// Rule is the id of the lesson the check enforces; Quote its verbatim
	// text (the rule a user is shown).
	Rule  string     `json:"rule,omitempty"`
	Quote string     `json:"quote,omitempty"`
	From  Provenance `json:"from"`
}

// CommandPattern matches a simple command of a shell line.
type CommandPattern struct {
	// Programs: the command runs one of these (its program, one of its
	// names, or a wrapper it runs through); "*" is any program.
	Programs []string `json:"programs,omitempty"`
	// Classes: instead of Programs, the command is of one of these
	// classes ("test", "build").
	Classes []string `json:"classes,omitempty"`
	// Sub: its first positional words, in order ("push"; "run", "build");
	// "*" is any word.
	Sub []string `json:"sub,omitempty"`
	// Flags: it is given every one of these (or a known alias of it).
	Flags []string `json:"flags,omitempty"`
	// Lacks: it is not given one of these flags (nor an alias): a flag a
	// rule requires the command to carry ("`git commit -s`").
	Lacks []string `json:"lacks,omitempty"`
	// Args: one of its other positional words matches one of these globs.
	Args []string `json:"args,omitempty"`
	// PipeTo: its output is piped into one of these programs ("*": any).
	PipeTo []string `json:"pipe_to,omitempty"`
	// NotVia: it was not run through any of these runners ("uv run",
	// "bundle exec").
	NotVia []string `json:"not_via,omitempty"`
	// Except: it matches none of these (the command a rule asks for,
	// which is itself of the class the rule rules out the others of).
	Except []*CommandPattern `json:"except,omitempty"`
}

// WritePattern matches a file an action writes.
type WritePattern struct {
	// Paths are globs relative to the project root, as .gitignore reads
	// them: a pattern without a slash but at its end matches at any depth;
	// "dir/" is everything under it; "**" any number of directories.
	// Empty: any file.
	Paths []string `json:"paths,omitempty"`
	// Text is a regular expression over the new text: present breaks a
	// Forbid, absent breaks a Require. Empty: the write itself.
	Text string `json:"text,omitempty"`
	// Holds are classes of text the new text must not hold (a Forbid):
	// "secret", a credential written as a literal (sanitize.Credential);
	// "generated", a generator's mark at the file's head (in the new text,
	// or in the text an edit replaces).
	// What a regular expression cannot tell, a table of detectors can.
	Holds []string `json:"holds,omitempty"`
	// New: only files the action creates. Delete: only files it removes.
	New    bool `json:"new,omitempty"`
	Delete bool `json:"delete,omitempty"`
}

// MessagePattern matches a commit message or a pull-request title, by its
// first line.
type MessagePattern struct {
	// Kinds are the messages it applies to; empty: commit messages and PR
	// titles (never branch names nor PR descriptions).
	Kinds []action.MessageKind `json:"kinds,omitempty"`
	// Must is a regular expression the first line must match (Require);
	// MustNot one it must not match (Forbid): the first line's, and, when
	// it has no anchor (^, $, \A, \z), the whole message's, so that
	// `(?i)co-authored-by` finds a trailer.
	Must    string `json:"must,omitempty"`
	MustNot string `json:"must_not,omitempty"`
	// Name says what Must is, in words ("Conventional Commits").
	Name string `json:"name,omitempty"`
}

// Condition limits a check to sessions that touched some paths, or work
// in some directories; both, when both are given.
type Condition struct {
	// Touched: the action, or an earlier one of its session, wrote a file
	// matching one of these globs.
	Touched []string `json:"touched,omitempty"`
	// In: the session works in one of these project-relative directories:
	// the action, or an earlier one, wrote a file under it, or the action
	// runs a command there (after a `cd`). A nested rule file's checks
	// hold in its directory (Scope).
	In []string `json:"in,omitempty"`
	// Branch: a command check holds only for commands run with one of
	// these branches checked out (names or globs: "main", "release/*"):
	// the branch the session stands on (History.Branch), or the one a
	// `git checkout` or `git switch` earlier in the same line moved to. A
	// branch not known matches none.
	Branch []string `json:"branch,omitempty"`
}

// ReadsText reports whether a write pattern reads the new text (a pattern
// over it, or a class of text it must not hold), not the write alone.
func (w *WritePattern) ReadsText() bool { return w.Text != "" || len(w.Holds) > 0 }

// ErrInvalid is wrapped by Validate's errors.
var ErrInvalid = errors.New("invalid check")

// maxPatterns bounds the lists of a pattern, and maxRegexp a regular
// expression's length.
const (
	maxPatterns = 64
	maxRegexp   = 1024
)

// Validate reports what is wrong with a check, in words that say what to
// fix; nil for a check Prepare accepts.
func Validate(c Check) error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, a...))
	}
	n := 0
	for _, set := range []bool{c.Command != nil, c.Write != nil, c.Message != nil} {
		if set {
			n++
		}
	}
	if n != 1 {
		return bad("give exactly one target: command, write or message (it has %d)", n)
	}
	switch c.Kind {
	case Forbid, PreferInstead:
		if c.Message != nil && c.Message.MustNot == "" {
			return bad("a forbidding message check needs must_not")
		}
		if c.Kind == PreferInstead && strings.TrimSpace(c.Instead) == "" {
			return bad("prefer-instead needs instead: what the rule asks for")
		}
	case Require:
		switch {
		case c.Command != nil:
			return bad("require applies to a write (its text) or a message; for a command, forbid what the rule rules out")
		case c.Message != nil && c.Message.Must == "":
			return bad("a requiring message check needs must")
		case c.Write != nil && c.Write.Text == "":
			return bad("a requiring write check needs text: what the file must hold")
		case c.Write != nil && len(c.Write.Holds) > 0:
			return bad("holds rules text out (forbid); a requiring write check gives text")
		}
	case RequireBefore:
		if c.Command == nil || c.Before == nil {
			return bad("require-before needs command (what comes later) and before (the step that must come first)")
		}
	default:
		return bad("kind %q is not one of forbid, require, require-before, prefer-instead", c.Kind)
	}
	if b := c.Before; b != nil {
		for _, x := range b.Programs {
			if _, ok := classes[x]; ok && x != "*" {
				// A step named by its job ("lint" before a PR) given as a
				// program would wait for a program of that name, and ask
				// before every call whatever ran.
				return bad("before.programs %q names a class of commands: give it in classes ([%q]), or name the program that does it", x, x)
			}
		}
	}
	for _, p := range []*CommandPattern{c.Command, c.Before} {
		if p == nil {
			continue
		}
		if len(p.Programs) == 0 && len(p.Classes) == 0 {
			return bad("a command pattern needs programs or classes")
		}
		for _, x := range p.Programs {
			if x == "*" {
				continue
			}
			if b := path.Base(x); strings.Trim(b, "*?") == "" {
				return bad("program %q names no program: a command's program is read by its base name, so give the name or a glob of it (`test_*`)", x)
			}
			if _, err := path.Match(path.Base(x), ""); err != nil {
				return bad("program %q: %v", x, err)
			}
		}
		for _, cl := range p.Classes {
			if _, ok := classes[cl]; !ok {
				return bad("class %q is not one of %s", cl, strings.Join(classNames(), ", "))
			}
		}
		if len(p.Programs) > maxPatterns || len(p.Sub) > 8 || len(p.Flags) > maxPatterns || len(p.Lacks) > maxPatterns || len(p.Args) > maxPatterns || len(p.PipeTo) > maxPatterns {
			return bad("a command pattern holds at most %d of each", maxPatterns)
		}
		for _, f := range p.Lacks {
			if len(f) < 2 || f[0] != '-' && f[0] != '+' {
				return bad("lacks %q is not a flag: a flag starts with - (or +, a toolchain picked: `cargo +nightly`)", f)
			}
		}
		for _, g := range p.Args {
			if err := validGlob(g); err != nil {
				return bad("args glob %q: %v", g, err)
			}
		}
	}
	if c.Message != nil {
		for _, k := range c.Message.Kinds {
			if !slices.Contains(messageKinds, k) {
				return bad("message kind %q is not one of commit, pr-title, pr-body, branch", k)
			}
		}
	}
	if w := c.Write; w != nil {
		if len(w.Paths) > maxPatterns {
			return bad("a write pattern holds at most %d paths", maxPatterns)
		}
		for _, g := range w.Paths {
			if err := validGlob(g); err != nil {
				return bad("path glob %q: %v", g, err)
			}
		}
		if len(w.Paths) == 0 && w.Text == "" && len(w.Holds) == 0 && c.Kind != Require {
			return bad("a write pattern needs paths or text: forbidding every write is not a rule")
		}
		if w.Text != "" && len(w.Holds) > 0 {
			return bad("give text or holds, not both")
		}
		for _, h := range w.Holds {
			if _, ok := textClasses[h]; !ok {
				return bad("holds %q is not one of %s", h, strings.Join(textClassNames(), ", "))
			}
		}
	}
	for _, re := range []string{regexpOf(c.Write), msgRE(c.Message, true), msgRE(c.Message, false)} {
		if re == "" {
			continue
		}
		if len(re) > maxRegexp {
			return bad("a regular expression is at most %d bytes", maxRegexp)
		}
		if _, err := regexp.Compile(re); err != nil {
			return bad("regular expression %q: %v", re, err)
		}
	}
	if c.When != nil {
		for _, g := range c.When.Touched {
			if err := validGlob(g); err != nil {
				return bad("when.touched glob %q: %v", g, err)
			}
		}
		if len(c.When.Branch) > 0 && c.Command == nil {
			return bad("when.branch holds for command checks only: give command")
		}
		if len(c.When.Branch) > maxPatterns {
			return bad("when.branch holds at most %d branches", maxPatterns)
		}
		for _, b := range c.When.Branch {
			if _, err := path.Match(b, ""); err != nil || strings.TrimSpace(b) == "" || strings.ContainsAny(b, " \t~^:") {
				return bad("when.branch %q is not a branch name or glob", b)
			}
		}
		for _, d := range c.When.In {
			if err := validGlob(d); err != nil || strings.ContainsAny(d, "*?[") {
				return bad("when.in %q: a directory relative to the project root, with no wildcard", d)
			}
		}
	}
	switch c.From.By {
	case ByReader, ByPerson, ByConsultant:
	default:
		return bad("from.by %q is not one of reader, person, consultant", c.From.By)
	}
	return nil
}

func regexpOf(w *WritePattern) string {
	if w == nil {
		return ""
	}
	return w.Text
}

func msgRE(m *MessagePattern, must bool) string {
	if m == nil {
		return ""
	}
	if must {
		return m.Must
	}
	return m.MustNot
}

// Key is a check's identity: a hash of what it matches (kind, targets,
// condition), not of its rule or provenance, so that the same check read
// again keeps its key.
func Key(c Check) string {
	x := c
	x.Rule, x.Quote, x.From = "", "", Provenance{}
	b, _ := json.Marshal(x)
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:6])
}

// ParseCommand reads a command a person writes (`git push --force`, `make
// lint`) as a pattern: its program, the subcommand words before its first
// flag, and its flags (without values). An error says what to write
// instead when it is not one simple command.
func ParseCommand(cmd string) (*CommandPattern, error) {
	a := action.Shell(cmd, action.Env{})
	if !a.Parsed || len(a.Commands) != 1 {
		return nil, fmt.Errorf("%w: %q is not one simple command: give a program with its subcommand and flags, e.g. 'git push --force'", ErrInvalid, cmd)
	}
	return patternOf(a.Commands[0]), nil
}

// patternOf reads a command as a pattern: its program, the subcommand
// words before its first flag, and its flags (without values).
func patternOf(c action.Command) *CommandPattern {
	p := &CommandPattern{Programs: []string{c.Program}}
	for _, w := range c.Args {
		switch {
		case !w.Known:
		case strings.HasPrefix(w.Value, "-"):
			p.Flags = append(p.Flags, strings.SplitN(w.Value, "=", 2)[0])
		case len(p.Flags) == 0:
			p.Sub = append(p.Sub, w.Value)
		}
	}
	return p
}
