package sanitize

import (
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// hiddenRule detects text hidden from a human reader. It scans the original
// text (or the normalised one, for HTML comments) with code, not a regexp.
type hiddenRule struct {
	id   string
	find func(text string, n *normText) []Finding
}

var hiddenRules = []hiddenRule{
	{id: "hidden/bidi-override", find: findBidi},
	{id: "hidden/unicode-tags", find: findTags},
	{id: "hidden/zero-width-run", find: findZeroWidthRuns},
	{id: "hidden/zero-width-in-words", find: findZeroWidthInWords},
	{id: "hidden/html-comment-directive", find: findCommentDirectives},
}

// isBidiControl reports the embedding, override and isolate controls used
// by "Trojan Source" text; the plain LRM/RLM marks are not included.
func isBidiControl(r rune) bool {
	return r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069
}

func isZeroWidth(r rune) bool {
	return r >= 0x200B && r <= 0x200D || r == 0x2060 || r == 0xFEFF || r >= 0x2061 && r <= 0x2064 || r == 0x180E
}

// runs returns the maximal runs of runes satisfying in, as byte spans, with
// the number of runes in each.
func runs(text string, in func(rune) bool) (spans []span, counts []int) {
	start, count := -1, 0
	for i, r := range text {
		if in(r) {
			if start < 0 {
				start, count = i, 0
			}
			count++
			continue
		}
		if start >= 0 {
			spans, counts = append(spans, span{start, i}), append(counts, count)
			start = -1
		}
	}
	if start >= 0 {
		spans, counts = append(spans, span{start, len(text)}), append(counts, count)
	}
	return spans, counts
}

func findBidi(text string, _ *normText) []Finding {
	if !hasRune(text, isBidiControl) {
		return nil
	}
	spans, _ := runs(text, isBidiControl)
	out := make([]Finding, 0, len(spans))
	for _, sp := range spans {
		out = append(out, newFinding("hidden/bidi-override", CategoryHiddenText, text, sp.start, sp.end))
	}
	return out
}

// findTags reports Unicode tag characters (U+E0000-E007F) that do not form
// an emoji tag sequence (a black flag U+1F3F4 followed by tags, as in the
// flags of England or Scotland). Tags render as nothing but models read them.
func findTags(text string, _ *normText) []Finding {
	if !strings.Contains(text, "\xf3\xa0") { // the UTF-8 of every tag character starts so
		return nil
	}
	spans, counts := runs(text, func(r rune) bool { return r >= 0xE0000 && r <= 0xE007F })
	var out []Finding
	for k, sp := range spans {
		prev, _ := utf8.DecodeLastRuneInString(text[:sp.start])
		last, _ := utf8.DecodeLastRuneInString(text[:sp.end])
		if prev == 0x1F3F4 && last == 0xE007F && counts[k] <= 8 {
			continue
		}
		out = append(out, newFinding("hidden/unicode-tags", CategoryHiddenText, text, sp.start, sp.end))
	}
	return out
}

// findZeroWidthRuns reports three or more consecutive zero-width characters,
// the carrier of zero-width steganography. Emoji and Indic joiners come one
// at a time.
func findZeroWidthRuns(text string, _ *normText) []Finding {
	if !hasZeroWidth(text) {
		return nil
	}
	spans, counts := runs(text, isZeroWidth)
	var out []Finding
	for k, sp := range spans {
		if counts[k] >= 3 {
			out = append(out, newFinding("hidden/zero-width-run", CategoryHiddenText, text, sp.start, sp.end))
		}
	}
	return out
}

func hasZeroWidth(text string) bool { return hasRune(text, isZeroWidth) }

// hasRune reports whether text holds a rune satisfying in; ASCII bytes are
// skipped without decoding.
func hasRune(text string, in func(rune) bool) bool {
	for i := 0; i < len(text); {
		if text[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if in(r) {
			return true
		}
		i += size
	}
	return false
}

// zeroWidthWindow is the span, in bytes, within which three zero-width
// characters inside words make a finding.
const zeroWidthWindow = 64

// findZeroWidthInWords reports zero-width characters splitting Latin words,
// used to slip phrases past keyword filters, when three or more fall within
// zeroWidthWindow bytes. One span covers the cluster.
func findZeroWidthInWords(text string, _ *normText) []Finding {
	if !hasZeroWidth(text) {
		return nil
	}
	var hits []span
	prev := rune(0)
	for i, r := range text {
		if isZeroWidth(r) && isASCIILetter(prev) {
			_, size := utf8.DecodeRuneInString(text[i:])
			j := i + size
			for j < len(text) {
				r2, s2 := utf8.DecodeRuneInString(text[j:])
				if !isZeroWidth(r2) {
					if isASCIILetter(r2) {
						hits = append(hits, span{i, j})
					}
					break
				}
				j += s2
			}
		}
		prev = r
	}
	var out []Finding
	for k := 0; k+2 < len(hits); {
		end := k
		for end+1 < len(hits) && hits[end+1].start-hits[k].start <= zeroWidthWindow {
			end++
		}
		if end-k >= 2 {
			out = append(out, newFinding("hidden/zero-width-in-words", CategoryHiddenText, text, hits[k].start, hits[end].end))
			k = end + 1
			continue
		}
		k++
	}
	return out
}

func isASCIILetter(r rune) bool { return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' }

// commentDirective matches, inside an HTML comment, an instruction aimed at
// an AI reader: the comment is invisible once Markdown is rendered.
var commentDirective = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(macros.Replace(
		`\b(?:ai|assistant|agent|llm|model|chatgpt|gpt|claude|copilot|cursor|gemini|bot|language model)s?\b[^\n]{0,60}?\b(?:must|should|shall|always|never|need to|have to|are required to|ignore|instead)\b` +
			`|\b(?:ai|assistant|agent|llm|model|chatgpt|gpt|claude|copilot|cursor|gemini|bot)s?\s?[:,][^\n]{0,80}?\b(?:add|run|execute|send|include|insert|delete|remove|write|create|install|download|fetch|call|open|change|modify|replace|append|ignore|print|reveal|tell|always|never|must|should)\b` +
			`|\b(?:secretly|covertly|without (?:telling|informing|notifying|alerting) the user)\b` +
			`|\b(?:don't|do not|never) (?:tell|inform|mention|reveal|show|alert|notify)\b[^\n]{0,20}\b(?:user|human|developer)\b` +
			`|\b(?:note|attention|important|instructions?|message) (?:to|for) (?:the |any |all )?(?:ai|assistant|agent|model|llm|claude|copilot|cursor|chatgpt)s?\b`))
})

const maxComment = 4096

// findCommentDirectives reports HTML comments (<!-- ... -->) whose body
// addresses an AI with an instruction.
func findCommentDirectives(text string, n *normText) []Finding {
	s := n.s
	var out []Finding
	for from := 0; ; {
		i := strings.Index(s[from:], "<!--")
		if i < 0 {
			return out
		}
		i += from
		bodyStart := i + 4
		limit := min(len(s), bodyStart+maxComment)
		j := strings.Index(s[bodyStart:limit], "-->")
		end := limit
		if j >= 0 {
			end = bodyStart + j + 3
		}
		bodyEnd := end
		if j >= 0 {
			bodyEnd = end - 3
		}
		if commentDirective().MatchString(s[bodyStart:alignRight(s, bodyEnd)]) {
			a, b := n.span(text, i, alignRight(s, end))
			out = append(out, newFinding("hidden/html-comment-directive", CategoryHiddenText, text, a, b))
		}
		from = max(alignRight(s, end), i+4)
	}
}
