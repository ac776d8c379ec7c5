package dashboard

import (
	"net/url"
	"reflect"
	"strings"
	"testing"
)

func TestParseLessonQuery(t *testing.T) {
	ok := []struct {
		in   string
		want lessonQuery
	}{
		{"", lessonQuery{Page: 1}},
		{"q=retry+backoff&project=shop&tier=strong&state=active&origin=user_stated&tags=go,+ci,go&sort=uses&dir=desc&page=3",
			lessonQuery{Q: "retry backoff", Project: "shop", Tier: "strong", State: "active", Origin: "user_stated",
				Tags: []string{"go", "ci"}, Sort: "uses", Desc: true, Page: 3}},
		{"q=x&sort=score", lessonQuery{Q: "x", Sort: "score", Page: 1}},
	}
	for _, c := range ok {
		v, _ := url.ParseQuery(c.in)
		got, err := parseLessonQuery(v)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
	bad := map[string]string{
		"tier=gold":     "tier",
		"state=deleted": "state",
		"origin=rumour": "origin",
		"sort=password": "sort",
		"sort=score":    "needs a search",
		"dir=up":        "dir",
		"page=0":        "page",
		"page=1e9":      "page",
		"q=a&q=b":       "given 2 times",
		"project=%00":   "not text",
		"q=" + strings.Repeat("x", maxQueryParam+1): "limit",
	}
	for in, want := range bad {
		v, _ := url.ParseQuery(in)
		if _, err := parseLessonQuery(v); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want one mentioning %q", in, err, want)
		}
	}
}

func TestLessonQuery_sortedByToggles(t *testing.T) {
	q := lessonQuery{Q: "x", Page: 4}
	s := q.sortedBy("score")
	if s.Sort != "score" || s.Desc || s.Page != 1 {
		t.Errorf("sorting a search by score again: %+v, want ascending from page 1", s)
	}
	if s := (lessonQuery{Page: 1}).sortedBy("id"); s.Desc {
		t.Errorf("id sorts ascending first: %+v", s)
	}
}

// FuzzParseLessonQuery: any query string is refused or parsed into a
// query that encodes back to itself.
func FuzzParseLessonQuery(f *testing.F) {
	for _, s := range []string{"", "q=go+errors&sort=score&dir=desc", "tags=a,b,,c&page=2", "tier=core&state=pending&origin=imported",
		"q=%ff", "page=-1", "project=a%00b", "sort=created&dir=asc"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		v, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		q, err := parseLessonQuery(v)
		if err != nil {
			return
		}
		again, err := parseLessonQuery(q.encode())
		if err != nil {
			t.Fatalf("%q parsed as %+v, whose encoding %q is refused: %v", raw, q, q.encode().Encode(), err)
		}
		if !reflect.DeepEqual(q, again) {
			t.Fatalf("%q: %+v encodes to %q, which parses as %+v", raw, q, q.encode().Encode(), again)
		}
	})
}
