package appraise

import (
	"regexp"
	"strings"

	"github.com/innate-mcp/innate-mcp/confidence"
)

// planOpening matches the first-person openings of a plan ("I will", "we'll",
// "let's", "I'm going to"), removed so that the rest reads as the directive
// it is. Read-only once compiled.
var planOpening = regexp.MustCompile(`(?i)(^|[.!?;\n]\s*)(?:(?:i|we)\s*(?:will|'ll|shall|am going to|'m going to|are going to|'re going to|plan to|intend to|would|'d)|let's|let us)\s+`)

// candidateClaims returns the directives of a candidate (package
// confidence's reading of "do X" and "don't X"), with plan openings removed.
func candidateClaims(candidate string) []confidence.Claim {
	if candidate == "" {
		return nil
	}
	return confidence.Claims(planOpening.ReplaceAllString(candidate, "$1"))
}

// goesAgainst reports whether the candidate does what the lesson says not to
// do: one of the lesson's "don't" directives has every word of its action in
// one of the candidate's "do" directives ("never commit to main" against
// "push the commit directly to main"), and the candidate does not itself
// rule that action out.
func goesAgainst(l Lesson, cand []confidence.Claim) bool {
	var doWords []string
	for _, c := range cand {
		if c.Polarity == confidence.Do {
			for _, w := range strings.Fields(c.Action) {
				if len(w) >= 3 {
					doWords = append(doWords, w)
				}
			}
		}
	}
	if len(doWords) == 0 {
		return false
	}
	for _, lc := range confidence.Claims(prohibitions(l.Content, doWords)) {
		if lc.Polarity != confidence.Dont {
			continue
		}
		words := strings.Fields(lc.Action)
		ruledOut, does := false, false
		for _, cc := range cand {
			switch {
			case cc.Polarity == confidence.Dont && containsWords(cc.Action, words):
				ruledOut = true
			case cc.Polarity == confidence.Do && containsWords(cc.Action, words):
				does = true
			}
		}
		if does && !ruledOut {
			return true
		}
	}
	return false
}

// maxProhibitionBytes bounds the lesson text read for directives per
// appraisal (reading directives costs about 0.2 ms per kilobyte).
const maxProhibitionBytes = 4 << 10

// negationCues are the words and characters a "don't" directive contains
// in English, Chinese or Japanese (package confidence's forms). Read-only.
var negationCues = []string{"never", "not", "n't", "avoid", "stop", "no ", "discourag", "prefer", "instead", "rather",
	"不", "别", "禁止", "避免", "ない", "避け", "ではなく"}

// prohibitions returns the sentences of text that may hold a "don't"
// directive about one of the candidate's actions: a negation cue and one of
// the action words (stems, so matched as substrings), at most
// maxProhibitionBytes of them.
func prohibitions(text string, doWords []string) string {
	var b strings.Builder
	for _, s := range strings.FieldsFunc(text, func(r rune) bool { return strings.ContainsRune(".!?;\n。！？；", r) }) {
		low := strings.ToLower(s)
		if !containsAny(low, negationCues) || !containsAny(low, doWords) {
			continue
		}
		if b.Len()+len(s) > maxProhibitionBytes {
			break
		}
		b.WriteString(s)
		b.WriteString(".\n")
	}
	return b.String()
}

func containsAny(s string, subs []string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// containsWords reports whether every word is a word of action.
func containsWords(action string, words []string) bool {
	if len(words) == 0 {
		return false
	}
	have := strings.Fields(action)
	for _, w := range words {
		found := false
		for _, h := range have {
			if h == w {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
