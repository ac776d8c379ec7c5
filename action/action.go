package action

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"
)

// Action is one tool call of an agent, read. Plain data.
type Action struct {
	// Tool is the agent's tool name (Bash, Edit, Write, MultiEdit,
	// NotebookEdit).
	Tool string `json:"tool"`
	// Commands are the simple commands a shell line runs, in the order they
	// appear, wrappers unwrapped.
	Commands []Command `json:"commands,omitempty"`
	// Writes are the files the action writes, creates or removes.
	Writes []Write `json:"writes,omitempty"`
	// Messages are the commit messages and pull-request titles it writes.
	Messages []Message `json:"messages,omitempty"`
	// Parsed is false for a shell line that did not parse: nothing of it
	// is known.
	Parsed bool `json:"parsed"`
}

// Empty reports whether the action does nothing this package can see.
func (a Action) Empty() bool {
	return len(a.Commands) == 0 && len(a.Writes) == 0 && len(a.Messages) == 0
}

// Command is one simple command.
type Command struct {
	// Program is what runs, as a base name ("git", "pytest"): for `npx
	// jest` it is jest, and npx is in Via.
	Program string `json:"program"`
	// Args are its arguments; an argument whose value the shell would only
	// know when it runs is empty with Known false.
	Args []Arg `json:"args,omitempty"`
	// Via are the wrappers and runners it was found inside, outermost
	// first, as written ("sudo", "npx", "uv run", "bash -c").
	Via []string `json:"via,omitempty"`
	// PipeTo are the programs its output is piped into, nearest first.
	PipeTo []string `json:"pipe_to,omitempty"`
	// Text is the command as written (for evidence), at most a few hundred
	// bytes.
	Text string `json:"text"`
	// Dir is the directory an earlier `cd` of the line moved to, relative
	// to the root ("" for the root; absolute outside it; "?" unknown).
	Dir string `json:"dir,omitempty"`
	// DirFixed: Dir is known, because the line moved there by an absolute
	// path or Env.Dir says where the shell stood; otherwise Dir assumes
	// the shell started at the root.
	DirFixed bool `json:"dir_fixed,omitempty"`
}

// Arg is one argument of a command.
type Arg struct {
	Value string `json:"value"`
	// Known is false when the argument holds an expansion; Prefix is
	// then its value up to the first one.
	Known  bool   `json:"known"`
	Prefix string `json:"prefix,omitempty"`
}

// Write is a file an action writes.
type Write struct {
	// Path is relative to the project root, slash-separated, unless the
	// file is outside the project (then absolute) or the shell could not
	// tell (then as written).
	Path string `json:"path"`
	// Text is the new text, when the action shows it (a file tool's new
	// text, echo or a here-document into a file); TextKnown says whether
	// it does.
	Text      string `json:"text,omitempty"`
	TextKnown bool   `json:"text_known"`
	// Gone are the lines an edit takes away (its old text's lines that
	// the new text does not hold), so that a rewritten line is not read
	// as new: a forbidden pattern counts only when the edit adds more of
	// it than it removes.
	Gone string `json:"gone,omitempty"`
	// Was is the whole text an edit replaces, the lines it keeps included:
	// what the file held where the edit changes it (a generated file's
	// mark at its head shows there).
	Was string `json:"was,omitempty"`
	// New is true for a file the action creates (Write, touch, a new
	// file's redirection, when the caller could tell it did not exist).
	New bool `json:"new,omitempty"`
	// Delete is true for a file the action removes (rm, git rm, the
	// source of mv).
	Delete bool `json:"delete,omitempty"`
	// Dir is true for a directory the action makes (mkdir).
	Dir bool `json:"dir,omitempty"`
	// By says how: the tool name, or the shell's way (">", ">>", "tee",
	// "sed -i", "cp", "mv", "rm", "touch", "mkdir").
	By string `json:"by"`
	// NameOnly: Path is a file's name whose directory is not known (a
	// plan that names "Toast.test.tsx"): a glob matches it by its last
	// part, and its text is a fragment whose place in the file is not
	// known either.
	NameOnly bool `json:"name_only,omitempty"`
	// PathTail: Path may be only the end of the file's path, under
	// folders not named (a plan's "client/net.ts"); a glob matches it
	// where it may hold such a file (check.GlobTail).
	PathTail bool `json:"path_tail,omitempty"`
}

// Unplaced reports whether the write's file is not known at all: code a
// plan shows without naming a file (NameOnly with no name). Only a
// pattern over the new text can read it.
func (w Write) Unplaced() bool { return w.NameOnly && w.Path == "" }

// MessageKind is what a message is.
type MessageKind string

// The kinds of messages.
const (
	CommitMessage MessageKind = "commit"
	PRTitle       MessageKind = "pr-title"
	// PRBody is a pull request's description as the command gives it
	// (`gh pr create --body TEXT`).
	PRBody MessageKind = "pr-body"
	// BranchName is the name of a branch an action creates (`git checkout
	// -b`, `git switch -c`, `git branch NAME`, `git worktree add -b`).
	BranchName MessageKind = "branch"
	// TagName is the name of a tag an action creates (`git tag NAME`,
	// `git tag -a NAME -m …`, `gh release create NAME`).
	TagName MessageKind = "tag"
)

// Message is a commit message, a pull-request title or a new branch's
// name that an action writes.
type Message struct {
	Kind MessageKind `json:"kind"`
	Text string      `json:"text"`
	// Partial: Text is only the start of the message, up to an expansion
	// whose value the line does not tell ("feat: x\n\n`Cmd` moved").
	Partial bool `json:"partial,omitempty"`
}

// Env is what a tool call is read against: the project root (absolute,
// "" when unknown), optionally the directory the shell stands in
// (absolute; "" for the root, as assumed), and whether a file exists (for
// New).
type Env struct {
	Root   string
	Dir    string
	Exists func(path string) bool
}

// maxTextBytes bounds the new text kept of a file write.
const maxTextBytes = 64 << 10

// toolInput is the union of the file tools' and Bash's inputs, as Claude
// Code sends them.
type toolInput struct {
	Command      string `json:"command"`
	FilePath     string `json:"file_path"`
	NotebookPath string `json:"notebook_path"`
	Content      string `json:"content"`
	OldString    string `json:"old_string"`
	NewString    string `json:"new_string"`
	NewSource    string `json:"new_source"`
	Edits        []struct {
		OldString string `json:"old_string"`
		NewString string `json:"new_string"`
	} `json:"edits"`
}

// FromTool reads a tool call. Tools other than the shell and the file
// tools read as an empty action; input that is not the tool's JSON is an
// error.
func FromTool(tool string, input json.RawMessage, env Env) (Action, error) {
	var ti toolInput
	if len(input) > 0 {
		if err := json.Unmarshal(input, &ti); err != nil {
			return Action{Tool: tool}, fmt.Errorf("read %s input: %w", tool, err)
		}
	}
	switch tool {
	case "Bash":
		a := Shell(ti.Command, env)
		a.Tool = tool
		return a, nil
	case "Edit", "Write", "MultiEdit", "NotebookEdit":
		p := ti.FilePath
		if p == "" {
			p = ti.NotebookPath
		}
		if strings.TrimSpace(p) == "" {
			return Action{Tool: tool, Parsed: true}, nil
		}
		// The new text is what the call adds: a file's whole content, an
		// edit's lines that were not there before (the lines around the
		// change an edit repeats are not new).
		text := ti.Content + ti.NewSource + added(ti.OldString, ti.NewString)
		gone := added(ti.NewString, ti.OldString)
		was := ti.OldString
		for i, e := range ti.Edits {
			was += "\n" + e.OldString
			if i > 0 || text != "" {
				text += "\n"
			}
			text += added(e.OldString, e.NewString)
			if g := added(e.NewString, e.OldString); g != "" {
				gone += "\n" + g
			}
		}
		w := Write{Path: env.rel(p, ""), Text: clipText(text), Gone: clipText(strings.TrimPrefix(gone, "\n")), Was: clipText(strings.TrimPrefix(was, "\n")), TextKnown: true, By: tool}
		if tool == "Write" {
			w.New = env.Exists == nil || !env.Exists(w.Path)
		}
		return Action{Tool: tool, Writes: []Write{w}, Parsed: true}, nil
	}
	return Action{Tool: tool, Parsed: true}, nil
}

// added returns the lines of new that old does not hold (as many times as
// new holds them more often), in new's order.
func added(old, new string) string {
	if old == "" {
		return new
	}
	have := map[string]int{}
	for _, l := range strings.Split(old, "\n") {
		have[strings.TrimSpace(l)]++
	}
	var out []string
	for _, l := range strings.Split(new, "\n") {
		k := strings.TrimSpace(l)
		if have[k] > 0 {
			have[k]--
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

func clipText(s string) string {
	if len(s) <= maxTextBytes {
		return s
	}
	return s[:maxTextBytes]
}

// rel makes a path relative to the project root, dir being the directory
// the shell is in relative to the root ("" for the root itself, or an
// absolute directory outside it). A path outside the root stays absolute.
func (e Env) rel(p, dir string) string {
	p = strings.ReplaceAll(strings.TrimSpace(p), `\`, "/")
	if p == "" {
		return ""
	}
	if strings.HasPrefix(p, "~") {
		return p
	}
	root := strings.TrimRight(strings.ReplaceAll(e.Root, `\`, "/"), "/")
	if isAbs(p) {
		p = path.Clean(p)
		if root != "" {
			if p == root {
				return "."
			}
			if rest, ok := strings.CutPrefix(p, root+"/"); ok {
				return rest
			}
		}
		return p
	}
	if dir != "" {
		p = path.Join(dir, p)
		if isAbs(p) {
			return e.rel(p, "")
		}
	}
	p = path.Clean(p)
	return p
}

// InRoot reports whether a path or directory as this package gives it (a
// Write's Path, a Command's Dir) is inside the project root: not absolute
// (outside), not above it (".."), not under the home directory ("~"), and
// not unknown ("?").
func InRoot(p string) bool {
	return !isAbs(p) && p != ".." && !strings.HasPrefix(p, "../") && !strings.HasPrefix(p, "~") && p != "?" && !(len(p) >= 2 && p[1] == ':')
}

// isAbs reports whether p is absolute, the POSIX way or a Windows drive's.
func isAbs(p string) bool {
	return strings.HasPrefix(p, "/") || len(p) > 2 && p[1] == ':' && p[2] == '/'
}
