package appraise

import (
	"cmp"
	"math"
	"slices"

	"github.com/innate-mcp/innate-mcp/confidence"
	"github.com/innate-mcp/innate-mcp/internal/metric"
)

// Appraise judges a situation (and a candidate) from the lessons the
// knowledge base scored for it. It is deterministic, does no I/O and never
// fails: an input without resonating lessons gives a weak_resonance
// abstention. cfg should satisfy cfg.Validate(). The returned Verdict has no
// trace id (the caller assigns one). Appraise is safe for concurrent use.
func Appraise(in Input, cfg Config) Result {
	var r Result
	r.HasCandidate = in.Candidate != ""
	r.Support = 1
	res := resonating(in.Lessons, cfg, &r)
	// The rule that applies to the candidate decides by compliance.
	rl := applicableRule(in, cfg)
	contrib := contributors(res, rl, cfg)

	v := Verdict{Valence: Neutral, Band: Weak, Advisory: Advisory, FlaggedPoints: []FlaggedPoint{}, Contributors: []Contributor{}}
	j := judgeContributors(contrib, rl, in.Candidate, cfg, &r, &v)
	strength := footing(in.Candidate, contrib, res, rl, cfg, &r, &v)
	v.AbstainReason = abstainReason(res, contrib, rl, j, cfg, r)
	v.Abstained = v.AbstainReason != ""
	if v.Abstained {
		return finish(r, v)
	}
	v.Valence = r.Directional
	v.Band = band(strength, cfg)
	v.Confidence = metric.Round4(in.Calibration.Map(strength))

	var flagged []flaggedLesson
	for i, l := range contrib {
		if j.valences[i] == Caution {
			f := flaggedLesson{l: l, against: j.against[i]}
			if rl.decided() && l.ID == rl.lesson.ID {
				f.rule = &rl
			}
			flagged = append(flagged, f)
		}
	}
	v.FlaggedPoints, r.Raises = raise(flagged, in, cfg)
	return finish(r, v)
}

// resonating returns the lessons whose raw resonance reaches their floor,
// best fused score first, and records in r the top resonance, how many
// resonate, their mean confidence and their best signature agreement.
func resonating(lessons []Lesson, cfg Config, r *Result) []Lesson {
	var res []Lesson
	for _, l := range lessons {
		r.TopResonance = max(r.TopResonance, clamp01(l.Resonance))
		if l.Resonance >= resonanceFloor(l, cfg) {
			res = append(res, l)
		}
	}
	slices.SortStableFunc(res, func(a, b Lesson) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Resonance, a.Resonance); c != 0 {
			return c
		}
		return cmpTie(a, b)
	})
	r.Resonating = len(res)
	for _, l := range res {
		r.MeanConfidence += clamp01(l.Confidence) / float64(len(res))
		r.Agreement = max(r.Agreement, agreement(l, cfg))
	}
	return res
}

// contributors returns the lessons the verdict rests on: the best
// Config.Contributors resonating ones, and the applicable rule when it
// decided, first, even when it resonates below the floor (a paraphrased
// situation), because the candidate names its objects.
func contributors(res []Lesson, rl ruling, cfg Config) []Lesson {
	contrib := res[:min(len(res), count(cfg.Contributors))]
	if rl.decided() && !slices.ContainsFunc(contrib, func(l Lesson) bool { return l.ID == rl.lesson.ID }) {
		contrib = append([]Lesson{rl.lesson}, contrib[:min(len(contrib), count(cfg.Contributors)-1)]...)
	}
	return contrib
}

// judgement is what judgeContributors found of each contributor (in
// contributor order) and the best affirming and cautioning strengths.
type judgement struct {
	valences          []Valence
	against           []bool // the candidate goes against the lesson
	sAffirm, sCaution float64
}

// judgeContributors gives every contributor its valence, appends it to
// v.Contributors, and records in r the resonance-weighted evidence and the
// directional valence.
func judgeContributors(contrib []Lesson, rl ruling, candidate string, cfg Config, r *Result, v *Verdict) judgement {
	j := judgement{valences: make([]Valence, len(contrib)), against: make([]bool, len(contrib))}
	cand := candidateClaims(candidate)
	var wsum float64
	for i, l := range contrib {
		switch {
		case rl.decided() && l.ID == rl.lesson.ID:
			j.valences[i] = rl.valence
			j.against[i] = rl.valence == Caution
		case r.HasCandidate && l.Directive != nil && !l.Caution && !l.AntiTriggerHit:
			// Given a candidate, a rule speaks only through compliance (see
			// applicableRule); one that describes never cautions or affirms.
			j.valences[i] = Neutral
		default:
			j.valences[i] = lessonValence(l, cfg)
			if j.against[i] = goesAgainst(l, cand); j.against[i] {
				j.valences[i] = Caution
			}
		}
		s := clamp01(l.Score)
		v.Contributors = append(v.Contributors, Contributor{LessonID: l.ID, Valence: j.valences[i], Strength: metric.Round4(s)})
		switch j.valences[i] {
		case Affirm:
			j.sAffirm = max(j.sAffirm, s)
		case Caution:
			j.sCaution = max(j.sCaution, s)
		}
		w := max(l.Resonance, 1e-9)
		r.Evidence += w * lessonEvidence(l, cfg)
		wsum += w
	}
	if wsum > 0 {
		r.Evidence /= wsum
	}
	r.Directional = directional(j.sAffirm, j.sCaution, cfg.MixedRatio)
	return j
}

// footing returns the verdict's strength: the best contributor's fused
// score, times the candidate's support when there is a candidate, or the
// applicable rule's score when it decided. It sets v.Strength and
// v.Dispersion, and in r the support and, with a candidate, the
// directional valence the support or the rule leaves.
func footing(candidate string, contrib, res []Lesson, rl ruling, cfg Config, r *Result, v *Verdict) float64 {
	strength := 0.0
	if len(contrib) > 0 {
		strength = clamp01(contrib[0].Score)
		hi, lo := strength, strength
		for _, l := range contrib[1:] {
			s := clamp01(l.Score)
			hi, lo = max(hi, s), min(lo, s)
		}
		v.Dispersion = metric.Round4(hi - lo)
	}
	if r.HasCandidate {
		r.Support = candidateSupport(candidate, res, cfg)
		strength *= r.Support
		if rl.decided() {
			// Compliance with the applicable rule is the footing, whatever
			// share of the candidate's words the lessons hold.
			r.Directional = rl.valence
			strength = clamp01(rl.lesson.Score)
		} else if r.Support < cfg.SupportAffirm {
			// The lessons speak to the situation but do not back the
			// candidate: no footing to affirm it.
			switch r.Directional {
			case Affirm:
				r.Directional = Neutral
			case Mixed:
				r.Directional = Caution
			}
		}
	}
	v.Strength = metric.Round4(strength)
	return strength
}

// abstainReason returns the first abstention gate that fires, in the order
// the package documents, or "" when the verdict stands.
func abstainReason(res, contrib []Lesson, rl ruling, j judgement, cfg Config, r Result) AbstainReason {
	switch {
	case rl.decided():
		// The candidate does or breaks what a rule of the knowledge base
		// asks: that is footing, not a weak or false resonance.
	case len(res) == 0:
		return WeakResonance
	case r.Agreement < cfg.SignatureFloor:
		return FalseResonance
	case r.Evidence < cfg.EvidenceFloor:
		return SparseEvidence
	case conflicted(contrib, j.sAffirm, j.sCaution, cfg):
		return Conflicted
	case rl.readOnly && onlyNeutralRules(contrib, j.valences):
		// A plan that only reads, against the project's rules alone, none
		// of which can rule on it: nothing to judge.
		return SparseEvidence
	}
	return ""
}

// onlyNeutralRules reports whether every contributor is one of the
// situation's own lessons and none has a valence.
func onlyNeutralRules(contrib []Lesson, valences []Valence) bool {
	if len(contrib) == 0 {
		return false
	}
	for i, l := range contrib {
		if valences[i] != Neutral || !l.Own {
			return false
		}
	}
	return true
}

// band returns the band of a verdict's strength.
func band(strength float64, cfg Config) Band {
	switch {
	case strength >= cfg.BandStrong:
		return Strong
	case strength >= cfg.BandMedium:
		return Medium
	}
	return Weak
}

// resonanceFloor is the raw resonance a lesson needs to resonate: the
// user's own rules (Lesson.Own, user-stated) need only
// Config.UserRuleFloor, as recall lets them through on a moderate match.
func resonanceFloor(l Lesson, cfg Config) float64 {
	if l.Own && l.Origin == confidence.OriginUserStated {
		return min(cfg.ResonanceFloor, cfg.UserRuleFloor)
	}
	return cfg.ResonanceFloor
}

func finish(r Result, v Verdict) Result {
	r.Verdict = v
	return r
}

// agreement is a lesson's signature agreement with the situation: 1 when
// its trigger matches, otherwise its lexical relevance (the IDF-weighted
// share of the situation's terms it holds).
func agreement(l Lesson, cfg Config) float64 {
	if triggerMatch(l, cfg) {
		return 1
	}
	return clamp01(l.Lexical)
}

// triggerMatch reports whether a lesson's trigger matches the situation: its
// centred cosine reaches Config.TriggerMatch. The cosine, not the relevance
// above the neighbourhood that recall ranks by, says whether the situation
// is the one the trigger describes: in a crowded topic every trigger stands
// close to its neighbours.
func triggerMatch(l Lesson, cfg Config) bool {
	return l.HasTrigger && l.TriggerCos >= cfg.TriggerMatch
}

// lessonValence is what one resonating lesson says of the situation:
// caution for a lesson learned from a failure or a correction, an
// anti-trigger hit or a negative outcome balance in similar situations;
// affirm for a trigger match (any match, for a lesson without a trigger)
// backed by positive evidence; neutral otherwise. (A lesson the candidate
// goes against is a caution too; Appraise checks that.)
func lessonValence(l Lesson, cfg Config) Valence {
	if l.Caution || l.AntiTriggerHit || l.Context < 0 {
		return Caution
	}
	match := !l.HasTrigger || triggerMatch(l, cfg)
	balance := (l.Successes - l.Failures) + 2*(l.Approvals-l.Rejects)
	vouched := l.Origin == confidence.OriginUserStated || l.Origin == confidence.OriginImported
	positive := balance > 0 || balance == 0 && vouched || l.Context > 0
	if match && positive {
		return Affirm
	}
	return Neutral
}

// lessonEvidence is how much a lesson has been vouched for, in [0, 1]: its
// origin, observed outcomes and people's judgements, each an independent
// piece of evidence (combined as 1 − Π(1 − e)).
func lessonEvidence(l Lesson, cfg Config) float64 {
	miss := 1.0
	switch l.Origin {
	case confidence.OriginUserStated:
		miss *= 1 - cfg.EvidenceUserStated
	case confidence.OriginImported:
		miss *= 1 - cfg.EvidenceImported
	}
	miss *= math.Pow(1-cfg.EvidenceOutcome, float64(max(0, l.Successes+l.Failures)))
	miss *= math.Pow(1-cfg.EvidenceJudgement, float64(max(0, l.Approvals+l.Rejects)))
	return clamp01(1 - miss)
}

// directional combines the strongest affirm and caution: mixed when the
// weaker side reaches ratio of the stronger.
func directional(sAffirm, sCaution, ratio float64) Valence {
	switch {
	case sAffirm > 0 && sCaution > 0:
		if min(sAffirm, sCaution) >= ratio*max(sAffirm, sCaution) {
			return Mixed
		}
		if sAffirm > sCaution {
			return Affirm
		}
		return Caution
	case sAffirm > 0:
		return Affirm
	case sCaution > 0:
		return Caution
	}
	return Neutral
}

// conflicted reports whether the contributors disagree: a strong affirm
// against a strong caution of about the same strength, or two lessons with
// clear and opposed outcome histories. Different relevance alone is not a
// conflict.
func conflicted(contrib []Lesson, sAffirm, sCaution float64, cfg Config) bool {
	if sAffirm >= cfg.ConflictFloor && sCaution >= cfg.ConflictFloor && math.Abs(sAffirm-sCaution) <= cfg.ConflictMargin {
		return true
	}
	pos, neg := false, false
	for _, l := range contrib {
		n := l.Successes + l.Failures
		if n < 2 {
			continue
		}
		b := float64(l.Successes-l.Failures) / float64(n+2)
		pos = pos || b >= cfg.ConflictSplit
		neg = neg || b <= -cfg.ConflictSplit
	}
	return pos && neg
}

// candidateSupport is the candidate's support by the resonating lessons of
// highest resonance, each weighted by its resonance relative to the best.
func candidateSupport(candidate string, res []Lesson, cfg Config) float64 {
	backing := slices.Clone(res)
	slices.SortStableFunc(backing, func(a, b Lesson) int { return cmp.Compare(b.Resonance, a.Resonance) })
	backing = backing[:min(len(backing), count(cfg.SupportLessons))]
	texts := make([]string, len(backing))
	weights := make([]float64, len(backing))
	for i, l := range backing {
		texts[i] = l.Content + "\n" + l.Trigger
		weights[i] = l.Resonance / max(backing[0].Resonance, 1e-9)
	}
	return Support(CandidateTerms(candidate), texts, weights, cfg.SupportMissDecay, cfg.SupportMissCap, cfg.SupportNeutral)
}
