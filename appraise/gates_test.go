package appraise

import (
	"testing"

	"github.com/innate-mcp/innate-mcp/confidence"
	"github.com/innate-mcp/innate-mcp/internal/metric"
)

// TestAppraise_gates makes each gate fire, and keeps it quiet with the
// smallest change that removes its cause.
func TestAppraise_gates(t *testing.T) {
	cfg := DefaultConfig()
	agent := func(l Lesson) Lesson { l.Origin = confidence.OriginAgentInferred; return l }
	withHistory := func(l Lesson, s, f int) Lesson { l.Successes, l.Failures = s, f; return l }
	affirmRule := func(id string, r float64) Lesson { return rule(id, r, 0.5) }

	tests := []struct {
		name    string
		lessons []Lesson
		want    AbstainReason // "" for no abstention
	}{
		// 1. weak_resonance: similarity alone decides, however confident the lesson.
		{"weak_resonance fires below the floor", []Lesson{func() Lesson {
			l := rule("a", cfg.ResonanceFloor-0.01, 0.5)
			l.Confidence, l.Score = 1, 0.9 // calibration cannot lift it
			return l
		}()}, WeakResonance},
		{"weak_resonance fires with no lessons", nil, WeakResonance},
		{"weak_resonance quiet at the floor", []Lesson{rule("a", cfg.ResonanceFloor, 0.5)}, ""},

		// 2. false_resonance: dense similarity without shared terms or trigger match.
		{"false_resonance fires on dense-only resonance", []Lesson{rule("a", 0.6, 0)}, FalseResonance},
		{"false_resonance quiet with shared terms", []Lesson{rule("a", 0.6, cfg.SignatureFloor)}, ""},
		{"false_resonance quiet with a trigger match", []Lesson{func() Lesson {
			l := rule("a", 0.6, 0)
			l.HasTrigger, l.TriggerCos, l.Trigger = true, cfg.TriggerMatch, "sqlite writers"
			return l
		}()}, ""},

		// 3. sparse_evidence: unconfirmed agent guesses do not give footing.
		{"sparse_evidence fires on agent guesses", []Lesson{agent(rule("a", 0.6, 0.5)), agent(rule("b", 0.5, 0.4))}, SparseEvidence},
		{"sparse_evidence quiet for an imported rule", []Lesson{rule("a", 0.6, 0.5)}, ""},
		{"sparse_evidence quiet for a guess with observed outcomes", []Lesson{withHistory(agent(rule("a", 0.6, 0.5)), 1, 0)}, ""},
		{"sparse_evidence quiet for a guess a person approved", []Lesson{func() Lesson {
			l := agent(rule("a", 0.6, 0.5))
			l.Approvals = 1
			return l
		}()}, ""},

		// 4. conflicted: strong affirm against strong caution, or opposed histories.
		{"conflicted fires on strong affirm against strong caution", []Lesson{affirmRule("a", 0.6), caution("c", 0.58)}, Conflicted},
		{"conflicted fires on opposed outcome histories", []Lesson{withHistory(rule("a", 0.5, 0.5), 4, 0), withHistory(rule("b", 0.45, 0.5), 0, 4)}, Conflicted},
		{"conflicted quiet when the caution is much weaker", []Lesson{affirmRule("a", 0.7), caution("c", 0.32)}, ""},
		{"conflicted quiet for different relevance alone", []Lesson{affirmRule("a", 0.8), affirmRule("b", 0.31)}, ""},
		{"conflicted quiet for one-sided histories", []Lesson{withHistory(rule("a", 0.5, 0.5), 4, 0), withHistory(rule("b", 0.45, 0.5), 3, 1)}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Appraise(Input{Lessons: tt.lessons}, cfg)
			v := r.Verdict
			if v.AbstainReason != tt.want || v.Abstained != (tt.want != "") {
				t.Fatalf("abstained=%v reason=%q, want reason %q (evidence %.2f, agreement %.2f)", v.Abstained, v.AbstainReason, tt.want, r.Evidence, r.Agreement)
			}
			if v.Abstained {
				if v.Valence != Neutral || v.Band != Weak || v.Confidence != 0 || len(v.FlaggedPoints) != 0 {
					t.Fatalf("abstained verdict not neutral/weak/0/unflagged: %+v", v)
				}
			} else if v.Confidence == 0 && v.Strength > 0 {
				t.Fatalf("confident verdict with zero confidence: %+v", v)
			}
		})
	}
}

// TestAppraise_gatesOrder checks the first gate to fire is reported.
func TestAppraise_gatesOrder(t *testing.T) {
	l := rule("a", 0.6, 0) // dense-only and an agent guess: false_resonance comes first
	l.Origin = confidence.OriginAgentInferred
	if got := appraiseT(t, Input{Lessons: []Lesson{l}}).Verdict.AbstainReason; got != FalseResonance {
		t.Fatalf("reason = %q, want %q", got, FalseResonance)
	}
}

func TestAppraise_valence(t *testing.T) {
	cfg := DefaultConfig()
	failed := rule("f", 0.6, 0.5)
	failed.Context = -0.33 // one failure in situations like this one
	anti := rule("x", 0.6, 0.5)
	anti.AntiTriggerHit = true
	noMatch := rule("t", 0.6, 0.5)
	noMatch.HasTrigger, noMatch.TriggerCos, noMatch.Trigger = true, cfg.TriggerMatch-0.1, "something else"
	rejected := rule("r", 0.6, 0.5)
	rejected.Rejects = 1
	tests := []struct {
		name    string
		lessons []Lesson
		want    Valence
	}{
		{"imported rule matching: affirm", []Lesson{rule("a", 0.6, 0.5)}, Affirm},
		{"caution lesson: caution", []Lesson{caution("c", 0.6)}, Caution},
		{"anti-trigger hit: caution", []Lesson{anti}, Caution},
		{"negative history in similar situations: caution", []Lesson{failed}, Caution},
		{"trigger does not match: neutral", []Lesson{noMatch}, Neutral},
		{"rejected by a person: neutral", []Lesson{rejected}, Neutral},
		{"affirm and a comparable caution: mixed", []Lesson{rule("a", 0.6, 0.5), caution("c", 0.4)}, Mixed},
		{"affirm and a much weaker caution: affirm", []Lesson{rule("a", 0.8, 0.5), caution("c", 0.31)}, Affirm},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Appraise(Input{Lessons: tt.lessons}, cfg).Verdict
			if v.Abstained {
				t.Fatalf("abstained (%s)", v.AbstainReason)
			}
			if v.Valence != tt.want {
				t.Fatalf("valence = %s, want %s", v.Valence, tt.want)
			}
		})
	}
}

func TestAppraise_strengthBandDispersion(t *testing.T) {
	cfg := DefaultConfig()
	r := Appraise(Input{Lessons: []Lesson{rule("a", 0.7, 0.5), rule("b", 0.4, 0.5), rule("low", 0.1, 0.1)}}, cfg)
	v := r.Verdict
	if v.Strength != metric.Round4(0.78) || v.Band != Strong {
		t.Fatalf("strength %.4f band %s, want 0.78 strong", v.Strength, v.Band)
	}
	if v.Dispersion != metric.Round4(0.78-0.48) {
		t.Fatalf("dispersion = %.4f, want 0.30", v.Dispersion)
	}
	if len(v.Contributors) != 2 || v.Contributors[0].LessonID != "a" {
		t.Fatalf("contributors = %+v, want a, b (low is below the floor)", v.Contributors)
	}
	if r.Resonating != 2 || r.TopResonance != 0.7 {
		t.Fatalf("resonating %d top %.2f", r.Resonating, r.TopResonance)
	}
	if v.Advisory != Advisory || v.TraceID != "" {
		t.Fatalf("advisory %q trace %q", v.Advisory, v.TraceID)
	}
}

// TestAppraise_candidateSupport checks that a candidate the knowledge holds
// gets more footing than one it does not, through the same lessons.
func TestAppraise_candidateSupport(t *testing.T) {
	l := rule("a", 0.6, 0.5)
	l.Content = "The Oberoi Group is a hotel company with its head office in Delhi."
	backed := appraiseT(t, Input{Lessons: []Lesson{l}, Candidate: "Delhi"})
	unbacked := appraiseT(t, Input{Lessons: []Lesson{l}, Candidate: "Mumbai, the financial capital of India."})
	none := appraiseT(t, Input{Lessons: []Lesson{l}})
	if !backed.HasCandidate || backed.Support != 1 {
		t.Fatalf("backed support = %.3f", backed.Support)
	}
	if !(backed.Verdict.Strength > unbacked.Verdict.Strength) || unbacked.Support >= 0.5 {
		t.Fatalf("strength backed %.3f vs unbacked %.3f (support %.3f)", backed.Verdict.Strength, unbacked.Verdict.Strength, unbacked.Support)
	}
	if backed.Verdict.Valence != Affirm || unbacked.Verdict.Valence != Neutral {
		t.Fatalf("valence backed %s, unbacked %s: want affirm, neutral (the lesson does not back it)", backed.Verdict.Valence, unbacked.Verdict.Valence)
	}
	if none.HasCandidate || none.Verdict.Strength != backed.Verdict.Strength {
		t.Fatalf("no candidate: strength %.3f, want the fused score %.3f", none.Verdict.Strength, backed.Verdict.Strength)
	}
}
