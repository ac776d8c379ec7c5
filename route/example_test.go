package route_test

import (
	"fmt"

	"github.com/innate-mcp/innate-mcp/route"
)

func ExampleRoute() {
	w := route.DefaultWeights()
	cold := route.Warmth{}
	warm := route.Warmth{ResonatingLessons: 4, TopResonance: 0.85, MeanConfidence: 0.8, SessionTraces: 3}

	for _, c := range []struct {
		msg    string
		warmth route.Warmth
	}{
		{"hi", warm},
		{"", warm},
		{"How do I configure the retry policy?", cold},
		{"How do I configure the retry policy?", warm},
		{"前回と同じようにして", cold},
	} {
		d := route.Route(route.Input{Message: c.msg, Warmth: c.warmth}, w)
		fmt.Printf("%-38q %-11s runner-up %-8s ambiguous=%v\n", c.msg, d.Mode, d.RunnerUp, d.Ambiguous)
	}
	// Output:
	// "hi"                                   acknowledge runner-up respond  ambiguous=false
	// ""                                     ignore      runner-up respond  ambiguous=false
	// "How do I configure the retry policy?" clarify     runner-up gather   ambiguous=false
	// "How do I configure the retry policy?" respond     runner-up gather   ambiguous=false
	// "前回と同じようにして"                           gather      runner-up clarify  ambiguous=true
}

func ExampleCheckDistribution() {
	for _, h := range route.CheckDistribution(map[route.Mode]int{route.Respond: 90, route.Clarify: 4, route.Acknowledge: 6}) {
		fmt.Printf("%-11s %.2f %s\n", h.Mode, h.Share, h.Status)
	}
	// Output:
	// respond     0.90 red_high
	// clarify     0.04 low
	// gather      0.00 red_low
	// acknowledge 0.06 ok
	// ignore      0.00 ok
}
