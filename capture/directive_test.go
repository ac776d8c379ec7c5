package capture

import "testing"

func TestDirective(t *testing.T) {
	for _, c := range []struct{ msg, want string }{
		{"No, I told you to use pnpm, not npm!", "use pnpm, not npm"},
		{"Don't use npm, use pnpm.", "Don't use npm, use pnpm"},
		{"no, please never touch migrations/", "please never touch migrations/"},
		{"I said to run `make lint` before committing", "run `make lint` before committing"},
		{"Use gofumpt instead of go fmt.", "Use gofumpt instead of go fmt"},
		{"Wrong. Run the tests with make test, not go test.", "Run the tests with make test, not go test"},
		{"Why did you use npm there?", ""},
		{"still the same error", ""},
		{"That's not what I asked.", ""},
		{"Non, n'utilise pas npm, utilise pnpm.", "n'utilise pas npm, utilise pnpm"},
		{"不要用 npm，用 pnpm", "不要用 npm，用 pnpm"},
	} {
		if got := Directive(c.msg); got != c.want {
			t.Errorf("Directive(%q) = %q, want %q", c.msg, got, c.want)
		}
	}
}

func FuzzDirective(f *testing.F) {
	for _, s := range []string{"No, I told you to use pnpm, not npm!", "why?", "不要用 npm，用 pnpm", "```\ncode\n```"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d := Directive(s)
		if len(d) > len(s) {
			t.Fatalf("Directive(%q) = %q is longer than the message", s, d)
		}
	})
}
