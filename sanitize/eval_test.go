package sanitize

import (
	"testing"

	"github.com/innate-mcp/innate-mcp/internal/evaldata"
)

// TestInjection_CursorRulesFalsePositives measures how many of the 967 real
// rule files written for coding agents are flagged. Every flag is logged for
// review; more than 0.5% flagged fails.
func TestInjection_CursorRulesFalsePositives(t *testing.T) {
	recs := evaldata.CursorRules(t)
	flagged := map[string]int{}
	total := map[string]int{}
	for _, r := range recs {
		half := evaldata.Half(r.ID)
		total[half]++
		fs := Injections(r.Content)
		if len(fs) == 0 {
			continue
		}
		flagged[half]++
		for _, f := range fs {
			t.Logf("%s [%s] %s", r.ID, half, f)
		}
	}
	for _, half := range []string{"tune", "check"} {
		t.Logf("injection: %s half: %d of %d files flagged", half, flagged[half], total[half])
	}
	if n := flagged["tune"] + flagged["check"]; n*200 > len(recs) {
		t.Errorf("%d of %d rule files flagged, want at most 0.5%%", n, len(recs))
	}
}

// TestRedact_CursorRules reports every redaction made in the real rule
// files; they are documentation, so a redaction must be a credential-shaped
// literal. More than 1% of files redacted fails.
func TestRedact_CursorRules(t *testing.T) {
	recs := evaldata.CursorRules(t)
	files := map[string]int{}
	total := map[string]int{}
	for _, r := range recs {
		half := evaldata.Half(r.ID)
		total[half]++
		out, rs := Redact(r.Content)
		if len(rs) == 0 {
			continue
		}
		files[half]++
		for _, x := range rs {
			lo, hi := max(0, x.Start-40), min(len(r.Content), x.End+10)
			t.Logf("%s [%s] %s: %q", r.ID, half, x.Kind, r.Content[lo:hi])
		}
		if again, rs2 := Redact(out); again != out || len(rs2) != 0 {
			t.Errorf("%s: Redact not idempotent", r.ID)
		}
	}
	for _, half := range []string{"tune", "check"} {
		t.Logf("redact: %s half: %d of %d files redacted", half, files[half], total[half])
	}
	if n := files["tune"] + files["check"]; n*100 > len(recs) {
		t.Errorf("%d of %d rule files redacted, want at most 1%%", n, len(recs))
	}
}

// TestInjection_FoundInsideRealFiles plants each flagged example of the table
// tests in the middle of a real rule file from the check half and requires
// the same rule to find it there: surrounding Markdown, code and length must
// not hide an injection.
func TestInjection_FoundInsideRealFiles(t *testing.T) {
	recs := evaldata.CursorRules(t)
	var hosts []string
	for _, r := range recs {
		if evaldata.Half(r.ID) == "check" && len(r.Content) > 400 {
			hosts = append(hosts, r.Content)
		}
	}
	if len(hosts) == 0 {
		t.Skip("no host files")
	}
	missed := 0
	for i, tc := range injectionCases {
		host := hosts[i*7%len(hosts)]
		mid := len(host) / 2
		for mid < len(host) && host[mid] != '\n' {
			mid++
		}
		text := host[:mid] + "\n\n" + tc.text + "\n\n" + host[mid:]
		found := false
		for _, f := range Injections(text) {
			if f.Rule == tc.rule && f.Start >= mid {
				found = true
				break
			}
		}
		if !found {
			missed++
			t.Errorf("%s: rule %s did not fire inside a real file", tc.name, tc.rule)
		}
	}
	t.Logf("planted %d injections in real files, %d missed", len(injectionCases), missed)
}
