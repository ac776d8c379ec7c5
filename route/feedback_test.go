package route

import (
	"errors"
	"testing"
)

func TestParseMisroute(t *testing.T) {
	for _, m := range Misroutes() {
		got, err := ParseMisroute(string(m))
		if err != nil || got != m {
			t.Errorf("ParseMisroute(%q) = %q, %v", m, got, err)
		}
		if !m.Expected().Valid() {
			t.Errorf("%s.Expected() = %q, not a mode", m, m.Expected())
		}
	}
	if got, err := ParseMisroute("missed_act"); err != nil || got != MissedGather {
		t.Errorf("ParseMisroute(missed_act) = %q, %v; want missed_gather", got, err)
	}
	if _, err := ParseMisroute("wrong"); !errors.Is(err, ErrUnknownMisroute) {
		t.Errorf("ParseMisroute(wrong) error = %v, want ErrUnknownMisroute", err)
	}
	want := map[Misroute]Mode{MissedClarify: Clarify, MissedGather: Gather, OverEngagement: Acknowledge, UnderEngagement: Respond}
	for m, mode := range want {
		if m.Expected() != mode {
			t.Errorf("%s.Expected() = %s, want %s", m, m.Expected(), mode)
		}
	}
}

func TestParseMode(t *testing.T) {
	for _, m := range Modes() {
		if got, err := ParseMode(string(m)); err != nil || got != m {
			t.Errorf("ParseMode(%q) = %q, %v", m, got, err)
		}
	}
	if got, _ := ParseMode("act"); got != Gather {
		t.Errorf("ParseMode(act) = %q, want gather", got)
	}
	if _, err := ParseMode("RESPOND"); !errors.Is(err, ErrUnknownMode) {
		t.Errorf("ParseMode(RESPOND) error = %v, want ErrUnknownMode", err)
	}
}

func TestDetectMisroute(t *testing.T) {
	cases := []struct {
		lang      string
		prev      Mode
		prevMsg   string
		msg       string
		want      Misroute
		wantFound bool
	}{
		{"en", Respond, "fix the parser", "no, I meant the header parser", MissedClarify, true},
		{"en", Respond, "add retries to the http client please", "add retries to the http client", MissedClarify, true},
		{"en", Respond, "add retries", "as we discussed, use exponential backoff", MissedGather, true},
		{"en", Acknowledge, "hey, the build is red", "that's wrong, I asked why the build is red", UnderEngagement, true},
		{"en", Acknowledge, "hi", "hi, can you look at the build", "", false},
		{"en", Respond, "fix the parser", "thanks, now add tests", "", false},
		{"en", Clarify, "fix it", "I meant the parser", "", false},
		{"zh", Respond, "修复解析器", "我的意思是头部解析器", MissedClarify, true},
		{"zh", Respond, "加重试", "像上次那样用指数退避", MissedGather, true},
		{"zh", Acknowledge, "你好，构建失败了", "不对，我问的是为什么构建失败", UnderEngagement, true},
		{"ja", Respond, "パーサーを直して", "つまり、ヘッダーのパーサーです", MissedClarify, true},
		{"ja", Respond, "リトライを追加して", "前回と同じようにして", MissedGather, true},
		{"ja", Acknowledge, "こんにちは、ビルドが失敗しています", "違います、なぜ失敗するのか聞いています", UnderEngagement, true},
		{"-", Respond, "anything", "", "", false},
	}
	for _, c := range cases {
		t.Run(c.lang+"/"+c.msg, func(t *testing.T) {
			got, found := DetectMisroute(c.prev, c.prevMsg, c.msg)
			if got != c.want || found != c.wantFound {
				t.Errorf("DetectMisroute(%s, %q, %q) = %q, %v; want %q, %v", c.prev, c.prevMsg, c.msg, got, found, c.want, c.wantFound)
			}
		})
	}
}
