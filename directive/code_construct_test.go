package directive

import (
	"regexp"
	"strings"
	"testing"

	"github.com/innate-mcp/innate-mcp/check"
)

// TestConstructCheck: a rule that forbids using a code construct compiles
// to a check on the new text of code files: the construct's uses match,
// other code does not; tests or the code outside them when the clause or
// the heading says so.
func TestConstructCheck(t *testing.T) {
	tests := []struct {
		name, rule, heading string
		remind              bool     // false: a construct check asks
		in, out             []string // files the check covers, and not
		hit, miss           []string // new text that introduces it, and not
	}{
		{"a call", "Never call `os.Exit()`.", "", false,
			[]string{"pkg/run.go"}, []string{"README.md"},
			[]string{"os.Exit(1)", "\tos.Exit (2)"}, []string{"exit(1)", "myos.Exit(1)", "os.Exiting()"}},
		{"a qualified name", "Do not use `Reflect.construct`.", "", false,
			[]string{"src/a.ts", "lib/b.js"}, []string{"docs/api.md", "notes.txt"},
			[]string{"Reflect.construct(A, [])"}, []string{"Reflect.apply(f)", "construct()"}},
		{"a directive comment", "No `@ts-ignore` comments.", "", false,
			[]string{"src/a.ts"}, []string{"CHANGELOG.md"},
			[]string{"// @ts-ignore\nfoo()"}, []string{"// @ts-expect-error\nfoo()"}},
		{"a comparison", "Never write `== None`; write `is None`.", "", false,
			[]string{"app/models.py"}, nil,
			[]string{"if x == None:", "if x ==None:"}, []string{"if x is None:", "if x == Nonesuch:"}},
		{"in tests", "Don't call `resetAll()` in tests; use the fixture.", "", false,
			[]string{"store/db_test.go", "tests/test_db.py", "src/db.test.ts"}, []string{"store/db.go", "src/db.ts"},
			[]string{"resetAll()"}, nil},
		{"under a tests heading", "Never use `sleepFor()`.", "Testing", false,
			[]string{"pkg/x_test.go"}, []string{"pkg/x.go"},
			[]string{"sleepFor(10)"}, nil},
		{"outside tests", "Never use `debugDump()` in production code.", "", false,
			[]string{"pkg/x.go"}, []string{"pkg/x_test.go", "spec/x_spec.rb"},
			[]string{"debugDump(v)"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got *check.Check
			for _, c := range Compile(tc.rule, tc.heading) {
				if c.Write != nil && c.Write.Text != "" {
					got = &c
				}
			}
			if got == nil {
				t.Fatalf("%q: no check on new text; compiled %v", tc.rule, Compile(tc.rule, tc.heading))
			}
			if got.RemindOnly != tc.remind {
				t.Errorf("remind only = %v, want %v (%s)", got.RemindOnly, tc.remind, check.Describe(*got))
			}
			for _, f := range tc.in {
				if !check.Globs(got.Write.Paths, f) {
					t.Errorf("%s not covered by %v", f, got.Write.Paths)
				}
			}
			for _, f := range tc.out {
				if check.Globs(got.Write.Paths, f) {
					t.Errorf("%s covered by %v", f, got.Write.Paths)
				}
			}
			re := regexp.MustCompile(got.Write.Text)
			for _, s := range tc.hit {
				if !re.MatchString(s) {
					t.Errorf("%q not matched by /%s/", s, got.Write.Text)
				}
			}
			for _, s := range tc.miss {
				if re.MatchString(s) {
					t.Errorf("%q matched by /%s/", s, got.Write.Text)
				}
			}
		})
	}
}

// TestConstructCheck_none: spans that are not code a file holds, and
// rules that do something else with code, give no check on new text.
func TestConstructCheck_none(t *testing.T) {
	for _, rule := range []string{
		"Never use `Stream`.",                       // a bare identifier
		"Never expose `user.token` in responses.",   // not a use of it
		"Don't edit `app.config` by hand.",          // a file
		"Never use `status.example` as a template.", // a file
		"Never use `deco.chat` for auth.",           // a lower-case dotted word: a host
		"Never run `go.test()` twice.",              // not a use
		"Always call `cleanup()` after a test.",     // asked for, not ruled out
		"Never call `os.Exit()` from library code.", // narrowed to what a write does not show
		"Use `is None` rather than `== None`.",      // prefers
	} {
		for _, c := range Compile(rule, "") {
			if c.Write != nil && c.Write.Text != "" {
				t.Errorf("%q compiled a check on new text: %s", rule, check.Describe(c))
			}
		}
	}
}

// FuzzConstructPattern: whatever the span, the pattern compiles and
// matches the construct the span shows.
func FuzzConstructPattern(f *testing.F) {
	for _, s := range []string{"os.Exit()", "Reflect.construct", "@ts-ignore", "== None", "$.ajax()", "std::move", "@Get(':id')"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, span string) {
		p, ok := constructPattern(span)
		if !ok {
			return
		}
		re, err := regexp.Compile(p)
		if err != nil {
			t.Fatalf("constructPattern(%q) = %q: %v", span, p, err)
		}
		if s := strings.TrimSpace(span); !re.MatchString(" "+s) && !strings.Contains(s, "(") {
			t.Errorf("/%s/ misses its own span %q", p, s)
		}
	})
}
