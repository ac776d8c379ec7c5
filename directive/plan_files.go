package directive

import (
	"strings"

	"github.com/innate-mcp/innate-mcp/action"
)

// PlanFile is how a write PlanAction read from a plan's verb is made
// (action.Write.By): "Create src/a.ts", "write the script to tools/x.py".
// Unlike PlanWrite's, its path is one the plan says it creates, so a check
// of a path alone reads it.
const PlanFile = "plan-file"

// fileVerb is what a plan's verb does to the file it governs.
type fileVerb int

const (
	fileReads   fileVerb = iota // the path is read, run or named: no write
	fileCreates                 // a new file
	fileAdds                    // a new file, or a change to one after "to", "into", "in"
	fileEdits                   // a change to a file, or its removal
)

// planFileVerbs are the verbs by which a plan says what it does to a file
// named after it, nearest first; any other verb of the table ends the
// search, so that "open a.go and add a method" writes no a.go.
var planFileVerbs = map[string]fileVerb{
	"create": fileCreates, "write": fileCreates, "scaffold": fileCreates, "save": fileCreates, "store": fileCreates, "add": fileAdds,
	"edit": fileEdits, "hand-edit": fileEdits, "hand-write": fileEdits, "modify": fileEdits, "change": fileEdits, "update": fileEdits,
	"rewrite": fileEdits, "patch": fileEdits, "append": fileEdits, "insert": fileEdits, "put": fileEdits, "tweak": fileEdits, "adjust": fileEdits,
	"delete": fileEdits, "remove": fileEdits,
	"read": fileReads, "open": fileReads, "look": fileReads, "check": fileReads, "see": fileReads, "inspect": fileReads, "view": fileReads,
	"run": fileReads, "use": fileReads, "import": fileReads, "call": fileReads, "compare": fileReads, "copy": fileReads, "load": fileReads,
	"keep": fileReads, "leave": fileReads, "follow": fileReads, "mirror": fileReads, "reuse": fileReads, "move": fileReads, "rename": fileReads,
}

// readPrepositions before a path make it what is read, whatever the verb
// ("add a helper like the one in a.go", "copy the config from b/"); into
// makes it what is changed ("add a case to a_test.go").
var (
	readPrepositions = set("from", "like", "per", "see", "than", "beside", "besides", "near", "alongside")
	intoPrepositions = set("to", "into", "in", "inside", "under", "at", "of", "on")
	// pathFiller are the words that may stand between a preposition and
	// its path ("to the new file a.go").
	pathFiller = set("the", "a", "an", "file", "files", "new", "existing", "root", "this", "that", "its", "their", "my", "our", "folder", "directory")
)

// planFiles reads the new files a plan says it makes, by the verb nearest
// before each path it names in its sentence: "Create `repros/x.py`" and
// "add tools/x.py" make a new file. A path in a negated clause ("leave a.go
// untouched"), after a verb that reads, or after one that changes a file
// ("add a case to a_test.go", "change x in setup.py") is not read as
// written: an edit's plan rarely says all a rule's condition needs ("if
// the model has a modular file", "ask first"), and measured on the rules
// sets, edits read so cautioned on complying plans. A code span is a path
// only when it is nothing else.
func planFiles(plan string, c *candidate) []action.Write {
	var out []action.Write
	seen := map[string]bool{}
	for _, loc := range pathRE.FindAllStringIndex(plan, -1) {
		p := strings.Trim(plan[loc[0]:loc[1]], "`'\"() \t\n")
		if p == "" || seen[p] || strings.Contains(p, "://") || strings.ContainsAny(p, "*{}<>") || c.negatedAt(loc[0]) {
			continue
		}
		if insideCode(plan, loc[0]) && !wholeSpan(plan, loc[0], loc[1]) {
			continue // a path in code: an import, a string
		}
		verb, into, ok := verbBefore(plan, loc[0])
		if !ok || !(verb == fileCreates || verb == fileAdds && !into) || strings.HasSuffix(p, "/") {
			continue
		}
		seen[p] = true
		out = append(out, action.Write{Path: p, New: true, By: PlanFile, PathTail: pathTail(p)})
	}
	return out
}

// wholeSpan reports whether the code span around [from, to) of s holds
// nothing but that text.
func wholeSpan(s string, from, to int) bool {
	open := strings.LastIndexByte(s[:from], '`')
	end := strings.IndexByte(s[to:], '`')
	return open >= 0 && end >= 0 && strings.TrimSpace(s[open+1:from]) == "" && strings.TrimSpace(s[to:to+end]) == ""
}

// verbBefore finds the verb of the table nearest before offset i in its
// sentence, outside code, and whether the path follows a preposition of
// place (into); a preposition that reads makes it read.
func verbBefore(s string, i int) (verb fileVerb, into, ok bool) {
	start := strings.LastIndexAny(s[:i], ".;:\n!?")
	for start >= 0 && start+1 < i && s[start+1] != ' ' && s[start+1] != '\n' {
		// a dot inside a word (a file's extension) ends no sentence
		start = strings.LastIndexAny(s[:start], ".;:\n!?")
	}
	words := strings.Fields(maskSpans(s[start+1:i], "`"))
	first := true
	for k := len(words) - 1; k >= 0; k-- {
		w := strings.ToLower(strings.Trim(words[k], ",()\"'"))
		if w == "`" {
			continue // the path's own span opening
		}
		if w == "" || strings.Trim(w, "`_") == "" {
			first = false // code
			continue
		}
		if first && !pathFiller[w] {
			first = false
			if readPrepositions[w] || w == "to" && k > 0 && strings.EqualFold(words[k-1], "next") {
				return fileReads, false, true // "next to a.go": a place named
			}
			into = intoPrepositions[w]
		}
		if v, found := planFileVerbs[w]; found {
			return v, into, true
		}
	}
	return fileReads, false, false
}
