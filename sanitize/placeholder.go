// Package sanitize checks text before it is stored: prompt-injection
// instructions are refused and secrets are redacted.
//
// PLACEHOLDER: replaced by the full implementation from the ingest branch.
package sanitize

import "strings"

// Finding names the injection rule that matched and where.
type Finding struct {
	Rule       string
	Start, End int
}

// Redaction names one secret that Redact replaced.
type Redaction struct {
	Kind       string
	Start, End int
}

// Injection reports the first prompt-injection instruction found in text.
func Injection(text string) (Finding, bool) {
	l := strings.ToLower(text)
	for _, p := range []string{"ignore previous instructions", "ignore all previous instructions", "you are now", "<|im_start|>system"} {
		if i := strings.Index(l, p); i >= 0 {
			return Finding{Rule: p, Start: i, End: i + len(p)}, true
		}
	}
	return Finding{}, false
}

// Redact replaces secrets in text by placeholders.
func Redact(text string) (string, []Redaction) { return text, nil }
