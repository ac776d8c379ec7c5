package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/innate-mcp/innate-mcp/check"
	"io"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/appraise"
	"github.com/innate-mcp/innate-mcp/hesitation"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/regulate"
	"github.com/innate-mcp/innate-mcp/route"
)

// Fake secrets of real shapes (none is a live credential): self-identifying
// tokens, one in upper case that lower-casing would hide from redaction,
// and a password that only its name marks as one.
const (
	secretGitHub   = "ghp_R7kD2mQ9vX4tL8nB3cF6hJ1pW5sZ0yA2uE9g"
	secretAWS      = "AKIAQ7ZL3RK9TXW2MB5N"
	secretPassword = "Tr0ub4dorX3qLm"
	secretSlack    = "xoxb-2048163957-4096327815-Kq7Vm2Xz9Nb4Lr8Tc3Hw6Jp1"
)

// secretText is the text every string argument of the write test holds.
const secretText = "keep " + secretGitHub + " and " + secretAWS + " out; password=" + secretPassword + "\nslack " + secretSlack

// storedSecrets returns the pieces of secrets (ten bytes or more, in any
// case) that data holds.
func storedSecrets(data string) []string {
	lower := strings.ToLower(data)
	var out []string
	for _, s := range []string{secretGitHub, secretAWS, secretPassword, secretSlack} {
		ls := strings.ToLower(s)
		for i := 0; i+10 <= len(ls); i++ {
			if j := strings.Index(lower, ls[i:i+10]); j >= 0 {
				out = append(out, fmt.Sprintf("%q in …%q…", s[i:i+10], data[max(0, j-60):min(len(data), j+70)]))
				break
			}
		}
	}
	return out
}

// dumpTables returns every value of every row of every table (virtual
// full-text tables and their shadow tables included), one line a row, and
// fails the test on a JSON object or array that is not valid JSON.
func dumpTables(t *testing.T, db *DB) string {
	t.Helper()
	ctx := context.Background()
	rows, err := db.sql.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, name)
	}
	rows.Close()
	var b strings.Builder
	for _, table := range tables {
		rows, err := db.sql.QueryContext(ctx, `SELECT * FROM "`+table+`"`)
		if err != nil {
			t.Fatalf("read %s: %v", table, err)
		}
		cols, _ := rows.Columns()
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatalf("read %s: %v", table, err)
			}
			b.WriteString(table)
			for i, v := range vals {
				b.WriteByte('\t')
				switch v := v.(type) {
				case []byte:
					b.Write(v)
				case string:
					if s := strings.TrimSpace(v); s != "" && (s[0] == '{' || s[0] == '[') && !json.Valid([]byte(s)) {
						t.Errorf("%s.%s holds invalid JSON %q", table, cols[i], v)
					}
					b.WriteString(v)
				default:
					fmt.Fprint(&b, v)
				}
			}
			b.WriteByte('\n')
		}
		rows.Close()
	}
	return b.String()
}

// filler builds arguments for any method: every string holds secretText,
// except the values of enumerations the schema checks.
type filler struct {
	enums map[reflect.Type]string
}

func newFiller() filler {
	return filler{enums: map[reflect.Type]string{
		reflect.TypeFor[kb.Origin]():              string(kb.OriginUserStated),
		reflect.TypeFor[kb.Kind]():                string(kb.KindRule),
		reflect.TypeFor[kb.State]():               string(kb.StateActive),
		reflect.TypeFor[kb.Outcome]():             string(kb.OutcomeFailure),
		reflect.TypeFor[kb.EvidenceKind]():        string(kb.EvidenceFeedback),
		reflect.TypeFor[appraise.Mode]():          string(appraise.Focus),
		reflect.TypeFor[appraise.Valence]():       string(appraise.Caution),
		reflect.TypeFor[appraise.Band]():          "weak",
		reflect.TypeFor[route.Mode]():             string(route.Respond),
		reflect.TypeFor[route.Misroute]():         "missed_clarify",
		reflect.TypeFor[hesitation.Source]():      string(hesitation.SourceUserCorrection),
		reflect.TypeFor[regulate.Kind]():          "change",
		reflect.TypeFor[appraise.AbstainReason](): "",
	}}
}

var fillTime = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// value returns a value of type t with every field set.
func (f filler) value(t reflect.Type, depth int) reflect.Value {
	v := reflect.New(t).Elem()
	if depth > 6 {
		return v
	}
	if e, ok := f.enums[t]; ok {
		v.SetString(e)
		return v
	}
	switch t {
	case reflect.TypeFor[time.Time]():
		v.Set(reflect.ValueOf(fillTime))
		return v
	case reflect.TypeFor[[]byte](), reflect.TypeFor[json.RawMessage]():
		b, _ := json.Marshal(map[string]string{"text": secretText})
		v.SetBytes(b)
		return v
	case reflect.TypeFor[[]float32]():
		v.Set(reflect.ValueOf([]float32{0.6, 0.8}))
		return v
	}
	switch t.Kind() {
	case reflect.String:
		v.SetString(secretText)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(0.5)
	case reflect.Pointer:
		v.Set(f.value(t.Elem(), depth+1).Addr())
	case reflect.Slice:
		v.Set(reflect.Append(v, f.value(t.Elem(), depth+1)))
	case reflect.Array:
		for i := range v.Len() {
			v.Index(i).Set(f.value(t.Elem(), depth+1))
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(t))
		v.SetMapIndex(f.value(t.Key(), depth+1), f.value(t.Elem(), depth+1))
	case reflect.Struct:
		for i := range t.NumField() {
			if t.Field(i).IsExported() {
				v.Field(i).Set(f.value(t.Field(i).Type, depth+1))
			}
		}
	case reflect.Func:
		v.Set(reflect.MakeFunc(t, func([]reflect.Value) []reflect.Value {
			out := make([]reflect.Value, t.NumOut())
			for i := range out {
				out[i] = f.value(t.Out(i), depth+1)
				if t.Out(i) == reflect.TypeFor[error]() {
					out[i] = reflect.Zero(t.Out(i))
				}
			}
			return out
		}))
	}
	return v
}

// args returns the arguments of a call of a method value of type m, whose
// first is a context; over replaces some by position (0 is the context).
func (f filler) args(m reflect.Type, over map[int]any) []reflect.Value {
	in := []reflect.Value{reflect.ValueOf(context.Background())}
	for i := 1; i < m.NumIn(); i++ {
		if v, ok := over[i]; ok {
			in = append(in, reflect.ValueOf(v))
			continue
		}
		in = append(in, f.value(m.In(i), 0))
	}
	return in
}

// writeMethods are the methods that write: each must change the database
// when called with secrets in every argument, and a method that changes it
// must be listed here, so that a new write path is noticed.
var writeMethods = []string{
	// kb.Tx
	"AddContextOutcome", "AddHistory", "CountRecalls", "InsertCorrection", "InsertLesson", "InsertRouting",
	"InsertTrace", "InsertVerdict", "LinkLessons", "LogHesitation", "PutEvidence", "PutPattern",
	"ReviewHesitation", "SetDirectives", "SetMisroute", "SetTraceOutcome", "SetVerdictOutcome", "UpdateLesson",
	"PutChecks", // UpdateCheck writes no text but ids and states, and needs an id PutChecks derives
	// *DB
	"DB.CreateToken", "DB.DeletePattern", "DB.Regulate", "DB.RevokeToken", "DB.SetEmbedderInfo", "DB.SetMeta", "DB.SetMetaDefault", "DB.SetVectors",
}

// TestWrites_redactEveryText calls every method of the store's write
// transactions (kb.Tx) and every exported method of DB with
// a text holding secrets in every string argument and field, then reads
// every column of every table: no piece of a secret may be there, and JSON
// must still be valid. A method added later is called the same way.
func TestWrites_redactEveryText(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "kb.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	f := newFiller()
	over := map[string]map[int]any{
		"LinkLessons":      {3: "contradicts"},
		"ReviewHesitation": {2: "confirmed"},
		"SetTraceOutcome":  {2: kb.OutcomeSuccess},       // InsertTrace stored failure
		"SetMetaDefault":   {1: "default " + secretText}, // a key SetMeta did not set
		"CreateToken": {1: kb.Token{ID: "tok " + secretText, Name: "ci " + secretText, Scope: "write",
			Projects: []string{secretText}, CreatedAt: time.Now()}, 2: "hash " + secretText},
		"RevokeToken": {1: "ci " + secretText}, // found by its name, stored redacted
		"PutChecks":   {2: check.ByPerson},
	}
	skip := map[string]bool{"DB.Close": true}

	type call struct {
		name string
		run  func() error
	}
	var calls []call
	txType := reflect.TypeFor[kb.Tx]()
	for i := range txType.NumMethod() {
		m := txType.Method(i)
		calls = append(calls, call{m.Name, func() error {
			return db.Update(ctx, func(x kb.Tx) error {
				fn := reflect.ValueOf(x).MethodByName(m.Name)
				out := fn.Call(f.args(fn.Type(), over[m.Name]))
				err, _ := out[len(out)-1].Interface().(error)
				return err
			})
		}})
	}
	dbv := reflect.ValueOf(db)
	for i := range dbv.NumMethod() {
		m := dbv.Type().Method(i)
		name := "DB." + m.Name
		if skip[name] {
			continue
		}
		calls = append(calls, call{name, func() error {
			fn := dbv.Method(i)
			ft := fn.Type()
			if ft.NumIn() == 0 || ft.In(0) != reflect.TypeFor[context.Context]() {
				fn.Call(nil)
				return nil
			}
			out := fn.Call(f.args(fn.Type(), over[m.Name]))
			// What a method opens (a Dump's read snapshot) is closed, so
			// that it holds no connection while the writes go on.
			for _, o := range out {
				if c, ok := o.Interface().(io.Closer); ok && (o.Kind() != reflect.Pointer || !o.IsNil()) {
					c.Close()
				}
			}
			if len(out) > 0 {
				err, _ := out[len(out)-1].Interface().(error)
				return err
			}
			return nil
		}})
	}
	sort.Slice(calls, func(i, j int) bool { return calls[i].name < calls[j].name })

	wrote := map[string]bool{}
	errs := map[string]error{}
	rows := map[string]bool{}
	for _, l := range strings.Split(dumpTables(t, db), "\n") {
		rows[l] = true
	}
	// Two rounds, so that a method that needs rows another one writes
	// (a lesson, a trace) finds them the second time.
	for round := range 2 {
		for _, c := range calls {
			errs[c.name] = c.run()
			var changed []string
			after := map[string]bool{}
			for _, l := range strings.Split(dumpTables(t, db), "\n") {
				after[l] = true
				if !rows[l] {
					changed = append(changed, l)
				}
			}
			if len(changed) > 0 || len(after) != len(rows) {
				wrote[c.name] = true
			}
			for _, s := range storedSecrets(strings.Join(changed, "\n")) {
				t.Errorf("round %d, %s stored a secret: %s", round, c.name, s)
			}
			rows = after
		}
	}
	for _, name := range writeMethods {
		if !wrote[name] {
			t.Errorf("%s changed nothing (last error: %v): the test no longer exercises it", name, errs[name])
		}
	}
	for name := range wrote {
		if !slices.Contains(writeMethods, name) {
			t.Errorf("%s writes: add it to writeMethods", name)
		}
	}
	if dump := dumpTables(t, db); !strings.Contains(dump, "[REDACTED:github-token]") || !strings.Contains(dump, "[REDACTED:password]") {
		t.Errorf("no placeholder stored: the secrets were dropped, not redacted")
	}
}

// TestMigrate_redactsSecretsStoredBefore: a database written before every
// write was redacted keeps raw secrets in traces, logs and meta; opening it
// with this build redacts them in place, and leaves the JSON valid.
func TestMigrate_redactsSecretsStoredBefore(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	old, err := openTo(ctx, path, Options{}, 12)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := json.Marshal(map[string]any{"message": secretText})
	// The reading pool bypasses redaction, as the writes of older builds did.
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO traces (id, tool, created_at, request, response) VALUES ('t1', 'record', '2026-01-01T00:00:00Z', ?, ?)`,
			[]any{string(req), `{"note":"` + secretGitHub + `"}`}},
		{`INSERT INTO hesitation_log (trace_id, created_at, score, threshold, confident, held, signals, actions, plan, patterns)
			VALUES ('t1', '2026-01-01T00:00:00Z', 0.5, 0.4, 0, 0, ?, '[]', '[]', '[]')`,
			[]any{`[{"kind":"identifier","detail":"identifier \"` + secretGitHub + `\""}]`}},
		{`INSERT INTO meta (key, value) VALUES ('note', ?)`, []any{secretText}},
		{`INSERT INTO corrections (trace_id, text, keywords, session, created_at) VALUES ('t1', ?, '', '', '2026-01-01T00:00:00Z')`, []any{secretText}},
	} {
		if _, err := old.sql.ExecContext(ctx, q.sql, q.args...); err != nil {
			t.Fatal(err)
		}
	}
	if got := storedSecrets(dumpTables(t, old)); len(got) == 0 {
		t.Fatal("the old database holds no raw secret: the test would prove nothing")
	}
	old.Close()

	db, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got := storedSecrets(dumpTables(t, db)); len(got) > 0 {
		t.Errorf("secrets left after the migration:\n%s", strings.Join(got, "\n"))
	}
	var trace string
	if err := db.sql.QueryRowContext(ctx, `SELECT request FROM traces WHERE id = 't1'`).Scan(&trace); err != nil {
		t.Fatal(err)
	}
	if !json.Valid([]byte(trace)) || !strings.Contains(trace, "message") {
		t.Errorf("redacted request is not the JSON it was: %s", trace)
	}
}
