package sanitize

import "sync"

// byContext are the kinds of secret Redact picks out of a larger match
// (rules with groups: a value given a secret-like name, a bearer header, a
// URL's password) rather than by a format that identifies itself. Redact
// takes any such literal, "hunter2" and "test-token" too, since it would
// rather hide a weak real password than show it; a rule against hardcoded
// credentials means a value that looks like one.
var byContext = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, r := range secretRuleTable {
		if len(r.groups) > 0 {
			m[r.kind] = true
		}
	}
	return m
})

// Credential returns the first credential that text holds as a literal:
// a token or key of a format that identifies itself (a GitHub, AWS, OpenAI
// or Stripe key, a private key block, a JWT, ...), or a value found by its
// context that is long and random enough to be a real one (at least 12
// bytes of letters and digits with high entropy). Placeholders, environment
// references and the weak literals of tests and examples ("test-token",
// "changeme") are not credentials. It is deterministic, safe for concurrent
// use, and linear in len(text).
func Credential(text string) (Redaction, bool) {
	for _, r := range findSecrets(text) {
		if !byContext()[r.Kind] {
			return r, true
		}
		if v := text[r.Start:r.End]; len(v) >= 12 && highEntropy(v) {
			return r, true
		}
	}
	return Redaction{}, false
}
