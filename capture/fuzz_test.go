package capture

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// fuzzSeeds are messages in every language with every kind of cue.
var fuzzSeeds = []string{
	"",
	"no, use pnpm, not npm",
	"still the same error:\n```\nTraceback (most recent call last):\n```\nwhy did you remove it?",
	"From now on, always run the tests. We never push to main in this repo.",
	"non pas du tout. À partir de maintenant, n'utilise jamais npm.",
	"sigue sin funcionar; nunca uses var, por favor",
	"ainda não funciona. A partir de agora, sempre use pnpm",
	"Benutze ab jetzt immer pnpm, das ist falsch",
	"还是报错。以后都不要用npm，请用pnpm。",
	"まだ同じエラーです。今後は必ずpnpmを使ってください。",
	"pořád nefunguje, nikdy nepoužívej npm",
	"\xff\xfe\xe5\x88 don\u2019t \u2019 'x' Non-Critical - -- ... ?!? \t    indented",
}

func FuzzRead(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, "I've updated the config; this should fix it.")
		f.Add(s, "")
	}
	f.Fuzz(func(t *testing.T, msg, prev string) {
		r := Read(msg, prev)
		if r.CorrectionScore < 0 || r.CorrectionScore > 1 || r.RuleScore < 0 || r.RuleScore > 1 {
			t.Fatalf("scores out of [0, 1]: %+v", r)
		}
		if r.Correction != (r.CorrectionScore >= CorrectionThreshold) || r.Rule != (r.RuleScore >= RuleThreshold) {
			t.Fatalf("flags disagree with scores: %+v", r)
		}
		if strings.TrimSpace(prev) == "" && r.CorrectionScore != 0 {
			t.Fatalf("a first message corrects nothing: %+v", r)
		}
		if r.RuleText != "" {
			if !strings.Contains(msg, r.RuleText) {
				t.Fatalf("rule text %q is not in the message", r.RuleText)
			}
			if r.RuleText != strings.TrimSpace(r.RuleText) {
				t.Fatalf("rule text %q is not trimmed", r.RuleText)
			}
			if utf8.ValidString(msg) && !utf8.ValidString(r.RuleText) {
				t.Fatalf("rule text %q cuts a character", r.RuleText)
			}
		}
		if again := Read(msg, prev); !equalResults(r, again) {
			t.Fatalf("not deterministic: %+v then %+v", r, again)
		}
	})
}

func FuzzTokenize(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		prev := 0
		for _, tk := range tokenize(text) {
			if tk.start < prev || tk.end <= tk.start || tk.end > len(text) {
				t.Fatalf("token %+v out of order or bounds (len %d)", tk, len(text))
			}
			prev = tk.end
		}
	})
}

func equalResults(a, b Result) bool {
	if a.Correction != b.Correction || a.CorrectionScore != b.CorrectionScore || a.Rule != b.Rule ||
		a.RuleText != b.RuleText || a.RuleScore != b.RuleScore || len(a.Cues) != len(b.Cues) {
		return false
	}
	for i := range a.Cues {
		if a.Cues[i] != b.Cues[i] {
			return false
		}
	}
	return true
}
