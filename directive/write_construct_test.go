package directive

import (
	"slices"
	"testing"

	"github.com/innate-mcp/innate-mcp/check"
)

// TestWriteConstruct_secrets: a rule against credentials in the code
// compiles to a check on the new text of every file but a local .env; a
// rule about what the program logs, prints or stores at run time does not.
func TestWriteConstruct_secrets(t *testing.T) {
	tests := []struct {
		rule string
		want bool
	}{
		{"Never hardcode API keys or passwords in source code.", true},
		{"Do not commit secrets or credentials.", true},
		{"Never put tokens in the code; read them from the environment.", true},
		{"Secrets must never be committed to the repository.", true},
		{"- No hardcoded credentials: load them from env vars.", true},
		{"Never commit API keys, tokens or other secrets to git.", true},
		{"Don't log secrets.", false},
		{"Never store passwords in plain text.", false},
		{"Do not put passwords in URLs.", false},
		{"Don't store secrets in localStorage.", false},
		{"Do not print secret values in logs or error messages.", false},
		{"Never hardcode design tokens; use the theme.", false},
		{"Always hardcode the API base URL in config.ts.", false},
		{"Use environment variables for credentials.", false},
	}
	for _, tc := range tests {
		got := slices.ContainsFunc(Compile(tc.rule, ""), func(c check.Check) bool {
			return c.Write != nil && slices.Contains(c.Write.Holds, "secret")
		})
		if got != tc.want {
			t.Errorf("%q: secret check %v, want %v; compiled %v", tc.rule, got, tc.want, Compile(tc.rule, ""))
		}
	}
	for _, c := range Compile("Never hardcode API keys.", "") {
		if c.Write != nil && !slices.Contains(c.Write.Paths, "!.env") {
			t.Errorf("the check covers a local .env: %v", c.Write.Paths)
		}
	}
}
