package eval

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"

	"github.com/innate-mcp/innate-mcp/capture"
	"github.com/innate-mcp/innate-mcp/internal/split"
	"github.com/innate-mcp/innate-mcp/terms"
)

// CaptureTurn is one line of the corrections set: a user's message to a
// coding agent, the end of the agent's turn before it, and whether the
// message corrects the agent or states a standing rule.
type CaptureTurn struct {
	ID            string `json:"id"`
	Repo          string `json:"repo"`
	File          string `json:"file"`
	Turn          int    `json:"turn"`
	Message       string `json:"message"`
	PreviousAgent string `json:"previous_agent"`
	Correction    bool   `json:"correction"`
	Rule          bool   `json:"rule"`
	RuleText      string `json:"rule_text"` // verbatim substring of Message when Rule
	Lang          string `json:"lang"`
	Unsure        bool   `json:"unsure"`
}

// CaptureFigures are capture's figures over a set of turns.
type CaptureFigures struct {
	Turns       int `json:"turns"`
	Corrections int `json:"corrections"`
	Rules       int `json:"rules"`

	CorrectionFlagged   int     `json:"correction_flagged"`
	CorrectionRight     int     `json:"correction_right"`
	CorrectionPrecision float64 `json:"correction_precision"`
	CorrectionRecall    float64 `json:"correction_recall"`

	RuleFlagged   int     `json:"rule_flagged"`
	RuleRight     int     `json:"rule_right"`
	RulePrecision float64 `json:"rule_precision"`
	RuleRecall    float64 `json:"rule_recall"`
	// RuleTextRight counts the rules flagged whose text overlaps the
	// labelled rule text (at least half of its terms); the text figures
	// count only those as right.
	RuleTextRight     int     `json:"rule_text_right"`
	RuleTextPrecision float64 `json:"rule_text_precision"`
	RuleTextRecall    float64 `json:"rule_text_recall"`
}

// CurvePoint is precision and recall at one score threshold.
type CurvePoint struct {
	Threshold float64 `json:"threshold"`
	Flagged   int     `json:"flagged"`
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
}

// CaptureReport is what Capture measures: the figures over every turn
// (at the top level), over the repositories split.Half puts in Tune and in
// Check, over the turns below BaseRateBelow (the part sampled without a
// keyword search, which has real traffic's base rates), per language, and
// the precision/recall curves over the score thresholds.
type CaptureReport struct {
	CaptureFigures
	CorrectionThreshold float64        `json:"correction_threshold"`
	RuleThreshold       float64        `json:"rule_threshold"`
	Tune                CaptureFigures `json:"tune"`
	Check               CaptureFigures `json:"check"`
	// CheckSure and TuneSure leave out the turns labelled unsure
	// (judgement calls), as eval stop does; the halves above count every
	// turn, as the set was first measured.
	TuneSure        CaptureFigures            `json:"tune_sure"`
	CheckSure       CaptureFigures            `json:"check_sure"`
	TuneRepos       []string                  `json:"tune_repos"`
	CheckRepos      []string                  `json:"check_repos"`
	BaseRate        CaptureFigures            `json:"base_rate"`
	Languages       map[string]CaptureFigures `json:"languages"`
	CorrectionCurve []CurvePoint              `json:"correction_curve"`
	RuleCurve       []CurvePoint              `json:"rule_curve"`
}

// BaseRateBelow is the first id of the corrections set's turns that were
// added by a keyword search for rules; the turns before it have real
// traffic's base rates.
const BaseRateBelow = "sp0700"

// ReadCaptureTurns reads a corrections set (JSONL, one CaptureTurn a line).
func ReadCaptureTurns(path string) ([]CaptureTurn, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open corrections: %w", err)
	}
	defer f.Close()
	var out []CaptureTurn
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	line := 0
	for sc.Scan() {
		line++
		if len(sc.Bytes()) == 0 {
			continue
		}
		var t CaptureTurn
		if err := json.Unmarshal(sc.Bytes(), &t); err != nil {
			return nil, fmt.Errorf("%s line %d: %w", path, line, err)
		}
		out = append(out, t)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return out, nil
}

// captureOutcome is capture's reading of one turn.
type captureOutcome struct {
	t   CaptureTurn
	res capture.Result
}

// Capture reads every turn of the corrections set at path with
// capture.Read and returns the figures. It returns an error when the file
// cannot be read or a line does not decode, and ctx's error when ctx ends.
func Capture(ctx context.Context, path string) (CaptureReport, error) {
	turns, err := ReadCaptureTurns(path)
	if err != nil {
		return CaptureReport{}, err
	}
	outs := make([]captureOutcome, len(turns))
	for i, t := range turns {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return CaptureReport{}, err
			}
		}
		outs[i] = captureOutcome{t: t, res: capture.Read(t.Message, t.PreviousAgent)}
	}
	rep := CaptureReport{
		CaptureFigures:      summariseCapture(outs, func(captureOutcome) bool { return true }),
		CorrectionThreshold: capture.CorrectionThreshold,
		RuleThreshold:       capture.RuleThreshold,
		Tune:                summariseCapture(outs, func(o captureOutcome) bool { return split.Half(o.t.Repo) == split.Tune }),
		Check:               summariseCapture(outs, func(o captureOutcome) bool { return split.Half(o.t.Repo) == split.Check }),
		TuneSure:            summariseCapture(outs, func(o captureOutcome) bool { return !o.t.Unsure && split.Half(o.t.Repo) == split.Tune }),
		CheckSure: summariseCapture(outs, func(o captureOutcome) bool {
			return !o.t.Unsure && split.Half(o.t.Repo) == split.Check
		}),
		BaseRate:  summariseCapture(outs, func(o captureOutcome) bool { return o.t.ID < BaseRateBelow }),
		Languages: map[string]CaptureFigures{},
	}
	repos := map[string]bool{}
	for _, o := range outs {
		if repos[o.t.Repo] {
			continue
		}
		repos[o.t.Repo] = true
		if split.Half(o.t.Repo) == split.Tune {
			rep.TuneRepos = append(rep.TuneRepos, o.t.Repo)
		} else {
			rep.CheckRepos = append(rep.CheckRepos, o.t.Repo)
		}
	}
	sort.Strings(rep.TuneRepos)
	sort.Strings(rep.CheckRepos)
	for _, o := range outs {
		lang := o.t.Lang
		if _, ok := rep.Languages[lang]; !ok {
			rep.Languages[lang] = summariseCapture(outs, func(o captureOutcome) bool { return o.t.Lang == lang })
		}
	}
	rep.CorrectionCurve = captureCurve(outs, func(o captureOutcome) (float64, bool) { return o.res.CorrectionScore, o.t.Correction })
	rep.RuleCurve = captureCurve(outs, func(o captureOutcome) (float64, bool) { return o.res.RuleScore, o.t.Rule })
	return rep, nil
}

// summariseCapture computes the figures over the outcomes in.
func summariseCapture(outs []captureOutcome, in func(captureOutcome) bool) CaptureFigures {
	var f CaptureFigures
	for _, o := range outs {
		if !in(o) {
			continue
		}
		f.Turns++
		if o.t.Correction {
			f.Corrections++
		}
		if o.t.Rule {
			f.Rules++
		}
		if o.res.Correction {
			f.CorrectionFlagged++
			if o.t.Correction {
				f.CorrectionRight++
			}
		}
		if o.res.Rule {
			f.RuleFlagged++
			if o.t.Rule {
				f.RuleRight++
				if RuleTextOverlaps(o.res.RuleText, o.t.RuleText) {
					f.RuleTextRight++
				}
			}
		}
	}
	f.CorrectionPrecision, f.CorrectionRecall = captureRatio(f.CorrectionRight, f.CorrectionFlagged), captureRatio(f.CorrectionRight, f.Corrections)
	f.RulePrecision, f.RuleRecall = captureRatio(f.RuleRight, f.RuleFlagged), captureRatio(f.RuleRight, f.Rules)
	f.RuleTextPrecision, f.RuleTextRecall = captureRatio(f.RuleTextRight, f.RuleFlagged), captureRatio(f.RuleTextRight, f.Rules)
	return f
}

// captureCurve returns precision and recall at every threshold from 0.05
// to 0.95 in steps of 0.05.
func captureCurve(outs []captureOutcome, read func(captureOutcome) (score float64, truth bool)) []CurvePoint {
	var out []CurvePoint
	for k := 1; k <= 19; k++ {
		th := float64(k) / 20
		var flagged, right, pos int
		for _, o := range outs {
			score, truth := read(o)
			if truth {
				pos++
			}
			if score >= th {
				flagged++
				if truth {
					right++
				}
			}
		}
		out = append(out, CurvePoint{Threshold: th, Flagged: flagged,
			Precision: captureRatio(right, flagged), Recall: captureRatio(right, pos)})
	}
	return out
}

// RuleTextOverlaps reports whether got, the rule text capture extracted,
// holds at least half of the terms of want, the labelled rule text.
func RuleTextOverlaps(got, want string) bool {
	w := terms.Distinct(want)
	if len(w) == 0 {
		return got != "" && want != ""
	}
	g := terms.Distinct(got)
	n := 0
	for t := range w {
		if _, ok := g[t]; ok {
			n++
		}
	}
	return 2*n >= len(w)
}

// captureRatio is hit/n rounded to four decimals, 0 when n is 0.
func captureRatio(hit, n int) float64 {
	if n == 0 {
		return 0
	}
	x := float64(hit) / float64(n)
	return float64(int64(x*10000+0.5)) / 10000
}
