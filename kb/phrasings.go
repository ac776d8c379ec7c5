package kb

import (
	"context"
	"fmt"
	"sync"

	"github.com/innate-mcp/innate-mcp/consult"
	"github.com/innate-mcp/innate-mcp/internal/bm25"
	"github.com/innate-mcp/innate-mcp/internal/vecindex"
	"github.com/innate-mcp/innate-mcp/terms"
)

// phrasings index the situation phrasings consultants wrote for a
// project's rules (Compile.Say), lexically (BM25 over the phrasings as
// documents of their own) and densely (each phrasing embedded), so that
// recall finds a rule from a situation described in other words than the
// rule's. A lesson's channels take the best of its text and its
// phrasings.
type phrasings struct {
	docs  []phrasingDoc
	df    map[string]int
	total int64
}

type phrasingDoc struct {
	lesson string
	tf     map[string]int
	length int
	// distinct are its distinct terms of two bytes or more, but stop
	// words: what a situation must hold of it to be covered (covers).
	distinct []string
	vec      []float32
}

// phrasingCache keeps each project's index, and the lines its consultant
// read as no rule, while the project's compiles are at the same revision
// (consultRevKey), so that a long-lived server embeds a project's
// phrasings once.
type phrasingCache struct {
	mu sync.Mutex
	m  map[string]cachedPhrasings
}

type cachedPhrasings struct {
	rev     string
	idx     *phrasings // nil until built (indexed)
	indexed bool
	notRule map[string]bool
}

// consultRev returns the revision of a project's compiles; ok is false
// when it has none (or the store keeps no settings).
func (k *KB) consultRev(ctx context.Context, project string) (rev string, ok bool, err error) {
	m, has := k.meta()
	if !has || project == "" {
		return "", false, nil
	}
	return m.Meta(ctx, consultRevKey+project)
}

// cached returns the project's cache entry at rev, or a new one.
func (k *KB) cached(project, rev string) cachedPhrasings {
	k.phr.mu.Lock()
	defer k.phr.mu.Unlock()
	if c, ok := k.phr.m[project]; ok && c.rev == rev {
		return c
	}
	return cachedPhrasings{rev: rev}
}

func (k *KB) keepCached(project string, c cachedPhrasings) {
	k.phr.mu.Lock()
	defer k.phr.mu.Unlock()
	if k.phr.m == nil {
		k.phr.m = map[string]cachedPhrasings{}
	}
	k.phr.m[project] = c
}

// phrasingsFor returns the index of a project's phrasings; nil when it has
// none (or the store keeps no settings).
func (k *KB) phrasingsFor(ctx context.Context, project string) (*phrasings, error) {
	rev, ok, err := k.consultRev(ctx, project)
	if err != nil || !ok {
		return nil, err
	}
	c := k.cached(project, rev)
	if c.indexed {
		return c.idx, nil
	}
	crs, err := k.compiledRules(ctx, project)
	if err != nil {
		return nil, err
	}
	idx, err := k.buildPhrasings(ctx, crs)
	if err != nil {
		return nil, err
	}
	c.idx, c.indexed, c.notRule = idx, true, notRules(crs)
	k.keepCached(project, c)
	return idx, nil
}

// notRuleFor returns the lessons of a project whose line its consultant
// read as no rule, without embedding anything (the hooks ask for it on
// every tool call); nil when it has none.
func (k *KB) notRuleFor(ctx context.Context, project string) (map[string]bool, error) {
	rev, ok, err := k.consultRev(ctx, project)
	if err != nil || !ok {
		return nil, err
	}
	c := k.cached(project, rev)
	if c.notRule != nil {
		return c.notRule, nil
	}
	crs, err := k.compiledRules(ctx, project)
	if err != nil {
		return nil, err
	}
	c.notRule = notRules(crs)
	k.keepCached(project, c)
	return c.notRule, nil
}

// compiledRule is a rule lesson of a project with the compile of its
// current text.
type compiledRule struct {
	lesson  string
	compile Compile
}

// compiledRules reads a project's rule lessons that have a compile.
func (k *KB) compiledRules(ctx context.Context, project string) ([]compiledRule, error) {
	compiles, err := k.Compiles(ctx, project)
	if err != nil || len(compiles) == 0 {
		return nil, err
	}
	rules, err := k.projectRules(ctx, project)
	if err != nil {
		return nil, err
	}
	var out []compiledRule
	for _, r := range rules {
		if c, ok := compiles[r.rule.ID]; ok {
			out = append(out, compiledRule{lesson: r.lesson.ID, compile: c})
		}
	}
	return out, nil
}

// notRules are the lessons whose line a consultant read as no rule.
func notRules(crs []compiledRule) map[string]bool {
	out := map[string]bool{}
	for _, cr := range crs {
		if cr.compile.Is != consult.IsRule {
			out[cr.lesson] = true
		}
	}
	return out
}

// buildPhrasings embeds the phrasings of a project's compiled rules; nil
// when it has none compiled.
func (k *KB) buildPhrasings(ctx context.Context, crs []compiledRule) (*phrasings, error) {
	if len(crs) == 0 {
		return nil, nil
	}
	idx := &phrasings{df: map[string]int{}}
	var texts []string
	for _, cr := range crs {
		c := cr.compile
		if c.Is != consult.IsRule {
			continue
		}
		for _, s := range c.Say {
			d := phrasingDoc{lesson: cr.lesson, tf: map[string]int{}}
			for _, t := range terms.Tokens(s) {
				if d.tf[t] == 0 {
					idx.df[t]++
				}
				d.tf[t]++
				d.length++
			}
			for t := range terms.Distinct(s) {
				d.distinct = append(d.distinct, t)
			}
			idx.total += int64(d.length)
			idx.docs = append(idx.docs, d)
			texts = append(texts, DenseText(s))
		}
	}
	if len(idx.docs) == 0 {
		return idx, nil
	}
	vecs, err := k.emb.EmbedBatch(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("embed the rules' phrasings: %w", err)
	}
	if len(vecs) != len(texts) {
		return nil, fmt.Errorf("embed the rules' phrasings: %d vectors for %d texts", len(vecs), len(texts))
	}
	for i := range idx.docs {
		idx.docs[i].vec = vecs[i]
	}
	return idx, nil
}

// lift raises the candidates' lexical and trigger channels to the best of
// their phrasings' (raw query terms, before typo repair: a phrasing holds
// words the rules do not). The dense value is centred as the lesson's
// content value is: by the difference of its centred and raw cosines. It
// returns the lessons one of whose phrasings the situation covers (holds
// coverShare of its terms, and at least coverTerms): recall returns them
// as it returns a rule whose statement the situation covers.
func (p *phrasings) lift(cands []Candidate, qterms []string, vec []float32) map[string]bool {
	if p == nil || len(p.docs) == 0 {
		return nil
	}
	held := make(map[string]bool, len(qterms))
	for _, t := range qterms {
		held[t] = true
	}
	covered := map[string]bool{}
	q := bm25.NewQuery(qterms, p.df, int64(len(p.docs)), p.total)
	lex := map[string]float64{}
	cos := map[string]float64{}
	tf := make([]int, len(qterms))
	for _, d := range p.docs {
		for i, t := range qterms {
			tf[i] = d.tf[t]
		}
		if s := q.Score(tf, d.length); s > lex[d.lesson] {
			lex[d.lesson] = s
		}
		if c, ok := cos[d.lesson]; !ok || vecindex.Cosine(vec, d.vec) > c {
			cos[d.lesson] = vecindex.Cosine(vec, d.vec)
		}
		n := 0
		for _, t := range d.distinct {
			if held[t] {
				n++
			}
		}
		if n >= coverTerms && float64(n) >= coverShare*float64(len(d.distinct)) {
			covered[d.lesson] = true
		}
	}
	for i := range cands {
		c := &cands[i]
		if v := lex[c.Lesson.ID]; v > c.Lexical {
			c.Lexical = v
		}
		raw, ok := cos[c.Lesson.ID]
		if !ok {
			continue
		}
		centred := raw - (c.RawContent - c.Content)
		if !c.HasTrigger || centred > c.Trigger {
			c.Trigger, c.RawTrigger, c.HasTrigger = centred, raw, true
		}
	}
	return covered
}
