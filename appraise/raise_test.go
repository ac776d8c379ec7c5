package appraise

import (
	"strings"
	"testing"

	"github.com/innate-mcp/innate-mcp/internal/metric"
)

// session replays appraisals of one session: each call sees the raises of
// the previous ones, newest first, as the knowledge base passes them.
type session struct {
	recent [][]string // raised lesson ids per call, newest first
}

func (s *session) history() History {
	h := History{Raised: map[string][]int{}}
	for i, ids := range s.recent {
		if i == HistoryWindow {
			break
		}
		h.Calls++
		for _, id := range ids {
			h.Raised[id] = append(h.Raised[id], i+1)
		}
	}
	return h
}

func (s *session) appraise(in Input, cfg Config) Result {
	in.History = s.history()
	r := Appraise(in, cfg)
	var ids []string
	for _, p := range r.Verdict.FlaggedPoints {
		ids = append(ids, p.LessonID)
	}
	s.recent = append([][]string{ids}, s.recent...)
	return r
}

func raisedIDs(r Result) string {
	var ids []string
	for _, p := range r.Verdict.FlaggedPoints {
		ids = append(ids, p.LessonID)
	}
	return strings.Join(ids, ",")
}

// TestRaise_notEveryTurn: in focus mode the same caution is raised, then
// rests while its novelty recovers, then is raised again.
func TestRaise_notEveryTurn(t *testing.T) {
	cfg := DefaultConfig()
	in := Input{Lessons: []Lesson{rule("a", 0.9, 0.6), caution("c", 0.7)}, Mode: Focus}
	var s session
	var got []string
	for range 8 {
		got = append(got, raisedIDs(s.appraise(in, cfg)))
	}
	if got[0] != "c" {
		t.Fatalf("first turn raised %q, want c", got[0])
	}
	raised := 0
	for i, g := range got {
		if g == "c" {
			raised++
			if i > 0 && got[i-1] == "c" {
				t.Fatalf("c raised on consecutive turns: %q", got)
			}
		}
	}
	if raised < 2 || raised == len(got) {
		t.Fatalf("c raised on %d of %d turns (%q): want again after the cooldown, not every turn", raised, len(got), got)
	}
}

// TestRaise_willAndNovelty checks the will formula and the cooldown.
func TestRaise_willAndNovelty(t *testing.T) {
	cfg := DefaultConfig()
	c := caution("c", 0.7)
	r := Appraise(Input{Lessons: []Lesson{c}}, cfg)
	want := metric.Round4(WillRelevance*0.7 + WillNovelty*1 + WillConfidence*0.7)
	if len(r.Raises) != 1 || r.Raises[0].Will != want || r.Verdict.FlaggedPoints[0].Will != want {
		t.Fatalf("raises = %+v, want will %.4f", r.Raises, want)
	}
	for ago, wantNovelty := range map[int]float64{1: 0, 2: 0.25, 3: 0.5, 5: 1, 9: 1} {
		h := History{Calls: ago, Raised: map[string][]int{"c": {ago}}}
		if got := novelty("c", h, cfg); got != wantNovelty {
			t.Errorf("novelty %d calls after a raise = %.2f, want %.2f", ago, got, wantNovelty)
		}
	}
}

// TestRaise_quietStaysQuiet: quiet mode raises nothing, over many turns,
// unless the situation matches an anti-trigger.
func TestRaise_quietStaysQuiet(t *testing.T) {
	cfg := DefaultConfig()
	var s session
	in := Input{Lessons: []Lesson{caution("c", 0.9), caution("d", 0.8)}, Mode: Quiet}
	for turn := range 6 {
		r := s.appraise(in, cfg)
		if len(r.Verdict.FlaggedPoints) != 0 {
			t.Fatalf("turn %d: quiet mode raised %q", turn, raisedIDs(r))
		}
		if len(r.Skipped()) != 2 || r.Skipped()[0].Reason != SkipQuiet {
			t.Fatalf("turn %d: skipped = %+v, want both logged as quiet", turn, r.Skipped())
		}
	}
	anti := caution("x", 0.8)
	anti.AntiTriggerHit, anti.AntiTrigger = true, "Go versions before 1.13"
	r := Appraise(Input{Lessons: []Lesson{caution("c", 0.9), anti}, Mode: Quiet}, cfg)
	if raisedIDs(r) != "x" {
		t.Fatalf("quiet mode with an anti-trigger hit raised %q, want x", raisedIDs(r))
	}
	if !strings.Contains(r.Verdict.FlaggedPoints[0].Summary, "may not apply here") {
		t.Fatalf("anti-trigger summary = %q", r.Verdict.FlaggedPoints[0].Summary)
	}
}

// TestRaise_modes: brainstorm raises what focus skips; skipped points carry
// their will and reason.
func TestRaise_modes(t *testing.T) {
	cfg := DefaultConfig()
	weak := caution("w", 0.35) // will = 0.5·0.35 + 0.3 + 0.14 = 0.615 fresh
	weak.Confidence = 0.3      // will = 0.175 + 0.3 + 0.06 = 0.535
	in := Input{Lessons: []Lesson{rule("a", 0.9, 0.6), weak}}
	focus := Appraise(in, cfg)
	if len(focus.Verdict.FlaggedPoints) != 0 || len(focus.Skipped()) != 1 || focus.Skipped()[0].Reason != SkipBelowThreshold ||
		focus.Skipped()[0].Will != 0.535 {
		t.Fatalf("focus: raised %q skipped %+v, want w skipped at will 0.535", raisedIDs(focus), focus.Skipped())
	}
	in.Mode = Brainstorm
	if got := raisedIDs(Appraise(in, cfg)); got != "w" {
		t.Fatalf("brainstorm raised %q, want w", got)
	}
}

// TestRaise_overRaisingDamped: in brainstorm mode a lesson that raises its
// hand on every call is detected and damped, so it sits some turns out.
func TestRaise_overRaisingDamped(t *testing.T) {
	cfg := DefaultConfig()
	var s session
	in := Input{Lessons: []Lesson{caution("c", 0.7)}, Mode: Brainstorm}
	raised, damped := 0, false
	const turns = 12
	for range turns {
		r := s.appraise(in, cfg)
		if raisedIDs(r) == "c" {
			raised++
		}
		damped = damped || r.Raises[0].Damping < 1
	}
	if !damped || raised == turns || float64(raised)/turns > cfg.RaiseOverShare+0.2 {
		t.Fatalf("raised %d of %d turns, damped %v: want damping to hold it near %.0f%%", raised, turns, damped, 100*cfg.RaiseOverShare)
	}
}

// TestRaise_cap: at most RaiseMax points are raised; the rest are skipped.
func TestRaise_cap(t *testing.T) {
	cfg := DefaultConfig()
	cfg.RaiseMax, cfg.Contributors = 2, 10
	var ls []Lesson
	for _, id := range []string{"c1", "c2", "c3", "c4"} {
		ls = append(ls, caution(id, 0.8))
	}
	r := Appraise(Input{Lessons: ls, Mode: Brainstorm}, cfg)
	if len(r.Verdict.FlaggedPoints) != 2 || len(r.Skipped()) != 2 || r.Skipped()[0].Reason != SkipCap {
		t.Fatalf("raised %q skipped %+v", raisedIDs(r), r.Skipped())
	}
}
