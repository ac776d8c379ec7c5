package action

import (
	"path"
	"regexp"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Limits of reading one shell line.
const (
	// maxLineBytes bounds the shell line read; a longer one is cut.
	maxLineBytes = 64 << 10
	// maxDepth bounds `bash -c '…'` inside `bash -c '…'`.
	maxDepth = 4
	// maxCommands bounds the commands read of one line.
	maxCommands = 256
	// maxCommandText bounds Command.Text.
	maxCommandText = 300
)

// Shell reads a shell command line. A line that does not parse reads as an
// action with Parsed false and nothing in it.
func Shell(line string, env Env) Action {
	if len(line) > maxLineBytes {
		line = line[:maxLineBytes]
	}
	if windowsPaths().MatchString(line) {
		// A PowerShell or cmd line (`.venv\Scripts\python.exe -m pip …`,
		// `C:\proj\build.cmd`): its backslashes separate paths, they
		// escape nothing.
		line = windowsSeparator().ReplaceAllStringFunc(line, func(m string) string { return "/" + m[1:] })
	}
	a := Action{Tool: "Bash"}
	r := &reader{env: env, a: &a}
	if env.Dir != "" {
		r.dir, r.fixed = env.rel(env.Dir, ""), true
		if r.dir == "." {
			r.dir = ""
		}
	}
	if !r.parse(line, 0) {
		return Action{Tool: "Bash"}
	}
	a.Parsed = true
	return a
}

// windowsPaths finds a Windows path in a line: a drive, a relative
// .\ or ..\, or a program file named with its extension.
var windowsPaths = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:^|[\s"'=(])(?:[a-z]:\\|\.{1,2}\\)|\\[\w.-]+\.(?:exe|cmd|bat|ps1)\b`)
})

// windowsSeparator is a backslash that does not escape a quote or end a
// line.
var windowsSeparator = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\\(?:[^"'\n\\]|$)`) })

// reader walks one parsed line into an Action.
type reader struct {
	env Env
	a   *Action
	// dir is the directory `cd` moved to, relative to the root (or
	// absolute when outside it); "" for the root.
	dir string
	// fixed: dir is known, from Env.Dir or a `cd` to an absolute path,
	// rather than assumed to start at the root.
	fixed bool
}

// parse reads src (the whole line, or a `bash -c` script at depth > 0)
// and reports whether it parsed.
func (r *reader) parse(src string, depth int) bool {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return false
	}
	for _, st := range f.Stmts {
		r.stmt(src, st, nil, depth)
	}
	return true
}

// stmt reads one statement; pipeTo are the programs its output is piped
// into.
func (r *reader) stmt(src string, st *syntax.Stmt, pipeTo []string, depth int) {
	if st == nil || len(r.a.Commands) >= maxCommands {
		return
	}
	switch c := st.Cmd.(type) {
	case *syntax.CallExpr:
		r.call(src, st, c, pipeTo, depth)
	case *syntax.BinaryCmd:
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			r.pipeline(src, c, depth)
			break
		}
		r.stmt(src, c.X, nil, depth)
		r.stmt(src, c.Y, pipeTo, depth)
	case *syntax.Subshell:
		saved, fixed := r.dir, r.fixed
		r.stmts(src, c.Stmts, depth)
		r.dir, r.fixed = saved, fixed
	case *syntax.Block:
		r.stmts(src, c.Stmts, depth)
	case *syntax.IfClause:
		for ic := c; ic != nil; ic = ic.Else {
			r.stmts(src, ic.Cond, depth)
			r.stmts(src, ic.Then, depth)
		}
	case *syntax.WhileClause:
		r.stmts(src, c.Cond, depth)
		r.stmts(src, c.Do, depth)
	case *syntax.ForClause:
		r.stmts(src, c.Do, depth)
	case *syntax.CaseClause:
		for _, item := range c.Items {
			r.stmts(src, item.Stmts, depth)
		}
	case *syntax.TimeClause:
		r.stmt(src, c.Stmt, pipeTo, depth)
	case *syntax.CoprocClause:
		r.stmt(src, c.Stmt, pipeTo, depth)
	}
	// Redirections of compound commands write too ("{ …; } > out.txt").
	if _, ok := st.Cmd.(*syntax.CallExpr); !ok {
		r.redirects(st, "", nil)
	}
}

func (r *reader) stmts(src string, sts []*syntax.Stmt, depth int) {
	for _, st := range sts {
		r.stmt(src, st, nil, depth)
	}
}

// pipeline reads `a | b | c`: each stage's commands learn the programs of
// the stages after it.
func (r *reader) pipeline(src string, b *syntax.BinaryCmd, depth int) {
	var stages []*syntax.Stmt
	var flatten func(st *syntax.Stmt)
	flatten = func(st *syntax.Stmt) {
		if bc, ok := st.Cmd.(*syntax.BinaryCmd); ok && (bc.Op == syntax.Pipe || bc.Op == syntax.PipeAll) && len(st.Redirs) == 0 {
			flatten(bc.X)
			flatten(bc.Y)
			return
		}
		stages = append(stages, st)
	}
	flatten(b.X)
	flatten(b.Y)
	// Read each stage on its own to learn its first program.
	read := make([][]Command, len(stages))
	writes := make([][]Write, len(stages))
	msgs := make([][]Message, len(stages))
	for i, st := range stages {
		sub := &reader{env: r.env, a: &Action{}, dir: r.dir, fixed: r.fixed}
		sub.stmt(src, st, nil, depth)
		read[i], writes[i], msgs[i] = sub.a.Commands, sub.a.Writes, sub.a.Messages
	}
	for i := range stages {
		var to []string
		for _, later := range read[i+1:] {
			if len(later) > 0 {
				for _, v := range later[0].Via {
					to = append(to, strings.Fields(v)[0])
				}
				to = append(to, later[0].Program)
			}
		}
		for _, c := range read[i] {
			if len(r.a.Commands) >= maxCommands {
				return
			}
			c.PipeTo = append(c.PipeTo, to...)
			r.a.Commands = append(r.a.Commands, c)
		}
		r.a.Writes = append(r.a.Writes, writes[i]...)
		r.a.Messages = append(r.a.Messages, msgs[i]...)
	}
}

// call reads a simple command.
func (r *reader) call(src string, st *syntax.Stmt, c *syntax.CallExpr, pipeTo []string, depth int) {
	// Commands inside command and process substitutions run too.
	for _, w := range c.Args {
		r.substitutions(src, w, depth)
	}
	for _, as := range c.Assigns {
		if as.Value != nil {
			r.substitutions(src, as.Value, depth)
		}
	}
	args := make([]Arg, 0, len(c.Args))
	for _, w := range c.Args {
		v, ok := wordValue(w)
		a := Arg{Value: v, Known: ok}
		if !ok {
			a.Prefix = wordPrefix(w)
		}
		args = append(args, a)
	}
	text := clipCommand(nodeText(src, c))
	if len(args) == 0 {
		r.redirects(st, "", nil)
		return
	}
	if !args[0].Known {
		return // `$EDITOR file`: what runs is not known
	}
	if base(args[0].Value) == "cd" {
		r.cd(args[1:])
		return
	}
	r.command(src, args, nil, text, pipeTo, st, depth)
}

// command reads a command given its words, unwrapping wrappers and runners
// (via collects them, outermost first).
func (r *reader) command(src string, args []Arg, via []string, text string, pipeTo []string, st *syntax.Stmt, depth int) {
	for len(args) > 0 && len(r.a.Commands) < maxCommands {
		if !args[0].Known {
			return
		}
		prog := ProgramName(args[0].Value)
		if script, ok := shellScript(prog, args[1:]); ok {
			if depth < maxDepth {
				sub := &reader{env: r.env, a: r.a, dir: r.dir, fixed: r.fixed}
				n := len(r.a.Commands)
				sub.parse(script, depth+1)
				for i := n; i < len(r.a.Commands); i++ {
					r.a.Commands[i].Via = append(append(slicesClone(via), prog+" -c"), r.a.Commands[i].Via...)
					if len(r.a.Commands[i].PipeTo) == 0 {
						r.a.Commands[i].PipeTo = pipeTo
					}
				}
			}
			return
		}
		rest, wrapper, ok := unwrap(prog, args)
		if !ok {
			break
		}
		via = append(via, wrapper)
		args = rest
	}
	if len(args) == 0 || !args[0].Known || ProgramName(args[0].Value) == "" {
		return
	}
	cmd := Command{Program: ProgramName(args[0].Value), Args: args[1:], Via: via, PipeTo: pipeTo, Text: text, Dir: r.dir, DirFixed: r.fixed && r.dir != "?"}
	r.a.Commands = append(r.a.Commands, cmd)
	r.commandWrites(cmd, st)
}

// cd follows a literal `cd DIR` for the paths of later commands.
func (r *reader) cd(args []Arg) {
	for _, a := range args {
		if !a.Known {
			r.dir = "?" // unknown: later relative paths are unknown
			return
		}
		if strings.HasPrefix(a.Value, "-") && a.Value != "-" {
			continue
		}
		switch {
		case a.Value == "-" || a.Value == "~" || strings.HasPrefix(a.Value, "~/"):
			r.dir = "?"
		default:
			d := r.env.rel(a.Value, r.dir)
			if d == "." {
				d = ""
			}
			r.dir = d
			r.fixed = r.fixed || isAbs(a.Value)
		}
		return
	}
	r.dir = "?" // `cd` alone goes home
}

// substitutions reads the commands inside $(…), `…` and <(…) of a word.
func (r *reader) substitutions(src string, w *syntax.Word, depth int) {
	syntax.Walk(w, func(n syntax.Node) bool {
		switch s := n.(type) {
		case *syntax.CmdSubst:
			if _, ok := catHeredoc(s); ok {
				return false
			}
			saved, fixed := r.dir, r.fixed
			r.stmts(src, s.Stmts, depth)
			r.dir, r.fixed = saved, fixed
			return false
		case *syntax.ProcSubst:
			saved, fixed := r.dir, r.fixed
			r.stmts(src, s.Stmts, depth)
			r.dir, r.fixed = saved, fixed
			return false
		}
		return true
	})
}

// nodeText is the source text of a node.
func nodeText(src string, n syntax.Node) string {
	s, e := int(n.Pos().Offset()), int(n.End().Offset())
	if s < 0 || e > len(src) || s >= e {
		return ""
	}
	return src[s:e]
}

func clipCommand(s string) string {
	s = strings.TrimSpace(s)
	if len(s) <= maxCommandText {
		return s
	}
	cut := maxCommandText
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// base is the last element of a slash- or backslash-separated path.
func base(p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	if i := strings.LastIndexByte(p, '/'); i >= 0 && i < len(p)-1 {
		return p[i+1:]
	}
	return p
}

// ProgramName is the name a program is matched by: its base name, lower
// case, without a Windows executable suffix or a PHP archive's
// (`tools/phpunit.phar` is phpunit).
func ProgramName(word string) string {
	p := strings.ToLower(base(word))
	for _, suf := range []string{".exe", ".cmd", ".bat", ".ps1", ".phar"} {
		p = strings.TrimSuffix(p, suf)
	}
	return p
}

// wordValue is a word's value where the line alone tells it: literals,
// quoted text and here-documents read by `$(cat <<'EOF' … EOF)`; ok is
// false for a word holding any other expansion.
func wordValue(w *syntax.Word) (string, bool) {
	var b strings.Builder
	ok := parts(&b, w.Parts, false, false)
	return b.String(), ok
}

// wordPrefix is the value of a word up to its first expansion whose value
// the line does not tell: all of a commit message before a `command`
// substitution in it.
func wordPrefix(w *syntax.Word) string {
	var b strings.Builder
	parts(&b, w.Parts, false, true)
	return b.String()
}

// parts writes the value of word parts to b; it reports false at a part
// whose value is not known, where it stops if stop is set.
func parts(b *strings.Builder, ps []syntax.WordPart, quoted, stop bool) bool {
	ok := true
	for _, p := range ps {
		switch x := p.(type) {
		case *syntax.Lit:
			b.WriteString(unescape(x.Value, quoted))
		case *syntax.SglQuoted:
			b.WriteString(sglQuoted(x))
		case *syntax.DblQuoted:
			if !parts(b, x.Parts, true, stop) {
				ok = false
			}
		case *syntax.CmdSubst:
			if s, isCat := catHeredoc(x); isCat {
				b.WriteString(s)
				continue
			}
			ok = false
		default:
			ok = false
		}
		if !ok && stop {
			return false
		}
	}
	return ok
}

// sglQuoted is the value of a single-quoted part: as written, or for
// $'…' with its backslash escapes decoded as the shell does ("$'a\nb'" is
// two lines), by the parser's own expansion (a "%" is no format verb
// there, and the value ends at a NUL, as in bash).
func sglQuoted(x *syntax.SglQuoted) string {
	if !x.Dollar {
		return x.Value
	}
	pieces := strings.Split(x.Value, "%")
	for i, p := range pieces {
		v, _, err := expand.Format(nil, p, nil)
		if err != nil {
			return x.Value
		}
		pieces[i] = v
	}
	v, _, _ := strings.Cut(strings.Join(pieces, "%"), "\x00")
	return v
}

// unescape removes the shell's backslash escapes from a literal: all of
// them outside quotes, those before $ ` " \ and a newline inside double
// quotes.
func unescape(s string, quoted bool) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			n := s[i+1]
			if !quoted || strings.IndexByte("$`\"\\\n", n) >= 0 {
				if n != '\n' {
					b.WriteByte(n)
				}
				i++
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// catHeredoc reads `$(cat <<'EOF' … EOF)`, the way agents pass a long
// commit message: the here-document's text.
func catHeredoc(s *syntax.CmdSubst) (string, bool) {
	if len(s.Stmts) != 1 {
		return "", false
	}
	st := s.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) != 1 || call.Args[0].Lit() != "cat" {
		return "", false
	}
	for _, rd := range st.Redirs {
		if (rd.Op == syntax.Hdoc || rd.Op == syntax.DashHdoc) && rd.Hdoc != nil {
			v, _ := wordValue(rd.Hdoc)
			return strings.TrimSuffix(v, "\n"), true
		}
	}
	return "", false
}

// heredoc is the text a statement's here-document or here-string feeds its
// standard input, if any.
func heredoc(st *syntax.Stmt) (string, bool) {
	if st == nil {
		return "", false
	}
	for _, rd := range st.Redirs {
		switch rd.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			if rd.Hdoc != nil {
				v, ok := wordValue(rd.Hdoc)
				return strings.TrimSuffix(v, "\n"), ok
			}
		case syntax.WordHdoc:
			if rd.Word != nil {
				return wordValue(rd.Word)
			}
		}
	}
	return "", false
}

// redirects records the files a statement's output redirections write;
// text is what is written there when known.
func (r *reader) redirects(st *syntax.Stmt, text string, known *bool) {
	for _, rd := range st.Redirs {
		var by string
		switch rd.Op {
		case syntax.RdrOut, syntax.RdrAll, syntax.ClbOut:
			by = ">"
		case syntax.AppOut, syntax.AppAll:
			by = ">>"
		default:
			continue
		}
		if rd.Word == nil {
			continue
		}
		p, ok := wordValue(rd.Word)
		if !ok || p == "" || nullDevice(p) || strings.HasPrefix(p, "&") {
			continue
		}
		w := Write{Path: r.path(p), By: by}
		if w.Path == "" {
			continue
		}
		if known != nil && *known {
			w.Text, w.TextKnown = clipText(text), true
		}
		if by == ">" && r.env.Exists != nil && !r.env.Exists(w.Path) {
			w.New = true
		}
		r.a.Writes = append(r.a.Writes, w)
	}
}

// path is a path a command names, relative to the root; "" when the
// directory the shell is in is not known and the path is relative.
func (r *reader) path(p string) string {
	if r.dir == "?" && !isAbs(p) {
		return ""
	}
	return r.env.rel(p, r.dir)
}

func slicesClone(s []string) []string { return append([]string(nil), s...) }

// joinPath joins a directory and a name the way the shell's cp and mv do.
func joinPath(dir, name string) string { return path.Join(dir, base(name)) }
