package hesitation

import (
	"embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/innate-mcp/innate-mcp/internal/ahocorasick"
	"github.com/innate-mcp/innate-mcp/terms"
)

//go:embed terms/*.json
var termFS embed.FS

// termFiles lists the embedded term lists in a fixed order so that the
// automaton, and therefore every result, is deterministic.
var termFiles = []string{"terms/en.json", "terms/zh.json", "terms/ja.json", "terms/es.json", "terms/pt.json", "terms/de.json", "terms/fr.json"}

// category says what a matched term means to the detectors.
type category uint8

const (
	catHedge category = iota
	catWeasel
	catPeacock
	catQuantifier
	catSuperFrame
	catAbsolute
	catConclusion
	catReasoning
	catSuccess
	catNegation
	catTestPass
	catTestFail
	catTestRun
	catDisclaimer
	catCitation
	catReference
	catCreative
	catCorrection
	catUntested
	catNextStep
	catClosing
	catRejection
	numCategories
)

// term is one entry of the lexicon as the matcher sees it.
type term struct {
	text   string // folded form, as matched
	cat    category
	strong bool   // for cue classes and corrections: sufficient on its own
	lang   string // "en", "zh", "ja"
	latin  bool   // needs word boundaries at Latin-letter ends
}

// strongWeak is a pair of term lists of one cue class.
type strongWeak struct {
	Strong []string `json:"strong"`
	Weak   []string `json:"weak"`
}

// quantifierRules holds the English quantifier lists and the contexts in
// which a quantifier is a measure ("as many", "some 40", "several times")
// rather than a vague reference to a group.
type quantifierRules struct {
	Terms        []string            `json:"terms"`
	NotAfter     []string            `json:"not_after"`
	NotBefore    []string            `json:"not_before"`
	NotAfterOnly map[string][]string `json:"not_after_only"`
}

// superlativeRules holds the "one of the most ..." frame.
type superlativeRules struct {
	Frame        []string `json:"frame"`
	Heads        []string `json:"heads"`
	EstSuffixNot []string `json:"est_suffix_not"`
}

// langFile is the schema of one terms/*.json file.
type langFile struct {
	Lang        string           `json:"lang"`
	About       string           `json:"about"`
	Hedge       strongWeak       `json:"hedge"`
	Weasel      strongWeak       `json:"weasel"`
	Peacock     strongWeak       `json:"peacock"`
	Quantifier  quantifierRules  `json:"quantifier"`
	Months      []string         `json:"months"`
	Superlative superlativeRules `json:"superlative"`
	Absolute    []string         `json:"absolute"`
	Conclusion  []string         `json:"conclusion"`
	Reasoning   []string         `json:"reasoning"`
	Success     []string         `json:"success"`
	Negation    []string         `json:"negation"`
	TestPass    []string         `json:"test_pass"`
	TestFail    []string         `json:"test_fail"`
	TestRun     []string         `json:"test_run"`
	Disclaimer  []string         `json:"disclaimer"`
	Citation    []string         `json:"citation"`
	Reference   []string         `json:"reference"`
	Creative    []string         `json:"creative"`
	Correction  strongWeak       `json:"correction"`
	Untested    []string         `json:"untested"`
	NextStep    []string         `json:"next_step"`
	Closing     []string         `json:"closing"`
	Rejection   []string         `json:"rejection"`
	Stopwords   []string         `json:"stopwords"`
}

// lexicon is the compiled, read-only form of all term files.
type lexicon struct {
	terms  []term
	ac     *ahocorasick.Automaton
	byText [][]int32 // automaton pattern id -> indices into terms

	// English rule tables.
	quantNotAfter     map[string]bool
	quantNotBefore    map[string]bool
	quantNotAfterOnly map[string]map[string]bool
	superHeads        map[string]bool
	months            map[string]bool
	estNot            map[string]bool

	// stopwords for keyword extraction: whole tokens (folded) and single
	// CJK characters that make a bigram uninformative.
	stopwords map[string]bool
	stopRunes map[rune]bool
}

// lex returns the compiled lexicon. It is built once from the embedded
// files; a malformed embedded file is a programming error and panics at
// first use (the tests load it).
var lex = sync.OnceValue(func() *lexicon {
	l, err := buildLexicon()
	if err != nil {
		panic(fmt.Sprintf("hesitation: embedded term lists: %v", err))
	}
	return l
})

// buildLexicon parses the embedded term files and compiles the matcher.
func buildLexicon() (*lexicon, error) {
	l := &lexicon{
		quantNotAfter:     map[string]bool{},
		quantNotBefore:    map[string]bool{},
		quantNotAfterOnly: map[string]map[string]bool{},
		superHeads:        map[string]bool{},
		months:            map[string]bool{},
		estNot:            map[string]bool{},
		stopwords:         map[string]bool{},
		stopRunes:         map[rune]bool{},
	}
	seen := map[term]bool{}
	add := func(lang string, cat category, strong bool, words []string) {
		for _, w := range words {
			f := string(terms.FoldASCII(strings.TrimSpace(w)))
			if f == "" {
				continue
			}
			variants := []string{f}
			if strings.Contains(f, "'") {
				variants = append(variants, strings.ReplaceAll(f, "'", "\u2019"))
			}
			for _, v := range variants {
				t := term{text: v, cat: cat, strong: strong, lang: lang, latin: isLatinTerm(v)}
				if !seen[t] {
					seen[t] = true
					l.terms = append(l.terms, t)
				}
			}
		}
	}
	for _, name := range termFiles {
		b, err := termFS.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", name, err)
		}
		var f langFile
		dec := json.NewDecoder(strings.NewReader(string(b)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&f); err != nil {
			return nil, fmt.Errorf("parse %s: %w", name, err)
		}
		lg := f.Lang
		add(lg, catHedge, true, f.Hedge.Strong)
		add(lg, catHedge, false, f.Hedge.Weak)
		add(lg, catWeasel, true, f.Weasel.Strong)
		add(lg, catWeasel, false, f.Weasel.Weak)
		add(lg, catPeacock, true, f.Peacock.Strong)
		add(lg, catPeacock, false, f.Peacock.Weak)
		add(lg, catQuantifier, true, f.Quantifier.Terms)
		add(lg, catSuperFrame, true, f.Superlative.Frame)
		add(lg, catAbsolute, true, f.Absolute)
		add(lg, catConclusion, true, f.Conclusion)
		add(lg, catReasoning, true, f.Reasoning)
		add(lg, catSuccess, true, f.Success)
		add(lg, catNegation, true, f.Negation)
		add(lg, catTestPass, true, f.TestPass)
		add(lg, catTestFail, true, f.TestFail)
		add(lg, catTestRun, true, f.TestRun)
		add(lg, catDisclaimer, true, f.Disclaimer)
		add(lg, catCitation, true, f.Citation)
		add(lg, catReference, true, f.Reference)
		add(lg, catCreative, true, f.Creative)
		add(lg, catCorrection, true, f.Correction.Strong)
		add(lg, catCorrection, false, f.Correction.Weak)
		add(lg, catUntested, true, f.Untested)
		add(lg, catNextStep, true, f.NextStep)
		add(lg, catClosing, true, f.Closing)
		add(lg, catRejection, true, f.Rejection)
		setOf(l.quantNotAfter, f.Quantifier.NotAfter)
		setOf(l.quantNotBefore, f.Quantifier.NotBefore)
		for q, ws := range f.Quantifier.NotAfterOnly {
			m := map[string]bool{}
			setOf(m, ws)
			l.quantNotAfterOnly[string(terms.FoldASCII(q))] = m
		}
		setOf(l.superHeads, f.Superlative.Heads)
		setOf(l.months, f.Months)
		setOf(l.estNot, f.Superlative.EstSuffixNot)
		for _, w := range f.Stopwords {
			fw := string(terms.FoldASCII(w))
			l.stopwords[fw] = true
			if r := []rune(fw); len(r) == 1 && terms.IsHanKanaBlock(r[0]) {
				l.stopRunes[r[0]] = true
			}
		}
	}
	// Sorting groups equal texts together (one automaton pattern each) and
	// keeps every output deterministic.
	sort.SliceStable(l.terms, func(i, j int) bool { return l.terms[i].text < l.terms[j].text })
	var texts []string
	for i, t := range l.terms {
		if len(texts) == 0 || texts[len(texts)-1] != t.text {
			texts = append(texts, t.text)
			l.byText = append(l.byText, nil)
		}
		l.byText[len(l.byText)-1] = append(l.byText[len(l.byText)-1], int32(i))
	}
	l.ac = ahocorasick.New(texts)
	return l, nil
}

// setOf adds the folded words to m.
func setOf(m map[string]bool, words []string) {
	for _, w := range words {
		m[string(terms.FoldASCII(w))] = true
	}
}

// isLatinTerm reports whether a term starts or ends with an ASCII letter or
// digit, so that matches need word boundaries.
func isLatinTerm(s string) bool {
	return s != "" && (isWordByte(s[0]) || isWordByte(s[len(s)-1]))
}
