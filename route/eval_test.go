package route

import (
	"fmt"
	"testing"

	"github.com/innate-mcp/innate-mcp/internal/evaldata"
)

// readField reads one string field from every line of a JSONL file of the
// shared evaluation data; the test skips without it.
func readField(tb testing.TB, field string, elem ...string) []string {
	tb.Helper()
	var out []string
	for _, rec := range evaldata.Lines[map[string]any](tb, elem...) {
		if s, ok := rec[field].(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// split puts each text in the tuning part or the check part by
// evaldata.Half of its text, so the split is stable and independent of file
// order.
func split(texts []string) (tune, check []string) {
	for _, s := range texts {
		if evaldata.Half(s) == evaldata.Tune {
			tune = append(tune, s)
		} else {
			check = append(check, s)
		}
	}
	return tune, check
}

// Quality figures from real text nobody on the project wrote. Each set is
// split in two by a hash of the text: the term lists were reviewed against
// errors on the tuning half only; the check half is reported beside it and
// asserted.

// asks reports whether the router reads the text as asking something.
func asks(s Signals) bool { return s.Question || s.Interrogatives > 0 }

func TestEval_QuestionForm(t *testing.T) {
	// Positives: HaluEval QA questions (500 real multi-hop questions).
	// Negatives: WikiWeasel sentences and STS-B sentences (declaratives).
	pos := readField(t, "question", "appraise", "halueval-qa-dev.jsonl")
	neg := append(readField(t, "text", "hedging", "wikiweasel-train.jsonl"),
		readField(t, "query", "retrieval", "stsb-dev-queries.jsonl")...)
	pt, pc := split(pos)
	nt, nc := split(neg)
	for _, part := range []struct {
		name     string
		pos, neg []string
	}{{"tune", pt, nt}, {"check", pc, nc}} {
		hit, fp := 0, 0
		for _, q := range part.pos {
			if asks(Extract(q)) {
				hit++
			}
		}
		for _, s := range part.neg {
			if asks(Extract(s)) {
				fp++
			}
		}
		recall := float64(hit) / float64(len(part.pos))
		fpr := float64(fp) / float64(len(part.neg))
		t.Logf("%s: question recall %.3f (%d/%d), false-positive rate on declaratives %.4f (%d/%d)",
			part.name, recall, hit, len(part.pos), fpr, fp, len(part.neg))
		if part.name == "check" && (recall < 0.95 || fpr > 0.03) {
			t.Errorf("check half: recall %.3f (want ≥ 0.95), false-positive rate %.4f (want ≤ 0.03)", recall, fpr)
		}
	}
}

func TestEval_RealRequestsAreNotSocial(t *testing.T) {
	// None of these texts is a greeting or thanks; a router that sends them
	// to acknowledge or ignore drops real requests.
	sets := map[string][]string{
		"halueval-general prompts": readField(t, "prompt", "hesitation", "halueval-general-dev.jsonl"),
		"cosqa queries":            readField(t, "query", "retrieval", "cosqa-dev-queries.jsonl"),
		"halueval-qa questions":    readField(t, "question", "appraise", "halueval-qa-dev.jsonl"),
		"wikiweasel sentences":     readField(t, "text", "hedging", "wikiweasel-train.jsonl"),
	}
	for name, texts := range sets {
		_, check := split(texts)
		dropped, n := 0, 0
		for _, s := range check {
			if Extract(s).Empty {
				continue // blank lines in the data
			}
			n++
			if m := route(s, warm).Mode; m == Acknowledge || m == Ignore {
				dropped++
				if dropped <= 3 {
					t.Logf("%s: %q → %s", name, s, m)
				}
			}
		}
		rate := float64(dropped) / float64(n)
		t.Logf("%s (check half, %d texts): routed to acknowledge/ignore %.4f", name, n, rate)
		if rate > 0.005 {
			t.Errorf("%s: %.4f of real requests routed to acknowledge/ignore, want ≤ 0.005", name, rate)
		}
	}
}

func TestEval_ModeDistribution(t *testing.T) {
	// Real user requests (Alpaca-style instructions and questions to ChatGPT,
	// and web code-search queries) routed at three warmth levels. The seed's
	// healthy ranges describe a live mix of warmth, not one level, so this
	// reports the shift and asserts only its direction.
	texts := append(readField(t, "prompt", "hesitation", "halueval-general-dev.jsonl"),
		readField(t, "query", "retrieval", "cosqa-dev-queries.jsonl")...)
	_, check := split(texts)
	share := map[string]map[Mode]float64{}
	for _, lvl := range []struct {
		name string
		w    Warmth
	}{
		{"cold (no lesson)", cold},
		{"cool (one weak lesson)", Warmth{ResonatingLessons: 1, TopResonance: 0.35, MeanConfidence: 0.4}},
		{"moderate", moderate},
		{"warm", Warmth{ResonatingLessons: 2, TopResonance: 0.7, MeanConfidence: 0.6, SessionTraces: 2}},
		{"very warm", warm},
	} {
		counts := map[Mode]int{}
		amb := 0
		for _, s := range check {
			d := route(s, lvl.w)
			counts[d.Mode]++
			if d.Ambiguous {
				amb++
			}
		}
		share[lvl.name] = map[Mode]float64{}
		line := ""
		for _, m := range Modes() {
			share[lvl.name][m] = float64(counts[m]) / float64(len(check))
			line += fmt.Sprintf(" %s %.3f", m, share[lvl.name][m])
		}
		t.Logf("%s, warmth %.2f (%d texts):%s, ambiguous %.3f", lvl.name, route("", lvl.w).Warmth, len(check), line, float64(amb)/float64(len(check)))
	}
	if c := share["cold (no lesson)"]; c[Respond] > 0.2 || c[Gather] < 0.05 || c[Clarify] < 0.05 {
		t.Errorf("cold KB: respond %.3f (want ≤ 0.2: ask or look up first), gather %.3f and clarify %.3f (want each ≥ 0.05: the message decides which)",
			c[Respond], c[Gather], c[Clarify])
	}
	if w := share["very warm"]; w[Respond] < 0.8 {
		t.Errorf("warm KB: %.3f of requests answered, want ≥ 0.8", w[Respond])
	}
}
