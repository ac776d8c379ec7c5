package appraise

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// Config holds every tunable number of the critic: the four gates' floors,
// valence and band thresholds, the candidate-support shape, the evidence
// weights, the hand-raise thresholds and the calibration bin sizes. Each
// field has a parameter name ("appraise.…", see ParamSpecs) under which the
// meta table stores it and the regulator tunes it. A Config is plain data:
// copy it freely; concurrent reads are safe.
type Config struct {
	// Gates.
	ResonanceFloor float64 // weak_resonance: raw resonance a lesson needs to count as resonating
	UserRuleFloor  float64 // weak_resonance: the same for the user's own rules (user-stated, the situation's own)
	SignatureFloor float64 // false_resonance: lexical relevance that counts as shared distinctive terms
	EvidenceFloor  float64 // sparse_evidence: resonance-weighted evidence the resonating lessons need
	ConflictFloor  float64 // conflicted: strength both an affirm and a caution need to conflict
	ConflictMargin float64 // conflicted: largest strength gap at which they still conflict
	ConflictSplit  float64 // conflicted: outcome balance (±) that counts as a clear history

	// Valence and bands.
	TriggerMatch float64 // centred cosine of situation and trigger that counts as a trigger match
	MixedRatio   float64 // weaker side / stronger side at which a verdict is mixed
	BandMedium   float64 // strength from which the band is medium
	BandStrong   float64 // strength from which the band is strong
	Contributors float64 // most contributors a verdict lists (a count)

	// Rules (lessons with a directive).
	RuleFloor      float64 // raw resonance a directing lesson needs to be read against the candidate
	BreachFloor    float64 // lower raw resonance at which a rule still decides when the candidate breaks it outright
	RuleApplies    float64 // raw resonance from which the best rule decides by absence (lacks, avoids)
	RuleCandidates float64 // most directing lessons read against the candidate (a count)
	RuleStandout   float64 // how many times the next rule's resonance the best rule needs to decide by absence

	// Candidate support.
	SupportLessons   float64 // resonating lessons whose text can back the candidate (a count)
	SupportMissDecay float64 // factor per candidate term no backing lesson holds
	SupportMissCap   float64 // the missing-term count saturates at this many
	SupportNeutral   float64 // support of a candidate with no content terms
	SupportAffirm    float64 // support below which the knowledge does not affirm the candidate

	// Evidence of one lesson, combined as 1 − Π(1 − e).
	EvidenceUserStated float64 // a user-stated lesson
	EvidenceImported   float64 // an imported lesson (rule file, JSONL)
	EvidenceOutcome    float64 // each observed outcome (success or failure)
	EvidenceJudgement  float64 // each person's judgement (approval or rejection)

	// Hand-raise (seed 004).
	RaiseFocus      float64 // will a point needs in focus mode
	RaiseBrainstorm float64 // will a point needs in brainstorm mode
	RaiseQuietAnti  float64 // will an anti-trigger point needs in quiet mode
	RaiseCooldown   float64 // calls over which novelty recovers after a raise
	RaiseOverShare  float64 // share of recent calls above which a lesson is over-raising
	RaiseMinCalls   float64 // recent calls needed before over-raising is judged
	RaiseMax        float64 // most points raised in one verdict

	// Calibration.
	CalibrationMinBin    float64 // outcomes each isotonic bin needs
	CalibrationMinPoints float64 // outcomes needed before confidence departs from identity
}

// ParamPrefix starts every appraise parameter name.
const ParamPrefix = "appraise."

// Will weights of seed 004: will = WillRelevance·relevance +
// WillNovelty·novelty + WillConfidence·confidence.
const (
	WillRelevance  = 0.5
	WillNovelty    = 0.3
	WillConfidence = 0.2
)

// HistoryWindow is how many of a session's most recent appraisals the caller
// should pass in History (novelty cooldown and over-raising look no further).
const HistoryWindow = 12

// ParamSpec describes one appraise parameter: its name, default, hard bounds
// and regulation scale (the regulator moves a parameter by at most its daily
// step × Scale). A plain value, safe to copy and to read concurrently.
type ParamSpec struct {
	Name              string
	Default, Min, Max float64
	Scale             float64
	Doc               string
	field             func(*Config) *float64
}

// Errors about parameters, returned wrapped; compare with errors.Is.
var (
	ErrUnknownParam = errors.New("unknown appraise parameter")
	ErrOutOfBounds  = errors.New("appraise parameter out of bounds")
)

// paramTable is the single source of names, defaults and bounds. Read-only
// literal data. The defaults of the gate floors and of the support shape
// were chosen on the tuning half of the HaluEval QA dev set (see
// cmd/innate-mcp eval appraise); the rest are documented choices.
var paramTable = []ParamSpec{
	{"appraise.floor.resonance", 0.34, 0.15, 0.6, 1, "weak_resonance gate: raw resonance a lesson needs to count", func(c *Config) *float64 { return &c.ResonanceFloor }},
	{"appraise.floor.user_rule", 0.2, 0.05, 0.6, 1, "weak_resonance gate: raw resonance the user's own rules (user-stated, the situation's project or global) need to count", func(c *Config) *float64 { return &c.UserRuleFloor }},
	{"appraise.floor.signature", 0.15, 0.02, 0.5, 1, "false_resonance gate: lexical relevance that counts as shared distinctive terms", func(c *Config) *float64 { return &c.SignatureFloor }},
	{"appraise.floor.evidence", 0.30, 0.05, 0.8, 1, "sparse_evidence gate: resonance-weighted evidence the resonating lessons need", func(c *Config) *float64 { return &c.EvidenceFloor }},
	{"appraise.floor.conflict", 0.40, 0.2, 0.9, 1, "conflicted gate: strength an affirm and a caution both need to conflict", func(c *Config) *float64 { return &c.ConflictFloor }},
	{"appraise.conflict.margin", 0.15, 0.02, 0.4, 1, "conflicted gate: largest affirm/caution strength gap that still conflicts", func(c *Config) *float64 { return &c.ConflictMargin }},
	{"appraise.conflict.split", 0.30, 0.1, 0.8, 1, "conflicted gate: outcome balance (±) that counts as a clear history", func(c *Config) *float64 { return &c.ConflictSplit }},

	{"appraise.valence.trigger_match", 0.30, 0.1, 0.9, 1, "centred cosine of situation and trigger that counts as a trigger match", func(c *Config) *float64 { return &c.TriggerMatch }},
	{"appraise.valence.mixed_ratio", 0.5, 0.2, 1, 1, "weaker/stronger side ratio at which a verdict is mixed", func(c *Config) *float64 { return &c.MixedRatio }},
	{"appraise.tier.medium", 0.30, 0.1, 0.6, 1, "strength from which the band is medium", func(c *Config) *float64 { return &c.BandMedium }},
	{"appraise.tier.strong", 0.55, 0.3, 0.9, 1, "strength from which the band is strong", func(c *Config) *float64 { return &c.BandStrong }},
	{"appraise.contributors", 5, 1, 20, 10, "most contributors a verdict lists", func(c *Config) *float64 { return &c.Contributors }},

	{"appraise.rule.floor", 0.05, 0.02, 0.5, 1, "raw resonance a directing lesson (a rule) needs to be read against the candidate", func(c *Config) *float64 { return &c.RuleFloor }},
	{"appraise.rule.breach_floor", 0.02, 0.01, 0.5, 1, "raw resonance from which a rule the candidate breaks outright (names what it rules out) decides, below appraise.rule.floor", func(c *Config) *float64 { return &c.BreachFloor }},
	{"appraise.rule.applies", 0.05, 0.05, 0.6, 1, "raw resonance from which the best rule decides by what the candidate does not do", func(c *Config) *float64 { return &c.RuleApplies }},
	{"appraise.rule.standout", 1, 1, 3, 1, "how many times the next rule's resonance the best rule needs to decide by what the candidate does not do", func(c *Config) *float64 { return &c.RuleStandout }},
	{"appraise.rule.candidates", 5, 1, 10, 10, "most rules read against the candidate, best score first", func(c *Config) *float64 { return &c.RuleCandidates }},

	{"appraise.support.lessons", 3, 1, 10, 10, "resonating lessons whose text can back the candidate", func(c *Config) *float64 { return &c.SupportLessons }},
	{"appraise.support.miss_decay", 0.3, 0.2, 1, 1, "support factor per candidate term no backing lesson holds", func(c *Config) *float64 { return &c.SupportMissDecay }},
	{"appraise.support.miss_cap", 2, 1, 20, 10, "missing candidate terms saturate at this many (long candidates are judged by their backed share)", func(c *Config) *float64 { return &c.SupportMissCap }},
	{"appraise.support.affirm", 0.2, 0, 1, 1, "candidate support below which an affirming verdict turns neutral (mixed turns caution): the knowledge speaks to the situation but does not back the candidate", func(c *Config) *float64 { return &c.SupportAffirm }},
	{"appraise.support.neutral", 0.5, 0, 1, 1, "support of a candidate with no content terms", func(c *Config) *float64 { return &c.SupportNeutral }},

	{"appraise.evidence.user_stated", 1.0, 0, 1, 1, "evidence of a user-stated lesson", func(c *Config) *float64 { return &c.EvidenceUserStated }},
	{"appraise.evidence.imported", 0.8, 0, 1, 1, "evidence of an imported lesson", func(c *Config) *float64 { return &c.EvidenceImported }},
	{"appraise.evidence.outcome", 0.5, 0, 1, 1, "evidence of each observed outcome", func(c *Config) *float64 { return &c.EvidenceOutcome }},
	{"appraise.evidence.judgement", 0.7, 0, 1, 1, "evidence of each approval or rejection", func(c *Config) *float64 { return &c.EvidenceJudgement }},

	{"appraise.raise.focus", 0.6, 0.3, 0.9, 1, "will a point needs in focus mode (seed 004: 0.6)", func(c *Config) *float64 { return &c.RaiseFocus }},
	{"appraise.raise.brainstorm", 0.3, 0.1, 0.6, 1, "will a point needs in brainstorm mode (seed 004: 0.3)", func(c *Config) *float64 { return &c.RaiseBrainstorm }},
	{"appraise.raise.quiet_anti", 0.3, 0.1, 0.9, 1, "will an anti-trigger point needs in quiet mode", func(c *Config) *float64 { return &c.RaiseQuietAnti }},
	{"appraise.raise.cooldown", 4, 1, 10, 10, "calls over which a raised point's novelty recovers", func(c *Config) *float64 { return &c.RaiseCooldown }},
	{"appraise.raise.over_share", 0.5, 0.2, 0.9, 1, "share of recent calls above which a lesson is over-raising and damped", func(c *Config) *float64 { return &c.RaiseOverShare }},
	{"appraise.raise.min_calls", 4, 2, 12, 10, "recent calls needed before over-raising is judged", func(c *Config) *float64 { return &c.RaiseMinCalls }},
	{"appraise.raise.max", 3, 1, 10, 10, "most points raised in one verdict", func(c *Config) *float64 { return &c.RaiseMax }},

	{"appraise.calibration.min_bin", 20, 5, 200, 10, "recorded outcomes each isotonic bin needs", func(c *Config) *float64 { return &c.CalibrationMinBin }},
	{"appraise.calibration.min_points", 60, 10, 1000, 10, "recorded outcomes before confidence departs from identity", func(c *Config) *float64 { return &c.CalibrationMinPoints }},
}

// DefaultConfig returns the documented defaults (see ParamSpecs). It is safe
// for concurrent use.
func DefaultConfig() Config {
	var c Config
	for _, s := range paramTable {
		*s.field(&c) = s.Default
	}
	return c
}

// ParamSpecs returns the name, default, hard bounds, regulation scale and
// meaning of every appraise parameter, in a fixed order. The slice is fresh;
// it is safe for concurrent use.
func ParamSpecs() []ParamSpec {
	out := make([]ParamSpec, len(paramTable))
	copy(out, paramTable)
	for i := range out {
		out[i].field = nil
	}
	return out
}

// Params returns c as parameter name → value, for the meta table and the
// regulator. The map is fresh. It is safe for concurrent use.
func (c Config) Params() map[string]float64 {
	out := make(map[string]float64, len(paramTable))
	for _, s := range paramTable {
		out[s.Name] = *s.field(&c)
	}
	return out
}

// WithParams returns c with every appraise parameter in p applied; names
// without ParamPrefix belong to other components and are skipped. It returns
// an error wrapping ErrUnknownParam for an "appraise." name it does not have
// and ErrOutOfBounds for a value outside the hard bounds; c is returned
// unchanged on error. Call Validate on the result for the cross-parameter
// order. It is safe for concurrent use.
func (c Config) WithParams(p map[string]float64) (Config, error) {
	out := c
	for name, v := range p {
		if !strings.HasPrefix(name, ParamPrefix) {
			continue
		}
		s, ok := specByName(name)
		if !ok {
			return c, fmt.Errorf("apply %s: %w", name, ErrUnknownParam)
		}
		if err := s.check(v); err != nil {
			return c, err
		}
		*s.field(&out) = v
	}
	return out, nil
}

// Validate checks every parameter against its hard bounds and the order of
// related ones (BandMedium ≤ BandStrong, RaiseBrainstorm ≤ RaiseFocus). It
// returns an error wrapping ErrOutOfBounds, or nil. It is safe for concurrent
// use.
func (c Config) Validate() error {
	for _, s := range paramTable {
		if err := s.check(*s.field(&c)); err != nil {
			return err
		}
	}
	switch {
	case c.BandMedium > c.BandStrong:
		return fmt.Errorf("appraise.tier.medium %v above appraise.tier.strong %v: %w", c.BandMedium, c.BandStrong, ErrOutOfBounds)
	case c.RaiseBrainstorm > c.RaiseFocus:
		return fmt.Errorf("appraise.raise.brainstorm %v above appraise.raise.focus %v: %w", c.RaiseBrainstorm, c.RaiseFocus, ErrOutOfBounds)
	}
	return nil
}

func (s ParamSpec) check(v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < s.Min || v > s.Max {
		return fmt.Errorf("%s = %v outside [%v, %v]: %w", s.Name, v, s.Min, s.Max, ErrOutOfBounds)
	}
	return nil
}

func specByName(name string) (ParamSpec, bool) {
	for _, s := range paramTable {
		if s.Name == name {
			return s, true
		}
	}
	return ParamSpec{}, false
}

// count converts a count-valued parameter to an int, at least 1.
func count(v float64) int { return max(1, int(math.Round(v))) }
