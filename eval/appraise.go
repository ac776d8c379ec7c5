package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/innate-mcp/innate-mcp/internal/metric"
	"github.com/innate-mcp/innate-mcp/internal/split"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/terms"
)

// QARecord is one line of an appraise evaluation file (HaluEval QA shape).
type QARecord struct {
	ID                 string `json:"id"`
	Knowledge          string `json:"knowledge"`
	Question           string `json:"question"`
	RightAnswer        string `json:"right_answer"`
	HallucinatedAnswer string `json:"hallucinated_answer"`
}

// qaOutcome is what the evaluation keeps of one record's appraisals.
type qaOutcome struct {
	rec                          QARecord
	right, hallu                 kb.AppraiseResult // own knowledge present, with each candidate
	unkRight, unkHallu, unkQuery kb.AppraiseResult // own knowledge archived
	overlapRight, overlapHallu   float64           // baseline: answer terms found in the record's knowledge
}

// AppraiseFigures are the appraise figures over one part of the data.
type AppraiseFigures struct {
	N int `json:"n"`
	// AUROCSupport is the AUROC of the verdict's strength (its footing) for
	// the right over the hallucinated candidate, own knowledge present.
	AUROCSupport    float64 `json:"auroc_support"`
	Footing         string  `json:"footing"`
	AUROCConfidence float64 `json:"auroc_confidence"`
	AUROCOverlap    float64 `json:"auroc_overlap_baseline"`
	// Abstention rates with the record's own knowledge in the KB (known)
	// and archived (unknown), over both candidates; the question-only rate
	// appraises the question without a candidate.
	AbstainKnown           float64        `json:"abstain_rate_known"`
	AbstainKnownRight      float64        `json:"abstain_rate_known_right"`
	AbstainKnownHallu      float64        `json:"abstain_rate_known_hallucinated"`
	AbstainUnknown         float64        `json:"abstain_rate_unknown"`
	AbstainUnknownQuestion float64        `json:"abstain_rate_unknown_question_only"`
	ReasonsKnown           map[string]int `json:"abstain_reasons_known"`
	ReasonsUnknown         map[string]int `json:"abstain_reasons_unknown"`
	ValenceKnown           map[string]int `json:"valence_known"`
	AffirmRight            float64        `json:"affirm_rate_right"`
	AffirmHallu            float64        `json:"affirm_rate_hallucinated"`
	MeanStrengthRight      float64        `json:"mean_strength_right"`
	MeanStrengthHallu      float64        `json:"mean_strength_hallucinated"`
}

// AppraiseReport is the outcome of Appraise: the figures over the whole
// file and over its two halves.
type AppraiseReport struct {
	AppraiseFigures
	Tune       AppraiseFigures `json:"tune"`
	Check      AppraiseFigures `json:"check"`
	Split      string          `json:"split"`
	Corpus     int             `json:"corpus"`
	Embedder   string          `json:"embedder"`
	ImportSecs float64         `json:"import_seconds"`
	EvalSecs   float64         `json:"eval_seconds"`
}

// AppraiseStore is what Appraise needs of the store under k: a write
// transaction to archive and restore a record's knowledge, and the verdict
// log's footing for the dump.
type AppraiseStore interface {
	// Update runs fn in one write transaction.
	Update(ctx context.Context, fn func(kb.Tx) error) error
	// VerdictFooting returns the verdict log's footing of an appraise trace.
	VerdictFooting(ctx context.Context, traceID string) (kb.VerdictFooting, error)
}

// AppraiseOptions configures Appraise.
type AppraiseOptions struct {
	// Dump, when not nil, receives every record's verdicts with the verdict
	// log's columns, one JSON line per record.
	Dump io.Writer
}

// Appraise imports each record's knowledge into k, whose store is s, and
// appraises the record's question with the right and the hallucinated
// answer, with the knowledge present and then archived. The report's
// Embedder is left for the caller to fill in.
func Appraise(ctx context.Context, k *kb.KB, s AppraiseStore, recs []QARecord, opts AppraiseOptions) (AppraiseReport, error) {
	start := time.Now()
	lessons := make([]kb.NewLesson, len(recs))
	for i, r := range recs {
		lessons[i] = kb.NewLesson{Content: r.Knowledge, Origin: kb.OriginImported, Source: "eval:" + r.ID}
	}
	rep, err := k.Add(ctx, lessons, nil)
	if err != nil {
		return AppraiseReport{}, err
	}
	out := AppraiseReport{Corpus: rep.Added, ImportSecs: Seconds(start),
		Split: "tune = records whose FNV-1a hash of id is even, check = odd"}
	start = time.Now()
	var dump *json.Encoder
	if opts.Dump != nil {
		dump = json.NewEncoder(opts.Dump)
	}
	var all []qaOutcome
	for i, r := range recs {
		lessonID := rep.Items[i].ID
		if lessonID == "" {
			continue // rejected knowledge text
		}
		o, err := appraiseRecord(ctx, k, s, r, lessonID)
		if err != nil {
			return out, fmt.Errorf("record %s: %w", r.ID, err)
		}
		all = append(all, o)
		if dump != nil {
			if err := dumpRecord(ctx, dump, s, o); err != nil {
				return out, err
			}
		}
	}
	out.EvalSecs = Seconds(start)
	var tune, check []qaOutcome
	for _, o := range all {
		if split.Half(o.rec.ID) == split.Tune {
			tune = append(tune, o)
		} else {
			check = append(check, o)
		}
	}
	out.AppraiseFigures, out.Tune, out.Check = summarise(all), summarise(tune), summarise(check)
	return out, nil
}

// appraiseRecord appraises one record's question with each candidate, with
// its knowledge in the KB and then archived.
func appraiseRecord(ctx context.Context, k *kb.KB, s AppraiseStore, r QARecord, lessonID string) (qaOutcome, error) {
	o := qaOutcome{rec: r}
	ask := func(candidate string) (kb.AppraiseResult, error) {
		return k.Appraise(ctx, kb.AppraiseRequest{Query: r.Question, Candidate: candidate, Session: "eval-" + r.ID})
	}
	var err error
	if o.right, err = ask(r.RightAnswer); err != nil {
		return o, err
	}
	if o.hallu, err = ask(r.HallucinatedAnswer); err != nil {
		return o, err
	}
	if err := setState(ctx, s, lessonID, kb.StateArchived); err != nil {
		return o, err
	}
	defer setState(context.WithoutCancel(ctx), s, lessonID, kb.StateActive)
	if o.unkRight, err = ask(r.RightAnswer); err != nil {
		return o, err
	}
	if o.unkHallu, err = ask(r.HallucinatedAnswer); err != nil {
		return o, err
	}
	if o.unkQuery, err = ask(""); err != nil {
		return o, err
	}
	if err := setState(ctx, s, lessonID, kb.StateActive); err != nil {
		return o, err
	}
	know := terms.Distinct(r.Knowledge)
	o.overlapRight, o.overlapHallu = overlapShare(r.RightAnswer, know), overlapShare(r.HallucinatedAnswer, know)
	return o, nil
}

// setState moves a lesson to another lifecycle state (archiving hides it
// from every channel).
func setState(ctx context.Context, s AppraiseStore, id string, st kb.State) error {
	return s.Update(ctx, func(tx kb.Tx) error {
		l, err := tx.Lesson(ctx, id)
		if err != nil {
			return err
		}
		l.State = st
		return tx.UpdateLesson(ctx, l)
	})
}

// overlapShare is the baseline: the share of the answer's distinct terms
// that occur in the knowledge text.
func overlapShare(answer string, know map[string]struct{}) float64 {
	a := terms.Distinct(answer)
	if len(a) == 0 {
		return 0
	}
	n := 0
	for t := range a {
		if _, ok := know[t]; ok {
			n++
		}
	}
	return float64(n) / float64(len(a))
}

// summarise computes the report of a set of records.
func summarise(os []qaOutcome) AppraiseFigures {
	r := AppraiseFigures{N: len(os), Footing: "strength", ReasonsKnown: map[string]int{}, ReasonsUnknown: map[string]int{},
		ValenceKnown: map[string]int{}}
	if len(os) == 0 {
		return r
	}
	var sr, sh, cr, ch, or, oh []float64
	var kr, kh, u, uq, ar, ah int
	for _, o := range os {
		sr, sh = append(sr, o.right.Strength), append(sh, o.hallu.Strength)
		cr, ch = append(cr, o.right.Confidence), append(ch, o.hallu.Confidence)
		or, oh = append(or, o.overlapRight), append(oh, o.overlapHallu)
		for _, v := range []kb.AppraiseResult{o.right, o.hallu} {
			r.ValenceKnown[string(v.Valence)]++
			if v.Abstained {
				r.ReasonsKnown[string(v.AbstainReason)]++
			}
		}
		ar += b2i(o.right.Valence == "affirm")
		ah += b2i(o.hallu.Valence == "affirm")
		kr += b2i(o.right.Abstained)
		kh += b2i(o.hallu.Abstained)
		for _, v := range []kb.AppraiseResult{o.unkRight, o.unkHallu} {
			if v.Abstained {
				u++
				r.ReasonsUnknown[string(v.AbstainReason)]++
			}
		}
		uq += b2i(o.unkQuery.Abstained)
	}
	n := float64(len(os))
	r.AUROCSupport, r.AUROCConfidence, r.AUROCOverlap = metric.Round4(metric.AUROC(sr, sh)), metric.Round4(metric.AUROC(cr, ch)), metric.Round4(metric.AUROC(or, oh))
	r.AbstainKnown = metric.Round4(float64(kr+kh) / (2 * n))
	r.AbstainKnownRight, r.AbstainKnownHallu = metric.Round4(float64(kr)/n), metric.Round4(float64(kh)/n)
	r.AbstainUnknown = metric.Round4(float64(u) / (2 * n))
	r.AbstainUnknownQuestion = metric.Round4(float64(uq) / n)
	r.AffirmRight, r.AffirmHallu = metric.Round4(float64(ar)/n), metric.Round4(float64(ah)/n)
	r.MeanStrengthRight, r.MeanStrengthHallu = metric.Round4(mean(sr)), metric.Round4(mean(sh))
	return r
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// dumpRecord writes one record's verdicts with the verdict log's columns.
func dumpRecord(ctx context.Context, enc *json.Encoder, s AppraiseStore, o qaOutcome) error {
	row := func(v kb.AppraiseResult) (map[string]any, error) {
		f, err := s.VerdictFooting(ctx, v.TraceID)
		if err != nil {
			return nil, err
		}
		return map[string]any{"strength": v.Strength, "confidence": v.Confidence, "valence": v.Valence,
			"abstain_reason": v.AbstainReason, "support": f.Support, "evidence": f.Evidence, "agreement": f.Agreement,
			"top_resonance": f.TopResonance, "resonating": f.Resonating, "contributors": v.Contributors}, nil
	}
	out := map[string]any{"id": o.rec.ID, "overlap_right": o.overlapRight, "overlap_hallucinated": o.overlapHallu}
	for name, v := range map[string]kb.AppraiseResult{"right": o.right, "hallucinated": o.hallu,
		"unknown_right": o.unkRight, "unknown_hallucinated": o.unkHallu, "unknown_question": o.unkQuery} {
		r, err := row(v)
		if err != nil {
			return err
		}
		out[name] = r
	}
	return enc.Encode(out)
}
