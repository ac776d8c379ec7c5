package storage

import "testing"

func TestExcerpt(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"- Always use hooks.\n- Use React.FC.", 80, "- Always use hooks. - Use React.FC."},
		{"short", 80, "short"},
		{"abcdef", 3, "abc…"},
		{"ab日本", 4, "ab…"}, // 日 is three bytes: never cut inside it
	} {
		got := excerpt(tc.in, tc.n)
		if got != tc.want {
			t.Errorf("excerpt(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}
