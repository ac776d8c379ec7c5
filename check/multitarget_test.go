package check

import (
	"testing"

	"github.com/innate-mcp/innate-mcp/action"
)

func firstCommand(t *testing.T, line string) action.Command {
	t.Helper()
	a := action.Shell(line, action.Env{})
	if len(a.Commands) == 0 {
		t.Fatalf("%q: no command", line)
	}
	return a.Commands[0]
}

// TestMatch_multiTarget: a task runner's one target is any of the targets
// a command names; the classes know Django's test runner, `git
// clang-format` and a tool a package manager executes.
func TestMatch_multiTarget(t *testing.T) {
	verifyFirst := Check{Kind: RequireBefore, Command: &CommandPattern{Programs: []string{"git"}, Sub: []string{"commit"}},
		Before: &CommandPattern{Programs: []string{"mvn"}, Sub: []string{"verify"}}, From: Provenance{By: ByPerson}}
	p, err := Prepare(verifyFirst)
	if err != nil {
		t.Fatal(err)
	}
	commit := action.Shell(`git commit -m "feat: x"`, action.Env{})
	ran := func(line string) History { return History{Commands: action.Shell(line, action.Env{}).Commands} }
	if _, hit := p.Match(commit, ran("mvn clean verify site")); hit {
		t.Error("mvn clean verify site does not satisfy `mvn verify`")
	}
	if _, hit := p.Match(commit, ran("mvn clean package")); !hit {
		t.Error("mvn clean package satisfies `mvn verify`")
	}
	if InClass(firstCommand(t, "pnpm typecheck"), "lint") {
		t.Error("`pnpm typecheck` is a lint command: its task holds \"check\"")
	}
	for line, class := range map[string]string{
		"python manage.py test apps.core":        "test",
		"uv run python manage.py test":           "test",
		"git clang-format":                       "format",
		"pnpm -C packages/web exec tsc --noEmit": "typecheck",
	} {
		if !InClass(firstCommand(t, line), class) {
			t.Errorf("%q is not of class %s", line, class)
		}
	}
}
