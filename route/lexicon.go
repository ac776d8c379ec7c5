package route

import (
	"bufio"
	"embed"
	"fmt"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

// The term lists live in lexicon/*.txt, embedded at build time. Each file is a
// sequence of "[section]" headers followed by one lower-case phrase per line;
// "#" starts a comment. English phrases are matched word by word; Chinese and
// Japanese phrases as substrings. The sections:
//
//	greeting            opens a social message ("hi", "你好", "こんにちは"); matched at the start
//	positive, negative  explicit feedback on the last answer
//	positive_open       approval words that are feedback only when they open a sentence ("great")
//	interrogative       wh-words ("why", "为什么", "なぜ")
//	ask_open            English interrogatives that ask on their own at a sentence start ("why")
//	ask                 English phrases that ask wherever they stand ("how to", "why does")
//	aux                 English auxiliaries that open a yes/no question ("is", "can")
//	subject             words after an opening auxiliary that confirm the question ("you", "it")
//	embed               words before an interrogative that make it an embedded question ("wonder")
//	question            Chinese yes/no forms that need no question mark ("是不是")
//	question_final      Chinese and Japanese sentence-final question particles ("吗", "か")
//	request             request frames ("can you", "帮我", "してください")
//	lead                words skipped at the start of a clause ("now", "然后")
//	imperative          verbs that open a coding request ("fix", "修复", "直して")
//	not_imperative_next English words after an opening verb that show it was a noun ("build fails")
//	implicit_reference  references to earlier shared work ("like last time", "上次", "前回")
//	clarification       phrases of a user restating what they meant ("I meant", "我的意思是")
//	error               words naming a concrete failure ("panic", "报错", "エラー")
//	extension           file-name extensions that mark a path as code (English file only)
//	mask                Chinese and Japanese phrases blanked out before matching ("任何", "何か")
//
//go:embed lexicon/*.txt
var lexiconFS embed.FS

// wordSet matches English phrases, each a sequence of lower-case words,
// against a tokenised message. It is read-only after construction.
type wordSet struct {
	byFirst map[string][][]string // first word → phrases, longest first
}

// matchAt reports the length in words of the longest phrase that starts at
// words[i], or 0 when none does.
func (s wordSet) matchAt(words []string, i int) int {
	for _, p := range s.byFirst[words[i]] {
		if i+len(p) > len(words) {
			continue
		}
		ok := true
		for k := 1; k < len(p); k++ {
			if words[i+k] != p[k] {
				ok = false
				break
			}
		}
		if ok {
			return len(p)
		}
	}
	return 0
}

// has reports whether the single word w is in the set.
func (s wordSet) has(w string) bool {
	for _, p := range s.byFirst[w] {
		if len(p) == 1 {
			return true
		}
	}
	return false
}

func newWordSet(phrases []string) wordSet {
	s := wordSet{byFirst: make(map[string][][]string)}
	for _, ph := range phrases {
		ws := strings.Fields(ph)
		if len(ws) == 0 {
			continue
		}
		s.byFirst[ws[0]] = append(s.byFirst[ws[0]], ws)
	}
	for _, ps := range s.byFirst {
		sort.SliceStable(ps, func(a, b int) bool { return len(ps[a]) > len(ps[b]) })
	}
	return s
}

// cjkSection names one Chinese/Japanese list; a term can sit in several.
type cjkSection uint16

const (
	cjkMask cjkSection = 1 << iota
	cjkGreeting
	cjkPositive
	cjkNegative
	cjkInterrogative
	cjkQuestion
	cjkQuestionFinal
	cjkRequest
	cjkLead
	cjkImperativeZH // clause-initial verb (Chinese)
	cjkImperativeJA // request verb anywhere (Japanese)
	cjkImplicitRef
	cjkClarification
	cjkError
)

// cjkTerm is one Chinese or Japanese phrase and the sections it belongs to.
type cjkTerm struct {
	text     string
	sections cjkSection
}

// cjkSet finds Chinese and Japanese phrases by their first rune.
// It is read-only after construction.
type cjkSet struct {
	byFirst map[rune][]cjkTerm // longest first
}

// matchAt returns the byte length of the longest term of section sec that
// starts at text[i:], or 0.
func (s cjkSet) matchAt(text string, i int, sec cjkSection) int {
	r, _ := utf8.DecodeRuneInString(text[i:])
	for _, tm := range s.byFirst[r] {
		if tm.sections&sec != 0 && strings.HasPrefix(text[i:], tm.text) {
			return len(tm.text)
		}
	}
	return 0
}

func (s *cjkSet) add(text string, sec cjkSection) {
	r, _ := utf8.DecodeRuneInString(text)
	terms := s.byFirst[r]
	for i := range terms {
		if terms[i].text == text {
			terms[i].sections |= sec
			return
		}
	}
	s.byFirst[r] = append(terms, cjkTerm{text: text, sections: sec})
}

// lexicon holds every term list, parsed once from the embedded files.
type lexicon struct {
	greeting, positive, positiveOpen, negative, interrogative wordSet
	ask, askOpen, aux, subject, embed                         wordSet
	request, lead, imperative, notImperativeNext, implicitRef wordSet
	clarification, errorWords                                 wordSet
	extensions                                                map[string]bool
	scanned                                                   map[string]bool // first words of the lists matched at every word
	cjk                                                       cjkSet
	finals                                                    []string // [question_final] terms, longest first
}

// lex returns the parsed lexicon. The embedded files are part of the build, so
// a parse failure is a defect in the source tree (TestLexicon_Parses fails);
// lex panics with the parse error rather than route on empty lists.
var lex = sync.OnceValue(func() *lexicon {
	l, err := parseLexicon()
	if err != nil {
		panic(err)
	}
	return l
})

// parseSections reads one lexicon file into section → phrases.
func parseSections(name string) (map[string][]string, error) {
	f, err := lexiconFS.Open("lexicon/" + name)
	if err != nil {
		return nil, fmt.Errorf("open lexicon %s: %w", name, err)
	}
	defer f.Close()
	out := make(map[string][]string)
	section := ""
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if i := strings.Index(line, "#"); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		switch {
		case line == "":
			continue
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]"):
			section = line[1 : len(line)-1]
			if _, dup := out[section]; dup {
				return nil, fmt.Errorf("lexicon %s:%d: section %q repeated", name, n, section)
			}
			out[section] = nil
		case section == "":
			return nil, fmt.Errorf("lexicon %s:%d: phrase %q before any section", name, n, line)
		default:
			out[section] = append(out[section], normalizePhrase(line))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read lexicon %s: %w", name, err)
	}
	return out, nil
}

// normalizePhrase lower-cases a phrase and folds typographic apostrophes,
// exactly as the tokenizer does for messages.
func normalizePhrase(s string) string {
	return strings.ReplaceAll(strings.ToLower(s), "’", "'")
}

var enSections = []string{"greeting", "positive", "positive_open", "negative", "lead", "interrogative", "ask", "ask_open", "aux",
	"request", "imperative", "not_imperative_next", "implicit_reference", "clarification",
	"error", "extension", "subject", "embed"}

var cjkSections = map[string]cjkSection{
	"mask": cjkMask, "greeting": cjkGreeting, "positive": cjkPositive, "negative": cjkNegative,
	"interrogative": cjkInterrogative, "question": cjkQuestion, "question_final": cjkQuestionFinal,
	"request": cjkRequest, "lead": cjkLead, "implicit_reference": cjkImplicitRef,
	"clarification": cjkClarification, "error": cjkError,
}

func parseLexicon() (*lexicon, error) {
	en, err := parseSections("en.txt")
	if err != nil {
		return nil, err
	}
	known := make(map[string]bool, len(enSections))
	for _, s := range enSections {
		known[s] = true
		if len(en[s]) == 0 {
			return nil, fmt.Errorf("lexicon en.txt: section %q missing or empty", s)
		}
	}
	for s := range en {
		if !known[s] {
			return nil, fmt.Errorf("lexicon en.txt: unknown section %q", s)
		}
	}
	l := &lexicon{
		greeting:          newWordSet(en["greeting"]),
		positive:          newWordSet(en["positive"]),
		negative:          newWordSet(en["negative"]),
		interrogative:     newWordSet(en["interrogative"]),
		ask:               newWordSet(en["ask"]),
		askOpen:           newWordSet(en["ask_open"]),
		positiveOpen:      newWordSet(en["positive_open"]),
		aux:               newWordSet(en["aux"]),
		subject:           newWordSet(en["subject"]),
		embed:             newWordSet(en["embed"]),
		request:           newWordSet(en["request"]),
		lead:              newWordSet(en["lead"]),
		imperative:        newWordSet(en["imperative"]),
		notImperativeNext: newWordSet(en["not_imperative_next"]),
		implicitRef:       newWordSet(en["implicit_reference"]),
		clarification:     newWordSet(en["clarification"]),
		errorWords:        newWordSet(en["error"]),
		extensions:        make(map[string]bool),
		cjk:               cjkSet{byFirst: make(map[rune][]cjkTerm)},
	}
	for _, e := range en["extension"] {
		l.extensions[e] = true
	}
	l.scanned = make(map[string]bool)
	for _, ws := range []wordSet{l.negative, l.positive, l.implicitRef, l.clarification, l.errorWords, l.interrogative} {
		for first := range ws.byFirst {
			l.scanned[first] = true
		}
	}
	for _, file := range []string{"zh.txt", "ja.txt"} {
		secs, err := parseSections(file)
		if err != nil {
			return nil, err
		}
		for name, phrases := range secs {
			sec, ok := cjkSections[name]
			if name == "imperative" {
				ok, sec = true, cjkImperativeZH
				if file == "ja.txt" {
					sec = cjkImperativeJA
				}
			}
			if !ok {
				return nil, fmt.Errorf("lexicon %s: unknown section %q", file, name)
			}
			for _, p := range phrases {
				l.cjk.add(p, sec)
			}
		}
	}
	for _, terms := range l.cjk.byFirst {
		sort.SliceStable(terms, func(a, b int) bool { return len(terms[a].text) > len(terms[b].text) })
		for _, tm := range terms {
			if tm.sections&cjkQuestionFinal != 0 {
				l.finals = append(l.finals, tm.text)
			}
		}
	}
	sort.Slice(l.finals, func(a, b int) bool {
		if len(l.finals[a]) != len(l.finals[b]) {
			return len(l.finals[a]) > len(l.finals[b])
		}
		return l.finals[a] < l.finals[b]
	})
	return l, nil
}
