package sanitize

// contextKinds are the secrets Redact finds by the name a value is given
// (a password, a token, an API key assigned in code), rather than by a
// format that identifies itself. Redact takes any literal value there,
// "hunter2" and "test-token" too, since it would rather hide a weak real
// password than show it; a rule against hardcoded credentials means a value
// that looks like one.
var contextKinds = map[string]bool{
	"password": true, "api-key": true, "token": true, "secret": true,
	"cli-secret": true, "authorization": true, "url-password": true,
}

// Credential returns the first credential that text holds as a literal:
// a token or key of a format that identifies itself (a GitHub, AWS, OpenAI
// or Stripe key, a private key block, a JWT, ...), or a value assigned to a
// secret-like name, a bearer header or a URL's password that is long and
// random enough to be a real one (at least 12 bytes of letters and digits
// with high entropy). Placeholders, environment references and the weak
// literals of tests and examples ("test-token", "changeme") are not
// credentials. It is deterministic, safe for concurrent use, and linear in
// len(text).
func Credential(text string) (Redaction, bool) {
	for _, r := range findSecrets(text) {
		if !contextKinds[r.Kind] {
			return r, true
		}
		if v := text[r.Start:r.End]; len(v) >= 12 && highEntropy(v) {
			return r, true
		}
	}
	return Redaction{}, false
}
