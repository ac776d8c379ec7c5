package kb

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/confidence"
	"github.com/innate-mcp/innate-mcp/directive"
)

// TestSaturate: the lexical map is the identity up to the knee, continuous
// and strictly increasing beyond it, and stays below 1, so that lessons
// matching a query more than fully keep their order.
func TestSaturate(t *testing.T) {
	for _, x := range []float64{0, 0.1, 0.5, lexicalKnee} {
		if got := saturate(x); got != x {
			t.Errorf("saturate(%v) = %v, want the identity below the knee", x, got)
		}
	}
	for _, x := range []float64{-1, math.NaN()} {
		if got := saturate(x); got != 0 {
			t.Errorf("saturate(%v) = %v, want 0", x, got)
		}
	}
	if d := saturate(lexicalKnee+1e-9) - lexicalKnee; d < 0 || d > 2e-9 {
		t.Errorf("saturate jumps at the knee by %v", d)
	}
	prev := saturate(lexicalKnee)
	for x := lexicalKnee + 0.05; x < 4; x += 0.05 {
		got := saturate(x)
		if got <= prev || got >= 1 {
			t.Fatalf("saturate(%v) = %v after %v: want strictly increasing and below 1", x, got, prev)
		}
		prev = got
	}
}

// TestScore_fullLexicalMatchesKeepOrder: two lessons that both hold every
// query term, one more than the other, do not tie.
func TestScore_fullLexicalMatchesKeepOrder(t *testing.T) {
	w := DefaultWeights()
	info := &situationInfo{hasTerms: true}
	now := time.Now()
	lesson := Lesson{ID: "a", State: StateActive, Confidence: 0.5}
	more := w.score(Candidate{Lesson: lesson, Lexical: 1.6}, info, now)
	less := w.score(Candidate{Lesson: lesson, Lexical: 1.1}, info, now)
	if more.Score <= less.Score {
		t.Errorf("lexical 1.6 scores %v, lexical 1.1 scores %v: want the stronger match first", more.Score, less.Score)
	}
	if more.Breakdown.Lexical >= 1 || less.Breakdown.Lexical < lexicalKnee {
		t.Errorf("breakdowns %v and %v: want values in [knee, 1)", more.Breakdown.Lexical, less.Breakdown.Lexical)
	}
}

// TestScore_denseWeighsAgainstTheWholeLexicalScore: resonance saturates the
// weighted sum, not the lexical channel before weighing, so a lesson that
// matches the query's terms far better is not overtaken by a slightly
// better dense similarity (saturating first shrank a 1.4 against 1.1
// lexical lead to 0.06, less than a 0.2 dense relevance).
func TestScore_denseWeighsAgainstTheWholeLexicalScore(t *testing.T) {
	w := DefaultWeights()
	info := &situationInfo{hasTerms: true}
	now := time.Now()
	lesson := Lesson{ID: "a", State: StateActive, Confidence: 0.5}
	lexical := w.score(Candidate{Lesson: lesson, Lexical: 1.4}, info, now)
	dense := w.score(Candidate{Lesson: lesson, Lexical: 1.1, Content: 0.2}, info, now)
	if lexical.Score <= dense.Score {
		t.Errorf("lexical 1.4 scores %v, lexical 1.1 with dense 0.2 scores %v: want the stronger lexical match first", lexical.Score, dense.Score)
	}
	for _, s := range []Scored{lexical, dense} {
		if r := s.Breakdown.Resonance; r >= 1 || r <= 0 {
			t.Errorf("resonance %v: want a value in (0, 1)", r)
		}
	}
	// Below the knee nothing saturates: resonance is the weighted mean.
	low := w.score(Candidate{Lesson: lesson, Lexical: 0.3, Content: 0.4}, info, now)
	if want := (w.Lexical*0.3 + w.Content*0.4) / (w.Lexical + w.Content); math.Abs(low.Breakdown.Resonance-want) > 1e-12 {
		t.Errorf("resonance %v, want the weighted mean %v", low.Breakdown.Resonance, want)
	}
}

// TestScore_directingRuleBeforeDescription: of two of the user's lessons
// that match a situation alike, the one that directs (requires, forbids or prefers
// something) scores higher than the one that describes, by the Directs
// weight, while its resonance, which the relevance floor reads, is
// unchanged.
func TestScore_directingRuleBeforeDescription(t *testing.T) {
	w := DefaultWeights()
	info := &situationInfo{hasTerms: true}
	now := time.Now()
	rule := directive.Parse("Run `make gen` after changing the queries.", "")
	desc := directive.Parse("This is a Go 1.22 service with a Vue front end.", "")
	if !rule.Directs() || desc.Directs() {
		t.Fatalf("directives: rule %+v, description %+v", rule, desc)
	}
	c := Candidate{Lexical: 0.4, Content: 0.3}
	c.Lesson = Lesson{ID: "rule", State: StateActive, Confidence: 0.5, Directive: &rule, Origin: OriginUserStated}
	directing := w.score(c, info, now)
	c.Lesson = Lesson{ID: "desc", State: StateActive, Confidence: 0.5, Directive: &desc, Origin: OriginUserStated}
	describing := w.score(c, info, now)
	c.Lesson = Lesson{ID: "code", State: StateActive, Confidence: 0.5, Directive: &rule, Origin: OriginImported}
	if imported := w.score(c, info, now); imported.Score != describing.Score {
		t.Errorf("an imported lesson that directs scores %v, a description %v: want no prior for imported corpora", imported.Score, describing.Score)
	}
	if d := directing.Score - describing.Score; math.Abs(d-w.Directs) > 1e-12 || w.Directs <= 0 {
		t.Errorf("directing rule scores %v, description %v: want the rule ahead by %v", directing.Score, describing.Score, w.Directs)
	}
	if directing.Breakdown.Resonance != describing.Breakdown.Resonance {
		t.Errorf("resonance %v vs %v: the prior must not move the floor's measure", directing.Breakdown.Resonance, describing.Breakdown.Resonance)
	}
}

// TestFloorOf_userDirectives: of the user's own lessons, one that directs
// is returned from UserDirectiveFloor, one that describes from
// UserRuleFloor; another project's rule and an imported lesson keep their
// tier's floor.
func TestFloorOf_userDirectives(t *testing.T) {
	w := DefaultWeights()
	rule := directive.Parse("Run `make gen` after changing the queries.", "")
	desc := directive.Parse("This is a Go 1.22 service with a Vue front end.", "")
	tests := []struct {
		name  string
		s     Scored
		floor float64
	}{
		{"user's rule", Scored{Candidate: Candidate{Lesson: Lesson{Origin: OriginUserStated, Directive: &rule}}}, w.UserDirectiveFloor},
		{"user's description", Scored{Candidate: Candidate{Lesson: Lesson{Origin: OriginUserStated, Directive: &desc}}}, w.UserRuleFloor},
		{"user's lesson without a directive", Scored{Candidate: Candidate{Lesson: Lesson{Origin: OriginUserStated}}}, w.UserRuleFloor},
		{"another project's rule", Scored{Candidate: Candidate{Lesson: Lesson{Origin: OriginUserStated, Directive: &rule}}, OtherProject: true}, w.ClearMatch},
		{"imported rule", Scored{Candidate: Candidate{Lesson: Lesson{Origin: OriginImported, Directive: &rule}}}, w.ClearMatch},
	}
	if w.UserDirectiveFloor >= w.UserRuleFloor {
		t.Fatalf("user_directive_floor %v is not below user_rule_floor %v", w.UserDirectiveFloor, w.UserRuleFloor)
	}
	for _, tc := range tests {
		if got, ok := w.floorOf(tc.s); !ok || got != tc.floor {
			t.Errorf("%s: floor %v (%v), want %v", tc.name, got, ok, tc.floor)
		}
	}
}

// TestCmpChosen_tiesByWhatLessonsAre: lessons of the same score come in
// the order of their sources and texts, whatever their random ids, so that
// recall gives the same answer on every import.
func TestCmpChosen_tiesByWhatLessonsAre(t *testing.T) {
	mk := func(id, source, content string) Scored {
		return Scored{Candidate: Candidate{Lesson: Lesson{ID: id, Project: "p", Source: source, Content: content}}, Score: 0.15}
	}
	for _, ids := range [][3]string{{"L1", "L2", "L3"}, {"L3", "L2", "L1"}, {"Lz", "La", "Lm"}} {
		got := []Scored{
			mk(ids[0], "CLAUDE.md#9", "Log through the shared logger."),
			mk(ids[1], "CLAUDE.md#3", "Handlers stay thin."),
			mk(ids[2], "CLAUDE.md#3", "Keep handlers small."),
		}
		slices.SortStableFunc(got, func(a, b Scored) int { return cmpChosen(a, b, "p", confidence.Config{MatchBucket: 0.05}) })
		var order []string
		for _, s := range got {
			order = append(order, s.Lesson.Content)
		}
		if want := "Handlers stay thin.|Keep handlers small.|Log through the shared logger."; strings.Join(order, "|") != want {
			t.Errorf("ids %v: order %q, want %q", ids, order, want)
		}
	}
}
