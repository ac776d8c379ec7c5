package directive

import (
	"strings"

	"github.com/innate-mcp/innate-mcp/action"
)

// PlanAction reads what a plan in prose says it will run, as the hooks
// read an agent's tool call: its code spans and command lines ("$ npm i",
// a fenced shell block) that parse as a known program's command line, and
// not in a negated clause ("I won't run `npm install`", "instead of `npm`");
// a plan that is nothing but one command line is that command. Safe for
// concurrent use.
func PlanAction(plan string) action.Action {
	if len(plan) > maxCandidateBytes {
		plan = plan[:maxCandidateBytes]
	}
	out := action.Action{Tool: "Bash", Parsed: true}
	add := func(cmd string) {
		a := action.Shell(cmd, action.Env{})
		if !a.Parsed || len(a.Commands) == 0 || !knownPrograms[a.Commands[0].Program] && !knownPrograms[viaProgram(a.Commands[0].Via)] {
			return
		}
		out.Commands = append(out.Commands, a.Commands...)
		out.Writes = append(out.Writes, a.Writes...)
		out.Messages = append(out.Messages, a.Messages...)
	}
	trimmed := strings.TrimSpace(plan)
	if trimmed != "" && !strings.ContainsAny(trimmed, "\n`") {
		if a := action.Shell(trimmed, action.Env{}); a.Parsed && len(a.Commands) > 0 && knownPrograms[a.Commands[0].Program] && !strings.Contains(trimmed, ". ") {
			return a
		}
	}
	c := newCandidate(plan)
	for _, loc := range planCommand.FindAllStringSubmatchIndex(plan, -1) {
		for g := 2; g+1 < len(loc); g += 2 {
			if loc[g] < 0 {
				continue
			}
			if c.negatedAt(loc[g]) {
				break
			}
			for _, line := range strings.Split(plan[loc[g]:loc[g+1]], "\n") {
				line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "$ "))
				if line != "" && !strings.HasPrefix(line, "#") {
					add(line)
				}
			}
		}
	}
	return out
}

// planCommand is a command in a plan: a fenced shell block's body, an
// inline code span, or a line opening with "$ ".
var planCommand = lazyRE("(?s)```(?:bash|sh|shell|console|zsh)?\\n(.*?)```|`([^`\\n]+)`|(?m)^\\s*\\$ (.+)$")
