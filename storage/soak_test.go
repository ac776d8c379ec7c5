package storage

import (
	"context"
	"flag"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/kb"
)

var soakKeepAll = flag.Bool("soak.keep-all", false, "TestSoak: prune nothing, and report the file size instead of checking it")

// Sizes of the soak: its calls, with -short, and under the race detector
// (with a retention of soakRaceTraces traces instead of 2,000).
const (
	soakCalls      = 50_000
	soakShortCalls = 5_000
	soakRaceCalls  = 1_000
	soakRaceTraces = 200
)

// soakBound is the most the database file and its WAL may take in the
// soak: 2,000 traces with their log rows, the calibration's archived
// points and 96 lessons with their history take about 5 MiB (the file
// measured 8.2 MiB after 50,000 calls and 9.2 to 9.4 MiB at its peak, WAL
// included); the rest is headroom for the WAL between checkpoints.
const soakBound = 12 << 20

// TestSoak_retentionBoundsTheFile: 50,000 mixed calls (recall, appraise,
// hesitate, record; 5,000 with -short, 1,000 under -race) with the
// retention applied every 500 calls (every 100 under -race), as a server's
// background loop does, keep the database file (with its WAL) below
// soakBound, while the stats still count every call and the calibration is
// fitted on exactly the verdicts it would be fitted on without pruning.
func TestSoak_retentionBoundsTheFile(t *testing.T) {
	calls, every := soakCalls, 500
	ret := kb.Retention{MaxAge: 7 * 24 * time.Hour, MaxTraces: 2000}
	switch {
	case raceEnabled:
		calls, every, ret.MaxTraces = soakRaceCalls, 100, soakRaceTraces
	case testing.Short():
		calls = soakShortCalls
	}
	if *soakKeepAll {
		ret = kb.Retention{}
	}
	w := newWorkload(t, Options{})
	ctx := context.Background()
	start := time.Now()
	var peak int64
	var pruned kb.PruneReport
	for done := 0; done < calls; done += every {
		w.run(every)
		rep, err := w.db.prune(ctx, w.clock(), ret, 0)
		if err != nil {
			t.Fatal(err)
		}
		pruned.Deleted += rep.Deleted
		pruned.ReclaimedBytes += rep.ReclaimedBytes
		peak = max(peak, fileSize(t, w.db.Path()))
		if n := traceCount(t, w.db); ret.MaxTraces > 0 && n > ret.MaxTraces {
			t.Fatalf("after %d calls: %d traces, retention %d", done+every, n, ret.MaxTraces)
		}
	}
	end := fileSize(t, w.db.Path())
	t.Logf("%d calls in %v: file %.1f MiB at the end, %.1f MiB at its peak; %d traces held, %d deleted, %.1f MiB reclaimed",
		calls, time.Since(start).Round(time.Second), mib(end), mib(peak), traceCount(t, w.db), pruned.Deleted, mib(pruned.ReclaimedBytes))
	if *soakKeepAll {
		return
	}
	if peak > soakBound {
		t.Errorf("the file reached %.1f MiB, bound %.1f MiB", mib(peak), mib(soakBound))
	}
	f := readFigures(t, w.db)
	confirmed, rejected := w.reviewCounts()
	modes := 0
	for _, n := range f.Modes {
		modes += n
	}
	if f.Recall.Calls != w.recalls || f.Appraise.Verdicts != w.appraisals || modes != w.appraisals ||
		f.Hesitation.Calls != w.hesitations || f.Hesitation.Confirmed != confirmed || f.Hesitation.Rejected != rejected {
		t.Errorf("stats count %d recalls, %d verdicts, %d routings, %d hesitations (%d confirmed, %d rejected); the workload made %d, %d, %d, %d (%d, %d)",
			f.Recall.Calls, f.Appraise.Verdicts, modes, f.Hesitation.Calls, f.Hesitation.Confirmed, f.Hesitation.Rejected,
			w.recalls, w.appraisals, w.appraisals, w.hesitations, confirmed, rejected)
	}
	pts, err := w.db.CalibrationPoints(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := w.calibrationPoints(); !reflect.DeepEqual(pts, want) {
		t.Errorf("calibration fitted on %d points, want the workload's %d", len(pts), len(want))
	}
}

// fileSize is the size of the database file and its WAL.
func fileSize(tb testing.TB, path string) int64 {
	tb.Helper()
	var n int64
	for _, p := range []string{path, path + "-wal"} {
		st, err := os.Stat(p)
		if err != nil && !os.IsNotExist(err) {
			tb.Fatal(err)
		}
		if err == nil {
			n += st.Size()
		}
	}
	return n
}

func mib(n int64) float64 { return float64(n) / (1 << 20) }
