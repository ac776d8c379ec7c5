package hesitation

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/innate-mcp/innate-mcp/internal/metric"
)

// ErrNoData is returned by the eval functions when the input holds no
// records, or (for AUROC) when one of the two classes is missing.
var ErrNoData = errors.New("no usable records")

// maxEvalLine bounds one JSONL record of an eval file.
const maxEvalLine = 16 << 20

// HedgingReport is the result of EvalHedging: sentence-level detection of
// uncertainty cues, positive class = label 1.
type HedgingReport struct {
	// N is the number of records; Positives those with label 1.
	N         int `json:"n"`
	Positives int `json:"positives"`
	// TP, FP and FN count true positives, false positives and false
	// negatives of Uncertain against the labels.
	TP int `json:"tp"`
	FP int `json:"fp"`
	FN int `json:"fn"`
	// Precision, Recall and F1 are for label 1; 0 when undefined.
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
}

// EvalHedging reads JSONL lines {"text": string, "label": 0|1} from r,
// predicts each with Uncertain and returns precision, recall and F1 for
// label 1. Blank lines are skipped. It returns an error wrapping the line
// number for malformed lines or labels other than 0 and 1, the reader's
// error, or ErrNoData for empty input. It is safe for concurrent use.
func EvalHedging(r io.Reader) (HedgingReport, error) {
	var rep HedgingReport
	err := eachLine(r, func(n int, line []byte) error {
		var rec struct {
			Text  string `json:"text"`
			Label *int   `json:"label"`
		}
		if err := json.Unmarshal(line, &rec); err != nil {
			return fmt.Errorf("line %d: %w", n, err)
		}
		if rec.Label == nil || (*rec.Label != 0 && *rec.Label != 1) {
			return fmt.Errorf("line %d: label must be 0 or 1", n)
		}
		pred, gold := Uncertain(rec.Text), *rec.Label == 1
		rep.N++
		switch {
		case pred && gold:
			rep.TP++
		case pred:
			rep.FP++
		case gold:
			rep.FN++
		}
		if gold {
			rep.Positives++
		}
		return nil
	})
	if err != nil {
		return rep, fmt.Errorf("eval hedging: %w", err)
	}
	if rep.N == 0 {
		return rep, fmt.Errorf("eval hedging: %w", ErrNoData)
	}
	if rep.TP+rep.FP > 0 {
		rep.Precision = float64(rep.TP) / float64(rep.TP+rep.FP)
	}
	if rep.TP+rep.FN > 0 {
		rep.Recall = float64(rep.TP) / float64(rep.TP+rep.FN)
	}
	if rep.Precision+rep.Recall > 0 {
		rep.F1 = 2 * rep.Precision * rep.Recall / (rep.Precision + rep.Recall)
	}
	return rep, nil
}

// eachLine calls fn for every non-blank line of r with its 1-based number.
func eachLine(r io.Reader, fn func(n int, line []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxEvalLine)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Bytes()
		blank := true
		for _, c := range line {
			if !isSpace(c) {
				blank = false
				break
			}
		}
		if blank {
			continue
		}
		if err := fn(n, line); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read line %d: %w", n+1, err)
	}
	return nil
}

// HesitationReport is the result of EvalHesitation: how well the Check
// score separates hallucinated responses (label 1) from sound ones.
type HesitationReport struct {
	// N is the number of records; Positives those with label 1.
	N         int `json:"n"`
	Positives int `json:"positives"`
	// AUROC is the area under the ROC curve of the score for label 1.
	AUROC float64 `json:"auroc"`
	// MeanScorePositive and MeanScoreNegative are the mean scores of the
	// two classes.
	MeanScorePositive float64 `json:"mean_score_positive"`
	MeanScoreNegative float64 `json:"mean_score_negative"`
	// HedgeRate is the share of records whose reply would be hedged or
	// held (score >= HedgeThreshold); PrecisionAtHedge and RecallAtHedge
	// treat that as predicting label 1.
	HedgeRate        float64 `json:"hedge_rate"`
	PrecisionAtHedge float64 `json:"precision_at_lower"`
	RecallAtHedge    float64 `json:"recall_at_lower"`
	// SignalRates maps each signal type to the share of records it fired on.
	SignalRates map[SignalType]float64 `json:"signal_rates"`
}

// EvalHesitation reads JSONL lines {"prompt", "response", "label"} from r,
// checks every response as a reply with the prompt as the situation's query
// and no patterns, and reports the AUROC of the score against label 1
// (hallucinated) with ties counted one half. It returns an error wrapping
// the line number for malformed lines, the reader's error, a Check error,
// or ErrNoData when there are no records or only one class. It is safe for
// concurrent use.
func EvalHesitation(r io.Reader, cfg Config) (HesitationReport, error) {
	var (
		rep    HesitationReport
		pos    []float64 // scores of label 1
		neg    []float64 // scores of label 0
		counts = map[SignalType]int{}
		sumPos float64
		sumNeg float64
		flagTP int
		flagN  int
	)
	err := eachLine(r, func(n int, line []byte) error {
		var rec struct {
			Prompt   string `json:"prompt"`
			Response string `json:"response"`
			Label    *int   `json:"label"`
		}
		if err := json.Unmarshal(line, &rec); err != nil {
			return fmt.Errorf("line %d: %w", n, err)
		}
		if rec.Label == nil || (*rec.Label != 0 && *rec.Label != 1) {
			return fmt.Errorf("line %d: label must be 0 or 1", n)
		}
		res, err := Check(rec.Response, []Action{ActionReply}, Situation{Query: rec.Prompt}, nil, cfg)
		if err != nil {
			return fmt.Errorf("line %d: %w", n, err)
		}
		isPos := *rec.Label == 1
		for _, s := range res.Signals {
			counts[s.Type]++
		}
		if isPos {
			pos = append(pos, float64(res.Score))
			sumPos += float64(res.Score)
		} else {
			neg = append(neg, float64(res.Score))
			sumNeg += float64(res.Score)
		}
		if res.Score >= cfg.HedgeThreshold {
			flagN++
			if isPos {
				flagTP++
			}
		}
		return nil
	})
	if err != nil {
		return rep, fmt.Errorf("eval hesitation: %w", err)
	}
	rep.N, rep.Positives = len(pos)+len(neg), len(pos)
	if len(pos) == 0 || len(neg) == 0 {
		return rep, fmt.Errorf("eval hesitation: auroc: %d positives, %d negatives: %w", len(pos), len(neg), ErrNoData)
	}
	rep.AUROC = metric.AUROC(pos, neg)
	rep.MeanScorePositive = sumPos / float64(rep.Positives)
	rep.MeanScoreNegative = sumNeg / float64(rep.N-rep.Positives)
	rep.HedgeRate = float64(flagN) / float64(rep.N)
	if flagN > 0 {
		rep.PrecisionAtHedge = float64(flagTP) / float64(flagN)
	}
	rep.RecallAtHedge = float64(flagTP) / float64(rep.Positives)
	rep.SignalRates = map[SignalType]float64{}
	for t, c := range counts {
		rep.SignalRates[t] = float64(c) / float64(rep.N)
	}
	return rep, nil
}
