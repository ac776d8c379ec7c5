package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/appraise"
	"github.com/innate-mcp/innate-mcp/kb"
)

// TestPrune_keepsStatsAndCalibration: pruning a database to a handful of
// traces changes neither a figure of the stats report nor the calibration
// points, and the figures still count every call the workload made.
func TestPrune_keepsStatsAndCalibration(t *testing.T) {
	ctx := context.Background()
	w := newWorkload(t, Options{})
	w.run(600)
	before := readFigures(t, w.db)
	if before.Recall.Calls != w.recalls || before.Appraise.Verdicts != w.appraisals || before.Hesitation.Calls != w.hesitations {
		t.Fatalf("figures before pruning: %d recalls, %d verdicts, %d hesitations; the workload made %d, %d, %d",
			before.Recall.Calls, before.Appraise.Verdicts, before.Hesitation.Calls, w.recalls, w.appraisals, w.hesitations)
	}
	if before.Calibration == 0 || before.Hesitation.Confirmed == 0 || before.Appraise.Calibrated == 0 || len(before.Recall.Top) == 0 {
		t.Fatalf("the workload leaves too little to compare: %+v", before)
	}
	const keep = 50
	rep, err := w.db.prune(ctx, w.clock(), kb.Retention{MaxTraces: keep}, 0)
	if err != nil {
		t.Fatal(err)
	}
	var archived int
	if err := w.db.sql.QueryRow(`SELECT count(*) FROM calibration_archive`).Scan(&archived); err != nil {
		t.Fatal(err)
	}
	if n := traceCount(t, w.db); n != keep || rep.Deleted == 0 || archived == 0 {
		t.Fatalf("after pruning to %d: %d traces, %d calibration points archived; report %+v", keep, n, archived, rep)
	}
	if after := readFigures(t, w.db); !reflect.DeepEqual(after, before) {
		t.Fatalf("figures changed by pruning:\nbefore %+v\nafter  %+v", before, after)
	}
	// A record naming a pruned trace (the first appraisal's) is refused
	// as unknown.
	_, err = w.kb.Record(ctx, kb.RecordRequest{TraceID: w.verdictTrace(0), Outcome: kb.OutcomeSuccess})
	if !errors.Is(err, kb.ErrInput) || !strings.Contains(err.Error(), "unknown") {
		t.Fatalf("record on a pruned trace: %v, want an input error naming it unknown", err)
	}
}

// TestPrune_calibrationArchive: with more calibration points than the
// calibration reads, pruning archives the newest and drops the older ones,
// and the calibration reads the same points.
func TestPrune_calibrationArchive(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	const n = maxCalibrationPoints + 100
	start := time.Now().Add(-time.Hour)
	for from := 0; from < n; from += 1000 {
		err := db.Update(ctx, func(tx kb.Tx) error {
			for i := from; i < min(from+1000, n); i++ {
				id := fmt.Sprintf("t_%05d", i)
				at := start.Add(time.Duration(i) * time.Millisecond)
				if err := tx.InsertTrace(ctx, kb.Trace{ID: id, Tool: "appraise", CreatedAt: at, Request: []byte(`{}`), Response: []byte(`{}`)}); err != nil {
					return err
				}
				v := kb.VerdictRecord{TraceID: id, CreatedAt: at, Mode: appraise.Focus, Valence: appraise.Affirm, Directional: appraise.Affirm,
					Strength: float64(i%97) / 97, Band: appraise.Weak}
				if err := tx.InsertVerdict(ctx, v); err != nil {
					return err
				}
				o := kb.OutcomeSuccess
				if i%3 == 0 {
					o = kb.OutcomeFailure
				}
				if err := tx.SetVerdictOutcome(ctx, id, o, nil, at); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	before, err := db.CalibrationPoints(ctx)
	if err != nil || len(before) != maxCalibrationPoints {
		t.Fatalf("%d calibration points before pruning (%v), want %d", len(before), err, maxCalibrationPoints)
	}
	if _, err := db.prune(ctx, time.Now(), kb.Retention{MaxTraces: 10}, 0); err != nil {
		t.Fatal(err)
	}
	var archived int
	if err := db.sql.QueryRow(`SELECT count(*) FROM calibration_archive`).Scan(&archived); err != nil {
		t.Fatal(err)
	}
	after, err := db.CalibrationPoints(ctx)
	if err != nil || !reflect.DeepEqual(after, before) || archived != maxCalibrationPoints-10 {
		t.Fatalf("after pruning: %d points (%v), equal: %v; %d archived, want %d", len(after), err,
			reflect.DeepEqual(after, before), archived, maxCalibrationPoints-10)
	}
}

// TestPrune_byAge: traces older than MaxAge go, younger ones stay.
func TestPrune_byAge(t *testing.T) {
	ctx := context.Background()
	w := newWorkload(t, Options{})
	w.run(100)
	start := w.clock()
	w.run(50) // the last 50 minutes
	all := traceCount(t, w.db)
	var young int
	if err := w.db.sql.QueryRow(`SELECT count(*) FROM traces WHERE created_at >= ?`, fmtTime(start)).Scan(&young); err != nil {
		t.Fatal(err)
	}
	// Two days after start, a retention of 48 h keeps what came after it.
	rep, err := w.db.prune(ctx, start.Add(48*time.Hour), kb.Retention{MaxAge: 48 * time.Hour}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if n := traceCount(t, w.db); n != young || rep.Deleted != all-young {
		t.Fatalf("prune by age: %d traces left, want the %d younger than 48 h; report %+v", n, young, rep)
	}
}

// TestPrune_batchLimit: a Prune limited to one batch prunes one batch of
// at most kb.PruneBatch traces and says that more may be left.
func TestPrune_batchLimit(t *testing.T) {
	db := openTest(t)
	insertTraces(t, db, 600, 100, time.Now())
	rep, err := db.prune(context.Background(), time.Now(), kb.Retention{MaxTraces: 10}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Batches != 1 || rep.Deleted != kb.PruneBatch || !rep.More {
		t.Fatalf("report %+v; want one batch of %d, more left", rep, kb.PruneBatch)
	}
	if n := traceCount(t, db); n != 600-kb.PruneBatch {
		t.Fatalf("%d traces left, want %d", n, 600-kb.PruneBatch)
	}
}

// TestPrune_reclaimsSpace: pruning most of the traces gives their pages
// back to the file system: the file shrinks and holds no free pages.
func TestPrune_reclaimsSpace(t *testing.T) {
	db := openTest(t)
	insertTraces(t, db, 2000, 4000, time.Now())
	size := func() (pages, free int64) {
		t.Helper()
		if err := db.sql.QueryRow(`PRAGMA page_count`).Scan(&pages); err != nil {
			t.Fatal(err)
		}
		if err := db.sql.QueryRow(`PRAGMA freelist_count`).Scan(&free); err != nil {
			t.Fatal(err)
		}
		return pages, free
	}
	before, _ := size()
	rep, err := db.prune(context.Background(), time.Now(), kb.Retention{MaxTraces: 100}, 0)
	if err != nil {
		t.Fatal(err)
	}
	after, free := size()
	if after*4 > before || free != 0 || rep.ReclaimedBytes <= 0 {
		t.Fatalf("pages %d → %d, %d free; report %+v; want a quarter or less, none free", before, after, free, rep)
	}
}

// TestPrune_convertsOldDatabase: a database created before retention (no
// auto-vacuum) is switched to incremental auto-vacuum by the first Prune
// that finishes, and only by one that finishes.
func TestPrune_convertsOldDatabase(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	raw, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`CREATE TABLE before_retention (x)`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	db, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	autoVacuum := func() (mode int) {
		t.Helper()
		if err := db.sql.QueryRow(`PRAGMA auto_vacuum`).Scan(&mode); err != nil {
			t.Fatal(err)
		}
		return mode
	}
	if m := autoVacuum(); m != 0 {
		t.Fatalf("auto_vacuum = %d before pruning; the test needs an old database (0)", m)
	}
	insertTraces(t, db, 600, 2000, time.Now())
	if rep, err := db.prune(ctx, time.Now(), kb.Retention{MaxTraces: 10}, 1); err != nil || rep.Converted || autoVacuum() != 0 {
		t.Fatalf("unfinished prune: report %+v, err %v, auto_vacuum %d; want no conversion", rep, err, autoVacuum())
	}
	rep, err := db.prune(ctx, time.Now(), kb.Retention{MaxTraces: 10}, 0)
	if err != nil || !rep.Converted || autoVacuum() != 2 || rep.ReclaimedBytes <= 0 {
		t.Fatalf("finished prune: report %+v, err %v, auto_vacuum %d; want converted to 2", rep, err, autoVacuum())
	}
}

// TestOpen_newDatabaseIsIncremental: a new database can hand pages back
// without a VACUUM.
func TestOpen_newDatabaseIsIncremental(t *testing.T) {
	db := openTest(t)
	var mode int
	if err := db.sql.QueryRow(`PRAGMA auto_vacuum`).Scan(&mode); err != nil || mode != 2 {
		t.Fatalf("auto_vacuum = %d (%v), want 2 (incremental)", mode, err)
	}
}

// TestOpen_backgroundPrune: with a PruneInterval the database keeps itself
// within its retention while calls go on, and Close stops the loop.
func TestOpen_backgroundPrune(t *testing.T) {
	w := newWorkload(t, Options{Retention: kb.Retention{MaxTraces: kb.MinRetentionTraces}, PruneInterval: 20 * time.Millisecond})
	insertTraces(t, w.db, kb.MinRetentionTraces+300, 100, w.clock()) // older than the workload's
	w.run(100)                                                       // while the loop prunes
	deadline := time.Now().Add(20 * time.Second)
	for {
		n := traceCount(t, w.db)
		if n <= kb.MinRetentionTraces {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d traces after 20 s, want at most %d", n, kb.MinRetentionTraces)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if f := readFigures(t, w.db); f.Recall.Calls != w.recalls+kb.MinRetentionTraces+300 {
		t.Fatalf("stats count %d recalls, want %d", f.Recall.Calls, w.recalls+kb.MinRetentionTraces+300)
	}
	start := time.Now()
	if err := w.db.Close(); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("Close took %v", d)
	}
}

// TestRetention_Validate: bounds below what the regulator needs are
// refused with the reason; zero means no bound.
func TestRetention_Validate(t *testing.T) {
	for _, tc := range []struct {
		r    kb.Retention
		want string
	}{
		{kb.Retention{}, ""},
		{kb.DefaultRetention(), ""},
		{kb.Retention{MaxAge: 24 * time.Hour}, "keep traces at least 2 days"},
		{kb.Retention{MaxTraces: 10}, "keep at least 1000"},
		{kb.Retention{MaxTraces: -1}, "too small"},
	} {
		err := tc.r.Validate()
		if (err == nil) != (tc.want == "") || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("Validate(%+v) = %v, want %q", tc.r, err, tc.want)
		}
	}
	if _, err := Open(context.Background(), filepath.Join(t.TempDir(), "t.db"), Options{Retention: kb.Retention{MaxTraces: 5}}); err == nil {
		t.Fatal("Open accepted a retention of 5 traces")
	}
}

// insertTraces stores n recall traces with a response of size bytes, one
// millisecond apart, ending at end; each returns the lessons returned.
func insertTraces(tb testing.TB, db *DB, n, size int, end time.Time, returned ...string) {
	tb.Helper()
	res, _ := json.Marshal(map[string]any{"empty": len(returned) == 0, "note": strings.Repeat("x", size)})
	var ret []kb.ReturnedEntry
	for i, id := range returned {
		ret = append(ret, kb.ReturnedEntry{LessonID: id, Rank: i + 1, Score: 0.5})
	}
	for start := 0; start < n; start += 500 {
		err := db.Update(context.Background(), func(tx kb.Tx) error {
			for i := start; i < min(start+500, n); i++ {
				if err := tx.InsertTrace(context.Background(), kb.Trace{ID: fmt.Sprintf("t_%d_%06d", end.UnixNano(), i), Tool: "recall",
					CreatedAt: end.Add(time.Duration(i-n) * time.Millisecond), Request: []byte(`{}`), Response: res, Returned: ret}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			tb.Fatal(err)
		}
	}
}

// BenchmarkPrune_batch times one prune transaction: kb.PruneBatch recall
// traces of 2.7 KB (the size of a recall trace with real lessons), each
// with four returned lessons, folded into the tallies and deleted.
func BenchmarkPrune_batch(b *testing.B) {
	ctx := context.Background()
	db := openTest(b)
	var ids []string
	for _, l := range insert(b, db, docs...) {
		ids = append(ids, l.ID)
	}
	end := time.Now()
	for b.Loop() {
		b.StopTimer()
		end = end.Add(time.Hour)
		insertTraces(b, db, kb.PruneBatch, 2700, end, ids...)
		b.StartTimer()
		if n, err := db.pruneOnce(ctx, fmtTime(end.Add(time.Hour))); err != nil || n != kb.PruneBatch {
			b.Fatalf("pruned %d, %v", n, err)
		}
	}
}

// BenchmarkPrune_oldDatabase times the first Prune of a database created
// before retention holding 15,000 recall traces of 2.7 KB: 10,000 deleted
// by the default retention of 5,000, then the one VACUUM that switches it
// to incremental auto-vacuum. Run with -benchtime=1x.
func BenchmarkPrune_oldDatabase(b *testing.B) {
	ctx := context.Background()
	for b.Loop() {
		b.StopTimer()
		path := filepath.Join(b.TempDir(), "old.db")
		raw, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := raw.Exec(`CREATE TABLE before_retention (x)`); err != nil {
			b.Fatal(err)
		}
		raw.Close()
		db, err := Open(ctx, path, Options{Retention: kb.DefaultRetention()})
		if err != nil {
			b.Fatal(err)
		}
		var ids []string
		for _, l := range insert(b, db, docs...) {
			ids = append(ids, l.ID)
		}
		insertTraces(b, db, 15_000, 2700, time.Now(), ids...)
		before := fileSize(b, path)
		b.StartTimer()
		rep, err := db.Prune(ctx, time.Now(), 0)
		b.StopTimer()
		if err != nil || !rep.Converted || rep.Deleted != 10_000 {
			b.Fatalf("report %+v, %v", rep, err)
		}
		db.Close()
		b.ReportMetric(mib(before), "MiB-before")
		b.ReportMetric(mib(fileSize(b, path)), "MiB-after")
		b.StartTimer()
	}
}
