package confidence

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
	"time"
)

// The replay simulation: lessons of known quality, records with realistic
// noise, the whole lifecycle applied in time order; then how well the final
// composites separate good lessons from bad ones, and whether every lesson
// and every piece of evidence is still there.
//
// Noise, fixed before measuring:
//   - popularity is Zipf-like (weight 1/√rank, rank independent of quality),
//     so some lessons are used rarely and decay between uses;
//   - 25% of records do not report the lesson they used (it is only
//     surfaced, giving appraise-derived evidence);
//   - each record surfaces 0–2 other lessons, and 10% of records also
//     report one of them as used (misattributed outcome);
//   - 5% of outcomes are neutral;
//   - sessions of 1–9 records; a lesson used twice in a session is
//     credited one success at most;
//   - in-session feedback: 6% of successes accepted, 10% of failures
//     corrected; 10% of records re-observe their lesson; 1% contradict a
//     random lesson; 0.3% an explicit review of a random lesson that is
//     right 80% of the time;
//   - 120 days with the server off from day 50 to day 80.
type replayConfig struct {
	seed    uint64
	lessons int
	records int
	days    float64 // length of the replay
	offFrom float64 // server off from this day...
	offTo   float64 // ...to this day (equal: never off)
}

type replayResult struct {
	auroc          float64
	before, after  int
	lifecycles     map[Lifecycle]int
	tiers          map[Tier]int
	events         int
	ignored        int
	creditedOK     int // non-ignored applied_success changes
	creditedFail   int
	countedOK      int // sum of Successes over final states
	countedFail    int
	historyChanges int
}

var diag = true
var diagNoStrong = false

func replay(tb testing.TB, rc replayConfig, cfg Config) replayResult {
	tb.Helper()
	rng := rand.New(rand.NewPCG(rc.seed, rc.seed^0x9e3779b97f4a7c15))
	start := t0
	origins := []Origin{OriginUserStated, OriginAgentInferred, OriginAgentInferred, OriginImported}
	states := make(map[string]State, rc.lessons)
	good := make(map[string]bool, rc.lessons)
	ids := make([]string, rc.lessons)
	for i := range rc.lessons {
		id := fmt.Sprintf("L%04d", i)
		ids[i] = id
		good[id] = i%2 == 0
		created := start.Add(-time.Duration(rng.IntN(30*24)) * time.Hour)
		states[id] = New(origins[rng.IntN(len(origins))], created, "seed-"+id, cfg)
		if diagNoStrong && states[id].Origin == OriginUserStated {
			st := states[id]
			st.Verdict, st.StrongApprovals, st.Approvals = VerdictNone, 0, 1
			states[id] = settle(st, created, cfg)
		}
	}
	// Popularity: a random permutation of ranks, weight 1/sqrt(rank).
	cum := make([]float64, rc.lessons)
	total := 0.0
	for i, r := range rng.Perm(rc.lessons) {
		total += 1 / math.Sqrt(float64(r+1))
		cum[i] = total
	}
	pick := func() string {
		x := rng.Float64() * total
		return ids[sort.SearchFloat64s(cum, x)]
	}
	p := func(id string) float64 {
		if good[id] {
			return 0.8
		}
		return 0.2
	}

	// Session start times over 120 days, none while the server is off.
	type rec struct {
		at      time.Time
		session string
	}
	var recs []rec
	for s := 0; len(recs) < rc.records; s++ {
		var day float64
		for {
			day = rng.Float64() * rc.days
			if day < rc.offFrom || day >= rc.offTo {
				break
			}
		}
		at := start.Add(time.Duration(day * float64(24*time.Hour)))
		for k := 1 + rng.IntN(9); k > 0 && len(recs) < rc.records; k-- {
			recs = append(recs, rec{at: at, session: fmt.Sprintf("s%d", s)})
			at = at.Add(time.Duration(1+rng.IntN(20)) * time.Minute)
		}
	}
	slices.SortStableFunc(recs, func(a, b rec) int { return a.at.Compare(b.at) })

	var res replayResult
	res.before = len(states)
	apply := func(id string, e Event) {
		s, chs, err := Apply(states[id], e, cfg)
		if err != nil {
			tb.Fatalf("apply %s to %s: %v", e.Kind, id, err)
		}
		states[id] = s
		res.events++
		res.historyChanges += len(chs)
		ch := chs[len(chs)-1]
		switch {
		case ch.Ignored:
			res.ignored++
		case e.Kind == KindAppliedSuccess:
			res.creditedOK++
		case e.Kind == KindAppliedFailure:
			res.creditedFail++
		}
	}
	for _, r := range recs {
		primary := pick()
		rep := Report{Session: r.session, At: r.at, Result: ResultFailure}
		switch x := rng.Float64(); {
		case x < 0.05:
			rep.Result = ResultNeutral
		case rng.Float64() < p(primary):
			rep.Result = ResultSuccess
		}
		for range rng.IntN(3) {
			rep.Surfaced = append(rep.Surfaced, pick())
		}
		rep.Surfaced = append(rep.Surfaced, primary)
		if rng.Float64() < 0.75 {
			rep.Used = append(rep.Used, primary)
		}
		if len(rep.Surfaced) > 1 && rng.Float64() < 0.10 {
			rep.Used = append(rep.Used, rep.Surfaced[0])
		}
		switch {
		case rep.Result == ResultSuccess && rng.Float64() < 0.06:
			rep.Feedback = FeedbackAccepted
		case rep.Result == ResultFailure && rng.Float64() < 0.10:
			rep.Feedback = FeedbackCorrected
		}
		for _, a := range Attribute(rep) {
			apply(a.LessonID, a.Event)
		}
		if rng.Float64() < 0.10 {
			apply(primary, Event{Kind: KindObserved, At: r.at, Session: r.session})
		}
		if rng.Float64() < 0.01 {
			apply(ids[rng.IntN(len(ids))], Event{Kind: KindContradicted, At: r.at, Session: r.session})
		}
		if rng.Float64() < 0.003 {
			id := ids[rng.IntN(len(ids))]
			k := KindStrongRejected
			if good[id] == (rng.Float64() < 0.8) {
				k = KindStrongApproved
			}
			apply(id, Event{Kind: k, At: r.at})
		}
	}
	end := start.Add(time.Duration(rc.days * float64(24*time.Hour)))
	res.lifecycles, res.tiers = map[Lifecycle]int{}, map[Tier]int{}
	var goodScores, badScores []float64
	for _, id := range ids {
		s, chs := AsOf(states[id], end, cfg)
		states[id] = s
		res.historyChanges += len(chs)
		res.lifecycles[s.Lifecycle]++
		res.tiers[s.Tier]++
		res.countedOK += s.Successes
		res.countedFail += s.Failures
		if good[id] {
			goodScores = append(goodScores, s.Composite)
		} else {
			badScores = append(badScores, s.Composite)
		}
	}
	res.after = len(states)
	res.auroc = auroc(goodScores, badScores)
	if diag {
		var ge, be, gf, bf, gh, bh []float64
		nuse := map[int]int{}
		for _, id := range ids {
			s := states[id]
			sc := s.Scores(cfg)
			nuse[min(s.Successes+s.Failures, 20)]++
			if good[id] {
				ge, gf, gh = append(ge, rawEffectiveness(s, cfg)), append(gf, sc.Frequency), append(gh, sc.Human)
			} else {
				be, bf, bh = append(be, rawEffectiveness(s, cfg)), append(bf, sc.Frequency), append(bh, sc.Human)
			}
		}
		var geff, beff []float64
		arch := [2]int{}
		for _, id := range ids {
			s := states[id]
			v := s.Composite
			if s.Lifecycle == Archived {
				v = -1
				if good[id] {
					arch[0]++
				} else {
					arch[1]++
				}
			}
			if good[id] {
				geff = append(geff, v)
			} else {
				beff = append(beff, v)
			}
		}
		fmt.Printf("effective %.3f archived good/bad %v ", auroc(geff, beff), arch)
		fmt.Printf("auroc composite %.3f rawE %.3f F %.3f H %.3f\nuses histogram %v\n", res.auroc, auroc(ge, be), auroc(gf, bf), auroc(gh, bh), nuse)
	}
	return res
}

// auroc is the probability that a random positive scores above a random
// negative, ties counting one half.
func auroc(pos, neg []float64) float64 {
	if len(pos) == 0 || len(neg) == 0 {
		return math.NaN()
	}
	wins := 0.0
	for _, p := range pos {
		for _, n := range neg {
			switch {
			case p > n:
				wins++
			case p == n:
				wins += 0.5
			}
		}
	}
	return wins / float64(len(pos)*len(neg))
}

func TestAUROC(t *testing.T) {
	if got := auroc([]float64{3, 4}, []float64{1, 2}); got != 1 {
		t.Errorf("separated: %v, want 1", got)
	}
	if got := auroc([]float64{1, 2}, []float64{3, 4}); got != 0 {
		t.Errorf("reversed: %v, want 0", got)
	}
	if got := auroc([]float64{1, 1}, []float64{1, 1}); got != 0.5 {
		t.Errorf("ties: %v, want 0.5", got)
	}
}

func TestReplay(t *testing.T) {
	cfg := DefaultConfig()
	seeds := []uint64{1}
	if !testing.Short() {
		seeds = append(seeds, 2, 3, 42, 2025)
	}
	for _, seed := range seeds {
		t.Run(fmt.Sprint("seed=", seed), func(t *testing.T) {
			res := replay(t, replayConfig{seed: seed, lessons: 1000, records: 10000, days: 120, offFrom: 50, offTo: 80}, cfg)
			t.Logf("AUROC %.4f; lifecycles %v; tiers %v; %d events, %d ignored, %d history rows",
				res.auroc, res.lifecycles, res.tiers, res.events, res.ignored, res.historyChanges)
			if res.auroc < 0.95 {
				t.Errorf("AUROC = %.4f, want ≥ 0.95", res.auroc)
			}
			if res.before != 1000 || res.after != 1000 {
				t.Errorf("lessons before %d after %d, want 1000 and 1000", res.before, res.after)
			}
			n := 0
			for _, c := range res.lifecycles {
				n += c
			}
			if n != 1000 {
				t.Errorf("lifecycle counts sum to %d, want 1000", n)
			}
			if res.countedOK != res.creditedOK || res.countedFail != res.creditedFail {
				t.Errorf("evidence lost: credited %d+ %d−, states hold %d+ %d−",
					res.creditedOK, res.creditedFail, res.countedOK, res.countedFail)
			}
		})
	}
}

func BenchmarkReplay10k(b *testing.B) {
	cfg := DefaultConfig()
	var res replayResult
	for b.Loop() {
		res = replay(b, replayConfig{seed: 1, lessons: 1000, records: 10000, days: 120, offFrom: 50, offTo: 80}, cfg)
	}
	b.ReportMetric(float64(res.events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(res.auroc, "auroc")
}
