package check

import (
	"encoding/json"
	"testing"
)

// TestScope_Confine: a rule's checks hold where its file says, read from
// the directory a nested file governs.
func TestScope_Confine(t *testing.T) {
	npm := Check{Kind: Forbid, Command: &CommandPattern{Programs: []string{"npm"}}}
	gen := Check{Kind: Forbid, Write: &WritePattern{Paths: []string{"generated/", "/build", "src/gen/*.go", "!keep.go", "~/x"}}}
	anyText := Check{Kind: Forbid, Write: &WritePattern{Text: `\bany\b`}}
	commit := Check{Kind: Require, Message: &MessagePattern{Must: `^feat`}}
	crd := Check{Kind: RequireBefore, When: &Condition{Touched: []string{"api/"}}, Command: &CommandPattern{Programs: []string{"git"}}, Before: &CommandPattern{Programs: []string{"make"}}}
	tests := []struct {
		name  string
		scope Scope
		check Check
		want  string // the check's target and condition, as JSON
	}{
		{"the root's file: unchanged", Scope{}, gen, `{"write":{"paths":["generated/","/build","src/gen/*.go","!keep.go","~/x"]}}`},
		{"globs alone leave a command", Scope{Globs: []string{"**/*.ts"}}, npm, `{"command":{"programs":["npm"]}}`},
		{"globs give a write its files", Scope{Globs: []string{"**/*.ts"}}, anyText, `{"write":{"paths":["**/*.ts"],"text":"\\bany\\b"}}`},
		{"globs leave a write's own paths", Scope{Globs: []string{"**/*.ts"}}, gen, `{"write":{"paths":["generated/","/build","src/gen/*.go","!keep.go","~/x"]}}`},
		{"a nested file's paths are read from its directory", Scope{Dir: "web"}, gen, `{"write":{"paths":["web/**/generated/","web/build","web/src/gen/*.go","!web/**/keep.go","~/x"]}}`},
		{"a nested file's write with no paths", Scope{Dir: "web"}, anyText, `{"write":{"paths":["web/"],"text":"\\bany\\b"}}`},
		{"a nested file's globs", Scope{Dir: "web/", Globs: []string{"*.ts", "src/**"}}, anyText, `{"write":{"paths":["web/**/*.ts","web/src/**"],"text":"\\bany\\b"}}`},
		{"a nested file's command holds where the session works", Scope{Dir: "web"}, npm, `{"command":{"programs":["npm"]},"when":{"in":["web"]}}`},
		{"a nested file's message", Scope{Dir: "./web"}, commit, `{"message":{"must":"^feat"},"when":{"in":["web"]}}`},
		{"a nested file's condition", Scope{Dir: "web"}, crd, `{"command":{"programs":["git"]},"when":{"touched":["web/**/api/"],"in":["web"]}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, _ := json.Marshal(tt.check)
			got := tt.scope.Confine(tt.check)
			if after, _ := json.Marshal(tt.check); string(after) != string(before) {
				t.Fatalf("Confine changed its argument: %s", after)
			}
			b, _ := json.Marshal(struct {
				Command *CommandPattern `json:"command,omitempty"`
				Write   *WritePattern   `json:"write,omitempty"`
				Message *MessagePattern `json:"message,omitempty"`
				When    *Condition      `json:"when,omitempty"`
			}{got.Command, got.Write, got.Message, got.When})
			if string(b) != tt.want {
				t.Errorf("got  %s\nwant %s", b, tt.want)
			}
			got.From = Provenance{By: ByReader}
			if err := Validate(got); err != nil && Validate(Check{Kind: tt.check.Kind, Command: tt.check.Command, Write: tt.check.Write, Message: tt.check.Message, Before: tt.check.Before, When: tt.check.When, From: got.From}) == nil {
				t.Errorf("a valid check confined is invalid: %v", err)
			}
		})
	}
}
