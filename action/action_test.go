package action

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// summary renders an action compactly: commands as "via:program arg…
// |pipe", writes as "by path" with +new, -del, /dir, and messages.
func summary(a Action) []string {
	var out []string
	for _, c := range a.Commands {
		s := c.Program
		if len(c.Via) > 0 {
			s = strings.Join(c.Via, ",") + ":" + s
		}
		for _, x := range c.Args {
			if x.Known {
				s += " " + x.Value
			} else {
				s += " ?"
			}
		}
		if len(c.PipeTo) > 0 {
			s += " |" + strings.Join(c.PipeTo, ",")
		}
		out = append(out, s)
	}
	for _, w := range a.Writes {
		s := "W " + w.By + " " + w.Path
		if w.New {
			s += " +new"
		}
		if w.Delete {
			s += " -del"
		}
		if w.Dir {
			s += " /dir"
		}
		if w.TextKnown {
			s += fmt.Sprintf(" %q", w.Text)
		}
		out = append(out, s)
	}
	for _, m := range a.Messages {
		s := fmt.Sprintf("M %s %q", m.Kind, m.Text)
		if m.Partial {
			s += " …"
		}
		out = append(out, s)
	}
	return out
}

func TestShell(t *testing.T) {
	env := Env{Root: "/home/me/proj"}
	tests := []struct {
		name, line string
		want       []string
	}{
		{"simple", "npm install lodash", []string{"npm install lodash"}},
		{"and or seq", "make lint && git commit -m 'feat: x' || echo no; ls", []string{
			"make lint", "git commit -m feat: x", "echo no", "ls", `M commit "feat: x"`}},
		{"pipe into tail", "meson test -C build | tail -20", []string{"meson test -C build |tail", "tail -20"}},
		{"pipe of three", "go test ./... 2>&1 | grep FAIL | head -5", []string{"go test ./... |grep,head", "grep FAIL |head", "head -5"}},
		{"subshell and substitution", "(cd web && pnpm build); echo $(git rev-parse HEAD)", []string{
			"pnpm build", "git rev-parse HEAD", "echo ?"}},
		{"env assignment", "CI=1 FOO=bar npm test", []string{"npm test"}},
		{"sudo env time", "sudo -u root env -i PATH=/bin time rm -rf /tmp/x", []string{"sudo,env,time:rm -rf /tmp/x", "W rm /tmp/x -del"}},
		{"bash -c", `bash -lc 'cd web && npx eslint . | head'`, []string{"bash -c,npx:eslint . |head", "bash -c:head"}},
		{"sh -c nested", `sh -c "sh -c 'go fmt ./...'"`, []string{"sh -c,sh -c:go fmt ./..."}},
		{"xargs", "find . -name '*.pyc' | xargs rm -f", []string{"find . -name *.pyc |xargs,rm", "xargs:rm -f"}},
		{"npx version", "npx -y prettier@3 --write .", []string{"npx:prettier --write ."}},
		{"pnpm dlx", "pnpm dlx create-next-app@latest app", []string{"pnpm dlx:create-next-app app"}},
		{"uv run python -m", "uv run --frozen python -m pytest -q tests/", []string{"uv run,python -m:pytest -q tests/"}},
		{"poetry run", "poetry run black .", []string{"poetry run:black ."}},
		{"bundle exec", "bundle exec rspec spec/a_spec.rb", []string{"bundle exec:rspec spec/a_spec.rb"}},
		{"docker compose exec", "docker compose exec -T php-cli tools/phpunit.phar -c x.xml", []string{"docker compose exec:phpunit -c x.xml"}},
		{"docker exec", "docker exec -it -u root web npm test", []string{"docker exec:npm test"}},
		{"kubectl exec", "kubectl exec -n prod api-0 -- python manage.py migrate", []string{"kubectl exec:python manage.py migrate"}},
		{"docker compose up is no exec", "docker compose up -d", []string{"docker compose up -d"}},
		{"timeout", "timeout 30 cargo test", []string{"timeout:cargo test"}},
		{"command -v stops", "command -v jq", []string{"command -v jq"}},
		{"python script stays", "python3 scripts/gen.py --out x", []string{"python3 scripts/gen.py --out x"}},
		{"windows exe", `C:/tools/NPM.cmd ci`, []string{"npm ci"}},
		{"windows paths", `.venv\Scripts\python.exe -m pip install pillow`, []string{"python -m:pip install pillow"}},
		{"windows drive", `cd C:\proj && C:\tools\gen.exe > out\a.txt`, []string{"gen", "W > C:/proj/out/a.txt"}},
		{"redirect write", "echo 'x = 1' >> generated/foo.go", []string{"echo x = 1", `W >> generated/foo.go "x = 1"`}},
		{"heredoc write", "cat > src/a.txt <<'EOF'\nhello\nEOF", []string{"cat", `W > src/a.txt "hello"`}},
		{"dev null ignored", "go build ./... > /dev/null 2>&1", []string{"go build ./..."}},
		{"tee", "echo hi | tee -a docs/log.md", []string{"echo hi |tee", "tee -a docs/log.md", "W tee -a docs/log.md"}},
		{"sed -i", "sed -i 's/a/b/' generated/foo.go", []string{"sed -i s/a/b/ generated/foo.go", "W sed -i generated/foo.go"}},
		{"sed -i macOS", "sed -i '' -e 's/a/b/' gen/x.go gen/y.go", []string{"sed -i  -e s/a/b/ gen/x.go gen/y.go", "W sed -i gen/x.go", "W sed -i gen/y.go"}},
		{"sed without -i", "sed -n '1,5p' a.go", []string{"sed -n 1,5p a.go"}},
		{"perl -pi", "perl -pi -e 's/x/y/' lib/a.pm", []string{"perl -pi -e s/x/y/ lib/a.pm", "W perl -i lib/a.pm"}},
		{"cp mv rm", "cp a.txt b/ && mv c d && rm -f e", []string{"cp a.txt b/", "mv c d", "rm -f e",
			"W cp b/a.txt", "W mv d", "W mv c -del", "W rm e -del"}},
		{"cd then relative", "cd web && echo x > out.txt", []string{"echo x", `W > web/out.txt "x"`}},
		{"cd absolute inside root", "cd /home/me/proj/api && touch new.go", []string{"touch new.go", "W touch api/new.go +new"}},
		{"cd unknown", "cd $DIR && rm x", []string{"rm x"}},
		{"cp into an unknown directory", `cp go.mod go.sum "$D/"`, []string{"cp go.mod go.sum ?"}},
		{"windows null device", `curl.exe -s -o NUL http://127.0.0.1:4000/`, []string{"curl -s -o NUL http://127.0.0.1:4000/"}},
		{"windows null redirect", `npx tsc --noEmit 2>NUL`, []string{"npx:tsc --noEmit"}},
		{"absolute path outside", "rm /etc/hosts", []string{"rm /etc/hosts", "W rm /etc/hosts -del"}},
		{"absolute path inside", "rm /home/me/proj/gen/a.go", []string{"rm /home/me/proj/gen/a.go", "W rm gen/a.go -del"}},
		{"mkdir", "mkdir -p data/chat_exports", []string{"mkdir -p data/chat_exports", "W mkdir data/chat_exports +new /dir"}},
		{"git commit cluster", `git commit -am "wip"`, []string{"git commit -am wip", `M commit "wip"`}},
		{"git commit attached", `git commit -m"fix: a" -m "body"`, []string{"git commit -mfix: a -m body", "M commit \"fix: a\\n\\nbody\""}},
		// A `command` substitution inside the message: its start is known.
		{"git commit backticks", "git commit -m \"feat: x\n\nMoved `Foo` out.\" -m more", []string{
			"foo", "git commit -m ? -m more", "M commit \"feat: x\\n\\nMoved \" …"}},
		{"git commit unknown", `git commit -m "$MSG"`, []string{"git commit -m ?"}},
		{"git commit heredoc", "git commit -m \"$(cat <<'EOF'\nfeat(api): add x\n\nMore.\nEOF\n)\"", []string{
			"git commit -m feat(api): add x\n\nMore.", "M commit \"feat(api): add x\\n\\nMore.\""}},
		{"git commit -F -", "git commit -F - <<EOF\nchore: y\nEOF", []string{"git commit -F -", `M commit "chore: y"`}},
		{"git commit amend no message", "git commit --amend --no-edit", []string{"git commit --amend --no-edit"}},
		{"git -C", "git -C sub commit -m 'docs: z'", []string{"git -C sub commit -m docs: z", `M commit "docs: z"`}},
		{"gh pr create", `gh pr create --title "Add thing" --body "x"`, []string{"gh pr create --title Add thing --body x", `M pr-title "Add thing"`, `M pr-body "x"`}},
		{"git tag", `git tag v1.2.0`, []string{"git tag v1.2.0", `M tag "v1.2.0"`}},
		{"annotated tag", `git tag -a 0.2.0 -m "Release 0.2.0"`, []string{"git tag -a 0.2.0 -m Release 0.2.0", `M tag "0.2.0"`}},
		{"tag after its message", `git tag -m "Release" -s v3`, []string{"git tag -m Release -s v3", `M tag "v3"`}},
		{"tags listed", `git tag -l "v1.*"`, []string{"git tag -l v1.*"}},
		{"tag deleted", `git tag -d v1.0.0`, []string{"git tag -d v1.0.0"}},
		{"release", `gh release create v2.0.0 --notes "x" dist/app.tgz`, []string{"gh release create v2.0.0 --notes x dist/app.tgz", `M tag "v2.0.0"`}},
		{"gh pr edit, short body", `gh pr edit 12 -b "Fixes the parser"`, []string{"gh pr edit 12 -b Fixes the parser", `M pr-body "Fixes the parser"`}},
		{"git rm", "git rm -r --cached dist", []string{"git rm -r --cached dist", "W git rm dist -del"}},
		{"curl -o", "curl -sSL https://x/y -o vendor/y.js", []string{"curl -sSL https://x/y -o vendor/y.js", "W curl -o vendor/y.js"}},
		{"if and for", "if [ -f x ]; then make; fi; for f in *.go; do gofmt -w $f; done", []string{"[ -f x ]", "make", "gofmt -w ?"}},
		{"function body not run", "f() { rm -rf /; }", nil},
		{"unknown program", "$EDITOR notes.txt", nil},
		{"compound redirect", "{ echo a; echo b; } > gen/out.txt", []string{"echo a", "echo b", "W > gen/out.txt"}},
		{"escaped", `echo foo\ bar > "my file.txt"`, []string{"echo foo bar", `W > my file.txt "foo bar"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := Shell(tt.line, env)
			if !a.Parsed {
				t.Fatalf("did not parse %q", tt.line)
			}
			if got := summary(a); !slices.Equal(got, tt.want) {
				t.Errorf("Shell(%q)\n got %q\nwant %q", tt.line, got, tt.want)
			}
		})
	}
}

func TestShell_unparsable(t *testing.T) {
	for _, line := range []string{"echo 'unterminated", "if then fi ((", "cat <<EOF"} {
		a := Shell(line, Env{})
		if a.Parsed || !a.Empty() {
			t.Errorf("Shell(%q) = %+v, want nothing and Parsed false", line, a)
		}
	}
}

func TestFromTool(t *testing.T) {
	root := "/home/me/proj"
	exists := func(p string) bool { return p == "old.go" }
	tests := []struct {
		tool, input string
		want        []string
	}{
		{"Edit", `{"file_path":"/home/me/proj/generated/foo.go","old_string":"a","new_string":"b"}`, []string{`W Edit generated/foo.go "b"`}},
		{"Write", `{"file_path":"/home/me/proj/new.go","content":"package x"}`, []string{`W Write new.go +new "package x"`}},
		{"Write", `{"file_path":"old.go","content":"package y"}`, []string{`W Write old.go "package y"`}},
		{"MultiEdit", `{"file_path":"src/a.ts","edits":[{"old_string":"x","new_string":"y"},{"old_string":"p","new_string":"q"}]}`, []string{"W MultiEdit src/a.ts \"y\\nq\""}},
		{"Edit", `{"file_path":"a.ts","old_string":"let a = b as any;\nfoo();","new_string":"let a = b as any;\nfoo(a);"}`, []string{`W Edit a.ts "foo(a);"`}},
		{"NotebookEdit", `{"notebook_path":"/home/me/proj/nb/a.ipynb","new_source":"print(1)"}`, []string{`W NotebookEdit nb/a.ipynb "print(1)"`}},
		{"Edit", `{"file_path":"/elsewhere/x.go","new_string":"z"}`, []string{`W Edit /elsewhere/x.go "z"`}},
		{"Bash", `{"command":"git status"}`, []string{"git status"}},
		{"Read", `{"file_path":"/home/me/proj/a.go"}`, nil},
	}
	for _, tt := range tests {
		a, err := FromTool(tt.tool, json.RawMessage(tt.input), Env{Root: root, Exists: exists})
		if err != nil {
			t.Fatalf("FromTool(%s, %s): %v", tt.tool, tt.input, err)
		}
		if got := summary(a); !slices.Equal(got, tt.want) {
			t.Errorf("FromTool(%s, %s)\n got %q\nwant %q", tt.tool, tt.input, got, tt.want)
		}
	}
	if _, err := FromTool("Edit", json.RawMessage(`{"file_path":`), Env{}); err == nil {
		t.Error("bad JSON: want an error")
	}
}

// TestShell_rootIndependent: the same call in checkouts at two places
// reads the same.
func TestShell_rootIndependent(t *testing.T) {
	a := Shell("cd /a/proj/web && sed -i s/x/y/ /a/proj/gen/z.go > /a/proj/out.txt", Env{Root: "/a/proj"})
	b := Shell("cd /b/other/place/proj/web && sed -i s/x/y/ /b/other/place/proj/gen/z.go > /b/other/place/proj/out.txt", Env{Root: "/b/other/place/proj"})
	if !slices.Equal(summary(a)[1:], summary(b)[1:]) {
		t.Errorf("writes differ by root:\n%q\n%q", summary(a), summary(b))
	}
}

func TestCommand_flags(t *testing.T) {
	c := Shell("git -C sub push -fu origin main --force-with-lease=x", Env{}).Commands[0]
	for flag, want := range map[string]bool{"-f": true, "-u": true, "--force-with-lease": true, "--force": false, "-C": true, "-s": false} {
		if got := c.Has(flag); got != want {
			t.Errorf("Has(%s) = %v, want %v", flag, got, want)
		}
	}
	if got := c.Sub(2); !slices.Equal(got, []string{"push", "origin"}) {
		t.Errorf("Sub(2) = %q", got)
	}
	// A single-dash long flag with its value after "=", as Go's tools take it.
	g := Shell("go test -tags=integration -run=TestX ./...", Env{}).Commands[0]
	for flag, want := range map[string]bool{"-tags": true, "-run": true, "-t": false, "-race": false} {
		if got := g.Has(flag); got != want {
			t.Errorf("go test: Has(%s) = %v, want %v", flag, got, want)
		}
	}
	// A flag with its value is the option given that value, however
	// written.
	for line, want := range map[string]bool{"gh pr create --base master --title x": true, "gh pr create --base=master": true,
		"gh pr create --base main": false, "gh pr create --title master": false, "gh pr create": false} {
		if got := Shell(line, Env{}).Commands[0].Has("--base=master"); got != want {
			t.Errorf("%s: Has(--base=master) = %v, want %v", line, got, want)
		}
	}
	if got := c.Positionals(); !slices.Equal(got, []string{"push", "origin", "main"}) {
		t.Errorf("Positionals = %q", got)
	}
	if !c.Runs("git") || c.Runs("push") {
		t.Error("Runs")
	}
}

// TestCommand_roles: what the words of a command are to it, where a
// naive reading gets it wrong.
func TestCommand_SwitchesTo(t *testing.T) {
	tests := []struct {
		line   string
		branch string
		ok     bool
	}{
		{"git checkout main", "main", true},
		{"git switch release/2.1", "release/2.1", true},
		{"git switch -c topic", "topic", true},
		{"git checkout -b topic origin/main", "topic", true},
		{"git -C sub checkout dev", "dev", true},
		{"git switch -", "", true},
		{"git checkout -- a.go", "", false},
		{"git checkout main -- a.go", "", false},
		{"git checkout .", "", false},
		{"git checkout", "", false},
		{"git commit -m main", "", false},
		{"hg checkout main", "", false},
	}
	for _, tc := range tests {
		b, ok := Shell(tc.line, Env{}).Commands[0].SwitchesTo()
		if b != tc.branch || ok != tc.ok {
			t.Errorf("%s: SwitchesTo = %q, %v; want %q, %v", tc.line, b, ok, tc.branch, tc.ok)
		}
	}
}

func TestCommand_roles(t *testing.T) {
	tests := []struct {
		line      string
		sub       []string // Sub(2)
		pos       []string // Positionals
		has, lack []string // flags Has, and not
	}{
		// A toolchain picked through rustup is no subcommand.
		{"cargo +nightly fmt --all", []string{"fmt"}, []string{"fmt"}, []string{"--all"}, nil},
		{"cargo +1.80 clippy -- -D warnings", []string{"clippy", "-D"}, []string{"clippy", "-D", "warnings"}, []string{"--"}, []string{"-D"}},
		// git's own options take a value before the subcommand only.
		{"git -c user.name=x commit -m msg", []string{"commit", "msg"}, []string{"commit", "msg"}, []string{"-c", "-m"}, nil},
		{"git switch -c topic/a", []string{"switch", "topic/a"}, []string{"switch", "topic/a"}, []string{"-c"}, nil},
		// The end of the options is itself something a rule may rule out.
		{"pnpm test -- basic.test.ts", []string{"test", "basic.test.ts"}, []string{"test", "basic.test.ts"}, []string{"--"}, nil},
		{"pnpm test basic.test.ts", []string{"test", "basic.test.ts"}, []string{"test", "basic.test.ts"}, nil, []string{"--"}},
	}
	for _, tc := range tests {
		c := Shell(tc.line, Env{}).Commands[0]
		if got := c.Sub(2); !slices.Equal(got, tc.sub) {
			t.Errorf("%s: Sub(2) = %q, want %q", tc.line, got, tc.sub)
		}
		if got := c.Positionals(); !slices.Equal(got, tc.pos) {
			t.Errorf("%s: Positionals = %q, want %q", tc.line, got, tc.pos)
		}
		for _, f := range tc.has {
			if !c.Has(f) {
				t.Errorf("%s: Has(%s) = false", tc.line, f)
			}
		}
		for _, f := range tc.lack {
			if c.Has(f) {
				t.Errorf("%s: Has(%s) = true", tc.line, f)
			}
		}
	}
}

func FuzzShell(f *testing.F) {
	for _, s := range []string{"npm i", "a | b && c || d; (e) & f", "bash -c 'sh -c \"x\"'", "git commit -m \"$(cat <<'EOF'\nx\nEOF\n)\"",
		"sed -i '' s/a/b/ f", "cat > f <<EOF\nx\nEOF", "cd a && cd .. && rm -rf ./b", "xargs -I{} cp {} dst/", "uv run python -m pytest", "\x00", "$((1+2))", "git commit -m $'a\\n%s\\U0001F916\\x00b'",
		"git tag -a v1.0 -m 'r' -s", "gh release create v2 --notes x", "docker compose exec -T php-cli tools/phpunit.phar", "kubectl exec p -- sh -c 'npm test'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		a := Shell(line, Env{Root: "/r"})
		if !a.Parsed && !a.Empty() {
			t.Fatalf("unparsed line has content: %+v", a)
		}
		if len(a.Commands) > maxCommands {
			t.Fatalf("%d commands", len(a.Commands))
		}
		for _, c := range a.Commands {
			if c.Program == "" {
				t.Fatalf("empty program in %q", line)
			}
			// Each argument has one role: the subcommand is the first
			// positional words, and no more words are positional than
			// there are arguments.
			pos, sub := c.Positionals(), c.Sub(3)
			if len(pos) > len(c.Args) || len(sub) > len(pos) || !slices.Equal(sub, pos[:len(sub)]) {
				t.Fatalf("%q: positionals %q, sub %q of %d args", line, pos, sub, len(c.Args))
			}
			c.Has("--")
			c.Has("+nightly")
		}
		for _, w := range a.Writes {
			if w.Path == "" {
				t.Fatalf("empty write path in %q", line)
			}
		}
	})
}

// TestInRoot: the paths this package gives inside the project root, and
// the ones it gives for outside or unknown.
func TestInRoot(t *testing.T) {
	for p, want := range map[string]bool{
		"": true, ".": true, "src/a.go": true, "web/": true, "..hidden": true, "..": false,
		"/etc/hosts": false, "../other/a.go": false, "~/notes.md": false, "?": false, "C:/tmp/x": false,
	} {
		if got := InRoot(p); got != want {
			t.Errorf("InRoot(%q) = %v, want %v", p, got, want)
		}
	}
}
