package appraise

import (
	"testing"

	"github.com/innate-mcp/innate-mcp/confidence"
	"github.com/innate-mcp/innate-mcp/directive"
)

// rule is an imported rule lesson that resonates at r with a lexical match
// of lex and no trigger.
func rule(id string, r, lex float64) Lesson {
	return Lesson{ID: id, Content: "Keep SQLite write transactions short and use BEGIN IMMEDIATE.", Origin: confidence.OriginImported,
		Score: r + 0.08, Resonance: r, Calibration: 0.08, Lexical: lex, Confidence: 0.6}
}

// ownRule is a rule of the situation's own project, read as the reader
// reads it, resonating at score.
func ownRule(id, text string, score float64) Lesson {
	d := directive.Parse(text, "")
	return Lesson{ID: id, Content: text, Own: true, Directive: &d, Score: score, Resonance: score}
}

// caution is a user-stated caution lesson with a trigger that matches.
func caution(id string, r float64) Lesson {
	return Lesson{ID: id, Content: "Writing to a nil map panics at run time.", Trigger: "assignment to entry in nil map",
		Caution: true, Origin: confidence.OriginUserStated, Score: r + 0.09, Resonance: r, Calibration: 0.09,
		TriggerCos: r, HasTrigger: true, Lexical: r, Confidence: 0.7}
}

func appraiseT(t *testing.T, in Input) Result {
	t.Helper()
	return Appraise(in, DefaultConfig())
}
