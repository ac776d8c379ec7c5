package bm25

import (
	"strings"
	"testing"
)

func TestDescribe(t *testing.T) {
	for _, tc := range []struct {
		name, content string
		want          []string // parts, in order
		not           []string // text that must not be described
	}{
		{"python one-line docstring",
			"def paste(xsel=False):\n    \"\"\"Returns system clipboard contents.\"\"\"\n    selection = \"primary\"",
			[]string{"def paste(xsel=False):", "Returns system clipboard contents."}, []string{"selection"}},
		{"python multi-line docstring",
			"def create_path(path):\n    \"\"\"Creates a absolute path.\n\n    :param path: The path\n    \"\"\"\n    import os\n    os.makedirs(path)",
			[]string{"def create_path(path):", "Creates a absolute path.", ":param path: The path"}, []string{"import", "makedirs"}},
		{"single-quoted docstring and comments",
			"def f():\n    '''Sum the row.'''\n    # skip the header\n    x = 1  # not a line comment\n    return x",
			[]string{"def f():", "Sum the row.", " skip the header"}, []string{"not a line comment", "return"}},
		{"markdown headings",
			"# Go rules\n\nUse gofmt.\n\n## Errors\n\nWrap errors with context.",
			[]string{"# Go rules", " Errors"}, []string{"gofmt", "Wrap"}},
		{"C-family comments",
			"func main() {\n\t// start the server\n\t/* block\n\t   comment */\n\tlisten()\n}",
			[]string{"func main() {", " start the server", " block", "comment "}, []string{"listen"}},
		{"plain prose: first line only",
			"Close HTTP response bodies.\nOtherwise connections leak.",
			[]string{"Close HTTP response bodies."}, []string{"leak"}},
		{"a URL is not a comment", "Read the docs.\nSee https://example.com/x // y",
			[]string{"Read the docs."}, []string{"example"}},
		{"unclosed block runs to the end", "x\n/* open\nstill open",
			[]string{"x", " open", "still open"}, nil},
		{"empty", "", nil, []string{"x"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Describe(tc.content)
			var parts []string
			if got != "" {
				parts = strings.Split(got, "\n")
			}
			if strings.Join(parts, "|") != strings.Join(tc.want, "|") {
				t.Errorf("Describe = %q, want parts %q", parts, tc.want)
			}
			for _, n := range tc.not {
				if strings.Contains(got, n) {
					t.Errorf("Describe = %q holds %q", got, n)
				}
			}
		})
	}
}

// FuzzDescribe: any text an agent sends is described without panic, and
// the description only ever holds text taken from the content.
func FuzzDescribe(f *testing.F) {
	for _, s := range []string{"", "#", "\"\"\"", "'''x'''\n'''", "/* a */ b /* c", "line\n// c\n# h", "\"\"\"\"\"\"\"\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Describe(s)
		for _, part := range strings.Split(got, "\n") {
			if !strings.Contains(s, part) {
				t.Fatalf("Describe(%q) holds %q, which the content does not", s, part)
			}
		}
	})
}
