package route

import (
	"math"
	"slices"
	"testing"
)

var (
	cold     = Warmth{}
	moderate = Warmth{ResonatingLessons: 1, TopResonance: 0.5, MeanConfidence: 0.5, SessionTraces: 1}
	warm     = Warmth{ResonatingLessons: 4, TopResonance: 0.85, MeanConfidence: 0.8, SessionTraces: 3}
)

func route(msg string, w Warmth) Decision {
	return Route(Input{Message: msg, Warmth: w}, DefaultWeights())
}

func TestRoute_Modes(t *testing.T) {
	cases := []struct {
		name, lang, msg string
		warmth          Warmth
		want            []Mode // any of these
	}{
		{"greeting cold", "en", "hi", cold, []Mode{Acknowledge}},
		{"greeting warm", "en", "Hello there!", warm, []Mode{Acknowledge}},
		{"greeting chain", "en", "hi, how are you?", warm, []Mode{Acknowledge}},
		{"thanks warm", "en", "thanks!", warm, []Mode{Acknowledge}},
		{"greeting cold", "zh", "你好", cold, []Mode{Acknowledge}},
		{"greeting warm", "zh", "您好！", warm, []Mode{Acknowledge}},
		{"thanks", "zh", "謝謝，搞定了", warm, []Mode{Acknowledge}},
		{"greeting cold", "ja", "こんにちは", cold, []Mode{Acknowledge}},
		{"greeting warm", "ja", "おはようございます", warm, []Mode{Acknowledge}},
		{"thanks", "ja", "ありがとうございます", warm, []Mode{Acknowledge}},

		{"empty cold", "-", "", cold, []Mode{Ignore}},
		{"empty warm", "-", "", warm, []Mode{Ignore}},
		{"blank", "-", "  \n ", warm, []Mode{Ignore}},
		{"punctuation", "-", "?!", moderate, []Mode{Ignore}},

		{"question cold", "en", "How do I configure the retry policy?", cold, []Mode{Clarify, Gather}},
		{"question warm", "en", "How do I configure the retry policy?", warm, []Mode{Respond}},
		{"question cold", "zh", "怎么配置重试策略？", cold, []Mode{Clarify, Gather}},
		{"question warm", "zh", "怎么配置重试策略？", warm, []Mode{Respond}},
		{"question cold", "ja", "リトライの設定はどうすればいいですか", cold, []Mode{Clarify, Gather}},
		{"question warm", "ja", "リトライの設定はどうすればいいですか", warm, []Mode{Respond}},

		{"vague request cold", "en", "fix it", cold, []Mode{Clarify}},
		{"vague request warm", "en", "fix it", warm, []Mode{Respond}},
		{"specific request cold", "en", "fix the nil pointer panic in storage/db.go Open()", cold, []Mode{Gather}},
		{"specific request warm", "en", "fix the nil pointer panic in storage/db.go Open()", warm, []Mode{Respond}},
		{"specific request cold", "zh", "修复 storage/db.go 的空指针报错，在 Open() 里", cold, []Mode{Gather}},
		{"specific request cold", "ja", "storage/db.go の Open() でパニックが起きるので直して", cold, []Mode{Gather}},

		{"implicit reference moderate", "en", "like last time, use the same config", moderate, []Mode{Gather}},
		{"implicit reference moderate", "zh", "像上次那样处理", moderate, []Mode{Gather}},
		{"implicit reference moderate", "ja", "前回と同じようにして", moderate, []Mode{Gather}},
		{"implicit reference warm", "en", "as we discussed, keep the old API", warm, []Mode{Respond}},

		{"negative feedback cold", "en", "that's wrong", cold, []Mode{Clarify}},
		{"greeting with request", "en", "hi! please add a test for parseHeader", warm, []Mode{Respond}},
		{"thanks with request", "zh", "谢谢！再帮我加一个测试", warm, []Mode{Respond}},
	}
	for _, c := range cases {
		t.Run(c.lang+"/"+c.name, func(t *testing.T) {
			d := route(c.msg, c.warmth)
			if !slices.Contains(c.want, d.Mode) {
				t.Errorf("Route(%q) = %s, want one of %v (scores %v, signals %v)", c.msg, d.Mode, c.want, d.Scores, d.Signals)
			}
		})
	}
}

func TestRoute_SelfLeveling(t *testing.T) {
	// As the KB warms up, the same question moves from asking to answering,
	// and RESPOND's score never falls while CLARIFY's never rises.
	msg := "How should the retry policy handle timeouts?"
	var prev Decision
	for i := 0; i <= 10; i++ {
		f := float64(i) / 10
		w := Warmth{ResonatingLessons: i / 2, TopResonance: f, MeanConfidence: f, SessionTraces: i / 3}
		d := route(msg, w)
		if i > 0 {
			if d.Scores[Respond] < prev.Scores[Respond]-1e-12 {
				t.Errorf("step %d: respond score fell %v → %v", i, prev.Scores[Respond], d.Scores[Respond])
			}
			if d.Scores[Clarify] > prev.Scores[Clarify]+1e-12 {
				t.Errorf("step %d: clarify score rose %v → %v", i, prev.Scores[Clarify], d.Scores[Clarify])
			}
			if d.EffectiveMargin > prev.EffectiveMargin+1e-12 {
				t.Errorf("step %d: effective margin widened %v → %v as warmth grew", i, prev.EffectiveMargin, d.EffectiveMargin)
			}
		}
		if i == 0 && d.Mode != Clarify {
			t.Errorf("cold: mode %s, want clarify", d.Mode)
		}
		if i == 10 && d.Mode != Respond {
			t.Errorf("warm: mode %s, want respond", d.Mode)
		}
		prev = d
	}
}

func TestRoute_AfterClarifyGuard(t *testing.T) {
	w := DefaultWeights()
	msg := "the one in the storage package"
	base := Route(Input{Message: msg, Warmth: moderate}, w)
	after := Route(Input{Message: msg, Warmth: moderate, Prev: &SessionState{Mode: Clarify}}, w)
	if got, want := after.Scores[Respond]-base.Scores[Respond], w.RespondAfterClarify; math.Abs(got-want) > 1e-12 {
		t.Errorf("respond bonus after clarify = %v, want %v", got, want)
	}
	if !slices.Contains(after.Guards, GuardAfterClarify) || slices.Contains(base.Guards, GuardAfterClarify) {
		t.Errorf("guards: without prev %v, after clarify %v", base.Guards, after.Guards)
	}
	for _, m := range []Mode{Clarify, Gather, Acknowledge, Ignore} {
		if after.Scores[m] != base.Scores[m] {
			t.Errorf("%s score changed by the after-clarify guard: %v → %v", m, base.Scores[m], after.Scores[m])
		}
	}
}

func TestRoute_UnproductiveGatherGuard(t *testing.T) {
	w := DefaultWeights()
	msg := "like last time, use the same config"
	base := Route(Input{Message: msg, Warmth: moderate}, w)
	if base.Mode != Gather {
		t.Fatalf("setup: mode %s, want gather", base.Mode)
	}
	// The gather found nothing: warmth did not rise. The guard lowers GATHER.
	stuck := Route(Input{Message: msg, Warmth: moderate, Prev: &base.Next}, w)
	if got, want := base.Scores[Gather]-stuck.Scores[Gather], w.GatherUnproductive; math.Abs(got-want) > 1e-12 {
		t.Errorf("gather penalty after an unproductive gather = %v, want %v", got, want)
	}
	if !slices.Contains(stuck.Guards, GuardUnproductiveGather) {
		t.Errorf("guards %v, want %s", stuck.Guards, GuardUnproductiveGather)
	}
	if stuck.Mode == Gather {
		t.Errorf("routed to gather again after an unproductive gather (scores %v)", stuck.Scores)
	}
	// The gather paid off: warmth rose. No penalty.
	richer := moderate
	richer.ResonatingLessons, richer.TopResonance = 3, 0.8
	paid := Route(Input{Message: msg, Warmth: richer, Prev: &base.Next}, w)
	if slices.Contains(paid.Guards, GuardUnproductiveGather) {
		t.Errorf("penalised a productive gather: guards %v", paid.Guards)
	}
}

func TestRoute_Hysteresis(t *testing.T) {
	w := DefaultWeights()
	// "像上次那样处理" (handle it like last time) on a cold KB is a near tie
	// between clarify and gather.
	msg := "像上次那样处理"
	var prev *SessionState
	var margins []float64
	for i := 0; i < 5; i++ {
		d := Route(Input{Message: msg, Warmth: cold, Prev: prev}, w)
		if d.Confidence >= w.HysteresisBelow {
			t.Fatalf("setup: confidence %v not low", d.Confidence)
		}
		if d.Next.LowConfidenceStreak != i+1 {
			t.Errorf("decision %d: streak %d, want %d", i, d.Next.LowConfidenceStreak, i+1)
		}
		margins = append(margins, d.EffectiveMargin)
		hyst := slices.Contains(d.Guards, GuardHysteresis)
		if wantHyst := i >= int(w.HysteresisStreak); hyst != wantHyst {
			t.Errorf("decision %d: hysteresis %v, want %v", i, hyst, wantHyst)
		}
		prev = &d.Next
	}
	if got := margins[3] - margins[0]; math.Abs(got-w.MarginHysteresis) > 1e-12 {
		t.Errorf("margin widened by %v after the streak, want %v", got, w.MarginHysteresis)
	}
	// A confident decision resets the streak and the widening.
	d := Route(Input{Message: "hi", Warmth: cold, Prev: prev}, w)
	if d.Next.LowConfidenceStreak != 0 {
		t.Errorf("streak after a confident decision = %d, want 0", d.Next.LowConfidenceStreak)
	}
	d2 := Route(Input{Message: msg, Warmth: cold, Prev: &d.Next}, w)
	if slices.Contains(d2.Guards, GuardHysteresis) {
		t.Errorf("hysteresis still applied after the streak was reset")
	}
}

func TestRoute_Ambiguity(t *testing.T) {
	d := route("like last time, use the same config", cold)
	if !d.Ambiguous {
		t.Errorf("near tie not reported ambiguous: margin %v, effective %v", d.Margin, d.EffectiveMargin)
	}
	if d.RunnerUp == "" || d.RunnerUp == d.Mode {
		t.Errorf("runner-up %q for mode %q", d.RunnerUp, d.Mode)
	}
	if got := d.Scores[d.Mode] - d.Scores[d.RunnerUp]; math.Abs(got-d.Margin) > 1e-12 {
		t.Errorf("margin %v, want top − runner-up = %v", d.Margin, got)
	}
	clear := route("hi", cold)
	if clear.Ambiguous {
		t.Errorf("greeting reported ambiguous: margin %v, effective %v", clear.Margin, clear.EffectiveMargin)
	}
	// Semantic uncertainty widens the margin: an implicit reference adds
	// MarginImplicitRef over the warmth-only margin.
	w := DefaultWeights()
	if got, want := d.EffectiveMargin, w.MarginBase+w.MarginImplicitRef; math.Abs(got-want) > 1e-12 {
		t.Errorf("effective margin %v, want %v", got, want)
	}
	noMark := route("python how to sort a dict by value", cold)
	if got, want := noMark.EffectiveMargin, w.MarginBase+w.MarginInterrogativeNoMark; math.Abs(got-want) > 1e-12 {
		t.Errorf("effective margin for an interrogative without '?' = %v, want %v", got, want)
	}
}

func TestRoute_Confidence(t *testing.T) {
	for _, msg := range []string{"hi", "fix it", "How do I configure the retry policy?", "", "like last time"} {
		for _, w := range []Warmth{cold, moderate, warm} {
			d := route(msg, w)
			top, second := d.Scores[d.Mode], d.Scores[d.RunnerUp]
			want := math.Max(0, math.Min(1, (top-second)/math.Max(math.Abs(top), 0.001)))
			if math.Abs(d.Confidence-want) > 1e-12 {
				t.Errorf("Route(%q) confidence %v, want %v", msg, d.Confidence, want)
			}
			for _, m := range Modes() {
				if d.Scores[m] > top {
					t.Errorf("Route(%q) chose %s (%v) below %s (%v)", msg, d.Mode, top, m, d.Scores[m])
				}
			}
		}
	}
}

func TestRoute_Exclude(t *testing.T) {
	msg := "like last time, use the same config"
	d := Route(Input{Message: msg, Warmth: moderate}, DefaultWeights())
	if d.Mode != Gather {
		t.Fatalf("setup: mode %s, want gather", d.Mode)
	}
	re := Route(Input{Message: msg, Warmth: moderate, Exclude: []Mode{Gather}}, DefaultWeights())
	if re.Mode == Gather || re.RunnerUp == Gather {
		t.Errorf("re-route excluding gather chose %s (runner-up %s)", re.Mode, re.RunnerUp)
	}
	if re.Scores[Gather] != d.Scores[Gather] {
		t.Errorf("excluded mode's score not reported: %v", re.Scores)
	}
	all := Route(Input{Message: msg, Warmth: moderate, Exclude: Modes()}, DefaultWeights())
	if all.Mode != d.Mode {
		t.Errorf("excluding every mode chose %s, want the unexcluded choice %s", all.Mode, d.Mode)
	}
	one := Route(Input{Message: msg, Warmth: moderate, Exclude: []Mode{Respond, Clarify, Gather, Ignore}}, DefaultWeights())
	if one.Mode != Acknowledge || one.RunnerUp != "" || one.Ambiguous || one.Confidence != 1 {
		t.Errorf("single allowed mode: %+v", one)
	}
}

func TestRoute_Deterministic(t *testing.T) {
	in := Input{Message: "为什么这个测试会失败？", Warmth: moderate, Prev: &SessionState{Mode: Clarify, LowConfidenceStreak: 2}}
	a, b := Route(in, DefaultWeights()), Route(in, DefaultWeights())
	if a.Mode != b.Mode || a.Confidence != b.Confidence || a.Margin != b.Margin || len(a.Signals) != len(b.Signals) {
		t.Errorf("two routes of one input differ: %+v vs %+v", a, b)
	}
	for k, v := range a.Signals {
		if b.Signals[k] != v {
			t.Errorf("signal %s: %v vs %v", k, v, b.Signals[k])
		}
	}
}

func TestRoute_WeirdWarmth(t *testing.T) {
	for _, w := range []Warmth{
		{ResonatingLessons: -3, TopResonance: -1, MeanConfidence: 5, SessionTraces: -1},
		{ResonatingLessons: 1 << 30, TopResonance: math.NaN(), MeanConfidence: math.Inf(1), SessionTraces: 1 << 30},
	} {
		d := route("why does it fail?", w)
		if d.Warmth < 0 || d.Warmth > 1 || math.IsNaN(d.Warmth) {
			t.Errorf("warmth %v outside [0, 1] for %+v", d.Warmth, w)
		}
		for m, s := range d.Scores {
			if math.IsNaN(s) || math.IsInf(s, 0) {
				t.Errorf("score %s = %v for %+v", m, s, w)
			}
		}
	}
}
