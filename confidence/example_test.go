package confidence_test

import (
	"fmt"
	"time"

	"github.com/innate-mcp/innate-mcp/confidence"
)

// A record reports one used lesson and one that was only shown: the used
// one is credited, the other gets appraise evidence that moves nothing. (A
// first success leaves a fresh lesson's composite where it was: one success
// proves little, so effectiveness holds at the neutral 0.5 until the Wilson
// bound passes it.)
func ExampleAttribute() {
	cfg := confidence.DefaultConfig()
	now := time.Date(2025, 3, 3, 9, 0, 0, 0, time.UTC)
	lessons := map[string]confidence.State{
		"L1": confidence.New(confidence.OriginImported, now.Add(-time.Hour), "", cfg),
		"L2": confidence.New(confidence.OriginImported, now.Add(-time.Hour), "", cfg),
	}
	report := confidence.Report{Session: "s1", At: now, Result: confidence.ResultSuccess,
		Used: []string{"L1"}, Surfaced: []string{"L1", "L2"}}
	for _, a := range confidence.Attribute(report) {
		s, changes, err := confidence.Apply(lessons[a.LessonID], a.Event, cfg)
		if err != nil {
			panic(err)
		}
		lessons[a.LessonID] = s
		ch := changes[len(changes)-1]
		fmt.Printf("%s %s: %.3f → %.3f (%s)\n", a.LessonID, ch.Kind, ch.Before.Composite, ch.After.Composite, ch.Reason)
	}
	// Output:
	// L1 applied_success: 0.430 → 0.430 (applied with success: 1+ 0−)
	// L2 appraised: 0.430 → 0.430 (appraise evidence recorded; it never changes confidence)
}

// A month with the server off: the first read catches up four weekly
// decay periods (one history row per tier change), and a second read at the
// same time changes nothing.
func ExampleAsOf() {
	cfg := confidence.DefaultConfig()
	created := time.Date(2025, 3, 3, 9, 0, 0, 0, time.UTC)
	s := confidence.New(confidence.OriginImported, created, "", cfg)
	s, changes := confidence.AsOf(s, created.AddDate(0, 0, 30), cfg)
	for _, ch := range changes {
		fmt.Println(ch.Reason)
	}
	_, again := confidence.AsOf(s, created.AddDate(0, 0, 30), cfg)
	fmt.Println(len(again), "changes on the second read")
	// Output:
	// decay: 3 periods unused, composite 0.430 → 0.393, tier moderate → tentative
	// decay: 1 period unused, composite 0.393 → 0.381
	// 0 changes on the second read
}

func ExampleOpposes() {
	op, ok := confidence.Opposes("When writing tests, mock the database.", "In tests, never mock the database.")
	fmt.Println(ok, op.Action)
	_, ok = confidence.Opposes("Use tabs.", "Use spaces.")
	fmt.Println(ok)
	// Output:
	// true mock databas
	// false
}
