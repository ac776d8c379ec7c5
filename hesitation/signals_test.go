package hesitation

import (
	"fmt"
	"strings"
	"testing"
)

// mustCheck runs Check and fails the test on error.
func mustCheck(tb testing.TB, draft string, actions []Action, sit Situation, ps []Pattern, cfg Config) Result {
	tb.Helper()
	res, err := Check(draft, actions, sit, ps, cfg)
	if err != nil {
		tb.Fatalf("Check: %v", err)
	}
	return res
}

// signalOf returns the signal of type typ, if any.
func signalOf(res Result, typ SignalType) (Signal, bool) {
	for _, s := range res.Signals {
		if s.Type == typ {
			return s, true
		}
	}
	return Signal{}, false
}

// long pads a text past the long-reply length with neutral sentences.
func long(lang, s string) string {
	pad := map[string]string{
		"en": " The handler reads the request body and writes the response.",
		"zh": "處理器讀取請求內容並寫入回應。",
		"ja": "ハンドラーはリクエストを読み込み、レスポンスを書き込む。",
	}[lang]
	for len([]rune(s)) < 220 {
		s += pad
	}
	return s
}

func TestCheck_Signals(t *testing.T) {
	tested := testsRunSituation()
	failing := Situation{ToolOutputs: []string{"=== RUN   TestParse\n--- FAIL: TestParse (0.00s)\nFAIL"}}
	withSource := Situation{Sources: []string{"https://go.dev/doc/go1.22"}}
	tests := []struct {
		name    string
		typ     SignalType
		draft   string
		actions []Action
		sit     Situation
		fires   bool
	}{
		// absolute_claim
		{"abs en", SignalAbsoluteClaim, "This is clearly the cause.", nil, Situation{}, true},
		{"abs en with source", SignalAbsoluteClaim, "This is clearly the cause.", nil, withSource, false},
		{"abs en cited in draft", SignalAbsoluteClaim, "This is clearly the cause (see https://go.dev/issue/1).", nil, Situation{}, false},
		{"abs zh-Hant", SignalAbsoluteClaim, "這顯然是原因。", nil, Situation{}, true},
		{"abs zh-Hans", SignalAbsoluteClaim, "这显然是原因。", nil, Situation{}, true},
		{"abs ja", SignalAbsoluteClaim, "明らかにこれが原因です。", nil, Situation{}, true},
		{"abs none", SignalAbsoluteClaim, "This could be the cause.", nil, Situation{}, false},
		// unsupported_specific
		{"spec en", SignalUnsupportedSpecific, "Set the timeout in v1.4.2 with --retry-max.", nil, Situation{}, true},
		{"spec en backed by tool output", SignalUnsupportedSpecific, "Set the timeout in v1.4.2 with --retry-max.", nil,
			Situation{ToolOutputs: []string{"$ app --help\n  --retry-max int\nversion 1.4.2"}}, false},
		{"spec en from the query", SignalUnsupportedSpecific, "Use os.ReadFile there.", nil, Situation{Query: "Should I use os.ReadFile?"}, false},
		{"spec zh-Hant", SignalUnsupportedSpecific, "請在 v1.4.2 中加上 --retry-max 參數。", nil, Situation{}, true},
		{"spec zh-Hans", SignalUnsupportedSpecific, "请在 v1.4.2 中加上 --retry-max 参数。", nil, Situation{}, true},
		{"spec ja", SignalUnsupportedSpecific, "v1.4.2 では --retry-max を使います。", nil, Situation{}, true},
		{"spec none", SignalUnsupportedSpecific, "Use the retry option in the new release.", nil, Situation{}, false},
		{"spec creative query", SignalUnsupportedSpecific, "In 1999 the robot turned 42.", nil, Situation{Query: "Write a short story about a robot"}, false},
		// no_hedge
		{"nohedge en", SignalNoHedge, long("en", "The handler is the cause."), nil, Situation{}, true},
		{"nohedge en hedged", SignalNoHedge, long("en", "I think the handler is the cause."), nil, Situation{}, false},
		{"nohedge en short", SignalNoHedge, "The handler is the cause.", nil, Situation{}, false},
		{"nohedge en not a reply", SignalNoHedge, long("en", "The handler is the cause."), []Action{ActionCommit}, Situation{}, false},
		{"nohedge zh", SignalNoHedge, long("zh", "原因在處理器。"), nil, Situation{}, true},
		{"nohedge zh hedged", SignalNoHedge, long("zh", "原因可能是處理器。"), nil, Situation{}, false},
		{"nohedge ja", SignalNoHedge, long("ja", "原因はハンドラーです。"), nil, Situation{}, true},
		{"nohedge ja hedged", SignalNoHedge, long("ja", "原因はハンドラーかもしれない。"), nil, Situation{}, false},
		// overconfidence
		{"overconf en", SignalOverconfidence, "Therefore the cache is stale. Thus we drop it. Hence the fix.", nil, Situation{}, true},
		{"overconf en reasoned", SignalOverconfidence, "Because the key changed, the cache is stale; therefore we drop it. Since reads miss, thus slow; because of that, hence the fix.", nil, Situation{}, false},
		{"overconf zh-Hant", SignalOverconfidence, "所以快取過期。因此要清除。總之這樣修。", nil, Situation{}, true},
		{"overconf zh-Hans", SignalOverconfidence, "所以缓存过期。因此要清除。总之这样修。", nil, Situation{}, true},
		{"overconf ja", SignalOverconfidence, "したがってキャッシュが古い。つまり削除する。よって修正完了。", nil, Situation{}, true},
		{"overconf two only", SignalOverconfidence, "Therefore the cache is stale. Thus we drop it.", nil, Situation{}, false},
		// unverified_success
		{"success en", SignalUnverifiedSuccess, "Fixed the bug; all tests pass now.", nil, Situation{}, true},
		{"success en tested", SignalUnverifiedSuccess, "Fixed the bug; all tests pass now.", nil, tested, false},
		{"success en failing output", SignalUnverifiedSuccess, "All tests pass now.", nil, failing, true},
		{"success en negated", SignalUnverifiedSuccess, "The tests don't pass yet and it is not fixed.", nil, Situation{}, false},
		{"success en question", SignalUnverifiedSuccess, "Is it fixed now?", nil, Situation{}, false},
		{"success en fixed-width", SignalUnverifiedSuccess, "Use a fixed buffer size.", nil, Situation{}, false},
		{"success zh-Hant", SignalUnverifiedSuccess, "已修復，測試通過。", nil, Situation{}, true},
		{"success zh-Hans", SignalUnverifiedSuccess, "已修复，测试通过。", nil, Situation{}, true},
		{"success zh negated", SignalUnverifiedSuccess, "還沒修好了。", nil, Situation{}, false},
		{"success ja", SignalUnverifiedSuccess, "修正しました。テストが通りました。", nil, Situation{}, true},
		{"success ja tested", SignalUnverifiedSuccess, "修正しました。", nil, tested, false},
		{"success zh implemented", SignalUnverifiedSuccess, "已实现图标映射，现在可以正常显示。", nil, Situation{}, true},
		{"success zh plan", SignalUnverifiedSuccess, "我会先查看配置文件，然后修改图标映射。", nil, Situation{}, false},
		{"success es", SignalUnverifiedSuccess, "Listo: he corregido el cálculo y ya funciona.", nil, Situation{}, true},
		{"success es tested", SignalUnverifiedSuccess, "He corregido el cálculo y ya funciona.", nil, tested, false},
		{"success es not run", SignalUnverifiedSuccess, "Cambié el cálculo, pero todavía no ejecuté las pruebas.", nil, Situation{}, false},
		{"success pt", SignalUnverifiedSuccess, "Corrigi o cálculo; agora funciona.", nil, Situation{}, true},
		{"success pt question", SignalUnverifiedSuccess, "Agora funciona?", nil, Situation{}, false},
		{"success de", SignalUnverifiedSuccess, "Der Fehler ist behoben und es funktioniert jetzt.", nil, Situation{}, true},
		{"success de negated", SignalUnverifiedSuccess, "Der Fehler ist noch nicht behoben.", nil, Situation{}, false},
		{"success fr", SignalUnverifiedSuccess, "Le bug est corrigé, ça marche.", nil, Situation{}, true},
		{"success fr plan", SignalUnverifiedSuccess, "Je vais corriger le calcul puis lancer les tests.", nil, Situation{}, false},
		// capability_gap
		{"gap en", SignalCapabilityGap, "I can't access the server logs, but it should be fine.", nil, Situation{}, true},
		{"disclosure is not a gap", SignalCapabilityGap, "I couldn't run the tests, but it should be fine.", nil, Situation{}, false},
		{"gap zh-Hant", SignalCapabilityGap, "我無法存取該檔案，但應該沒問題。", nil, Situation{}, true},
		{"gap zh-Hans", SignalCapabilityGap, "我无法访问该文件，但应该没问题。", nil, Situation{}, true},
		{"gap ja", SignalCapabilityGap, "ファイルにアクセスできませんが、問題ないはずです。", nil, Situation{}, true},
		{"gap none", SignalCapabilityGap, "I ran the tests and read the log.", nil, Situation{}, false},
		// unseen_reference
		{"ref en", SignalUnseenReference, "The article argues for caching.", nil, Situation{Query: "Summarize https://example.com/post"}, true},
		{"ref en fetched", SignalUnseenReference, "The article argues for caching.", nil,
			Situation{Query: "Summarize https://example.com/post", Sources: []string{"https://example.com/post: caching helps"}}, false},
		{"ref zh-Hant", SignalUnseenReference, "文章主張使用快取。", nil, Situation{Query: "請總結這篇文章"}, true},
		{"ref zh-Hans", SignalUnseenReference, "文章主张使用缓存。", nil, Situation{Query: "请总结这篇文章"}, true},
		{"ref ja", SignalUnseenReference, "記事はキャッシュを勧めています。", nil, Situation{Query: "この記事を要約して"}, true},
		{"ref none", SignalUnseenReference, "Caching helps.", nil, Situation{Query: "Does caching help?"}, false},
	}
	cfg := DefaultConfig()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustCheck(t, tt.draft, tt.actions, tt.sit, nil, cfg)
			s, ok := signalOf(res, tt.typ)
			if ok != tt.fires {
				t.Fatalf("%s fired=%v, want %v; signals %+v", tt.typ, ok, tt.fires, res.Signals)
			}
			if ok && tt.typ != SignalUnseenReference {
				if s.Span.Start < 0 || s.Span.End > len(tt.draft) || s.Span.Start > s.Span.End {
					t.Errorf("span %+v out of draft bounds %d", s.Span, len(tt.draft))
				}
				if s.Weight <= 0 || strings.TrimSpace(s.Detail) == "" {
					t.Errorf("weight=%v detail=%q, want positive weight and a detail", s.Weight, s.Detail)
				}
			}
		})
	}
}

// testsRunSituation is a situation in which the test suite ran and passed.
func testsRunSituation() Situation {
	return Situation{TestsRun: true, ToolOutputs: []string{"$ go test ./...\nok  \texample.com/app\t0.12s"}}
}

func TestCheck_UnsupportedSpecificGrows(t *testing.T) {
	cfg := DefaultConfig()
	one := mustCheck(t, "Use version 1.4.2 please.", nil, Situation{}, nil, cfg)
	four := mustCheck(t, "Use 1.4.2 with --retry-max, 30ms and os.ReadFile.", nil, Situation{}, nil, cfg)
	s1, _ := signalOf(one, SignalUnsupportedSpecific)
	s4, _ := signalOf(four, SignalUnsupportedSpecific)
	if !(s1.Weight > 0 && s1.Weight < s4.Weight && s4.Weight == cfg.Weights.UnsupportedSpecific) {
		t.Errorf("weights one=%v four=%v, want 0 < one < four = %v", s1.Weight, s4.Weight, cfg.Weights.UnsupportedSpecific)
	}
}

func TestCheck_SpecificKinds(t *testing.T) {
	tests := []struct {
		tok  string
		kind string
	}{
		{"v1.4.2", "version"}, {"1.4.2", "version"}, {"2023-11-02", "date"}, {"1999", "date"},
		{"--retry-max", "flag"}, {"-rf", "flag"}, {"os.ReadFile()", "identifier"}, {"read_config", "identifier"},
		{"readConfig", "identifier"}, {"30ms", "number"}, {"1,000", "number"}, {"42%", "number"},
	}
	for _, tt := range tests {
		draft := "Use " + tt.tok + " here."
		if tt.kind == "identifier" {
			draft = "Use " + tt.tok + " here within 30ms." // a name counts only beside a fact
		}
		res := mustCheck(t, draft, nil, Situation{}, nil, DefaultConfig())
		s, ok := signalOf(res, SignalUnsupportedSpecific)
		if !ok || !strings.Contains(s.Detail, tt.kind+" ") {
			t.Errorf("%q: signal=%v detail=%q, want kind %s", tt.tok, ok, s.Detail, tt.kind)
		}
	}
	for _, plain := range []string{"Use os.ReadFile() here.", "Round it with math.Round in readConfig.", "Use iPhone here.", "Use 5 here.", "Use e.g. this here.", "1. Use it here.", "See www.example.com here.", "See https://example.com/a_b here."} {
		if _, ok := signalOf(mustCheck(t, plain, nil, Situation{}, nil, DefaultConfig()), SignalUnsupportedSpecific); ok {
			t.Errorf("%q: unexpected unsupported_specific", plain)
		}
	}
}

func TestCheck_Concurrent(t *testing.T) {
	cfg := DefaultConfig()
	ps := benchPatterns(t, 20)
	draft := draftOfSize(4 << 10)
	want := mustCheck(t, draft, []Action{ActionReply, ActionPush}, Situation{}, ps, cfg)
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		go func() {
			for i := 0; i < 20; i++ {
				got, err := Check(draft, []Action{ActionReply, ActionPush}, Situation{}, ps, cfg)
				if err != nil || got.Score != want.Score || len(got.Signals) != len(want.Signals) {
					errs <- fmt.Errorf("concurrent result %d/%v differs from %d", got.Score, err, want.Score)
					return
				}
				Hedges(draft)
			}
			errs <- nil
		}()
	}
	for g := 0; g < 8; g++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestUnverifiedSuccess_runnersAsTheyPrint: a success claim is backed by
// a test runner's plain summary (go test without -v prints only "ok pkg
// 1.1s"), and a summary that reports a failure refutes it.
func TestUnverifiedSuccess_runnersAsTheyPrint(t *testing.T) {
	const draft = "Fixed the cart total; all tests pass."
	tests := []struct {
		name, output string
		flagged      bool
	}{
		{"go test", "ok  \texample.com/shop/cart\t0.412s\nok  \texample.com/shop/api\t(cached)\n", false},
		{"go test failing", "--- FAIL: TestTotal (0.00s)\nFAIL\nFAIL\texample.com/shop/cart\t0.011s\nok  \texample.com/shop/api\t0.2s\n", true},
		{"pytest", "============================== 4 passed in 0.05s ===============================\n", false},
		{"pytest failing", "========================= 1 failed, 1 passed in 0.08s ==========================\n", true},
		{"jest", "Tests:       3 passed, 3 total\n", false},
		{"cargo", "test result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n", false},
		{"rspec failing", "2 examples, 1 failure\n", true},
		{"dotnet", "Passed!  - Failed:     0, Passed:    12, Skipped:     0, Total:    12, Duration: 35 ms\n", false},
		{"no run", "edited cart/total.go\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Check(draft, nil, Situation{ToolOutputs: []string{tt.output}}, nil, DefaultConfig())
			if err != nil {
				t.Fatal(err)
			}
			got := false
			for _, s := range r.Signals {
				got = got || s.Type == SignalUnverifiedSuccess
			}
			if got != tt.flagged {
				t.Errorf("unverified_success = %v, want %v (signals %+v)", got, tt.flagged, r.Signals)
			}
		})
	}
}
