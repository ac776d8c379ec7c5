package route

import (
	"math"
	"testing"
)

func FuzzExtract(f *testing.F) {
	for _, s := range []string{"", "hi", "why?", "fix storage/db.go Open()", "你好吗？", "前回と同じようにして",
		"`a` ``` b ```", "????", "\xff\xfe", "B?i", "ok, now, then, so,", "--flag #12 v1.2.3 a::b"} {
		f.Add(s)
	}
	w := DefaultWeights()
	f.Fuzz(func(t *testing.T, msg string) {
		s := Extract(msg)
		if s.Density < 0 || s.Density > 1 || math.IsNaN(s.Density) {
			t.Errorf("density %v", s.Density)
		}
		if s.Tokens < 0 || s.ContentTokens < 0 || s.ContentTokens > s.Tokens {
			t.Errorf("tokens %d, content %d", s.Tokens, s.ContentTokens)
		}
		if s.Specifics < 0 || s.Specifics > maxSpecifics || s.Interrogatives < 0 || s.Feedback < -1 || s.Feedback > 1 {
			t.Errorf("signals out of range: %+v", s)
		}
		if s.Empty && (s.Question || s.Greeting || s.Imperative || s.Tokens != 0) {
			t.Errorf("empty message with signals: %+v", s)
		}
		d := Route(Input{Message: msg, Warmth: moderate, Prev: &SessionState{Mode: Gather, LowConfidenceStreak: 3}}, w)
		if !d.Mode.Valid() || (d.RunnerUp != "" && !d.RunnerUp.Valid()) {
			t.Errorf("modes %q / %q", d.Mode, d.RunnerUp)
		}
		for m, v := range d.Scores {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Errorf("score %s = %v", m, v)
			}
		}
		for k, v := range d.Signals {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Errorf("signal %s = %v", k, v)
			}
		}
		if d.Confidence < 0 || d.Confidence > 1 || math.IsNaN(d.EffectiveMargin) {
			t.Errorf("confidence %v, effective margin %v", d.Confidence, d.EffectiveMargin)
		}
		_, _ = DetectMisroute(Respond, msg, msg)
	})
}
