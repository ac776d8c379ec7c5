package kb

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// vocabStore is a Store whose only working method is DocFreqs, over a fixed
// vocabulary; it counts lookups.
type vocabStore struct {
	Store
	df      map[string]int
	lookups int
}

func (s *vocabStore) DocFreqs(_ context.Context, ts []string) (map[string]int, error) {
	s.lookups++
	out := map[string]int{}
	for _, t := range ts {
		if n := s.df[t]; n > 0 {
			out[t] = n
		}
	}
	return out, nil
}

var testVocab = map[string]int{
	"argument": 40, "string": 90, "heat": 6, "map": 50, "list": 70, "object": 60,
	"transact": 12, "python": 30, "assert": 8, "file": 80, "storag": 5, "mongo": 4,
	"numpi": 9, "num": 25, "segment": 7, "semant": 3,
}

func TestRepairTerms(t *testing.T) {
	tests := []struct {
		name  string
		in    []string
		want  []string
		reads map[string][]string
	}{
		{"known terms are scored as typed", []string{"python", "string"}, []string{"python", "string"}, nil},
		{"deletion", []string{"arguement"}, []string{"argument"}, map[string][]string{"arguement": {"argument"}}},
		{"transposition", []string{"stirng", "python"}, []string{"string", "python"}, map[string][]string{"stirng": {"string"}}},
		{"an edit is looked up stemmed", []string{"transactoin"}, []string{"transact"}, map[string][]string{"transactoin": {"transact"}}},
		{"run-together words", []string{"heatmap"}, []string{"heat", "map"}, map[string][]string{"heatmap": {"heat", "map"}}},
		{"a stop-word half is dropped", []string{"listswith"}, []string{"list"}, map[string][]string{"listswith": {"list"}}},
		{"a repair already in the query is not repeated", []string{"string", "stirng"}, []string{"string"}, map[string][]string{"stirng": {"string"}}},
		{"both halves the same word", []string{"assertassert"}, []string{"assert"}, map[string][]string{"assertassert": {"assert"}}},
		{"the most used reading wins", []string{"sement"}, []string{"segment"}, map[string][]string{"sement": {"segment"}}},
		{"short terms are left alone", []string{"numy"}, []string{"numy"}, nil},
		{"no reading: kept as typed", []string{"zzyzxq"}, []string{"zzyzxq"}, nil},
		{"long terms are left alone", []string{"stirngstirngstirngstirngs"}, []string{"stirngstirngstirngstirngs"}, nil},
		{"digits and non-ASCII are left alone", []string{"argum3nt", "strïng"}, []string{"argum3nt", "strïng"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, reps, err := repairTerms(context.Background(), &vocabStore{df: testVocab}, tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("terms %v, want %v", got, tt.want)
			}
			reads := map[string][]string{}
			for _, r := range reps {
				reads[r.Term] = r.As
			}
			if len(reads) == 0 {
				reads = nil
			}
			if !reflect.DeepEqual(reads, tt.reads) {
				t.Errorf("repairs %v, want %v", reads, tt.reads)
			}
		})
	}
}

// TestRepairTerms_boundedLookups: a query whose every term is known costs
// one lookup, and one full of unknown terms costs two and repairs at most
// maxRepairs of them.
func TestRepairTerms_boundedLookups(t *testing.T) {
	s := &vocabStore{df: testVocab}
	if _, _, _, err := repairTerms(context.Background(), s, []string{"python", "string"}); err != nil || s.lookups != 1 {
		t.Fatalf("known query: %d lookups (err %v), want 1", s.lookups, err)
	}
	var in []string
	for i := range 3 * maxRepairs {
		in = append(in, fmt.Sprintf("stirng%c", 'a'+i%26)+strings.Repeat("q", i/26))
	}
	s.lookups = 0
	_, _, reps, err := repairTerms(context.Background(), s, in)
	if err != nil || s.lookups != 2 {
		t.Fatalf("unknown query: %d lookups (err %v), want 2", s.lookups, err)
	}
	if len(reps) > maxRepairs {
		t.Errorf("%d repairs, want at most %d", len(reps), maxRepairs)
	}
}

// FuzzRepairTerms: whatever the query, repairs are deterministic, every
// output term is a query term or a vocabulary term with its document
// frequency, and known terms survive.
func FuzzRepairTerms(f *testing.F) {
	for _, s := range []string{"arguement heatmap", "stirng string", "", "ééé zzzzzzzz", "listswith 12345"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		in := strings.Fields(q)
		s := &vocabStore{df: testVocab}
		a, dfs, _, err := repairTerms(context.Background(), s, in)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range a {
			if dfs[x] != testVocab[x] {
				t.Fatalf("document frequency of %q is %d, the vocabulary says %d", x, dfs[x], testVocab[x])
			}
		}
		b, _, _, _ := repairTerms(context.Background(), s, in)
		if !slices.Equal(a, b) {
			t.Fatalf("not deterministic: %v then %v", a, b)
		}
		for _, x := range a {
			if testVocab[x] == 0 && !slices.Contains(in, x) {
				t.Fatalf("term %q is neither in the query %v nor in the vocabulary", x, in)
			}
		}
		for _, x := range in {
			if testVocab[x] > 0 && !slices.Contains(a, x) {
				t.Fatalf("known term %q dropped: %v", x, a)
			}
		}
	})
}
