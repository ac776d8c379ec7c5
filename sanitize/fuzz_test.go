package sanitize

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func fuzzSeeds(f *testing.F) {
	for _, tc := range injectionCases {
		f.Add(tc.text)
	}
	for _, tc := range benignCases {
		f.Add(tc.text)
	}
	for _, s := range []string{
		"DB_PASSWORD=s3cr3t-Pa55", fakePEM, "token " + fakeGitHub, "postgres://u:Kx9mQ2vL@h/db",
		"Authorization: Bearer abc123def456ghi789", `{"apiKey": "a1b2c3d4e5f6"}`, fakeJWT,
		"password=[REDACTED:password]", "pass:word@x://a:b@", "\xff\xfe<!--", "",
	} {
		f.Add(s)
	}
}

func FuzzInjections(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, text string) {
		fs := Injections(text)
		for i, x := range fs {
			if x.Start < 0 || x.End > len(text) || x.Start >= x.End {
				t.Fatalf("finding %v out of bounds for %d bytes", x, len(text))
			}
			if !strings.HasPrefix(text[x.Start:x.End], x.Excerpt) {
				t.Fatalf("excerpt %q is not a prefix of the span", x.Excerpt)
			}
			if utf8.ValidString(text) && !utf8.ValidString(x.Excerpt) {
				t.Fatalf("excerpt %q of valid input is invalid UTF-8", x.Excerpt)
			}
			if i > 0 && x.Start < fs[i-1].Start {
				t.Fatalf("findings out of order: %v", fs)
			}
		}
		f, ok := Injection(text)
		if ok != (len(fs) > 0) {
			t.Fatalf("Injection ok=%v but Injections found %d", ok, len(fs))
		}
		if ok && f.Start != fs[0].Start {
			t.Fatalf("Injection=%v is not the earliest of %v", f, fs)
		}
	})
}

func FuzzRedact(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, text string) {
		out, rs := Redact(text)
		prev := 0
		var b strings.Builder
		for _, r := range rs {
			if r.Start < prev || r.End > len(text) || r.Start >= r.End {
				t.Fatalf("redaction %v out of order or bounds (prev end %d, len %d)", r, prev, len(text))
			}
			b.WriteString(text[prev:r.Start])
			b.WriteString(Placeholder(r.Kind))
			prev = r.End
		}
		b.WriteString(text[prev:])
		if b.String() != out {
			t.Fatalf("output %q does not match the redactions %v", out, rs)
		}
		if utf8.ValidString(text) && !utf8.ValidString(out) {
			t.Fatalf("valid input gave invalid output %q", out)
		}
		again, rs2 := Redact(out)
		if again != out || len(rs2) != 0 {
			t.Fatalf("not idempotent: %q -> %q (%v)", out, again, rs2)
		}
	})
}

// FuzzIntent checks the intent screen (intent.go and its shell and URL
// forms) alone: spans inside the text and on its words, the same result
// twice, and, for ASCII text, the same result whatever the letter case.
func FuzzIntent(f *testing.F) {
	for _, tc := range issueExamples {
		f.Add(tc.text)
	}
	for _, tc := range intentCases {
		f.Add(tc.text)
	}
	for _, s := range []string{"$(", "![](", "<img src=", "a | base64 -d | sh", "`eval`", "\n- x\n- y", "((((", "![a][b]\n[b]: http://x/?q={k}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		n := normalize(text)
		fs := intentFindings(text, &n)
		for _, x := range fs {
			if x.Start < 0 || x.End > len(text) || x.Start >= x.End {
				t.Fatalf("finding %v out of bounds for %d bytes", x, len(text))
			}
			if !strings.HasPrefix(text[x.Start:x.End], x.Excerpt) {
				t.Fatalf("excerpt %q is not a prefix of the span", x.Excerpt)
			}
			if categoryOf(x.Rule) == CategoryHiddenText {
				t.Fatalf("rule %s has no category", x.Rule)
			}
		}
		again := intentFindings(text, &n)
		if len(again) != len(fs) {
			t.Fatalf("not deterministic: %v then %v", fs, again)
		}
		if isASCII(text) {
			up := strings.ToUpper(text)
			nu := normalize(up)
			fu := intentFindings(up, &nu)
			if len(fu) != len(fs) {
				t.Fatalf("case changed the result: %v for %q, %v for %q", fs, text, fu, up)
			}
			for i := range fu {
				if fu[i].Rule != fs[i].Rule || fu[i].Start != fs[i].Start || fu[i].End != fs[i].End {
					t.Fatalf("case changed finding %d: %v, %v", i, fs[i], fu[i])
				}
			}
		}
	})
}
