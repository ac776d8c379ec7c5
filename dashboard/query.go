package dashboard

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/innate-mcp/innate-mcp/confidence"
	"github.com/innate-mcp/innate-mcp/kb"
)

// lessonQuery is what the lessons page shows: a search, filters, an order
// and a page, read from its URL (parseLessonQuery) and written back into
// the links of its column headers and pages (encode).
type lessonQuery struct {
	Q       string
	Project string
	Tier    string
	State   string
	Origin  string
	Tags    []string
	Sort    string
	Desc    bool
	Page    int // from 1
}

// sortColumns are the columns the lessons table sorts by; "score" only
// with a search.
var sortColumns = []string{"score", "id", "content", "state", "tier", "confidence", "origin", "project", "recalls", "uses", "created"}

// Limits on the lessons page's parameters.
const (
	maxQueryParam = kb.MaxQueryBytes
	maxFilter     = 512
	maxPage       = 100000
	pageSize      = 100
)

// parseLessonQuery reads the lessons page's parameters. Every value is
// checked; an error says which parameter is wrong and what it may be.
func parseLessonQuery(v url.Values) (lessonQuery, error) {
	var q lessonQuery
	one := func(name string, limit int) (string, error) {
		vals := v[name]
		if len(vals) > 1 {
			return "", fmt.Errorf("%s is given %d times: give it once", name, len(vals))
		}
		if len(vals) == 0 {
			return "", nil
		}
		s := strings.TrimSpace(vals[0])
		if len(s) > limit {
			return "", fmt.Errorf("%s is %d bytes: the limit is %d", name, len(s), limit)
		}
		if strings.ContainsRune(s, 0) || !validUTF8(s) {
			return "", fmt.Errorf("%s is not text: give UTF-8 without NUL bytes", name)
		}
		return s, nil
	}
	var err error
	if q.Q, err = one("q", maxQueryParam); err != nil {
		return q, err
	}
	if q.Project, err = one("project", maxFilter); err != nil {
		return q, err
	}
	if q.Tier, err = one("tier", maxFilter); err != nil {
		return q, err
	}
	if q.Tier != "" && !slices.Contains(confidence.AllTiers(), confidence.Tier(q.Tier)) {
		return q, fmt.Errorf("tier %q: use one of %s", q.Tier, tierList())
	}
	if q.State, err = one("state", maxFilter); err != nil {
		return q, err
	}
	if q.State != "" && !kb.State(q.State).Valid() {
		return q, fmt.Errorf("state %q: use pending, active or archived", q.State)
	}
	if q.Origin, err = one("origin", maxFilter); err != nil {
		return q, err
	}
	if q.Origin != "" && !slices.Contains(origins, kb.Origin(q.Origin)) {
		return q, fmt.Errorf("origin %q: use user_stated, agent_inferred or imported", q.Origin)
	}
	tags, err := one("tags", maxFilter)
	if err != nil {
		return q, err
	}
	for _, t := range strings.Split(tags, ",") {
		if t = strings.TrimSpace(t); t != "" && !slices.Contains(q.Tags, t) {
			q.Tags = append(q.Tags, t)
		}
	}
	if len(q.Tags) > kb.MaxTags {
		return q, fmt.Errorf("tags: %d given, at most %d", len(q.Tags), kb.MaxTags)
	}
	if q.Sort, err = one("sort", maxFilter); err != nil {
		return q, err
	}
	if q.Sort != "" && !slices.Contains(sortColumns, q.Sort) {
		return q, fmt.Errorf("sort %q: use one of %s", q.Sort, strings.Join(sortColumns, ", "))
	}
	if q.Sort == "score" && q.Q == "" {
		return q, fmt.Errorf("sort score needs a search (q)")
	}
	dir, err := one("dir", maxFilter)
	if err != nil {
		return q, err
	}
	switch dir {
	case "", "asc":
	case "desc":
		q.Desc = true
	default:
		return q, fmt.Errorf("dir %q: use asc or desc", dir)
	}
	page, err := one("page", maxFilter)
	if err != nil {
		return q, err
	}
	q.Page = 1
	if page != "" {
		n, err := strconv.Atoi(page)
		if err != nil || n < 1 || n > maxPage {
			return q, fmt.Errorf("page %q: use a whole number from 1 to %d", page, maxPage)
		}
		q.Page = n
	}
	return q, nil
}

// origins are the lesson origins a filter may name.
var origins = []kb.Origin{kb.OriginUserStated, kb.OriginAgentInferred, kb.OriginImported}

func tierList() string {
	var s []string
	for _, t := range confidence.AllTiers() {
		s = append(s, string(t))
	}
	return strings.Join(s, ", ")
}

func validUTF8(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }

// encode writes the query back as URL parameters, leaving out defaults:
// parseLessonQuery(encode(q)) gives q back.
func (q lessonQuery) encode() url.Values {
	v := url.Values{}
	set := func(k, s string) {
		if s != "" {
			v.Set(k, s)
		}
	}
	set("q", q.Q)
	set("project", q.Project)
	set("tier", q.Tier)
	set("state", q.State)
	set("origin", q.Origin)
	set("tags", strings.Join(q.Tags, ","))
	set("sort", q.Sort)
	if q.Desc {
		v.Set("dir", "desc")
	}
	if q.Page > 1 {
		v.Set("page", strconv.Itoa(q.Page))
	}
	return v
}

// href is the lessons page's URL for q.
func (q lessonQuery) href() string {
	if e := q.encode().Encode(); e != "" {
		return "/lessons?" + e
	}
	return "/lessons"
}

// sortedBy returns q sorted by col: the other direction when q is sorted
// by it already, from the first page.
func (q lessonQuery) sortedBy(col string) lessonQuery {
	desc := defaultDesc(col)
	if q.effectiveSort() == col {
		desc = !q.effectiveDesc()
	}
	q.Sort, q.Desc, q.Page = col, desc, 1
	return q
}

// effectiveSort is the column the table is sorted by: score for a search,
// confidence otherwise, unless the query names one.
func (q lessonQuery) effectiveSort() string {
	switch {
	case q.Sort != "":
		return q.Sort
	case q.Q != "":
		return "score"
	}
	return "confidence"
}

// effectiveDesc is the direction of effectiveSort.
func (q lessonQuery) effectiveDesc() bool {
	if q.Sort == "" {
		return true
	}
	return q.Desc
}

// defaultDesc is the first direction a column sorts in: figures highest
// first, names in alphabetical order.
func defaultDesc(col string) bool {
	switch col {
	case "score", "confidence", "recalls", "uses", "created":
		return true
	}
	return false
}
