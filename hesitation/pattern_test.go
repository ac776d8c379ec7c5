package hesitation

import (
	"errors"
	"math"
	"slices"
	"testing"
	"time"
	"unicode/utf8"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// TestLearning_CorrectionHoldsRepeat is the learning test of the issue: a
// pattern learned from a correction makes the next draft that repeats the
// mistake reach the hold threshold, and leaves an unrelated draft alone.
func TestLearning_CorrectionHoldsRepeat(t *testing.T) {
	tests := []struct {
		name, mistake, correction, repeat, unrelated string
	}{
		{"en",
			"I'll clean up the build directory with rm -rf build/ before running make.",
			"I told you not to use rm -rf on the workspace, move things to the trash instead.",
			"Cleaning up now: rm -rf dist/ and then rebuild.",
			"I updated the README with the new install steps."},
		{"zh-Hant",
			"我先用 rm -rf 刪除資料夾，再重新建置。",
			"不是有說不要用 rm -rf 刪除資料夾嗎？為何還是用了",
			"好的，我會用 rm -rf 刪除資料夾 output。",
			"我更新了 README 的安裝步驟。"},
		{"zh-Hans",
			"我先用 rm -rf 删除文件夹，再重新构建。",
			"不是有说不要用 rm -rf 删除文件夹吗？为何还是用了",
			"好的，我会用 rm -rf 删除文件夹 output。",
			"我更新了 README 的安装步骤。"},
		{"ja",
			"まず git push --force でブランチを上書きします。",
			"git push --force は使わないでと言ったよね？なぜまだ使うの？",
			"では git push --force で反映します。",
			"README のインストール手順を更新しました。"},
	}
	cfg := DefaultConfig()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if ok, cues := IsCorrection(tt.correction); !ok {
				t.Fatalf("correction not recognised (cues %q)", cues)
			}
			p, err := NewPattern(tt.correction, tt.mistake, SourceUserCorrection, t0)
			if err != nil {
				t.Fatal(err)
			}
			sit := Situation{Now: t0.Add(time.Hour)}
			before := mustCheck(t, tt.repeat, []Action{ActionReply}, sit, nil, cfg)
			after := mustCheck(t, tt.repeat, []Action{ActionReply}, sit, []Pattern{p}, cfg)
			if after.Score < cfg.HoldThreshold || after.Plan[0].Behaviour != Hold {
				t.Errorf("repeat: score %d -> %d, behaviour %s; want >= %d and hold (keywords %q)", before.Score, after.Score, after.Plan[0].Behaviour, cfg.HoldThreshold, p.Keywords)
			}
			if !slices.Equal(after.MatchedPatterns, []string{p.ID}) {
				t.Errorf("matched=%q, want [%s]", after.MatchedPatterns, p.ID)
			}
			if _, ok := signalOf(after, SignalErrorPattern); !ok || after.Reflection == "" {
				t.Errorf("no error_pattern signal or reflection: %+v", after)
			}
			u0 := mustCheck(t, tt.unrelated, []Action{ActionReply}, sit, nil, cfg)
			u1 := mustCheck(t, tt.unrelated, []Action{ActionReply}, sit, []Pattern{p}, cfg)
			if u0.Score != u1.Score || len(u1.MatchedPatterns) != 0 {
				t.Errorf("unrelated draft changed: score %d -> %d, matched %q", u0.Score, u1.Score, u1.MatchedPatterns)
			}
		})
	}
}

func TestPattern_DecayAndTrigger(t *testing.T) {
	cfg := DefaultConfig()
	p, err := NewPattern("I told you not to use rm -rf here", "rm -rf build", SourceUserCorrection, t0)
	if err != nil {
		t.Fatal(err)
	}
	now := t0.Add(2 * cfg.PatternHalfLife)
	if got := Decayed(p, now, cfg.PatternHalfLife); math.Abs(got-0.25) > 1e-9 {
		t.Errorf("Decayed after two half-lives = %v, want 0.25", got)
	}
	if a, b := Decayed(p, now, cfg.PatternHalfLife), Decayed(p, now, cfg.PatternHalfLife); a != b {
		t.Errorf("Decayed not idempotent: %v then %v", a, b)
	}
	if got := Decayed(p, t0.Add(-time.Hour), cfg.PatternHalfLife); got != 1 {
		t.Errorf("Decayed before creation = %v, want 1", got)
	}
	if got := Decayed(p, time.Time{}, cfg.PatternHalfLife); got != 1 {
		t.Errorf("Decayed at zero time = %v, want 1 (no decay)", got)
	}
	// A decayed pattern still matches but no longer holds a reply.
	draft := "Running rm -rf build now."
	res := mustCheck(t, draft, []Action{ActionReply}, Situation{Now: now}, []Pattern{p}, cfg)
	s, ok := signalOf(res, SignalErrorPattern)
	if !ok || math.Abs(s.Weight-cfg.Weights.ErrorPattern/4) > 1e-9 {
		t.Errorf("decayed weight=%v ok=%v, want %v", s.Weight, ok, cfg.Weights.ErrorPattern/4)
	}
	// Triggering restarts the clock without raising strength.
	tp := Triggered(p, now)
	if tp.TriggerCount != 1 || !tp.LastTriggeredAt.Equal(now) || tp.Strength != p.Strength {
		t.Errorf("Triggered = %+v", tp)
	}
	if got := Decayed(tp, now, cfg.PatternHalfLife); got != 1 {
		t.Errorf("Decayed right after trigger = %v, want 1", got)
	}
	if p.TriggerCount != 0 {
		t.Error("Triggered modified its argument")
	}
	// Long silence expires the pattern: it stops matching.
	far := t0.Add(10 * cfg.PatternHalfLife)
	if !Expired(p, far, cfg) {
		t.Error("pattern not expired after ten half-lives")
	}
	if res := mustCheck(t, draft, nil, Situation{Now: far}, []Pattern{p}, cfg); len(res.MatchedPatterns) != 0 {
		t.Errorf("expired pattern matched: %q", res.MatchedPatterns)
	}
}

func TestPattern_Strengthen(t *testing.T) {
	p, err := NewPattern("that's wrong, do not call os.Exit in a library", "I added os.Exit(1) in the parser", SourceSelfReview, t0)
	if err != nil {
		t.Fatal(err)
	}
	if p.Strength != 0.6 || p.Corrections != 1 {
		t.Fatalf("self_review pattern = %+v, want strength 0.6", p)
	}
	later := t0.Add(time.Hour)
	s := Strengthen(p, later)
	if math.Abs(s.Strength-0.85) > 1e-9 || s.Corrections != 2 || !s.LastTriggeredAt.Equal(later) || s.ID != p.ID {
		t.Errorf("Strengthen = %+v", s)
	}
	if s = Strengthen(Strengthen(s, later), later); s.Strength != 1 {
		t.Errorf("strength=%v, want capped at 1", s.Strength)
	}
}

func TestPattern_NewPatternErrors(t *testing.T) {
	if _, err := NewPattern("I told you", "", SourceUserCorrection, t0); !errors.Is(err, ErrNoKeywords) {
		t.Errorf("err=%v, want ErrNoKeywords", err)
	}
	if _, err := NewPattern("rm -rf", "rm -rf", "boss", t0); !errors.Is(err, ErrUnknownSource) {
		t.Errorf("err=%v, want ErrUnknownSource", err)
	}
	for _, s := range []string{"user_correction", "self_review", "external"} {
		if _, err := ParseSource(s); err != nil {
			t.Errorf("ParseSource(%q): %v", s, err)
		}
	}
}

func TestPatternID_OrderIndependent(t *testing.T) {
	a := PatternID([]string{"rm", "-rf", "build"})
	b := PatternID([]string{"build", "rm", "-rf"})
	c := PatternID([]string{"rm", "-rf"})
	if a != b || a == c || len(a) != len("hp_")+16 {
		t.Errorf("ids %s %s %s", a, b, c)
	}
}

func TestFindSimilar(t *testing.T) {
	ps := []Pattern{
		{ID: "a", Keywords: []string{"os.exit", "library", "parser"}},
		{ID: "b", Keywords: []string{"rm", "-rf", "build", "trash"}},
	}
	if i, ok := FindSimilar(ps, []string{"rm", "-rf", "build"}); !ok || i != 1 {
		t.Errorf("FindSimilar = %d, %v; want 1, true", i, ok)
	}
	if _, ok := FindSimilar(ps, []string{"readme", "docs"}); ok {
		t.Error("FindSimilar matched unrelated keywords")
	}
	if _, ok := FindSimilar(nil, []string{"x"}); ok {
		t.Error("FindSimilar matched in an empty list")
	}
}

func TestExtractKeywords(t *testing.T) {
	tests := []struct {
		name, correction, draft string
		first                   []string // expected leading keywords
		absent                  []string
	}{
		{"en shared tokens first", "I told you not to use rm -rf, use the trash", "Cleaning with rm -rf build/ now",
			[]string{"rm", "-rf"}, []string{"told", "you", "not", "the"}},
		{"en code identifiers", "No, never call os.Exit in library code", "I added os.Exit(1) to parser.go",
			[]string{"os.exit"}, []string{"no", "never"}},
		{"zh-Hant bigrams without cue words", "不是有說不要用 rm -rf 刪除資料夾嗎？為何還是用了", "我用 rm -rf 刪除資料夾",
			[]string{"rm", "-rf", "刪除"}, []string{"不是", "還是", "為何"}},
		{"zh-Hans", "不是有说不要改配置文件吗", "我修改了配置文件",
			[]string{"配置", "置文", "文件"}, []string{"不是"}},
		{"ja kana pairs dropped", "本番環境にはデプロイしないでと言ったよね", "本番環境にデプロイしました",
			[]string{"本番", "番環", "環境"}, []string{"した", "ない"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ExtractKeywords(tt.correction, tt.draft)
			if len(got) > MaxKeywords || len(got) < len(tt.first) || !slices.Equal(got[:len(tt.first)], tt.first) {
				t.Fatalf("got=%q, want to start with %q", got, tt.first)
			}
			for _, a := range tt.absent {
				if slices.Contains(got, a) {
					t.Errorf("got=%q, contains %q", got, a)
				}
			}
			if again := ExtractKeywords(tt.correction, tt.draft); !slices.Equal(got, again) {
				t.Errorf("not deterministic: %q then %q", got, again)
			}
		})
	}
	if got := ExtractKeywords("", ""); got == nil || len(got) != 0 {
		t.Errorf("empty input: got=%#v, want empty non-nil", got)
	}
	for _, k := range ExtractKeywords("\xff\xfe 壞掉 了", "\xe5\x88") {
		if !utf8.ValidString(k) {
			t.Errorf("invalid UTF-8 keyword %q", k)
		}
	}
}

// TestLearning_CorrectedBehaviourIsNotARepeat: the pattern a correction
// leaves keeps what the user rejected, never what the user asked for, so
// a draft that does what the correction asked is not a repeat, while one
// that repeats the mistake still is.
func TestLearning_CorrectedBehaviourIsNotARepeat(t *testing.T) {
	tests := []struct {
		name, mistake, correction, repeat, corrected string
	}{
		{"package manager",
			"I ran npm install lodash and added it to the cart module.",
			"No, I told you to use pnpm, not npm!",
			"I ran npm install lodash again to refresh the lockfile.",
			"I ran pnpm add lodash and the lockfile is updated."},
		{"wrong file",
			"I edited internal/cart/handler.go to apply the discount before tax.",
			"Wrong file, the handler is in cmd/api/cart.go",
			"I edited internal/cart/handler.go again to round the discount.",
			"I edited cmd/api/cart.go to apply the discount before tax."},
		{"instead of",
			"I'll format the code with go fmt ./... before committing.",
			"Use gofumpt instead of go fmt.",
			"Running go fmt ./... on the tree now.",
			"Running gofumpt -l -w . on the tree now."},
		{"zh",
			"我用 npm install 安装了 lodash。",
			"不要用 npm，用 pnpm",
			"我再用 npm install 安装一次 lodash。",
			"我用 pnpm add 安装了 lodash。"},
	}
	cfg := DefaultConfig()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := NewPattern(tt.correction, tt.mistake, SourceUserCorrection, t0)
			if err != nil {
				t.Fatal(err)
			}
			sit := Situation{Now: t0.Add(time.Hour)}
			rep := mustCheck(t, tt.repeat, []Action{ActionReply}, sit, []Pattern{p}, cfg)
			if len(rep.MatchedPatterns) == 0 {
				t.Errorf("repeat %q not matched (keywords %q)", tt.repeat, p.Keywords)
			}
			fixed := mustCheck(t, tt.corrected, []Action{ActionReply}, sit, []Pattern{p}, cfg)
			if len(fixed.MatchedPatterns) != 0 {
				t.Errorf("corrected draft %q matched as a repeat (keywords %q)", tt.corrected, p.Keywords)
			}
		})
	}
}
