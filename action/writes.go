package action

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// commandWrites records what a command writes: its redirections, the files
// the file commands name, and the messages of git commit and gh pr.
func (r *reader) commandWrites(c Command, st *syntax.Stmt) {
	in, inKnown := heredoc(st)
	// Redirections: `echo x > f` writes x; `cat > f <<EOF` the document.
	var text string
	known := false
	switch c.Program {
	case "echo", "printf":
		if allKnown(c.Args) && len(c.Via) == 0 {
			text, known = strings.Join(values(c.Args), " "), true
		}
	case "cat":
		if len(c.Args) == 0 && inKnown {
			text, known = in, true
		}
	}
	if st != nil {
		r.redirects(st, text, &known)
	}
	pos := c.Positionals()
	switch c.Program {
	case "tee":
		by := "tee"
		if c.Has("-a") || c.Has("--append") {
			by = "tee -a"
		}
		for _, p := range pos {
			r.write(Write{Path: p, By: by})
		}
	case "sed", "perl":
		if !inPlace(c) {
			return
		}
		var files []string
		for _, p := range pos {
			if p != "" { // macOS's `sed -i '' …`: the empty suffix
				files = append(files, p)
			}
		}
		if !c.Has("-e") && !c.Has("-f") && !c.Has("--expression") && len(files) > 0 {
			files = files[1:] // the script
		}
		for _, p := range files {
			r.write(Write{Path: p, By: c.Program + " -i"})
		}
	case "cp", "install", "mv":
		dst, srcs := "", pos
		if t, ok := c.ValueOK("-t", "--target-directory"); ok || t != "" {
			dst = t
		} else if n := len(c.Args); n > 0 && !c.Args[n-1].Known {
			return // the destination is known only when the shell runs
		} else if len(pos) >= 2 {
			dst, srcs = pos[len(pos)-1], pos[:len(pos)-1]
		}
		if dst == "" {
			return
		}
		for _, s := range srcs {
			p := dst
			if len(srcs) > 1 || strings.HasSuffix(dst, "/") {
				p = joinPath(dst, s)
			}
			r.write(Write{Path: p, By: c.Program})
			if c.Program == "mv" {
				r.write(Write{Path: s, By: "mv", Delete: true})
			}
		}
	case "rm", "unlink", "rmdir", "shred":
		for _, p := range pos {
			r.write(Write{Path: p, By: c.Program, Delete: true})
		}
	case "touch":
		for _, p := range pos {
			r.write(Write{Path: p, By: "touch", New: r.env.Exists == nil || !r.env.Exists(r.path(p))})
		}
	case "mkdir":
		for _, p := range pos {
			r.write(Write{Path: p, By: "mkdir", Dir: true, New: true})
		}
	case "truncate":
		for _, p := range pos {
			r.write(Write{Path: p, By: "truncate"})
		}
	case "curl":
		if o := c.Value("-o", "--output"); o != "" {
			r.write(Write{Path: o, By: "curl -o"})
		}
	case "wget":
		if o := c.Value("-O", "--output-document"); o != "" && o != "-" {
			r.write(Write{Path: o, By: "wget -O"})
		}
	case "git":
		r.git(c, in, inKnown)
	case "gh":
		sub := c.Sub(2)
		if len(sub) == 2 && sub[0] == "pr" && (sub[1] == "create" || sub[1] == "edit") {
			if t, ok := c.ValueOK("-t", "--title"); ok {
				r.a.Messages = append(r.a.Messages, Message{Kind: PRTitle, Text: t})
			}
			if b, ok := c.ValueOK("-b", "--body"); ok {
				r.a.Messages = append(r.a.Messages, Message{Kind: PRBody, Text: b})
			}
		}
		// `gh release create v1.2.0 …` creates its tag: the word right
		// after the subcommand, when it is one.
		if len(sub) == 2 && sub[0] == "release" && sub[1] == "create" {
			if args := c.afterSub(2); len(args) > 0 && args[0].Known && !strings.HasPrefix(args[0].Value, "-") {
				r.a.Messages = append(r.a.Messages, Message{Kind: TagName, Text: args[0].Value})
			}
		}
	}
}

// newBranch is the name of the branch a git command creates: `checkout
// -b|-B NAME`, `switch -c|-C|--create NAME`, `worktree add -b NAME`, or
// `branch NAME` (not a listing, a deletion or a move); "" for none.
func newBranch(sub string, args []Arg) string {
	var create []string
	switch sub {
	case "checkout":
		create = []string{"-b", "-B"}
	case "switch":
		create = []string{"-c", "-C", "--create", "--force-create"}
	case "worktree":
		create = []string{"-b", "-B"}
	case "branch":
		for _, a := range args {
			if !a.Known {
				return ""
			}
			if strings.HasPrefix(a.Value, "-") {
				return "" // -d, -m, --list, -a …: not a new branch by name
			}
			return a.Value
		}
		return ""
	}
	for i, a := range args {
		if !a.Known {
			continue
		}
		for _, f := range create {
			if a.Value == f && i+1 < len(args) && args[i+1].Known {
				return args[i+1].Value
			}
			if strings.HasPrefix(a.Value, f+"=") && strings.HasPrefix(f, "--") {
				return strings.TrimPrefix(a.Value, f+"=")
			}
		}
	}
	return ""
}

// tagValued are git tag's options that take a value; tagOther those that
// make it list, delete or verify tags rather than create one.
var (
	tagValued = []string{"-m", "-F", "-u", "--message", "--file", "--local-user", "--cleanup", "--trailer"}
	tagOther  = []string{"-d", "--delete", "-l", "--list", "-v", "--verify", "-n", "--contains", "--no-contains", "--merged", "--no-merged", "--points-at", "--sort", "--format", "--column"}
)

// newTag is the name of the tag `git tag` creates: its first word that is
// no option nor an option's value; "" for a listing, a deletion, a
// verification, or a name the line does not tell.
func newTag(args []Arg) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.Known {
			return ""
		}
		v := a.Value
		name, _, _ := strings.Cut(v, "=")
		switch {
		case slices.Contains(tagOther, name):
			return ""
		case slices.Contains(tagValued, v):
			i++ // its value
		case strings.HasPrefix(v, "-"):
			// -a, -s, -f, --annotate, --message=…: no name
		default:
			return v
		}
	}
	return ""
}

// git reads git's writes: the message of a commit, and the files of git rm
// and git mv.
func (r *reader) git(c Command, in string, inKnown bool) {
	sub := c.Sub(1)
	if len(sub) == 0 {
		return
	}
	args := c.afterSub(1)
	switch sub[0] {
	case "checkout", "switch", "branch", "worktree":
		if name := newBranch(sub[0], args); name != "" {
			r.a.Messages = append(r.a.Messages, Message{Kind: BranchName, Text: name})
		}
	case "tag":
		if name := newTag(args); name != "" {
			r.a.Messages = append(r.a.Messages, Message{Kind: TagName, Text: name})
		}
	case "commit":
		var msgs []string
		partial := false
		// unknown takes the start of a message whose value the line does
		// not tell (a `command` substitution in it): what precedes is all
		// that is known, and no later message can be placed after it.
		unknown := func(i int) {
			if p := args[i].Prefix; p != "" && !args[i].Known {
				msgs, partial = append(msgs, p), true
			}
		}
		for i := 0; i < len(args) && !partial; i++ {
			a := args[i]
			if !a.Known {
				continue
			}
			v := a.Value
			next := func() (string, bool) {
				if i+1 < len(args) {
					i++
					return args[i].Value, args[i].Known
				}
				return "", false
			}
			switch {
			case v == "-m" || v == "--message":
				if m, ok := next(); ok {
					msgs = append(msgs, m)
				} else {
					unknown(i)
				}
			case strings.HasPrefix(v, "--message="):
				msgs = append(msgs, strings.TrimPrefix(v, "--message="))
			case v == "-F" || v == "--file":
				if f, ok := next(); ok && f == "-" && inKnown {
					msgs = append(msgs, in)
				}
			case strings.HasPrefix(v, "--file=-") && v == "--file=-" && inKnown:
				msgs = append(msgs, in)
			case strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && len(v) > 1:
				// A cluster: -am "msg", -m"msg", -sm "msg".
				if j := strings.IndexAny(v[1:], "mF"); j >= 0 {
					flag, rest := v[1+j], v[2+j:]
					if flag == 'm' {
						if rest != "" {
							msgs = append(msgs, rest)
						} else if m, ok := next(); ok {
							msgs = append(msgs, m)
						} else {
							unknown(i)
						}
					} else if rest == "" {
						if f, ok := next(); ok && f == "-" && inKnown {
							msgs = append(msgs, in)
						}
					}
				}
			}
		}
		if len(msgs) > 0 {
			r.a.Messages = append(r.a.Messages, Message{Kind: CommitMessage, Text: strings.Join(msgs, "\n\n"), Partial: partial})
		}
	case "rm":
		for _, a := range args {
			if a.Known && !strings.HasPrefix(a.Value, "-") {
				r.write(Write{Path: a.Value, By: "git rm", Delete: true})
			}
		}
	case "mv":
		var pos []string
		for _, a := range args {
			if a.Known && !strings.HasPrefix(a.Value, "-") {
				pos = append(pos, a.Value)
			}
		}
		if len(pos) >= 2 {
			dst := pos[len(pos)-1]
			for _, s := range pos[:len(pos)-1] {
				p := dst
				if len(pos) > 2 || strings.HasSuffix(dst, "/") {
					p = joinPath(dst, s)
				}
				r.write(Write{Path: p, By: "git mv"})
				r.write(Write{Path: s, By: "git mv", Delete: true})
			}
		}
	}
}

// nullDevice reports whether a path is a device rather than a file:
// /dev/null and its kin, or Windows' NUL.
func nullDevice(p string) bool {
	return strings.HasPrefix(p, "/dev/") || strings.EqualFold(p, "nul") || strings.EqualFold(p, "$null")
}

// write records a write, its path made relative to the root.
func (r *reader) write(w Write) {
	if w.Path == "" || nullDevice(w.Path) {
		return
	}
	if w.Path = r.path(w.Path); w.Path == "" {
		return
	}
	r.a.Writes = append(r.a.Writes, w)
}

// inPlace reports whether sed or perl edits its files in place (-i,
// -i.bak, --in-place, clusters such as -Ei or -pi).
func inPlace(c Command) bool {
	for _, a := range c.Args {
		v := a.Value
		if !a.Known {
			continue
		}
		if v == "--in-place" || strings.HasPrefix(v, "--in-place=") {
			return true
		}
		if strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") {
			flags := v[1:]
			if c.Program == "sed" {
				// -i[SUFFIX]: the i ends the cluster's flags.
				if j := strings.IndexByte(flags, 'i'); j >= 0 && strings.Trim(flags[:j], "nErsuzl") == "" {
					return true
				}
			} else if strings.ContainsRune(flags, 'i') && !strings.ContainsAny(flags, "eE") || strings.HasPrefix(flags, "pi") || strings.HasPrefix(flags, "i") {
				return true
			}
		}
	}
	return false
}

func allKnown(as []Arg) bool {
	for _, a := range as {
		if !a.Known {
			return false
		}
	}
	return true
}

func values(as []Arg) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.Value
	}
	return out
}
