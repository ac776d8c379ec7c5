package hesitation

import (
	"slices"
	"testing"
)

func TestIsCorrection(t *testing.T) {
	tests := []struct {
		name, msg string
		want      bool
		cues      []string
	}{
		{"zh-Hant seed", "不是有說不要用 rm -rf 嗎？為何還是用了", true, []string{"不是有說", "為何還是"}},
		{"zh-Hans", "不是有说不要用 rm -rf 吗？为何还是用了", true, []string{"不是有说", "为何还是"}},
		{"zh reminder", "我提醒你很多次了", true, []string{"我提醒你"}},
		{"en told you", "I told you not to push to main.", true, []string{"I told you not to"}},
		{"en wrong", "That's wrong, the port is 8080.", true, []string{"That's wrong"}},
		{"en curly apostrophe", "That\u2019s wrong.", true, []string{"That\u2019s wrong"}},
		{"en two weak cues", "Wrong file again.", true, []string{"Wrong", "again"}},
		{"ja", "前にも言ったよね、なぜまだ直っていないの？", true, []string{"前にも言った", "言ったよね", "なぜまだ"}},
		{"en thanks", "Thanks, that works great.", false, nil},
		{"en one weak cue", "Let's try again tomorrow.", false, []string{"again"}},
		{"zh thanks", "謝謝，這樣可以。", false, nil},
		{"ja thanks", "ありがとう、助かりました。", false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, cues := IsCorrection(tt.msg)
			if got != tt.want {
				t.Errorf("IsCorrection=%v, want %v (cues %q)", got, tt.want, cues)
			}
			if !slices.Equal(cues, tt.cues) {
				t.Errorf("cues=%q, want %q", cues, tt.cues)
			}
		})
	}
}
