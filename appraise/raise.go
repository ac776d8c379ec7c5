package appraise

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/innate-mcp/innate-mcp/directive"
	"github.com/innate-mcp/innate-mcp/internal/clip"
	"github.com/innate-mcp/innate-mcp/internal/metric"
)

// flaggedLesson is a caution to raise: the lesson and whether the
// candidate goes against it.
type flaggedLesson struct {
	l       Lesson
	against bool
	rule    *ruling // the rule the candidate breaks, when a rule decided
}

// Relevance of a point from a broken rule: the candidate names what the
// rule forbids (certain), or lacks what it requires (likely).
const (
	relevanceViolates = 1.0
	relevanceLacks    = 0.75
)

// raise computes the will of every caution and raises those that clear the
// mode's threshold, best will first, at most Config.RaiseMax; it returns the
// raised points and the bookkeeping of all of them (seed 004).
func raise(flagged []flaggedLesson, in Input, cfg Config) ([]FlaggedPoint, []Raise) {
	mode := in.Mode
	if mode == "" {
		mode = Focus
	}
	type cand struct {
		l       Lesson
		against bool
		rule    *ruling
		r       Raise
	}
	cs := make([]cand, 0, len(flagged))
	for _, f := range flagged {
		l := f.l
		rel := clamp01(l.Resonance)
		if f.rule != nil {
			if f.rule.finding.Result == directive.Lacks {
				rel = max(rel, relevanceLacks)
			} else {
				rel = max(rel, relevanceViolates)
			}
		}
		x := Raise{LessonID: l.ID, Relevance: metric.Round4(rel), Confidence: metric.Round4(clamp01(l.Confidence)),
			Novelty: metric.Round4(novelty(l.ID, in.History, cfg)), Damping: metric.Round4(damping(l.ID, in.History, cfg))}
		x.Will = metric.Round4((WillRelevance*x.Relevance + WillNovelty*x.Novelty + WillConfidence*x.Confidence) * x.Damping)
		cs = append(cs, cand{l, f.against, f.rule, x})
	}
	slices.SortStableFunc(cs, func(a, b cand) int {
		if c := cmp.Compare(b.r.Will, a.r.Will); c != 0 {
			return c
		}
		return cmpTie(a.l, b.l)
	})
	points := []FlaggedPoint{}
	raises := make([]Raise, 0, len(cs))
	for _, c := range cs {
		x := c.r
		var threshold float64
		switch mode {
		case Brainstorm:
			threshold = cfg.RaiseBrainstorm
		case Quiet:
			threshold = cfg.RaiseQuietAnti
		default:
			threshold = cfg.RaiseFocus
		}
		switch {
		case mode == Quiet && !c.l.AntiTriggerHit:
			x.Reason = SkipQuiet
		case x.Will < threshold:
			x.Reason = SkipBelowThreshold
		case len(points) >= count(cfg.RaiseMax):
			x.Reason = SkipCap
		default:
			x.Raised = true
			summary := summarize(c.l, c.against, in.Candidate)
			if c.rule != nil {
				summary = ruleSummary(*c.rule, in.Candidate)
			}
			points = append(points, FlaggedPoint{LessonID: c.l.ID, Summary: summary,
				Resonance: metric.Round4(clamp01(c.l.Resonance)), Calibration: metric.Round4(c.l.Calibration),
				Strength: metric.Round4(clamp01(c.l.Score)), Will: x.Will})
		}
		raises = append(raises, x)
	}
	return points, raises
}

// novelty is 1 for a lesson not raised in the session's recent calls, 0 for
// one raised on the previous call, recovering linearly over
// Config.RaiseCooldown calls.
func novelty(id string, h History, cfg Config) float64 {
	ago := h.Raised[id]
	if len(ago) == 0 {
		return 1
	}
	return clamp01(float64(slices.Min(ago)-1) / max(cfg.RaiseCooldown, 1))
}

// damping is the factor on the will of a lesson that raised its hand on
// more than Config.RaiseOverShare of the recent calls: (limit/share)², so
// that a lesson raised on every call loses three quarters of its will at
// the default limit of one half (seed 004: detect constant over-raising and
// damp it). 1 when there are too few calls to judge.
func damping(id string, h History, cfg Config) float64 {
	if h.Calls <= 0 || float64(h.Calls) < cfg.RaiseMinCalls {
		return 1
	}
	share := float64(len(h.Raised[id])) / float64(h.Calls)
	if share > cfg.RaiseOverShare {
		f := cfg.RaiseOverShare / share
		return f * f
	}
	return 1
}

// maxSummaryBytes bounds the lesson text quoted in a summary.
const maxSummaryBytes = 160

// summarize says what to watch for, from the lesson's trigger (or the first
// sentence of its caution text), with any of the candidate's text removed:
// a flagged point names a risk, it never carries or echoes an answer.
func summarize(l Lesson, against bool, candidate string) string {
	base := clip.Bytes(oneLine(l.Trigger), maxSummaryBytes)
	if base == "" {
		base = clip.Bytes(firstSentence(l.Content), maxSummaryBytes)
	}
	var s string
	switch {
	case against:
		s = "Watch out: this may go against a lesson: \"" + base + "\""
	case l.AntiTriggerHit:
		s = "Watch out: \"" + base + "\" may not apply here (" + clip.Bytes(oneLine(l.AntiTrigger), maxSummaryBytes/2) + ")"
	case l.Caution:
		s = "Watch out for: " + base
	default:
		s = "Watch out: similar situations went badly before: " + base
	}
	return scrub(s, candidate)
}

// scrub removes from s every occurrence of the candidate and of each of its
// clauses of three words or more, case- and space-insensitively, at word
// boundaries.
func scrub(s, candidate string) string {
	pieces := []string{candidate}
	for _, c := range strings.FieldsFunc(candidate, func(r rune) bool { return strings.ContainsRune(".,;:!?\n()[]\"", r) }) {
		if len(strings.Fields(c)) >= 3 {
			pieces = append(pieces, c)
		}
	}
	for _, p := range pieces {
		p = strings.TrimSpace(p)
		if p == "" || len(p) > 2*len(s) {
			continue
		}
		words := strings.Fields(p)
		for i, w := range words {
			words[i] = regexp.QuoteMeta(w)
		}
		pat := strings.Join(words, `\s+`)
		if r, _ := utf8.DecodeRuneInString(p); isWord(r) {
			pat = `\b` + pat
		}
		if r, _ := utf8.DecodeLastRuneInString(p); isWord(r) {
			pat += `\b`
		}
		re, err := regexp.Compile(`(?i)` + pat)
		if err != nil {
			continue
		}
		for range 3 { // a removal can join text into a new occurrence
			if !re.MatchString(s) {
				break
			}
			s = re.ReplaceAllString(s, "…")
		}
	}
	return s
}

// isWord reports whether r is an ASCII word character (what \b sees).
func isWord(r rune) bool {
	return r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
}

// oneLine collapses white space runs to single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// firstSentence returns the first sentence (or line) of s on one line.
func firstSentence(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	for i, r := range s {
		if r == ';' || r == '；' {
			return oneLine(s[:i])
		}
		if (r == '.' || r == '!' || r == '?' || r == '。') && (i+utf8.RuneLen(r) == len(s) || unicode.IsSpace(rune(s[i+utf8.RuneLen(r)])) || r == '。') {
			return oneLine(s[:i+utf8.RuneLen(r)])
		}
	}
	return oneLine(s)
}
