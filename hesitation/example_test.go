package hesitation_test

import (
	"fmt"
	"time"

	"github.com/innate-mcp/innate-mcp/hesitation"
)

func ExampleCheck() {
	draft := "I fixed the race in cache.go; all tests pass now, so this is clearly the root cause."
	res, err := hesitation.Check(draft, []hesitation.Action{hesitation.ActionReply, hesitation.ActionCommit},
		hesitation.Situation{Query: "Why does TestCache flake?"}, nil, hesitation.DefaultConfig())
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Score)
	for _, s := range res.Signals {
		fmt.Println(s.Type, s.Weight)
	}
	for _, st := range res.Plan {
		fmt.Println(st.Action, st.Behaviour)
	}
	// Output:
	// 50
	// unverified_success 30
	// absolute_claim 20
	// reply hold
	// commit hold
}

func ExampleNewPattern() {
	now := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	msg := "不是有說不要用 rm -rf 刪除資料夾嗎？為何還是用了"
	if ok, cues := hesitation.IsCorrection(msg); ok {
		fmt.Println("correction:", cues)
	}
	p, err := hesitation.NewPattern(msg, "我先用 rm -rf 刪除資料夾。", hesitation.SourceUserCorrection, now)
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Keywords[:3])
	res, err := hesitation.Check("好，用 rm -rf 刪除資料夾 tmp。", nil, hesitation.Situation{Now: now}, []hesitation.Pattern{p}, hesitation.DefaultConfig())
	if err != nil {
		panic(err)
	}
	fmt.Println(res.MatchedPatterns[0] == p.ID, res.Plan[0].Behaviour)
	// Output:
	// correction: [不是有說 為何還是]
	// [rm -rf 刪除]
	// true hold
}

func ExampleHedges() {
	for _, c := range hesitation.Hedges("Some critics argue it is probably one of the finest bridges.") {
		fmt.Println(c.Text, c.Class, c.Strong)
	}
	// Output:
	// Some weasel true
	// critics weasel true
	// argue weasel true
	// probably hedge true
	// one of the finest peacock true
}
