package route

import (
	"strings"
	"testing"
)

// signalCase is one message and whether a signal should fire on it.
type signalCase struct {
	lang, msg string
	want      bool
}

func runSignal(t *testing.T, name string, get func(Signals) bool, cases []signalCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.lang+"/"+c.msg, func(t *testing.T) {
			s := Extract(c.msg)
			if got := get(s); got != c.want {
				t.Errorf("%s(%q) = %v, want %v (signals %+v)", name, c.msg, got, c.want, s)
			}
		})
	}
}

func TestExtract_Empty(t *testing.T) {
	runSignal(t, "Empty", func(s Signals) bool { return s.Empty }, []signalCase{
		{"-", "", true},
		{"-", "   \n\t ", true},
		{"-", "?!...", true},
		{"-", "\xff\xfe", true},
		{"en", "ok", false},
		{"-", "👍", false},
		{"zh", "好", false},
		{"ja", "はい", false},
		{"-", "42", false},
	})
}

func TestExtract_Question(t *testing.T) {
	runSignal(t, "Question", func(s Signals) bool { return s.Question }, []signalCase{
		{"en", "Why does the parser fail on empty input?", true},
		{"en", "is this function thread-safe", true},
		{"en", "can you check the migration", true},
		{"en", "Does the cache ever expire ?", true},
		{"en", "The build is green.", false},
		{"en", "Do the migration now.", false},
		{"en", "hi, how are you?", false},
		{"en", "So Phan B?i Châu sent five people.", false},
		{"en", "see ????? for details", false},
		{"zh", "这个函数是线程安全的吗", true},
		{"zh", "這個函數是執行緒安全的嗎？", true},
		{"zh", "是不是缓存的问题", true},
		{"zh", "测试能不能并行跑", true},
		{"zh", "这个函数很快。", false},
		{"zh", "你好吗？", false},
		{"ja", "これはスレッドセーフですか", true},
		{"ja", "キャッシュは消えるのかな", true},
		{"ja", "テストは成功しました。", false},
		{"ja", "お元気ですか", false},
	})
}

func TestExtract_Interrogatives(t *testing.T) {
	cases := []struct {
		lang, msg string
		want      int
	}{
		{"en", "why does the build fail", 1},
		{"en", "python how to sort a dict by value", 1},
		{"en", "I wonder why the cache misses", 1},
		{"en", "When displayed inside a home, the bonsai sits in an alcove.", 0},
		{"en", "the function which parses headers is slow", 0},
		{"en", "what is the difference and why does it matter?", 2},
		{"en", "when does the token expire", 1},
		{"zh", "为什么这个测试会失败", 1},
		{"zh", "怎麼設定重試次數", 1},
		{"zh", "任何输入都会崩溃", 0},
		{"zh", "几乎所有请求都超时", 0},
		{"ja", "なぜこのテストは失敗するのですか", 1},
		{"ja", "何かがおかしい", 0},
		{"ja", "どうやって設定しますか", 1},
	}
	for _, c := range cases {
		t.Run(c.lang+"/"+c.msg, func(t *testing.T) {
			if got := Extract(c.msg).Interrogatives; got != c.want {
				t.Errorf("Interrogatives(%q) = %d, want %d", c.msg, got, c.want)
			}
		})
	}
}

func TestExtract_Greeting(t *testing.T) {
	runSignal(t, "Greeting", func(s Signals) bool { return s.Greeting }, []signalCase{
		{"en", "hi", true},
		{"en", "Hello there!", true},
		{"en", "good morning, team", true},
		{"en", "say hi to the user in the banner", false},
		{"en", "the hello handler returns 404", false},
		{"zh", "你好", true},
		{"zh", "您好，请问一下", true},
		{"zh", "早安", true},
		{"zh", "我说你好", false},
		{"ja", "こんにちは", true},
		{"ja", "おはようございます！", true},
		{"ja", "テストでこんにちはと表示する", false},
	})
}

func TestExtract_Feedback(t *testing.T) {
	cases := []struct {
		lang, msg string
		want      int
	}{
		{"en", "thanks!", 1},
		{"en", "Great, that fixed it", 1},
		{"en", "lgtm", 1},
		{"en", "That's wrong, the test still fails", -1},
		{"en", "thanks, but it still doesn't compile", -1},
		{"en", "find a great library for parsing dates", 0},
		{"en", "add a retry loop", 0},
		{"zh", "谢谢！", 1},
		{"zh", "謝謝，搞定了", 1},
		{"zh", "不对，还是报错", -1},
		{"zh", "為什麼還是失敗", -1},
		{"zh", "添加一个重试", 0},
		{"ja", "ありがとうございます", 1},
		{"ja", "違います、まだ動かない", -1},
		{"ja", "テストを追加して", 0},
	}
	for _, c := range cases {
		t.Run(c.lang+"/"+c.msg, func(t *testing.T) {
			if got := Extract(c.msg).Feedback; got != c.want {
				t.Errorf("Feedback(%q) = %d, want %d", c.msg, got, c.want)
			}
		})
	}
}

func TestExtract_ImplicitReference(t *testing.T) {
	runSignal(t, "ImplicitReference", func(s Signals) bool { return s.ImplicitReference }, []signalCase{
		{"en", "as we discussed, keep the old API", true},
		{"en", "do it like last time", true},
		{"en", "you remember the flaky test?", true},
		{"en", "use the same layout as before", true},
		{"en", "The main hall was built on the ruins of an earlier basilica.", false},
		{"en", "add a test for the parser", false},
		{"zh", "像上次那样处理", true},
		{"zh", "我們之前討論過這個", true},
		{"zh", "刚才那个报错又出现了", true},
		{"zh", "添加一个测试", false},
		{"ja", "前回と同じようにして", true},
		{"ja", "さっきのエラーがまた出た", true},
		{"ja", "テストを追加して", false},
	})
}

func TestExtract_Imperative(t *testing.T) {
	runSignal(t, "Imperative", func(s Signals) bool { return s.Imperative }, []signalCase{
		{"en", "fix the nil pointer in Open", true},
		{"en", "Please add a test for parseHeader", true},
		{"en", "can you refactor the storage layer?", true},
		{"en", "ok now rename the flag", true},
		{"en", "thanks! now run the benchmarks", true},
		{"en", "like last time, use the same config", true},
		{"en", "Build fails on CI since yesterday", false},
		{"en", "Test suite is flaky", false},
		{"en", "the parser is slow", false},
		{"en", "why is the parser slow?", false},
		{"zh", "修复这个空指针", true},
		{"zh", "請幫我重構這個函數", true},
		{"zh", "然后把超时改成五秒", true},
		{"zh", "帮我看看这个报错", true},
		{"zh", "用户登录失败", false},
		{"zh", "这个函数很慢", false},
		{"ja", "このバグを直してください", true},
		{"ja", "テストを追加して", true},
		{"ja", "リファクタリングをお願いします", true},
		{"ja", "この関数は遅い", false},
	})
}

func TestExtract_Specifics(t *testing.T) {
	cases := []struct {
		lang, msg string
		min, max  int
	}{
		{"en", "fix it", 0, 0},
		{"en", "The main hall was built in 1896.", 0, 0},
		{"en", "He met McBride at the PlayStation launch.", 0, 0},
		{"en", "fix the nil pointer panic in storage/db.go Open()", 4, 4},
		{"en", "parseHeader returns `nil` for HTTP_PROXY", 3, 3},
		{"en", "run with --race and check issue #123 on v1.26.0", 3, 3},
		{"en", "os.Open fails in cmd/innate-mcp/main.go:42", 2, 2},
		{"en", "`` quoted prose '' is not code", 0, 0},
		{"zh", "帮我修复 storage/db.go 里的空指针", 2, 2},
		{"zh", "运行时报错：内存溢出", 2, 2},
		{"ja", "main.go でパニックが起きる", 2, 2},
		{"en", strings.Repeat("panic ", 100), maxSpecifics, maxSpecifics},
	}
	for _, c := range cases {
		t.Run(c.lang+"/"+c.msg[:min(len(c.msg), 40)], func(t *testing.T) {
			got := Extract(c.msg).Specifics
			if got < c.min || got > c.max {
				t.Errorf("Specifics(%q) = %d, want in [%d, %d]", c.msg, got, c.min, c.max)
			}
		})
	}
}

func TestExtract_Clarification(t *testing.T) {
	runSignal(t, "Clarification", func(s Signals) bool { return s.Clarification }, []signalCase{
		{"en", "no, I meant the other handler", true},
		{"en", "let me rephrase: the cache, not the store", true},
		{"en", "add the handler", false},
		{"zh", "我的意思是另一个函数", true},
		{"zh", "我指的是缓存", true},
		{"ja", "つまり、キャッシュのことです", true},
		{"ja", "そうじゃなくて、別の関数", true},
		{"ja", "キャッシュを消して", false},
	})
}

func TestExtract_Density(t *testing.T) {
	cases := []struct {
		msg      string
		min, max float64
	}{
		{"", 1, 1},
		{"fix the parser", 1, 1},
		{"fix fix fix fix fix fix fix fix", 0.125, 0.125},
		{"好好好好", 0.25, 0.25},
		{"the cache and the store and the queue", 0.6, 0.7},
	}
	for _, c := range cases {
		t.Run(c.msg, func(t *testing.T) {
			got := Extract(c.msg).Density
			if got < c.min || got > c.max {
				t.Errorf("Density(%q) = %v, want in [%v, %v]", c.msg, got, c.min, c.max)
			}
		})
	}
}

func TestExtract_Tokens(t *testing.T) {
	cases := []struct {
		msg             string
		tokens, content int
	}{
		{"hi", 1, 0},
		{"hi, fix the parser", 4, 3},
		{"thanks, now add tests", 4, 3},
		{"你好", 1, 0},
		{"谢谢你的帮助", 3, 2},
		{"こんにちは", 3, 0},
	}
	for _, c := range cases {
		t.Run(c.msg, func(t *testing.T) {
			s := Extract(c.msg)
			if s.Tokens != c.tokens || s.ContentTokens != c.content {
				t.Errorf("Extract(%q) tokens=%d content=%d, want %d and %d", c.msg, s.Tokens, s.ContentTokens, c.tokens, c.content)
			}
		})
	}
}

func TestExtract_LongMessageKeepsTail(t *testing.T) {
	// A pasted log with the question at its end: the tail is scanned.
	msg := strings.Repeat("2024-01-01 INFO request served in 3ms\n", 1000) + "why does this log end in a panic?"
	if len(msg) <= MaxScanBytes {
		t.Fatalf("message too short for the test: %d bytes", len(msg))
	}
	s := Extract(msg)
	if !s.Question || s.Interrogatives == 0 {
		t.Errorf("question at the end of a long paste missed: %+v", s)
	}
}

func TestClip(t *testing.T) {
	long := strings.Repeat("é", MaxScanBytes) // 2 bytes each
	got := clip(long)
	if len(got) > MaxScanBytes+1 {
		t.Errorf("clip kept %d bytes, want at most %d", len(got), MaxScanBytes+1)
	}
	if strings.ContainsRune(got, '\uFFFD') {
		t.Error("clip cut a rune in half")
	}
	if short := "fix it"; clip(short) != short {
		t.Errorf("clip(%q) = %q, want it unchanged", short, clip(short))
	}
}

func TestLexicon_Parses(t *testing.T) {
	l, err := parseLexicon()
	if err != nil {
		t.Fatalf("parseLexicon: %v", err)
	}
	if len(l.finals) == 0 || len(l.extensions) == 0 || len(l.cjk.byFirst) == 0 {
		t.Fatalf("lexicon incomplete: %d finals, %d extensions, %d cjk initials", len(l.finals), len(l.extensions), len(l.cjk.byFirst))
	}
	for _, name := range []string{"en.txt", "zh.txt", "ja.txt"} {
		secs, err := parseSections(name)
		if err != nil {
			t.Fatalf("parseSections(%s): %v", name, err)
		}
		for sec, phrases := range secs {
			seen := map[string]bool{}
			for _, p := range phrases {
				if seen[p] {
					t.Errorf("%s [%s]: %q listed twice", name, sec, p)
				}
				seen[p] = true
			}
		}
	}
}
