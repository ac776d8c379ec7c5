package capture

import (
	"embed"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"
)

//go:embed cues/*.json
var cueFiles embed.FS

// The cue classes a language file may list. Each is a list of phrases,
// matched on token boundaries after tokenize; "*" in a phrase stands for
// any one word.
const (
	// Correction cues, in the user's message.
	clsReject  = "reject"  // the answer or result is wrong: "that's wrong", "not what I asked"
	clsReverse = "reverse" // undo what was done: "revert", "undo", "roll back"
	clsBlame   = "blame"   // the agent's own act, reproached: "you broke", "why did you"
	clsRepeat  = "repeat"  // the request made again: "I told you", "as I said"
	clsSame    = "same"    // nothing changed: "same error", "nothing changed"
	clsStill   = "still"   // persistence: "still", "again", "toujours", "还是"
	clsFailure = "failure" // something fails: "doesn't work", "error", "broken"
	clsDislike = "dislike" // the user does not want what they got: "I don't like", "too much"
	clsInstead = "instead" // a replacement: "instead", "rather than", "not X but"
	clsNegate  = "negate"  // a negated imperative whose object may be the agent's act: "don't", "stop"
	clsFiller  = "filler"  // words that may come before an imperative: "please", "and", "just"
	clsClarify = "clarify" // the user restates what they meant: "I mean", "what I meant"
	clsOpener  = "opener"  // a bare refusal that opens a sentence: "no,", "nope", "non"
	clsPraise  = "praise"  // approval, which makes a correction less likely: "great", "thanks"
	clsNeutral = "neutral" // phrases whose words are not cues: "no problem", "not sure"
	clsDamage  = "damage"  // an act that destroys work: "remove", "delete", "overwrite"
	clsNegated = "negated" // a negated statement: "is not", "no se", "没有"
	clsGeneric = "generic" // words too common to tie a negation to the agent's act

	// Cues in the agent's previous turn.
	clsClaim = "claim" // the agent says it changed or fixed something: "this should fix"

	// Rule cues, in the user's message.
	clsScope      = "scope"       // a standing time scope: "from now on", "going forward"
	clsAdverb     = "adverb"      // "always", "never", "at all": standing when they govern a directive
	clsAgain      = "never_again" // "never again", "don't ever", "不要再"
	clsConvention = "convention"  // the project's way: "in this repo we", "we use"
	clsDirective  = "directive"   // a directive to the agent: "do not", "make sure", "please"
	clsVerb       = "verb"        // a verb of the agent's work, a directive in the imperative: "use", "run"
	clsRemember   = "remember"    // "remember to", "keep in mind"
	clsTransient  = "transient"   // a one-off scope: "for now", "this time"
	clsDescriber  = "describer"   // words before an adverb that make it describe, not direct: "it", "is"
)

// classes lists every class a language file may use, so that a misspelt
// class fails at load rather than silently matching nothing.
var classes = map[string]bool{
	clsReject: true, clsReverse: true, clsBlame: true, clsRepeat: true, clsSame: true,
	clsStill: true, clsFailure: true, clsDislike: true, clsInstead: true, clsNegate: true, clsFiller: true,
	clsClarify: true, clsOpener: true, clsPraise: true, clsNeutral: true, clsGeneric: true, clsDamage: true, clsNegated: true,
	clsClaim: true, clsScope: true, clsAdverb: true, clsAgain: true, clsConvention: true,
	clsDirective: true, clsVerb: true, clsRemember: true, clsTransient: true, clsDescriber: true,
}

// langFile is the shape of one file under cues/.
type langFile struct {
	Lang  string              `json:"lang"`
	About string              `json:"about"`
	Cues  map[string][]string `json:"cues"`
}

// cue is one phrase of one class, tokenized.
type cue struct {
	class string
	lang  string
	toks  []string
}

// directs reports whether a cue holds a verb of the agent's work ("we
// use", "we prefer").
func (c *cue) directs() bool {
	l := lex()
	for _, t := range c.toks {
		if l.verbs[t] {
			return true
		}
	}
	return false
}

// lexicon is every cue of every language, indexed by its first token.
type lexicon struct {
	byFirst map[string][]*cue
	generic map[string]bool
	// verbs are the one-word verb cues of every language: a convention
	// that holds one ("we use", "we prefer") directs by itself.
	verbs map[string]bool
}

// lex returns the lexicon built from the embedded files, on first use (a
// hook process that captures nothing does not pay for it); building it
// cannot fail on the files that are shipped, which a test asserts.
var lex = sync.OnceValue(mustLoad)

func mustLoad() *lexicon {
	l, err := load()
	if err != nil {
		panic(err)
	}
	return l
}

// load reads and indexes the embedded cue files.
func load() (*lexicon, error) {
	entries, err := cueFiles.ReadDir("cues")
	if err != nil {
		return nil, fmt.Errorf("read cues: %w", err)
	}
	l := &lexicon{byFirst: make(map[string][]*cue), generic: make(map[string]bool), verbs: make(map[string]bool)}
	for _, e := range entries {
		name := path.Join("cues", e.Name())
		b, err := cueFiles.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", name, err)
		}
		var f langFile
		if err := json.Unmarshal(b, &f); err != nil {
			return nil, fmt.Errorf("parse %s: %w", name, err)
		}
		for cls, phrases := range f.Cues {
			if !classes[cls] {
				return nil, fmt.Errorf("%s: unknown class %q", name, cls)
			}
			for _, p := range phrases {
				toks := phraseTokens(p)
				if len(toks) == 0 || toks[0] == "*" || toks[len(toks)-1] == "*" {
					return nil, fmt.Errorf("%s: class %s: phrase %q has no anchored word", name, cls, p)
				}
				if cls == clsGeneric {
					for _, t := range toks {
						l.generic[t] = true
					}
					continue
				}
				if cls == clsVerb && len(toks) == 1 {
					l.verbs[toks[0]] = true
				}
				c := &cue{class: cls, lang: f.Lang, toks: toks}
				l.byFirst[toks[0]] = append(l.byFirst[toks[0]], c)
			}
		}
	}
	for _, cs := range l.byFirst {
		// Longer phrases first, so the first match at a position is the longest.
		sort.SliceStable(cs, func(i, j int) bool { return len(cs[i].toks) > len(cs[j].toks) })
	}
	return l, nil
}

// phraseTokens tokenizes a cue phrase; "*" stays a wildcard.
func phraseTokens(p string) []string {
	var out []string
	for i, part := range strings.Split(p, "*") {
		if i > 0 {
			out = append(out, "*")
		}
		for _, t := range tokenize(part) {
			out = append(out, t.norm)
		}
	}
	return out
}

// match is one cue found in a text, as token positions [from, to).
type match struct {
	cue      *cue
	from, to int
}

// find returns every cue of the lexicon found in toks, in order of
// position, the longest first at each position. A cue inside a neutral
// phrase ("error" in "error handling", "don't" in "I don't know") is
// dropped.
func (l *lexicon) find(toks []token) []match {
	var ms []match
	var neutral []match
	for i := range toks {
		for _, c := range l.byFirst[toks[i].norm] {
			if end, ok := c.at(toks, i); ok {
				m := match{cue: c, from: i, to: end}
				ms = append(ms, m)
				if c.class == clsNeutral {
					neutral = append(neutral, m)
				}
			}
		}
	}
	if len(neutral) == 0 {
		return ms
	}
	kept := ms[:0]
	for _, m := range ms {
		if m.cue.class == clsNeutral || !inside(neutral, m) {
			kept = append(kept, m)
		}
	}
	return kept
}

// inside reports whether m lies within one of the spans of ns.
func inside(ns []match, m match) bool {
	for _, n := range ns {
		if n.from <= m.from && m.to <= n.to {
			return true
		}
	}
	return false
}

// at reports whether the cue's phrase starts at toks[i], and where it ends.
func (c *cue) at(toks []token, i int) (int, bool) {
	if i+len(c.toks) > len(toks) {
		return 0, false
	}
	for k, want := range c.toks {
		t := toks[i+k]
		if want == "*" {
			if t.kind != kindWord {
				return 0, false
			}
			continue
		}
		if t.norm != want {
			return 0, false
		}
	}
	return i + len(c.toks), true
}

// anyMasked reports whether any of the tokens [from, to) is set.
func anyMasked(masked []bool, from, to int) bool {
	for k := from; k < to; k++ {
		if masked[k] {
			return true
		}
	}
	return false
}
