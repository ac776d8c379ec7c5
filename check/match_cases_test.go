package check

import (
	"slices"
	"strings"
	"testing"

	"github.com/innate-mcp/innate-mcp/action"
)

// TestMatch_runnerForm: a pattern that names a runner and the words after
// it matches the command run through that runner.
func TestMatch_runnerForm(t *testing.T) {
	tests := []struct {
		pattern CommandPattern
		line    string
		want    bool
	}{
		{CommandPattern{Programs: []string{"uv"}, Sub: []string{"run", "lefthook"}}, "uv run lefthook run --force", true},
		{CommandPattern{Programs: []string{"uv"}, Sub: []string{"run", "lefthook", "run"}}, "uv run lefthook run --force", true},
		{CommandPattern{Programs: []string{"uv"}, Sub: []string{"run", "pytest"}}, "uv run lefthook run --force", false},
		{CommandPattern{Programs: []string{"bundle"}, Sub: []string{"exec", "rspec"}}, "bundle exec rspec spec/a_spec.rb", true},
		{CommandPattern{Programs: []string{"lefthook"}, Sub: []string{"run"}}, "uv run lefthook run -a", true},
		{CommandPattern{Programs: []string{"npx"}, Sub: []string{"prisma", "migrate"}}, "npx prisma migrate dev", true},
		{CommandPattern{Programs: []string{"npx"}, Sub: []string{"prisma", "migrate"}}, "npx prisma generate", false},
	}
	for _, tt := range tests {
		p, err := Prepare(Check{Kind: Forbid, From: Provenance{By: ByPerson}, Command: &tt.pattern})
		if err != nil {
			t.Fatal(err)
		}
		if _, hit := p.Match(action.Shell(tt.line, action.Env{}), History{}); hit != tt.want {
			t.Errorf("%+v on %q: hit %v, want %v", tt.pattern, tt.line, hit, tt.want)
		}
	}
}

// TestMatch_secretNotRepeated: a hit on a literal credential says what
// kind it is, and never repeats the credential itself.
func TestMatch_secretNotRepeated(t *testing.T) {
	const key = "ghp_1234567890abcdefghijklmnopqrstuvwxyzAB"
	p, err := Prepare(Check{Kind: Forbid, Write: &WritePattern{Holds: []string{"secret"}}, From: Provenance{By: ByReader}})
	if err != nil {
		t.Fatal(err)
	}
	h, ok := p.Match(tool("Write", `{"file_path":"src/api.js","content":"const token = '`+key+`';"}`), History{})
	if !ok {
		t.Fatal("a GitHub token written into src/api.js: no hit")
	}
	if strings.Contains(h.Why, key) || strings.Contains(h.Evidence, key) || !strings.Contains(h.Why, "github-token") {
		t.Errorf("hit %+v: want the kind (github-token), not the key", h)
	}
	if d := Describe(p.Check); strings.Contains(d, "/") || !strings.Contains(d, "credential") {
		t.Errorf("Describe = %q", d)
	}
}

// TestMatch_nameOnly: the code a plan shows for a file it names without
// its directory is matched by each glob's last part, and a pattern that
// needs a line's start or end cannot be judged on that fragment; code a
// plan shows for no file is judged by a pattern of its text alone, and a
// fragment of it lacks nothing.
func TestMatch_nameOnly(t *testing.T) {
	jest := Check{Kind: Forbid, Write: &WritePattern{Paths: []string{"frontend/**/*.test.tsx", "!frontend/legacy/**"}, Text: `\bjest\.(?:fn|mock)\b`}, From: Provenance{By: ByConsultant}}
	topLevel := Check{Kind: Forbid, Write: &WritePattern{Paths: []string{"lib/**/*.rb"}, Text: `(?m)^require_relative\s`}, From: Provenance{By: ByConsultant}}
	client := Check{Kind: Forbid, Write: &WritePattern{Paths: []string{"packages/core/src/client/"}, Text: `from '\.\./server/`}, From: Provenance{By: ByConsultant}}
	pathOnly := Check{Kind: Forbid, Write: &WritePattern{Paths: []string{"**/*.go"}}, From: Provenance{By: ByConsultant}}
	header := Check{Kind: Require, Write: &WritePattern{Paths: []string{"**/*.go"}, Text: `Copyright`}, From: Provenance{By: ByConsultant}}
	tests := []struct {
		name  string
		check Check
		w     action.Write
		want  bool
	}{
		{"a test file by its name", jest, action.Write{Path: "Toast.test.tsx", Text: "const spy = jest.fn()", TextKnown: true, NameOnly: true}, true},
		{"another kind of file", jest, action.Write{Path: "Toast.tsx", Text: "const spy = jest.fn()", TextKnown: true, NameOnly: true}, false},
		{"the same file with its path", jest, action.Write{Path: "src/Toast.test.tsx", Text: "const spy = jest.fn()", TextKnown: true}, false},
		{"an anchored pattern on a fragment", topLevel, action.Write{Path: "updater.rb", Text: `require_relative "x"`, TextKnown: true, NameOnly: true}, false},
		{"an anchored pattern on a file", topLevel, action.Write{Path: "lib/a/updater.rb", Text: `require_relative "x"`, TextKnown: true}, true},
		// A plan's path may lie under folders it does not name.
		{"a path's tail", client, action.Write{Path: "client/net.ts", Text: "import x from '../server/y'", TextKnown: true, PathTail: true}, true},
		{"a path's tail elsewhere", client, action.Write{Path: "server/net.ts", Text: "import x from '../server/y'", TextKnown: true, PathTail: true}, false},
		{"a path from the root", client, action.Write{Path: "client/net.ts", Text: "import x from '../server/y'", TextKnown: true}, false},
		// Code a plan shows without naming a file: its text alone decides.
		{"code of no known file", jest, action.Write{Text: "const spy = jest.fn()", TextKnown: true, NameOnly: true}, true},
		{"compliant code of no known file", jest, action.Write{Text: "const spy = vi.fn()", TextKnown: true, NameOnly: true}, false},
		{"an anchored pattern on code of no known file", topLevel, action.Write{Text: `require_relative "x"`, TextKnown: true, NameOnly: true}, false},
		{"a path alone is no check of code of no known file", pathOnly, action.Write{Text: "x := 1", TextKnown: true, NameOnly: true}, false},
		{"a fragment of no known file lacks nothing", header, action.Write{Text: "func main() {}", TextKnown: true, NameOnly: true}, false},
		{"a whole file lacks the header", header, action.Write{Path: "cmd/main.go", Text: "func main() {}", TextKnown: true}, true},
	}
	for _, tc := range tests {
		p, err := Prepare(tc.check)
		if err != nil {
			t.Fatal(err)
		}
		if _, got := p.Match(action.Action{Tool: "Write", Parsed: true, Writes: []action.Write{tc.w}}, History{}); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestMatch_partialMessage: of a commit message known only up to a
// substitution in it, the known text is judged, and a form of the first
// line only when the known text runs past it.
func TestMatch_partialMessage(t *testing.T) {
	conventional := Check{Kind: Require, Message: &MessagePattern{Must: `^(feat|fix|docs)(\([^)]+\))?: \S`, Name: "a Conventional Commit"}, From: Provenance{By: ByPerson}}
	noFeat := Check{Kind: Forbid, Message: &MessagePattern{MustNot: `(?i)feat`}, From: Provenance{By: ByPerson}}
	noDot := Check{Kind: Forbid, Message: &MessagePattern{MustNot: `\.$`}, From: Provenance{By: ByPerson}}
	dollar := Check{Kind: Forbid, Message: &MessagePattern{MustNot: `\$\(`}, From: Provenance{By: ByPerson}}
	tests := []struct {
		name  string
		check Check
		m     action.Message
		want  bool
	}{
		{"a word ruled out, in the known part", noFeat, action.Message{Kind: action.CommitMessage, Text: "feat: add x\n\nMoved ", Partial: true}, true},
		{"a word ruled out, past the known part", noFeat, action.Message{Kind: action.CommitMessage, Text: "fix: ", Partial: true}, false},
		{"a whole first line of the wrong form", conventional, action.Message{Kind: action.CommitMessage, Text: "wip\n\nMoved ", Partial: true}, true},
		{"a first line cut short", conventional, action.Message{Kind: action.CommitMessage, Text: "Add ", Partial: true}, false},
		{"an end the known part does not reach", noDot, action.Message{Kind: action.CommitMessage, Text: "Fix x.", Partial: true}, false},
		{"an end of a whole message", noDot, action.Message{Kind: action.CommitMessage, Text: "Fix x."}, true},
		{"a literal dollar anywhere in a whole message", dollar, action.Message{Kind: action.CommitMessage, Text: "fix: x\n\nRan $(pwd) first."}, true},
	}
	for _, tc := range tests {
		p, err := Prepare(tc.check)
		if err != nil {
			t.Fatal(err)
		}
		if _, got := p.Match(action.Action{Tool: "Bash", Parsed: true, Messages: []action.Message{tc.m}}, History{}); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestMatch_docsCommit: a test or a build asked for before a commit is not
// missing when all the session wrote since its last commit is docs; code
// among it, nothing known, or a step that verifies nothing keeps the ask.
func TestMatch_docsCommit(t *testing.T) {
	from := Provenance{By: ByReader}
	testFirst := Check{Kind: RequireBefore, Command: &CommandPattern{Programs: []string{"git"}, Sub: []string{"commit"}}, Before: &CommandPattern{Programs: []string{"./gradlew"}, Sub: []string{"test"}}, From: from}
	byClass := Check{Kind: RequireBefore, Command: &CommandPattern{Programs: []string{"git"}, Sub: []string{"commit"}}, Before: &CommandPattern{Classes: []string{"test"}}, From: from}
	changelog := Check{Kind: RequireBefore, Command: &CommandPattern{Programs: []string{"git"}, Sub: []string{"commit"}}, Before: &CommandPattern{Programs: []string{"towncrier"}}, From: from}
	commit := bash(`git commit -m "docs: notes"`)
	tests := []struct {
		name  string
		check Check
		since []string
		want  bool
	}{
		{"docs alone", testFirst, []string{"README.md", "docs/a.md", ".specstory/history/x.md"}, false},
		{"docs alone, a class", byClass, []string{"CHANGELOG.md"}, false},
		{"code among them", testFirst, []string{"README.md", "app/src/Main.kt"}, true},
		{"nothing known", testFirst, nil, true},
		{"a step that verifies nothing", changelog, []string{"docs/a.md"}, true},
		{"staged everything", testFirst, []string{"docs/a.md", "."}, true},
	}
	for _, tc := range tests {
		p, err := Prepare(tc.check)
		if err != nil {
			t.Fatal(err)
		}
		if _, got := p.Match(commit, History{SinceCommit: tc.since}); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	// What the line itself stages or writes before its commit counts.
	p, err := Prepare(testFirst)
	if err != nil {
		t.Fatal(err)
	}
	for line, want := range map[string]bool{
		`git add .specstory/history/s.md && git commit -m "docs: history"`: false,
		`git add docs/a.md app/Main.kt && git commit -m "docs: a"`:         true,
		`git add -A && git commit -m "docs: a"`:                            true,
		`git commit -m "feat: a" && git add docs/a.md && git commit -m b`:  true,
		`echo x >> NOTES.md && git commit -am "docs: notes"`:               false,
	} {
		if _, got := p.Match(bash(line), History{}); got != want {
			t.Errorf("%s: %v, want %v", line, got, want)
		}
	}
}

// TestStages: `git add` stages the files it names, relative to the root;
// anything it cannot name is "." (everything).
func TestStages(t *testing.T) {
	tests := []struct {
		line string
		want []string
		ok   bool
	}{
		{"git add README.md docs/a.md", []string{"README.md", "docs/a.md"}, true},
		{"git add ./docs/a.md", []string{"docs/a.md"}, true},
		{"cd web && git add src/a.ts", []string{"web/src/a.ts"}, true},
		{"git add -- -odd.md", []string{"-odd.md"}, true},
		{"git add -A", []string{"."}, true},
		{"git add --all docs/", []string{"."}, true},
		{"git add -u", []string{"."}, true},
		{"git add .", []string{"."}, true},
		{"git add '*.md'", []string{"."}, true},
		{"git add $FILES", []string{"."}, true},
		{"git add -p a.go", []string{"."}, true},
		{"git add ../other/a.md", []string{"."}, true},
		{"git -C sub add a.md", []string{"a.md"}, true},
		{"git commit -m x", nil, false},
		{"git status", nil, false},
		{"npm add lodash", nil, false},
	}
	for _, tc := range tests {
		a := action.Shell(tc.line, action.Env{Root: "/r"})
		var got []string
		ok := false
		for _, c := range a.Commands {
			if p, staged := Stages(c); staged {
				got, ok = append(got, p...), true
			}
		}
		if ok != tc.ok || !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q %v, want %q %v", tc.line, got, ok, tc.want, tc.ok)
		}
	}
}

// TestMatch_generated: a file that carries a generator's mark in a
// comment, in its new text or in the text an edit replaces, is a generated
// file; a generator's source that writes the mark in a string is not.
func TestMatch_generated(t *testing.T) {
	p, err := Prepare(Check{Kind: Forbid, Write: &WritePattern{Holds: []string{"generated"}}, From: Provenance{By: ByReader}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, tool, input string
		want              bool
	}{
		{"go header", "Write", `{"file_path":"internal/db/q.sql.go","content":"// Code generated by sqlc. DO NOT EDIT.\n// versions:\n\npackage db\n"}`, true},
		{"@generated", "Write", `{"file_path":"gen/a_pb.rs","content":"// @generated by protoc-gen-rust\npub struct A;\n"}`, true},
		{"C# auto-generated", "Write", `{"file_path":"Api/Client.g.cs","content":"//------\n// <auto-generated>\n//     This code was generated by a tool.\n// </auto-generated>\n"}`, true},
		{"python spelled out", "Write", `{"file_path":"pkg/_version.py","content":"# This file was automatically generated by setuptools-scm\nversion = '1.0'\n"}`, true},
		{"an edit of the header's lines", "Edit", `{"file_path":"internal/db/q.sql.go","old_string":"// Code generated by sqlc. DO NOT EDIT.\n\npackage db","new_string":"// Code generated by sqlc. DO NOT EDIT.\n\npackage db\n\nimport \"fmt\""}`, true},
		{"a generator's source", "Write", `{"file_path":"cmd/gen/main.go","content":"package main\n\nfunc header(w io.Writer) {\n\tfmt.Fprintln(w, \"// Code generated by gen. DO NOT EDIT.\")\n}\n"}`, false},
		{"a plain file", "Write", `{"file_path":"internal/db/store.go","content":"// Package db stores things.\npackage db\n"}`, false},
		{"prose about generation", "Write", `{"file_path":"docs/gen.md","content":"The client is generated; run make gen. Do not edit it.\n"}`, false},
	}
	for _, tc := range tests {
		if _, got := p.Match(tool(tc.tool, tc.input), History{}); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestMatch_messageLines: a message pattern that names a line break reads
// the whole message (a body right under the subject), not its first line;
// a class that only leaves line breaks out reads the first line as
// before; a message known only in part is not judged on its lines.
func TestMatch_messageLines(t *testing.T) {
	from := Provenance{By: ByConsultant}
	noBlank := Check{Kind: Forbid, Message: &MessagePattern{MustNot: `^[^\n]*\n[^\n]`}, From: from}
	blank := Check{Kind: Require, Message: &MessagePattern{Must: `\A[^\n]+(?:\z|\n\n)`, Name: "a subject, then a blank line"}, From: from}
	short := Check{Kind: Forbid, Message: &MessagePattern{MustNot: `^[^\n]{73,}`}, From: from}
	tests := []struct {
		name  string
		check Check
		line  string
		want  bool
	}{
		{"body under the subject", noBlank, "git commit -m $'Fix x\\nbecause y'", true},
		{"a blank line first", noBlank, "git commit -m $'Fix x\\n\\nbecause y'", false},
		{"a subject alone", noBlank, `git commit -m "Fix x"`, false},
		{"required blank line missing", blank, "git commit -m $'Fix x\\nbecause y'", true},
		{"required blank line there", blank, "git commit -m $'Fix x\\n\\nbecause y'", false},
		{"subject alone is whole", blank, `git commit -m "Fix x"`, false},
		{"partial message not judged", noBlank, "git commit -m \"Fix x\n`y` z\"", false},
		{"first line's length", short, "git commit -m $'Fix x\\n" + strings.Repeat("b", 90) + "'", false},
	}
	for _, tc := range tests {
		p, err := Prepare(tc.check)
		if err != nil {
			t.Fatal(err)
		}
		if _, got := p.Match(action.Shell(tc.line, action.Env{Root: "/r"}), History{}); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
