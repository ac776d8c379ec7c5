package hesitation

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestEvalHedging_Small(t *testing.T) {
	in := `{"text": "It is probably true.", "label": 1}
{"text": "Some critics disagree.", "label": 1}

{"text": "The bridge opened in 1932.", "label": 0}
{"text": "It opened in May 1932.", "label": 1}
{"text": "It is clearly the best.", "label": 0}
`
	rep, err := EvalHedging(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	// Predicted uncertain: "probably" and "Some critics" (strong cues).
	// Not: "May 1932" (the month), "clearly the best" ("best" is a weak
	// cue, "clearly" an absolute claim, not uncertainty).
	if rep.N != 5 || rep.Positives != 3 || rep.TP != 2 || rep.FP != 0 || rep.FN != 1 {
		t.Fatalf("report %+v, want n=5 positives=3 tp=2 fp=0 fn=1", rep)
	}
	if rep.Precision != 1 || math.Abs(rep.Recall-2.0/3) > 1e-12 || math.Abs(rep.F1-0.8) > 1e-12 {
		t.Errorf("P=%v R=%v F1=%v, want 1, 2/3, 0.8", rep.Precision, rep.Recall, rep.F1)
	}
}

func TestEvalHedging_Errors(t *testing.T) {
	for name, in := range map[string]string{
		"bad json":  "{\"text\": \"x\", \"label\": 1}\n{oops}\n",
		"bad label": "{\"text\": \"x\", \"label\": 2}\n",
		"no label":  "{\"text\": \"x\"}\n",
	} {
		if _, err := EvalHedging(strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), "line") {
			t.Errorf("%s: err=%v, want an error naming the line", name, err)
		}
	}
	if _, err := EvalHedging(strings.NewReader("\n\n")); !errors.Is(err, ErrNoData) {
		t.Errorf("empty: err=%v, want ErrNoData", err)
	}
}

func TestEvalHesitation_Small(t *testing.T) {
	in := `{"prompt": "Summarize https://example.com/a", "response": "As an AI language model, I cannot browse. The article says 42% of users left in 2021.", "label": 1}
{"prompt": "Write a poem about rain", "response": "Rain taps the glass, soft and slow.", "label": 0}
{"prompt": "What is 2+2?", "response": "It is 4.", "label": 0}
{"prompt": "Who founded Acme?", "response": "Acme was founded in 1887 by John Smith in Ohio with 12,000 dollars.", "label": 1}
`
	rep, err := EvalHesitation(strings.NewReader(in), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if rep.N != 4 || rep.Positives != 2 || rep.AUROC != 1 {
		t.Errorf("report %+v, want n=4, 2 positives, AUROC 1", rep)
	}
	if rep.MeanScorePositive <= rep.MeanScoreNegative || rep.SignalRates[SignalCapabilityGap] != 0.25 {
		t.Errorf("report %+v", rep)
	}
	if _, err := EvalHesitation(strings.NewReader(`{"prompt": "a", "response": "b", "label": 1}`), DefaultConfig()); !errors.Is(err, ErrNoData) {
		t.Errorf("one class: err=%v, want ErrNoData", err)
	}
	bad := DefaultConfig()
	bad.HedgeThreshold = -5
	if _, err := EvalHesitation(strings.NewReader(in), bad); !errors.Is(err, ErrInvalidConfig) {
		t.Errorf("bad config: err=%v, want ErrInvalidConfig", err)
	}
}
