package hesitation

import "sort"

// IsCorrection reports whether a user message reads as a correction of the
// agent ("不是有說…", "為何還是…", "I told you", "that's wrong", "言ったよね")
// and returns the cues found, as written, in order of position; a cue inside
// a longer one is not repeated. One strong cue or two weak ones ("wrong",
// "again", "還是") suffice. English, Chinese (Traditional and Simplified)
// and Japanese cues come from the embedded term lists. It is a pure
// function, safe for concurrent use.
func IsCorrection(message string) (bool, []string) {
	ms := append([]match(nil), scanText(message).byCat[catCorrection]...)
	sort.SliceStable(ms, func(i, j int) bool {
		if ms[i].start != ms[j].start {
			return ms[i].start < ms[j].start
		}
		if ms[i].end != ms[j].end {
			return ms[i].end > ms[j].end
		}
		return ms[i].term.strong && !ms[j].term.strong
	})
	var cues []string
	strong, weak, maxEnd := 0, 0, -1
	for _, m := range ms {
		if m.end <= maxEnd {
			continue
		}
		maxEnd = m.end
		if m.term.strong {
			strong++
		} else {
			weak++
		}
		cues = append(cues, message[m.start:m.end])
	}
	return strong > 0 || weak >= 2, cues
}
