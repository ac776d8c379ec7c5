package action

import "testing"

// TestShell_ansiCQuoted: a $'…' word's escapes are decoded as the shell
// decodes them, so a commit message written so has its lines and
// characters; a "%" is text, and a NUL ends the value.
func TestShell_ansiCQuoted(t *testing.T) {
	for line, want := range map[string]string{
		`git commit -m $'Fix x\n\nBody'`:              "Fix x\n\nBody",
		`git commit -m $'Fix 100%\tdone'`:             "Fix 100%\tdone",
		`git commit -m $'Add \U0001F916 bot\x00rest'`: "Add \U0001F916 bot",
		`git commit -m $'it\'s'`:                      "it's",
		`git commit -m 'Fix x\n'`:                     `Fix x\n`,
	} {
		a := Shell(line, Env{Root: "/r"})
		if len(a.Messages) != 1 || a.Messages[0].Text != want {
			t.Errorf("%s: messages %+v, want %q", line, a.Messages, want)
		}
	}
}
