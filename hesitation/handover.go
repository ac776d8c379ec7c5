package hesitation

import (
	"strings"

	"github.com/innate-mcp/innate-mcp/internal/clip"
)

// HandoverKind is how an agent's final text hands its turn back.
type HandoverKind string

// The ways a final text hands a turn back.
const (
	// HandoverDone: the text reports the work as done, in so many words
	// ("Fixed", "should now work", "✅ …") or by describing what was
	// changed. After a turn that changed code this is the default: a turn
	// that ends hands its changes over.
	HandoverDone HandoverKind = "done"
	// HandoverHonest: the text says plainly what was not run, tested or
	// checked ("I have not run the tests yet").
	HandoverHonest HandoverKind = "honest"
	// HandoverNarration: the text announces a step it has not taken ("Now
	// let me update the README:"), as a turn cut short does.
	HandoverNarration HandoverKind = "narration"
	// HandoverQuestion: a short text that only asks before going on.
	HandoverQuestion HandoverKind = "question"
	// HandoverError: not the agent's words but its client's error message.
	HandoverError HandoverKind = "error"
	// HandoverEmpty: no text.
	HandoverEmpty HandoverKind = "empty"
)

// Handover is what ReadHandover found.
type Handover struct {
	Kind HandoverKind `json:"kind"`
	// Claim is the first explicit success claim ("fixed", "已修复",
	// "✅ …"), "" when the text only describes what was done.
	Claim string `json:"claim,omitempty"`
	// Evidence is the words that decided a kind other than done.
	Evidence string `json:"evidence,omitempty"`
}

// maxQuestionBytes: a text ending in a question counts as asking only
// when it is this short (a long report that ends "Anything else?" still
// hands work over).
const maxQuestionBytes = 400

// ReadHandover reads how a final text hands a turn back, in every
// language of the term files. The order of the tests is the labelling
// policy's: an honest "not run" is never a claim, an explicit claim is one
// wherever it stands, an announced next step or a short question without
// a claim is not, and anything else reports the work as done. Pure and
// deterministic.
func ReadHandover(text string) Handover {
	text = strings.TrimSpace(text)
	if text == "" {
		return Handover{Kind: HandoverEmpty}
	}
	if isClientError(text) {
		return Handover{Kind: HandoverError, Evidence: clip.Line(text, 200)}
	}
	sc := scanText(text)
	if m := sc.byCat[catUntested]; len(m) > 0 {
		return Handover{Kind: HandoverHonest, Evidence: text[m[0].start:m[0].end]}
	}
	sents := sentences(sc.folded)
	in := &detectInput{draft: text, sc: sc, sents: sents}
	for _, m := range sc.byCat[catSuccess] {
		sent := in.sentenceOf(m.start)
		if in.isQuestion(sent) || negatedBefore(sc, sent, m) {
			continue
		}
		return Handover{Kind: HandoverDone, Claim: text[m.start:m.end]}
	}
	if line, ok := checklistLine(text); ok {
		return Handover{Kind: HandoverDone, Claim: line}
	}
	last, ok := lastSubstantive(in)
	if !ok {
		return Handover{Kind: HandoverDone}
	}
	lastText := strings.TrimRight(text[last.Start:last.End], " \t*_`\"')")
	if strings.HasSuffix(lastText, ":") || strings.HasSuffix(lastText, "：") {
		return Handover{Kind: HandoverNarration, Evidence: lastText}
	}
	for _, m := range sc.byCat[catNextStep] {
		if m.start >= last.Start && m.start < last.End {
			return Handover{Kind: HandoverNarration, Evidence: lastText}
		}
	}
	if onlyAsks(in) && len(text) <= maxQuestionBytes {
		return Handover{Kind: HandoverQuestion, Evidence: lastText}
	}
	return Handover{Kind: HandoverDone}
}

// onlyAsks reports whether every sentence of the text is a question.
func onlyAsks(in *detectInput) bool {
	for _, s := range in.sents {
		if !in.isQuestion(s) {
			return false
		}
	}
	return len(in.sents) > 0
}

// lastSubstantive is the last sentence that is not a courtesy closing
// ("Let me know if …", "Is there anything else …").
func lastSubstantive(in *detectInput) (Span, bool) {
	closings := in.sc.byCat[catClosing]
	for k := len(in.sents) - 1; k >= 0; k-- {
		s := in.sents[k]
		closing := false
		for _, m := range closings {
			if m.start >= s.Start && m.start < s.End {
				closing = true
				break
			}
		}
		if !closing {
			return s, true
		}
	}
	return Span{}, false
}

// checkMarks begin a line of a checklist of things done.
var checkMarks = []string{"✅", "✔", "☑", "- [x]", "* [x]"}

// checklistLine returns the first line of the text that a check mark
// begins (after list bullets).
func checklistLine(text string) (string, bool) {
	for line := range strings.Lines(text) {
		t := strings.TrimLeft(line, " \t-*•>#0123456789.")
		for _, m := range checkMarks {
			if strings.HasPrefix(t, m) || strings.HasPrefix(strings.TrimSpace(line), m) {
				return strings.TrimSpace(line), true
			}
		}
	}
	return "", false
}

// clientErrors begin a final text that is the client's error message
// rather than the agent's words (Claude Code prints "API Error: …").
var clientErrors = []string{"API Error:", "API Error "}

func isClientError(text string) bool {
	for _, p := range clientErrors {
		if strings.HasPrefix(text, p) {
			return true
		}
	}
	return false
}
