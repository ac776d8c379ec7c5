package regulate_test

import (
	"fmt"
	"time"

	"github.com/innate-mcp/innate-mcp/regulate"
	"github.com/innate-mcp/innate-mcp/route"
)

func ExamplePlan() {
	reg, err := regulate.DefaultRegistry()
	if err != nil {
		panic(err)
	}
	cfg := regulate.DefaultConfig(reg)
	params := reg.Defaults() // in the server: reg.Resolve(values from the meta table)

	// Yesterday's routing log: users had to repeat themselves after 24 of 200 answers.
	pressures := regulate.RoutingPressures(regulate.RoutingMetrics{
		Decisions: 200,
		ByMode:    map[route.Mode]int{route.Respond: 140, route.Clarify: 30, route.Gather: 20, route.Acknowledge: 10},
		Misroutes: map[route.Misroute]int{route.MissedClarify: 24},
	})
	now := time.Date(2026, 3, 1, 3, 0, 0, 0, time.UTC)
	res := regulate.Plan(now, params, pressures, nil, cfg) // a dry run stops here
	for _, c := range res.Changes {
		fmt.Println(c.Kind, c.Param, c.Before, "→", c.After)
		fmt.Println(c.Reason)
	}
	params = regulate.Apply(params, res.Changes)
	fmt.Println(params["route.clarify.base"])
	// Output:
	// change route.clarify.base 0.3 → 0.32
	// route.misroute.missed_clarify = 0.12 outside [0, 0.05] (severity 0.70, n=200): route.clarify.base 0.3→0.32
	// 0.32
}
