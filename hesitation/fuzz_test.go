package hesitation

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// fuzzSeeds are inputs in every language with every kind of cue.
var fuzzSeeds = []string{
	"",
	"I fixed it; all tests pass in v1.2.3 with --force. Clearly done. Therefore shipped. Thus merged. Hence closed.",
	"不是有說不要用 rm -rf 刪除資料夾嗎？為何還是用了。這一定是設定檔的問題，所以已修復。",
	"这可能是缓存的问题，有人认为如此。测试通过。",
	"修正しました。テストが通りました。かもしれない。言ったよね",
	"It may have been one of Europe's most visited sites in May 2019; some 40,000 people came.",
	"`os.ReadFile()` and read_config and readConfig at 2023-11-02, 42%, 1,000, e.g. u.s.a.",
	"\xff\xfe\xe5\x88 \u2019 don\u2019t I told you. 1. 2) -x --",
}

// checkInvariants asserts what must hold for any Check result.
func checkInvariants(t *testing.T, draft string, actions []Action, res Result, cfg Config) {
	t.Helper()
	if res.Score < 0 || res.Score > 100 {
		t.Fatalf("score %d out of 0..100", res.Score)
	}
	if res.Confident != (res.Score < res.Threshold) {
		t.Fatalf("confident=%v with score %d threshold %d", res.Confident, res.Score, res.Threshold)
	}
	if len(res.Plan) != max(1, len(actions)) {
		t.Fatalf("plan has %d steps for %d actions", len(res.Plan), len(actions))
	}
	total := 0.0
	for _, s := range res.Signals {
		if s.Span.Start < 0 || s.Span.End < s.Span.Start || s.Span.End > len(draft) {
			t.Fatalf("signal %s span %+v out of bounds (len %d)", s.Type, s.Span, len(draft))
		}
		if s.Weight <= 0 || s.Weight > 100 {
			t.Fatalf("signal %s weight %v", s.Type, s.Weight)
		}
		total += s.Weight
	}
	if want := int(min(100, total+0.5)); res.Score != want && res.Score != want-1 {
		t.Fatalf("score %d, signal weights sum to %v", res.Score, total)
	}
	for _, st := range res.Plan {
		if st.Action == ActionQuestion && st.Behaviour != Proceed {
			t.Fatalf("question got %s", st.Behaviour)
		}
	}
}

func FuzzCheck(f *testing.F) {
	for i, s := range fuzzSeeds {
		f.Add(s, fuzzSeeds[(i+1)%len(fuzzSeeds)], "--- FAIL: TestX\nFAIL", uint16(i), false)
	}
	cfg := DefaultConfig()
	cfg.MaxDraftBytes = 64 << 10
	f.Fuzz(func(t *testing.T, draft, query, toolOut string, acts uint16, testsRun bool) {
		var actions []Action
		for i, a := range ActionKinds() {
			if acts&(1<<i) != 0 {
				actions = append(actions, a)
			}
		}
		sit := Situation{Query: query, TestsRun: testsRun}
		if toolOut != "" {
			sit.ToolOutputs = []string{toolOut}
		}
		var ps []Pattern
		if p, err := NewPattern(query, draft, SourceUserCorrection, t0); err == nil {
			ps = append(ps, p)
		}
		res, err := Check(draft, actions, sit, ps, cfg)
		if len(draft) > cfg.MaxDraftBytes {
			if !errors.Is(err, ErrDraftTooLarge) {
				t.Fatalf("oversized draft: err=%v", err)
			}
			return
		}
		if err != nil {
			t.Fatalf("Check: %v", err)
		}
		checkInvariants(t, draft, actions, res, cfg)
		again, err := Check(draft, actions, sit, ps, cfg)
		if err != nil || !reflect.DeepEqual(res, again) {
			t.Fatalf("not deterministic: %+v vs %+v (%v)", res, again, err)
		}
	})
}

func FuzzHedges(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		cs := Hedges(text)
		strong := false
		prevStart, prevEnd := -1, -1
		for _, c := range cs {
			if c.Span.Start < 0 || c.Span.End > len(text) || c.Span.Start >= c.Span.End {
				t.Fatalf("span %+v out of bounds (len %d)", c.Span, len(text))
			}
			if text[c.Span.Start:c.Span.End] != c.Text {
				t.Fatalf("cue text %q is not the span's %q", c.Text, text[c.Span.Start:c.Span.End])
			}
			if c.Span.Start < prevStart || c.Span.End <= prevEnd {
				t.Fatalf("cues out of order or nested: %+v", cs)
			}
			prevStart, prevEnd = c.Span.Start, c.Span.End
			if c.Class != CueHedge && c.Class != CueWeasel && c.Class != CuePeacock {
				t.Fatalf("class %q", c.Class)
			}
			strong = strong || c.Strong
		}
		if Uncertain(text) != strong {
			t.Fatalf("Uncertain disagrees with Hedges")
		}
		ok, cues := IsCorrection(text)
		for _, c := range cues {
			if !strings.Contains(text, c) {
				t.Fatalf("correction cue %q not in text", c)
			}
		}
		if ok && len(cues) == 0 {
			t.Fatal("correction without cues")
		}
	})
}

func FuzzExtractKeywords(f *testing.F) {
	for i, s := range fuzzSeeds {
		f.Add(s, fuzzSeeds[(i+2)%len(fuzzSeeds)])
	}
	f.Fuzz(func(t *testing.T, correction, draft string) {
		ks := ExtractKeywords(correction, draft)
		if ks == nil || len(ks) > MaxKeywords {
			t.Fatalf("got %d keywords (nil=%v)", len(ks), ks == nil)
		}
		seen := map[string]bool{}
		for _, k := range ks {
			if k == "" || seen[k] || !utf8.ValidString(k) {
				t.Fatalf("bad keyword %q in %q", k, ks)
			}
			seen[k] = true
		}
		if again := ExtractKeywords(correction, draft); !reflect.DeepEqual(ks, again) {
			t.Fatalf("not deterministic: %q vs %q", ks, again)
		}
		// A draft that contains the correction and the draft matches the
		// pattern learned from them.
		p, err := NewPattern(correction, draft, SourceUserCorrection, t0)
		if err != nil {
			if !errors.Is(err, ErrNoKeywords) {
				t.Fatal(err)
			}
			return
		}
		if p.ID != PatternID(ks) {
			t.Fatalf("id %s, want %s", p.ID, PatternID(ks))
		}
		both := correction + "\n" + draft
		cfg := DefaultConfig()
		if len(both) > cfg.MaxDraftBytes {
			return
		}
		res, err := Check(both, nil, Situation{}, []Pattern{p}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.MatchedPatterns) != 1 {
			t.Fatalf("pattern %q not matched by its own text %q", p.Keywords, both)
		}
	})
}
