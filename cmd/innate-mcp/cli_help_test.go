package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
)

// runIO runs the program in-process and returns its stdout and stderr.
func runIO(t *testing.T, env map[string]string, stdin string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	m := &Main{
		Getenv: func(k string) string { return env[k] },
		Getwd:  func() (string, error) { return t.TempDir(), nil },
	}
	var out, errb bytes.Buffer
	err = m.Run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), err
}

// TestMain_helpIsNotAnError: asking for help prints the usage on stdout and
// exits 0, for the program and for each command.
func TestMain_helpIsNotAnError(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--help"}, "Usage: innate-mcp [--db PATH|postgres://...]"},
		{[]string{"-h"}, "Usage: innate-mcp [--db PATH|postgres://...]"},
		{[]string{"-help"}, "Usage: innate-mcp [--db PATH|postgres://...]"},
		{[]string{"help"}, "Usage: innate-mcp [--db PATH|postgres://...]"},
		{[]string{"--db", "x.db", "--help"}, "Usage: innate-mcp [--db PATH|postgres://...]"},
		{[]string{"recall", "-h"}, "Usage: innate-mcp recall"},
		{[]string{"record", "--help"}, "Usage: innate-mcp record"},
		{[]string{"hesitate", "-h"}, "Usage: innate-mcp hesitate"},
		{[]string{"serve", "-h"}, "Usage: innate-mcp serve"},
		{[]string{"eval", "retrieval", "-h"}, "Usage: innate-mcp eval retrieval"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			stdout, stderr, err := runIO(t, testEnv(t), "", tt.args...)
			if err != nil {
				t.Fatalf("err = %v (exit %d), want nil", err, exitCode(err))
			}
			if !strings.Contains(stdout, tt.want) {
				t.Errorf("stdout = %q, want the usage (%q)", stdout, tt.want)
			}
			if stderr != "" {
				t.Errorf("stderr = %q, want nothing", stderr)
			}
		})
	}
}

// TestMain_badFlagIsAUsageError: an unknown flag is still an error, with
// the usage on stderr.
func TestMain_badFlagIsAUsageError(t *testing.T) {
	for _, args := range [][]string{{"--bogus"}, {"recall", "--bogus"}} {
		stdout, stderr, err := runIO(t, testEnv(t), "", args...)
		if err == nil || stdout != "" || !strings.Contains(stderr, "Usage: innate-mcp") || !strings.Contains(stderr, "-bogus") {
			t.Errorf("%v: err = %v, stdout %q, stderr %q; want an error and the usage on stderr", args, err, stdout, stderr)
		}
	}
}

// TestCLI_nothingGivenSaysWhatIsNeeded: a command run without its input
// names the argument or flag to pass, with exit status 2.
func TestCLI_nothingGivenSaysWhatIsNeeded(t *testing.T) {
	tests := []struct {
		args  []string
		stdin string
		want  []string
	}{
		{[]string{"recall"}, "", []string{"QUERY", "--query", "stdin"}},
		{[]string{"recall"}, "  \n", []string{"QUERY", "--query"}},
		{[]string{"appraise"}, "", []string{"QUERY", "--query"}},
		{[]string{"record"}, "", []string{"--lesson", "--trace"}},
		{[]string{"hesitate"}, "", []string{"draft", "stdin"}},
		{[]string{"hesitate", "--json"}, "", []string{"JSON", "draft"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, _, err := runIO(t, testEnv(t), tt.stdin, tt.args...)
			if err == nil || exitCode(err) != 2 {
				t.Fatalf("err = %v (exit %d), want a usage error (exit 2)", err, exitCode(err))
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

// TestMain_helpEverywhere: -h after every command, and after each of its
// subcommands, prints a usage on stdout, exits 0 and touches no database.
func TestMain_helpEverywhere(t *testing.T) {
	subs := map[string][]string{
		"eval":     {"retrieval", "appraise", "hedging", "hesitation", "rules", "capture", "actions", "stop"},
		"token":    {"create", "list", "revoke"},
		"patterns": {"list", "remove"},
		"lessons":  {"list", "show", "approve", "reject", "archive", "restore"},
		"rules":    {"list", "explain", "add", "approve", "remind", "disable", "compile"},
	}
	var cases [][]string
	for _, c := range commands() {
		cases = append(cases, []string{c.name, "-h"})
		for _, s := range subs[c.name] {
			cases = append(cases, []string{c.name, s, "-h"}, []string{c.name, s, "--help"})
		}
	}
	for _, args := range cases {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			env := testEnv(t)
			stdout, _, err := runIO(t, env, "", args...)
			if err != nil {
				t.Fatalf("exit %d: %v", exitCode(err), err)
			}
			if !strings.Contains(stdout, "Usage: innate-mcp "+args[0]) {
				t.Errorf("stdout = %q, want the usage", stdout)
			}
			if _, err := os.Stat(env["INNATE_DB"]); err == nil {
				t.Errorf("asking for help created the database %s", env["INNATE_DB"])
			}
		})
	}
}
