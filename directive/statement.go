package directive

import (
	"strings"
)

// NotARule reports, and names, the shapes of a rule file's line that state
// nothing for an agent to do, whatever words they hold: a map or glossary
// entry ("`deco login` - Authenticate with deco.chat"), a labelled list of
// names ("Environment: `DATABASE_URL`, `REDIS_URL`"), pasted tool output
// ("warning CS8618: …", "error[E0382]: …"), and a description in the third
// person ("Uses `s3://…` for the current version"). It reads form only;
// "" means the line may be a rule. Safe for concurrent use.
func NotARule(content string) string {
	s := strings.TrimSpace(cleanMarkdown(statement(content)))
	for _, sh := range notRuleShapes {
		if sh.re.MatchString(s) && !(sh.name == "map entry" && directs(s)) && !(sh.name == listOfNames && labelDirects(s)) {
			return sh.name
		}
	}
	return ""
}

// directs reports whether a labelled line holds a clause that opens by
// directing ("`TableMetadata`: changes ripple …; use
// `TableMetadata.Builder`"), which makes it a rule rather than a map entry
// ("`npm test` - Run all tests | `npm run test:offline` - Unit tests only").
func directs(s string) bool {
	for _, cl := range clauseEnd.Split(codeSpan.ReplaceAllString(s, "``"), -1) {
		cl = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(cl), "`-–—:=>→ "))
		if directing.MatchString(cl) {
			return true
		}
	}
	return false
}

// labelDirects reports whether the label of a labelled line is itself a
// sentence that obliges or forbids ("Every commit must carry a
// sign-off: `git commit -s`"), which makes the line a rule, not a list.
func labelDirects(s string) bool {
	label, _, _ := strings.Cut(s, ":")
	return obligation.MatchString(label) || prohibition.MatchString(label)
}

// clauseEnd ends a clause of a labelled line.
var clauseEnd = lazyRE(`[.;|\n]\s|[.;|]$|\n|\s[-–—]\s`)

// directing words open a clause that directs.
var directing = lazyRE(`(?i)^(?:you\s+)?(?:use|never|always|must|should|shall|do not|don'?t|avoid|prefer|ensure|make sure|required?|only use)\b`)

// listOfNames is the shape of a labelled list of names.
const listOfNames = "list of names"

var notRuleShapes = []struct {
	name string
	re   *lazyRegexp
}{
	{"pasted output", lazyRE(`(?i)^(?:warning|error|info|note|hint|fatal|panic)(?:\[[\w-]+\])?\s*(?:[A-Z]{1,5}\d{2,5})?:\s|^\S+\.\w+:\d+(?::\d+)?:\s|^(?:[A-Z]{2,5}\d{3,5}):\s`)},
	{"map entry", lazyRE("^`[^`]+`\\s*(?:[-–—:=]|->|→)\\s+\\S")},
	{listOfNames, lazyRE("^[\\p{L}][\\p{L}\\d /_-]{0,40}:\\s*(?:`[^`]+`\\s*,?\\s*(?:and\\s+|or\\s+)?)+\\.?$")},
	{"description", lazyRE(`^(?:Uses|Runs|Contains|Provides|Handles|Stores|Holds|Defines|Exports|Implements|Includes|Supports|Manages|Wraps|Generates|Serves|Lives|Is|Has|Was)\s`)},
}
