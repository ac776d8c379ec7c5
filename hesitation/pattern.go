package hesitation

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/innate-mcp/innate-mcp/internal/clip"
)

// ErrNoKeywords is returned by NewPattern when neither the correction nor
// the corrected draft yields a keyword.
var ErrNoKeywords = errors.New("no keywords in correction")

// ErrUnknownSource is returned (wrapped) by ParseSource and NewPattern for
// a source that is not one of the Source constants.
var ErrUnknownSource = errors.New("unknown pattern source")

// Source says where an error pattern was learned.
type Source string

// Pattern sources, after the seed's three mirrors.
const (
	// SourceUserCorrection: the user corrected the agent. The highest
	// quality and rarest mirror; new patterns start at full strength.
	SourceUserCorrection Source = "user_correction"
	// SourceSelfReview: the agent found its own mistake on a later look.
	SourceSelfReview Source = "self_review"
	// SourceExternal: new knowledge contradicted an old conclusion.
	SourceExternal Source = "external"
)

// initialStrength is the strength a new pattern starts with, per source.
func initialStrength(s Source) float64 {
	switch s {
	case SourceUserCorrection:
		return 1
	case SourceExternal:
		return 0.8
	}
	return 0.6
}

// strengthenStep is what one further correction adds to a pattern.
const strengthenStep = 0.25

// ParseSource parses a pattern source name. It returns an error wrapping
// ErrUnknownSource for anything else. It is safe for concurrent use.
func ParseSource(s string) (Source, error) {
	switch Source(strings.ToLower(strings.TrimSpace(s))) {
	case SourceUserCorrection:
		return SourceUserCorrection, nil
	case SourceSelfReview:
		return SourceSelfReview, nil
	case SourceExternal:
		return SourceExternal, nil
	}
	return "", fmt.Errorf("%w %q: want user_correction, self_review or external", ErrUnknownSource, s)
}

// Pattern is a learned error pattern: keywords of a past mistake. A Pattern
// is a plain value; the functions below return modified copies and never
// change their argument.
type Pattern struct {
	// ID identifies the pattern; NewPattern derives it from the keywords.
	ID string `json:"id"`
	// Keywords are folded tokens as produced by ExtractKeywords.
	Keywords []string `json:"keywords"`
	// Description is a short human-readable note: the correction text.
	Description string `json:"description"`
	// Source is where the pattern was learned.
	Source Source `json:"source"`
	// Strength in (0, 1] before decay; scales the error_pattern weight.
	Strength float64 `json:"strength"`
	// TriggerCount counts drafts this pattern matched (see Triggered).
	TriggerCount int `json:"trigger_count"`
	// Corrections counts the corrections that created or strengthened it.
	Corrections int `json:"corrections"`
	// CreatedAt is when the pattern was first learned.
	CreatedAt time.Time `json:"created_at"`
	// LastTriggeredAt is the last match or strengthening; decay runs from
	// the later of this and CreatedAt.
	LastTriggeredAt time.Time `json:"last_triggered_at"`
}

// maxDescription bounds Pattern.Description in bytes.
const maxDescription = 280

// NewPattern learns a pattern from a correction and the draft it corrected,
// at time now. It returns ErrNoKeywords if no keyword can be extracted and
// an error wrapping ErrUnknownSource for an invalid source. It is safe for
// concurrent use.
func NewPattern(correction, correctedDraft string, src Source, now time.Time) (Pattern, error) {
	if _, err := ParseSource(string(src)); err != nil {
		return Pattern{}, fmt.Errorf("new pattern: %w", err)
	}
	kw := ExtractKeywords(correction, correctedDraft)
	if len(kw) == 0 {
		return Pattern{}, fmt.Errorf("new pattern: %w", ErrNoKeywords)
	}
	return Pattern{
		ID:              PatternID(kw),
		Keywords:        kw,
		Description:     clip.Bytes(strings.TrimSpace(correction), maxDescription),
		Source:          src,
		Strength:        initialStrength(src),
		Corrections:     1,
		CreatedAt:       now,
		LastTriggeredAt: now,
	}, nil
}

// PatternID derives a stable identifier from a keyword list: "hp_" and 16
// hex digits of an FNV-64a hash of the sorted keywords. It is safe for
// concurrent use.
func PatternID(keywords []string) string {
	ks := append([]string(nil), keywords...)
	sort.Strings(ks)
	h := fnv.New64a()
	for _, k := range ks {
		h.Write([]byte(k))
		h.Write([]byte{0})
	}
	return fmt.Sprintf("hp_%016x", h.Sum64())
}

// Strengthen returns p after a further correction of the same mistake at
// time now: strength raised by 0.25 (at most 1), one more correction, and
// the decay clock restarted.
func Strengthen(p Pattern, now time.Time) Pattern {
	p.Keywords = append([]string(nil), p.Keywords...)
	p.Strength = math.Min(1, p.Strength+strengthenStep)
	p.Corrections++
	if now.After(p.LastTriggeredAt) {
		p.LastTriggeredAt = now
	}
	return p
}

// Triggered returns p after it matched a draft at time now: one more
// trigger and the decay clock restarted. Strength is unchanged.
func Triggered(p Pattern, now time.Time) Pattern {
	p.Keywords = append([]string(nil), p.Keywords...)
	p.TriggerCount++
	if now.After(p.LastTriggeredAt) {
		p.LastTriggeredAt = now
	}
	return p
}

// Decayed returns p's effective strength at time now: Strength halved for
// every halfLife since the later of CreatedAt and LastTriggeredAt. It only
// reads timestamps, so calling it again gives the same value (idempotent).
// Timestamps after now count as no decay; a non-positive halfLife or zero
// now disables decay.
func Decayed(p Pattern, now time.Time, halfLife time.Duration) float64 {
	s := math.Max(0, math.Min(1, p.Strength))
	if halfLife <= 0 || now.IsZero() {
		return s
	}
	last := p.CreatedAt
	if p.LastTriggeredAt.After(last) {
		last = p.LastTriggeredAt
	}
	age := now.Sub(last)
	if age <= 0 {
		return s
	}
	return s * math.Exp2(-float64(age)/float64(halfLife))
}

// Expired reports whether p has decayed below cfg.PatternFloor at time now,
// so that it no longer matches and can be pruned.
func Expired(p Pattern, now time.Time, cfg Config) bool {
	return Decayed(p, now, cfg.PatternHalfLife) < cfg.PatternFloor
}

// FindSimilar returns the index of the pattern whose keywords overlap most
// with keywords, if that overlap (Jaccard) is at least one half: the
// pattern a new correction should strengthen rather than duplicate. Ties go
// to the lower index. It is safe for concurrent use.
func FindSimilar(patterns []Pattern, keywords []string) (int, bool) {
	want := map[string]bool{}
	for _, k := range keywords {
		want[k] = true
	}
	best, bestJ := -1, 0.0
	for i := range patterns {
		p := &patterns[i]
		inter, union := 0, len(want)
		seen := map[string]bool{}
		for _, k := range p.Keywords {
			if seen[k] {
				continue
			}
			seen[k] = true
			if want[k] {
				inter++
			} else {
				union++
			}
		}
		if union == 0 {
			continue
		}
		if j := float64(inter) / float64(union); j > bestJ {
			best, bestJ = i, j
		}
	}
	return best, best >= 0 && bestJ >= 0.5
}

// coverage returns the share of a pattern's keyword weight found in the
// draft and the number of keywords found. Keywords are stored most telling
// first; the i-th (from 0) weighs 1/(i+1). It stops early, returning a
// share below need, once need can no longer be reached.
func coverage(draftTokens *tokenSet, keywords []string, need float64) (float64, int) {
	total := harmonic(len(keywords))
	if total == 0 {
		return 0, 0
	}
	var got float64
	left := total
	hits := 0
	for i, k := range keywords {
		w := rankWeight(i)
		left -= w
		if draftTokens.has(k) {
			got += w
			hits++
		}
		if got+left < need*total {
			break
		}
	}
	return got / total, hits
}

// rankWeights are 1/(i+1) for the first keywords.
var rankWeights = func() (w [16]float64) {
	for i := range w {
		w[i] = 1 / float64(i+1)
	}
	return w
}()

// harmonic returns the total weight of n keywords, 1 + 1/2 + … + 1/n.
func harmonic(n int) float64 {
	if n < len(harmonics) {
		return harmonics[n]
	}
	h := harmonics[len(harmonics)-1]
	for i := len(harmonics) - 1; i < n; i++ {
		h += rankWeight(i)
	}
	return h
}

// harmonics are harmonic(n) for small n.
var harmonics = func() (h [17]float64) {
	for n := 1; n < len(h); n++ {
		h[n] = h[n-1] + 1/float64(n)
	}
	return h
}()

// rankWeight is the weight 1/(i+1) of the i-th keyword.
func rankWeight(i int) float64 {
	if i < len(rankWeights) {
		return rankWeights[i]
	}
	return 1 / float64(i+1)
}

// identityHit reports whether the draft holds one of the pattern's
// code-like keywords (a path, a command with flags, a version), when it
// has any: they are what identifies the mistake ("internal/cart/handler.go"
// of "wrong file"), while its plain words describe the task, which the
// corrected draft shares ("apply the discount").
func identityHit(draftTokens *tokenSet, keywords []string) bool {
	found := false
	for _, k := range keywords {
		if codeish(k) {
			if draftTokens.has(k) {
				return true
			}
			found = true
		}
	}
	return !found
}

// patternHit is one pattern that matched a draft.
type patternHit struct {
	id       string
	desc     string
	hits     int
	strength float64
}

// matchPatterns returns the patterns that match the draft, strongest first
// (then by ID). A pattern matches when the draft holds at least two of its
// keywords (one if it has only one), those carry at least
// cfg.PatternCoverage of the keyword weight (see coverage), and one of its
// code-like keywords is among them if it has any (see identityHit).
func matchPatterns(draftTokens *tokenSet, patterns []Pattern, now time.Time, cfg Config) []patternHit {
	var out []patternHit
	for i := range patterns {
		p := &patterns[i]
		if len(p.Keywords) == 0 {
			continue
		}
		// Keywords first: most patterns fail here, before any decay math.
		cov, hits := coverage(draftTokens, p.Keywords, cfg.PatternCoverage)
		if hits < min(2, len(p.Keywords)) || cov < cfg.PatternCoverage || !identityHit(draftTokens, p.Keywords) {
			continue
		}
		st := Decayed(*p, now, cfg.PatternHalfLife)
		if st < cfg.PatternFloor || st <= 0 {
			continue
		}
		out = append(out, patternHit{id: p.ID, desc: p.Description, hits: hits, strength: st})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].strength != out[j].strength {
			return out[i].strength > out[j].strength
		}
		return out[i].id < out[j].id
	})
	return out
}
