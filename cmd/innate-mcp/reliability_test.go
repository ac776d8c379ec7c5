package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/internal/mcptest"
)

// TestReliability_killNine: procs server processes of the built binary
// serve MCP over stdio on one database, each answering callers concurrent
// callers that record new lessons, while the test kills one of them with
// SIGKILL (kill -9) at random moments and starts another in its place.
// Afterwards SQLite's integrity checks pass and every acknowledged write is
// there: a write is acknowledged when its response was read, and is there
// when its lesson (id and content) and its trace are. A write whose
// response never came, because its server was killed first, may or may not
// be there. Along the way callers record again a lesson that another
// process acknowledged and must get that lesson back as a duplicate: each
// process sees the others' writes on its next call. The figures are logged
// (go test ./cmd/innate-mcp -run TestReliability -v); the seed of the kill
// schedule too.
func TestReliability_killNine(t *testing.T) {
	if testing.Short() {
		t.Skip("kills and restarts server processes for a while")
	}
	const (
		procs     = 3
		callers   = 4
		perCaller = 60
	)
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	db := filepath.Join(t.TempDir(), "kb.db")

	slots := make([]*reliabilitySlot, procs)
	for p := range slots {
		slots[p] = &reliabilitySlot{}
		slots[p].set(startServer(t, db))
	}
	var st reliabilityStats
	var wg sync.WaitGroup
	for p := range procs {
		for w := range callers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				crng := rand.New(rand.NewPCG(seed, uint64(2+p*callers+w)))
				for i := range perCaller {
					content := fmt.Sprintf("Reliable lesson %s of caller %s on process %s.", letters(i), letters(w), letters(p))
					recordUntilSent(t, slots[p], p, &st, content)
					if i%5 == 4 {
						probeDuplicate(t, slots[p], &st, p, crng)
					}
				}
			}()
		}
	}
	finished := make(chan struct{})
	go func() {
		wg.Wait()
		close(finished)
	}()
	deadline := time.After(4 * time.Minute)
	kills := 0
	for running := true; running; {
		select {
		case <-finished:
			running = false
		case <-deadline:
			t.Fatalf("the callers did not finish in 4 minutes (%d kills so far)", kills)
		case <-time.After(time.Duration(50+rng.IntN(250)) * time.Millisecond):
			s := slots[rng.IntN(procs)]
			s.get().kill()
			kills++
			s.set(startServer(t, db))
		}
	}
	for _, s := range slots {
		s.get().close()
	}

	// A new server still writes to the database.
	c := startServer(t, db)
	mcptest.Structured(t, c.tool("record", map[string]any{"lesson": map[string]any{"content": "Reliable lesson written after the kills."}}))
	c.close()

	ctx := context.Background()
	kb := openStore(t, db)
	defer kb.Close()
	q := kb.SQL()
	intact := true // integrity_check, foreign_key_check and the FTS5 check
	rows, err := q.QueryContext(ctx, `PRAGMA integrity_check`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		if line != "ok" {
			t.Errorf("integrity_check: %s", line)
			intact = false
		}
	}
	rows.Close()
	var fkRows int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM pragma_foreign_key_check`).Scan(&fkRows); err != nil {
		t.Fatal(err)
	}
	if fkRows != 0 {
		t.Errorf("foreign_key_check: %d rows point nowhere", fkRows)
		intact = false
	}
	if _, err := q.ExecContext(ctx, `INSERT INTO lessons_fts (lessons_fts) VALUES ('integrity-check')`); err != nil {
		t.Errorf("full-text index integrity-check: %v", err)
		intact = false
	}

	stored := map[string]string{}
	rows, err = q.QueryContext(ctx, `SELECT id, content FROM lessons`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id, content string
		if err := rows.Scan(&id, &content); err != nil {
			t.Fatal(err)
		}
		stored[id] = content
	}
	rows.Close()
	traces := map[string]bool{}
	rows, err = q.QueryContext(ctx, `SELECT id FROM traces WHERE tool = 'record'`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		traces[id] = true
	}
	rows.Close()

	lost := 0
	for _, a := range st.acked {
		if stored[a.lessonID] != a.content || !traces[a.traceID] {
			lost++
			if lost <= 5 {
				t.Errorf("acknowledged write lost: lesson %s (%q), trace %s", a.lessonID, a.content, a.traceID)
			}
		}
	}
	unackedStored := 0
	for _, content := range st.unacked {
		for _, have := range stored {
			if have == content {
				unackedStored++
				break
			}
		}
	}
	t.Logf("%d processes × %d callers × %d records, %d kills -9: %d writes sent, %d acknowledged, %d lost; "+
		"%d in flight at a kill (%d of them stored); %d cross-process duplicate checks; integrity checks pass: %v",
		procs, callers, perCaller, kills, len(st.acked)+len(st.unacked), len(st.acked), lost,
		len(st.unacked), unackedStored, st.probes, intact)
	if kills == 0 {
		t.Error("no process was killed")
	}
}

// reliabilitySlot is one of the test's server processes, replaced by a new
// one when it is killed. Safe for concurrent use.
type reliabilitySlot struct {
	mu sync.Mutex
	c  *rpcClient
}

func (s *reliabilitySlot) get() *rpcClient {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.c
}

func (s *reliabilitySlot) set(c *rpcClient) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.c = c
}

// ackedWrite is a record whose response was read, from the slot of process
// proc.
type ackedWrite struct {
	content, lessonID, traceID string
	proc                       int
}

// reliabilityStats gathers the callers' writes. Safe for concurrent use.
type reliabilityStats struct {
	mu      sync.Mutex
	acked   []ackedWrite
	unacked []string // contents of writes whose server was killed before it answered
	probes  int
}

// startServer spawns a server on db and completes the MCP handshake.
func startServer(t *testing.T, db string) *rpcClient {
	t.Helper()
	c := spawnProcess(t, db)
	c.initialize()
	return c
}

// recordUntilSent records a new lesson on the slot's server, sending it to
// the replacement when the server had been killed before the request was
// written. It notes the write as acknowledged when its response arrives,
// and as unacknowledged when the server dies first.
func recordUntilSent(t *testing.T, s *reliabilitySlot, proc int, st *reliabilityStats, content string) {
	args := map[string]any{"lesson": map[string]any{"content": content}}
	for {
		c := live(s)
		ch, err := c.trySend("tools/call", map[string]any{"name": "record", "arguments": args})
		if err != nil {
			continue // killed meanwhile
		}
		msg, ok := await(t, c, ch)
		if !ok {
			st.mu.Lock()
			st.unacked = append(st.unacked, content)
			st.mu.Unlock()
			return
		}
		res := resultOf(t, msg)
		if res == nil {
			return
		}
		id, _ := res["lesson_id"].(string)
		trace, _ := res["trace_id"].(string)
		if id == "" || trace == "" || res["duplicate"] == true {
			t.Errorf("record %q = %v, want a new lesson", content, res)
			return
		}
		st.mu.Lock()
		st.acked = append(st.acked, ackedWrite{content: content, lessonID: id, traceID: trace, proc: proc})
		st.mu.Unlock()
		return
	}
}

// probeDuplicate records again a lesson that another process acknowledged
// and checks that the slot's server answers with that lesson as a
// duplicate.
func probeDuplicate(t *testing.T, s *reliabilitySlot, st *reliabilityStats, proc int, rng *rand.Rand) {
	st.mu.Lock()
	var others []ackedWrite
	for _, a := range st.acked {
		if a.proc != proc {
			others = append(others, a)
		}
	}
	st.mu.Unlock()
	if len(others) == 0 {
		return
	}
	a := others[rng.IntN(len(others))]
	c := live(s)
	ch, err := c.trySend("tools/call", map[string]any{"name": "record", "arguments": map[string]any{"lesson": map[string]any{"content": a.content}}})
	if err != nil {
		return
	}
	msg, ok := await(t, c, ch)
	if !ok {
		return
	}
	res := resultOf(t, msg)
	if res == nil {
		return
	}
	if res["duplicate"] != true || res["lesson_id"] != a.lessonID {
		t.Errorf("process %d recording lesson %s (acknowledged by process %d) again = %v, want it as a duplicate", proc, a.lessonID, a.proc, res)
	}
	st.mu.Lock()
	st.probes++
	st.mu.Unlock()
}

// live returns the slot's server once it is one the test has not killed:
// a request written to a killed server can still be accepted by its stdin
// for a moment (a thread of the dying process still holds the pipe), but
// no write the test counts is sent to a server it has already killed.
func live(s *reliabilitySlot) *rpcClient {
	for {
		if c := s.get(); !c.killed.Load() {
			return c
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// await waits for the response on ch; ok is false when the server died
// without sending it.
func await(t *testing.T, c *rpcClient, ch chan map[string]any) (map[string]any, bool) {
	select {
	case msg := <-ch:
		return msg, true
	case <-c.done:
		select {
		case msg := <-ch: // answered just before it died
			return msg, true
		default:
			return nil, false
		}
	case <-time.After(60 * time.Second):
		t.Errorf("no response in 60 s (stderr: %s)", c.stderr.String())
		return nil, false
	}
}

// resultOf returns a tool call's structured result, reporting an error
// result or a JSON-RPC error (nil then).
func resultOf(t *testing.T, msg map[string]any) map[string]any {
	res, _ := msg["result"].(map[string]any)
	if res == nil {
		t.Errorf("tools/call: %v", msg)
		return nil
	}
	if isErr, _ := res["isError"].(bool); isErr {
		t.Errorf("record failed: %v", res["content"])
		return nil
	}
	sc, _ := res["structuredContent"].(map[string]any)
	if sc == nil {
		t.Errorf("record: no structured content: %v", res)
	}
	return sc
}
