package storerow

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/kb"
)

// head is the first n characters of the request kb logs for a draft, as a
// store's substr reads them.
func head(t *testing.T, draft string, n int) string {
	t.Helper()
	b, err := json.Marshal(kb.HesitateRequest{Draft: draft, Query: "q"})
	if err != nil {
		t.Fatal(err)
	}
	r := []rune(string(b))
	return string(r[:min(n, len(r))])
}

func TestDraftExcerpt(t *testing.T) {
	for _, c := range []struct {
		name, head, want string
	}{
		{"whole", head(t, "Tests <pass> &\n  \"all\" good.", RequestHead), `Tests <pass> & "all" good.`},
		{"cut by the head", head(t, "Tests pass and all is good.", 20), "Tests pass…"},
		// The head ends inside \u003c: the escape is dropped, not misread.
		{"cut inside an escape", head(t, "ab<cd", len(`{"draft":"ab\u00`)), "ab…"},
		{"cut after a backslash", head(t, `a\b`, len(`{"draft":"a\`)), "a…"},
		{"non-ASCII", head(t, "Ça marche — déployé.", RequestHead), "Ça marche — déployé."},
		{"long", head(t, strings.Repeat("word ", 100), RequestHead), strings.TrimSpace(strings.Repeat("word ", 40)) + "…"},
		{"no draft", `{}`, ""},
		{"not JSON", `{"draft":"\x"}`, ""},
		{"empty", "", ""},
	} {
		if got := DraftExcerpt(c.head); got != c.want {
			t.Errorf("%s: DraftExcerpt(%q) = %q, want %q", c.name, c.head, got, c.want)
		}
	}
}

func TestHeldDraft(t *testing.T) {
	at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	plan := `[{"action":"reply","behaviour":"hedge"},{"action":"question","behaviour":"proceed"}]`
	signals := `[{"type":"no_hedge","weight":15},{"type":"absolute_claim","weight":10},{"type":"no_hedge","weight":5}]`
	d, ok := HeldDraft("t_1", at, 35, 30, false, signals, plan, "", `{"draft":"Done."}`)
	if !ok || d.Score != 35 || d.Threshold != 30 || d.Excerpt != "Done." ||
		strings.Join(d.Signals, ",") != "no_hedge,absolute_claim" ||
		strings.Join(d.Actions, ",") != "reply,question" || strings.Join(d.Behaviours, ",") != "hedge,proceed" {
		t.Errorf("a hedged reply: %+v, %v", d, ok)
	}
	if d, ok := HeldDraft("t_2", at, 40, 30, false, `[]`, `[{"action":"question","behaviour":"proceed"}]`, "", ""); ok {
		t.Errorf("a call that only proceeded is a held draft: %+v", d)
	}
	// The held flag stands when the plan does not decode.
	if d, ok := HeldDraft("t_3", at, 90, 30, true, `?`, `?`, "rejected", ""); !ok || d.Review != "rejected" || len(d.Signals) != 0 || d.Behaviours == nil {
		t.Errorf("a held call with an unreadable plan: %+v, %v", d, ok)
	}
}
