package directive

import (
	"strings"

	"github.com/innate-mcp/innate-mcp/action"
)

// PlanAction reads what a plan in prose says it will run, as the hooks
// read an agent's tool call: its code spans and command lines ("$ npm i",
// a fenced shell block) that parse as a known program's command line, and
// not in a negated clause ("I won't run `npm install`", "instead of `npm`");
// a plan that is nothing but one command line is that command. The code
// a plan shows (the code spans and fenced blocks that are no command line,
// outside negated clauses) is read as the new text of each file it names,
// PlanWrite marking those writes. Safe for concurrent use.
func PlanAction(plan string) action.Action { return PlanActionIn(plan, "") }

// PlanActionIn is PlanAction for a plan made in a situation (what the
// agent is about to do, the files involved): when the plan shows code but
// names no file, the files the situation names are the ones it writes.
func PlanActionIn(plan, situation string) action.Action {
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
	out.Writes = append(out.Writes, planFiles(plan, c)...)
	var code []string
	for _, loc := range planCode.FindAllStringSubmatchIndex(plan, -1) {
		for g := 2; g+1 < len(loc); g += 2 {
			if loc[g] < 0 || c.negatedAt(loc[g]) {
				continue
			}
			span := plan[loc[g]:loc[g+1]]
			if strings.Contains(span, "\n\n") && g == 4 {
				continue // a paragraph ends a span: stray backticks
			}
			if strings.TrimSpace(span) == pathRE.FindString(span) {
				continue // a path, not code
			}
			if a := action.Shell(strings.TrimSpace(span), action.Env{}); a.Parsed && len(a.Commands) > 0 && knownPrograms[a.Commands[0].Program] {
				continue // a command line, read above
			}
			code = append(code, span)
		}
	}
	if len(code) > 0 {
		text := strings.Join(code, "\n")
		seen := map[string]bool{}
		paths := pathRE.FindAllString(plan, -1)
		if len(paths) == 0 && len(situation) <= maxCandidateBytes {
			paths = pathRE.FindAllString(situation, -1)
		}
		for _, p := range paths {
			p = strings.Trim(p, "`'\"()")
			if p == "" || seen[p] || strings.HasSuffix(p, "/") || strings.Contains(p, "://") {
				continue
			}
			seen[p] = true
			out.Writes = append(out.Writes, action.Write{Path: p, Text: text, TextKnown: true, By: PlanWrite, NameOnly: !strings.Contains(p, "/"), PathTail: pathTail(p)})
		}
		if len(seen) == 0 {
			out.Writes = append(out.Writes, action.Write{Text: text, TextKnown: true, By: PlanWrite, NameOnly: true})
		}
	}
	return out
}

// pathTail reports whether a path a plan names may be the end of the
// file's path, under folders it leaves out: a folder and a name
// ("client/net.ts"), as a plan shortens a path; a longer path is read from
// the project's root.
func pathTail(p string) bool {
	return !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, ".") && !strings.HasPrefix(p, "~") && strings.Count(strings.TrimSuffix(p, "/"), "/") == 1
}

// PlanWrite is how a write PlanAction read from a plan's code is made
// (action.Write.By): a check of the write's path alone does not read it,
// since a plan names files it only reads.
const PlanWrite = "plan"

// planCode is code a plan shows: a fenced block's body (of any language)
// or an inline code span, which may run over lines of one paragraph, as
// in CommonMark.
var planCode = lazyRE("(?s)```[\\w+-]*\\n(.*?)```|`([^`]+)`")

// planCommand is a command in a plan: a fenced shell block's body, an
// inline code span, or a line opening with "$ ".
var planCommand = lazyRE("(?s)```(?:bash|sh|shell|console|zsh)?\\n(.*?)```|`([^`\\n]+)`|(?m)^\\s*\\$ (.+)$")
