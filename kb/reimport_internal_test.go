package kb

import (
	"reflect"
	"testing"
)

func TestRuleFile(t *testing.T) {
	tests := []struct{ source, want string }{
		{"CLAUDE.md#CLAUDE.md#testing:3", "CLAUDE.md"},
		{"./repo/CLAUDE.md#CLAUDE.md:1", "repo/CLAUDE.md"},
		{"repo//sub/../CLAUDE.md", "repo/CLAUDE.md"},
		{"/home/u/repo/./AGENTS.md#AGENTS.md#style:9", "/home/u/repo/AGENTS.md"},
		{"", ""},
		{"#CLAUDE.md:1", ""},
	}
	for _, tt := range tests {
		if got := ruleFile(tt.source); got != tt.want {
			t.Errorf("ruleFile(%q) = %q, want %q", tt.source, got, tt.want)
		}
	}
}

func TestPairRewordings(t *testing.T) {
	tests := []struct {
		name       string
		news, olds []ruleText
		want       map[int]int
	}{
		{"a reworded rule",
			[]ruleText{{"Keep tests table-driven, with t.Run subtests named after each case.", "Testing"}},
			[]ruleText{{"Keep tests table-driven with t.Run subtests.", "Testing"}},
			map[int]int{0: 0}},
		{"a rule removed and another added",
			[]ruleText{{"Document every exported identifier.", "Style"}},
			[]ruleText{{"Prefer small interfaces defined where they are used.", "Style"}},
			map[int]int{}},
		{"a different choice in the same words is below the threshold",
			[]ruleText{{"Use spaces.", ""}},
			[]ruleText{{"Use tabs.", ""}},
			map[int]int{}},
		{"one to one, the most similar first",
			[]ruleText{{"Run go test before pushing.", ""}, {"Run go test -race before pushing.", ""}},
			[]ruleText{{"Run go test -race before pushing any change.", ""}},
			map[int]int{1: 0}},
		{"the same heading wins a tie",
			[]ruleText{{"Run the tests first.", "Backend"}},
			[]ruleText{{"Run the tests.", "Frontend"}, {"Run the tests.", "Backend"}},
			map[int]int{0: 1}},
		{"two rewordings, each to its own",
			[]ruleText{{"Never log secrets or tokens.", ""}, {"Wrap errors with %w and context.", ""}},
			[]ruleText{{"Wrap errors with context.", ""}, {"Never log secrets.", ""}},
			map[int]int{0: 1, 1: 0}},
		{"stop words only match nothing",
			[]ruleText{{"Do it.", ""}},
			[]ruleText{{"Do this.", ""}},
			map[int]int{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := pairRewordings(tt.news, tt.olds); !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("pairRewordings = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestLostContradiction(t *testing.T) {
	tests := []struct {
		name  string
		links []Link
		want  bool
	}{
		{"no links: removed from its file", nil, false},
		{"superseded by a new wording", []Link{{A: "new", B: "x", Kind: linkSupersedes}}, false},
		{"lost a contradiction", []Link{{A: "y", B: "x", Kind: linkContradicts}, {A: "y", B: "x", Kind: linkSupersedes}}, true},
		{"lost a contradiction it started", []Link{{A: "x", B: "y", Kind: linkContradicts}, {A: "y", B: "x", Kind: linkSupersedes}}, true},
		{"won a contradiction, later reworded", []Link{{A: "x", B: "y", Kind: linkContradicts}, {A: "x", B: "y", Kind: linkSupersedes},
			{A: "new", B: "x", Kind: linkSupersedes}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := lostContradiction(tt.links, "x"); got != tt.want {
				t.Fatalf("lostContradiction = %v, want %v", got, tt.want)
			}
		})
	}
}
