package directive

import (
	"regexp"
	"strings"

	"github.com/innate-mcp/innate-mcp/action"
	"github.com/innate-mcp/innate-mcp/check"
)

// Names a git action gives: a new branch's and a new tag's. A sentence
// about them alone that shows their shape in code spans ("Name branches
// `feature/<name>`", "Tag each release with a `v` prefix", "Tags follow
// `vX.Y.Z`") requires it of the names the agent gives.

// tagWords name tags in a sentence: "tag releases", "release tags",
// "tagging".
var tagWords = lazyRE(`(?i)\btag(?:s|ged|ging)?\b`)

// namingCue marks a sentence that names branches or tags in a shape
// without a template's words: "name branches `fix/<issue>`", "branch
// names: `…`", "use `vX.Y.Z` tags".
var namingCue = lazyRE(`(?i)\b(?:branch|tag)(?:es|s)?\s+names?\b|\bnam(?:e|es|ing)\s+(?:\w+\s+)?(?:branch|tag)(?:es|s)?\b|\b(?:branch|tag)(?:es|s)?\s+(?:are|should\s+be|must\s+be)\s+named\b`)

// prefixCue marks a span that is how a name starts: "with `v` prefix",
// "prefixed with `agent/`", "start with `release-`".
var prefixCue = lazyRE(`(?i)\bprefix(?:ed|es)?\b|\bstart(?:s|ing)?\s+with\b|\bbegin(?:s|ning)?\s+with\b`)

// versionShape is a version's template or example, after an optional
// literal prefix: dotted parts, each digits, a letter standing for a
// number or a bracketed placeholder (`v1.0.0`, `vX.Y.Z`,
// `v<major>.<minor>.<patch>`, `release-1.2`).
var versionShape = lazyRE(`^([A-Za-z][A-Za-z_/-]*?|[_/-]?)(?:\d+|[XYZNxyzn]|<[^<>]{1,20}>|\{[^{}]{1,20}\})(?:\.(?:\d+|[XYZNxyzn]|<[^<>]{1,20}>|\{[^{}]{1,20}\})){1,3}$`)

// namedKind is the kind of name a sentence is about, alone: a branch's or
// a tag's; "" for a sentence that names commits or pull requests too, or
// both kinds.
func namedKind(s string) action.MessageKind {
	if commitWords.MatchString(s) || prTitleWords.MatchString(s) {
		return ""
	}
	b, t := branchWords.MatchString(s), tagWords.MatchString(s)
	switch {
	case b && !t:
		return action.BranchName
	case t && !b:
		return action.TagName
	}
	return ""
}

// tagCheck compiles a sentence about tags that shows their shape: each
// code span a version (`v1.2.3`, `vX.Y.Z`: its prefix, then a number) or,
// after a prefix cue, the literal start (`v`). Any other span leaves the
// shape unsure, and gives none.
func tagCheck(s string) (check.Check, bool) {
	var alts, shown []string
	prefix := prefixCue.MatchString(s)
	for _, m := range codeSpan.FindAllString(s, -1) {
		span := strings.TrimSpace(strings.Trim(m, "`"))
		switch v := versionShape.FindStringSubmatch(span); {
		case v != nil:
			alts, shown = append(alts, `^`+regexp.QuoteMeta(v[1])+`\d`), append(shown, span)
		case prefix && span != "" && len(span) <= 20 && !strings.ContainsAny(span, " <>{}*"):
			alts, shown = append(alts, `^`+regexp.QuoteMeta(span)), append(shown, span+"…")
		default:
			return check.Check{}, false
		}
	}
	return nameCheck(action.TagName, alts, shown)
}

// nameCheck requires of the names of one kind one of the shapes (alts,
// each a pattern), as shown in the rule; none for no shape or one that
// does not compile.
func nameCheck(kind action.MessageKind, alts, shown []string) (check.Check, bool) {
	if len(alts) == 0 {
		return check.Check{}, false
	}
	must := strings.Join(alts, "|")
	if _, err := regexp.Compile(must); err != nil {
		return check.Check{}, false
	}
	return check.Check{Kind: check.Require, Message: &check.MessagePattern{Kinds: []action.MessageKind{kind},
		Must: must, Name: "in the form " + strings.Join(shown, " or ")}}, true
}
