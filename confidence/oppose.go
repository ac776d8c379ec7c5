package confidence

import (
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/innate-mcp/innate-mcp/terms"
)

// Polarity says whether a claim tells the agent to do something or not to.
// Values are plain data, safe for concurrent use.
type Polarity int8

// The polarities.
const (
	Do   Polarity = 1
	Dont Polarity = -1
)

// Claim is one directive extracted from a lesson's text by [Claims]: its
// polarity, a normalised action key ("use var", "mock databas") and the
// normalised situation it is scoped to ("" when none). Plain value, safe for
// concurrent use.
type Claim struct {
	Polarity  Polarity `json:"polarity"`
	Action    string   `json:"action"`
	Situation string   `json:"situation,omitempty"`
}

// Opposition describes why two texts oppose: the shared action, the
// situations of both claims, and the polarity of the first text's claim.
// Plain value, safe for concurrent use.
type Opposition struct {
	Action     string
	SituationA string
	SituationB string
	PolarityA  Polarity
}

// Opposes reports whether lessons a and b give opposite directives for the
// same action in the same situation: "use X" against "never use X", "don't
// use X", "avoid X", "stop using X", "no X", "X is discouraged", or "prefer
// Y over X" / "use Y instead of X"; Chinese (不要/别/禁止/避免/不 … ,
// 而不是) and Japanese (しない/使わない/避ける/禁止, ではなく) forms too.
// Situations are the clauses introduced by when/if/in/for/… (在…时,
// …場合) or a short "label:" prefix; two claims share a situation when both
// have none or their words overlap by at least half. The check is
// deterministic and symmetric; it recognises phrasing, not meaning, so "use
// tabs" and "use spaces" do not oppose. Safe for concurrent use.
func Opposes(a, b string) (Opposition, bool) {
	ca, cb := Claims(a), Claims(b)
	for _, x := range ca {
		for _, y := range cb {
			if x.Action == y.Action && x.Polarity != y.Polarity && sameSituation(x.Situation, y.Situation) {
				return Opposition{Action: x.Action, SituationA: x.Situation, SituationB: y.Situation, PolarityA: x.Polarity}, true
			}
		}
	}
	return Opposition{}, false
}

// Claims extracts the directives of a lesson's text, one or two per
// sentence (two for preferences such as "prefer X over Y"). Sentences it
// cannot read as a directive yield nothing. Callers that compare one new
// lesson against many can index existing lessons by [Claim.Action]. The
// result is deterministic; safe for concurrent use.
func Claims(text string) []Claim {
	var out []Claim
	for _, sent := range sentences(text) {
		switch script(sent) {
		case scriptJapanese:
			out = append(out, jaClaims(sent)...)
		case scriptChinese:
			out = append(out, zhClaims(sent)...)
		default:
			out = append(out, enClaims(sent)...)
		}
	}
	return out
}

// sentences splits text on sentence ends and line breaks. A '.' ends a
// sentence only before white space or the end, so "fmt.Errorf" survives.
func sentences(text string) []string {
	var out []string
	var b strings.Builder
	rs := []rune(text)
	emit := func() {
		if s := strings.TrimSpace(b.String()); s != "" {
			out = append(out, s)
		}
		b.Reset()
	}
	for i, r := range rs {
		switch {
		case r == '\n' || r == '\r' || r == ';' || r == '!' || r == '?' ||
			r == '。' || r == '！' || r == '？' || r == '；':
			emit()
		case r == '.' && (i+1 == len(rs) || unicode.IsSpace(rs[i+1])):
			emit()
		default:
			b.WriteRune(r)
		}
	}
	emit()
	return out
}

type scriptKind int

const (
	scriptLatin scriptKind = iota
	scriptChinese
	scriptJapanese
)

func script(s string) scriptKind {
	han := false
	for _, r := range s {
		switch {
		case unicode.In(r, unicode.Hiragana, unicode.Katakana):
			return scriptJapanese
		case unicode.Is(unicode.Han, r):
			han = true
		}
	}
	if han {
		return scriptChinese
	}
	return scriptLatin
}

// sameSituation: both empty, or word (or, for CJK, character bigram)
// overlap of at least one half.
func sameSituation(a, b string) bool {
	if a == "" || b == "" {
		return a == b
	}
	if a == b {
		return true
	}
	sa, sb := situationUnits(a), situationUnits(b)
	inter := 0
	for u := range sa {
		if sb[u] {
			inter++
		}
	}
	union := len(sa) + len(sb) - inter
	return union > 0 && 2*inter >= union
}

func situationUnits(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		rs := []rune(w)
		if script(w) == scriptLatin || len(rs) < 2 {
			m[w] = true
			continue
		}
		for i := 0; i+1 < len(rs); i++ {
			m[string(rs[i:i+2])] = true
		}
	}
	return m
}

// English.

type prefixRule struct {
	words    []string
	negate   bool // toggles polarity
	implicit bool // object may follow without a verb: "avoid X" = "avoid using X"
}

// enPrefixes are tried longest first at the start of an action.
var enPrefixes = sync.OnceValue(func() []prefixRule {
	neg := func(p string, implicit bool) prefixRule {
		return prefixRule{words: strings.Fields(p), negate: true, implicit: implicit}
	}
	fill := func(p string) prefixRule { return prefixRule{words: strings.Fields(p)} }
	rules := []prefixRule{
		neg("never", false), neg("don't", false), neg("dont", false), neg("do not", false),
		neg("does not", false), neg("doesn't", false), neg("should not", false),
		neg("shouldn't", false), neg("must not", false), neg("mustn't", false),
		neg("cannot", false), neg("can't", false), neg("not", false), neg("no longer", false),
		neg("avoid", true), neg("stop", true), neg("refrain from", true), neg("no", true),
		neg("forbid", true), neg("ban", true), neg("eliminate", true),
		fill("please"), fill("always"), fill("you"), fill("we"), fill("should"), fill("must"),
		fill("need to"), fill("needs to"), fill("have to"), fill("has to"), fill("make sure to"),
		fill("make sure you"), fill("be sure to"), fill("remember to"), fill("try to"),
		fill("it's best to"), fill("it is best to"), fill("ensure you"), fill("consider"),
		fill("prefer to"), fill("do"), fill("ever"), fill("also"), fill("then"),
	}
	slices.SortStableFunc(rules, func(a, b prefixRule) int { return len(b.words) - len(a.words) })
	return rules
})

var (
	enConditions = set("when", "whenever", "if", "in", "for", "while", "before", "after", "during", "inside", "within", "on", "unless")
	enTrailing   = set("when", "whenever", "if", "while", "unless")
	enUseVerbs   = set("use", "using", "uses", "used", "utilize", "utilise", "employ", "prefer", "favor", "favour", "choose", "pick", "adopt")
	enPreferVerb = set("prefer", "favor", "favour", "choose", "pick")
	enStopwords  = set("a", "an", "the", "your", "our", "their", "its", "all", "some", "always", "just", "really", "explicitly", "directly")
	// enNotVerbs cannot start an imperative: a sentence starting with one
	// is a statement, not a directive.
	enNotVerbs = set("this", "that", "these", "those", "the", "a", "an", "it", "its", "there", "here", "i", "he", "she",
		"they", "my", "our", "your", "their", "is", "are", "was", "were", "be", "will", "would", "can", "could", "may", "might")
	enQualifiers = [][]string{
		strings.Fields("whenever possible"), strings.Fields("where possible"), strings.Fields("if possible"),
		strings.Fields("when possible"), strings.Fields("at all costs"), strings.Fields("at all"),
		strings.Fields("if you can"), strings.Fields("in general"), strings.Fields("by default"),
		{"ever"}, {"anymore"}, {"again"}, {"instead"},
	}
	// enPassive maps a trailing phrase to the polarity it gives its subject.
	enPassive = []struct {
		words []string
		pol   Polarity
	}{
		{strings.Fields("should never be used"), Dont}, {strings.Fields("should not be used"), Dont},
		{strings.Fields("must not be used"), Dont}, {strings.Fields("must never be used"), Dont},
		{strings.Fields("should be avoided"), Dont}, {strings.Fields("must be avoided"), Dont},
		{strings.Fields("is not allowed"), Dont}, {strings.Fields("are not allowed"), Dont},
		{strings.Fields("is discouraged"), Dont}, {strings.Fields("are discouraged"), Dont},
		{strings.Fields("is forbidden"), Dont}, {strings.Fields("are forbidden"), Dont},
		{strings.Fields("is prohibited"), Dont}, {strings.Fields("are prohibited"), Dont},
		{strings.Fields("is banned"), Dont}, {strings.Fields("are banned"), Dont},
		{strings.Fields("should be used"), Do}, {strings.Fields("must be used"), Do},
		{strings.Fields("is recommended"), Do}, {strings.Fields("are recommended"), Do},
		{strings.Fields("is preferred"), Do}, {strings.Fields("are preferred"), Do},
		{strings.Fields("is required"), Do}, {strings.Fields("are required"), Do},
	}
)

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// enTokens lowercases, drops markdown emphasis and code quotes, splits
// commas and colons into their own tokens, and trims other punctuation
// from word edges.
func enTokens(s string) []string {
	s = strings.ToLower(s)
	s = strings.NewReplacer("’", "'", "‘", "'", "**", " ", "__", " ", "`", " ", ",", " , ", "(", " ", ")", " ").Replace(s)
	var out []string
	for _, f := range strings.Fields(s) {
		if f == "," {
			out = append(out, f)
			continue
		}
		if len(f) > 2 && f[0] == '"' && f[len(f)-1] == '"' {
			out = append(out, f[1:len(f)-1]) // a quoted identifier stays verbatim
			continue
		}
		colon := strings.HasSuffix(f, ":")
		f = strings.TrimFunc(f, func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '#' && r != '+' && r != '_' && r != '@' && r != '$'
		})
		if f == "" && !colon {
			continue
		}
		if f != "" {
			out = append(out, f)
		}
		if colon {
			out = append(out, ":")
		}
	}
	// Leading list markers: "-", "1", "*" leave digits only.
	for len(out) > 0 && isNumber(out[0]) {
		out = out[1:]
	}
	return out
}

// isWord reports whether w can be a verb: letters, hyphens, apostrophes.
func isWord(w string) bool {
	for _, r := range w {
		if !unicode.IsLetter(r) && r != '-' && r != '\'' {
			return false
		}
	}
	return w != ""
}

func isNumber(w string) bool {
	for _, r := range w {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return w != ""
}

// looksLikeCode reports whether a sentence is code rather than prose.
func looksLikeCode(s string) bool {
	return strings.ContainsAny(s, "{}") || strings.Contains(s, "=>") || strings.Contains(s, "||") ||
		strings.Contains(s, "&&") || strings.Contains(s, " = ")
}

// isQuotedCode reports whether s is nothing but a `code` span.
func isQuotedCode(s string) bool {
	s = strings.TrimSpace(s)
	return len(s) >= 2 && s[0] == '`' && s[len(s)-1] == '`'
}

func enClaims(sentence string) []Claim {
	if looksLikeCode(sentence) {
		return nil
	}
	toks := enTokens(sentence)
	var situation []string
	// "Label: rest" with a short label. The label is the directive itself
	// when it starts like one ("Never X: why") or the rest is only code
	// ("Authenticate first: `ankra login`"); otherwise it is the situation
	// ("Error handling: wrap errors").
	if i := slices.Index(toks, ":"); i > 0 && i <= 4 {
		_, tail, _ := strings.Cut(sentence, ":")
		if i+1 == len(toks) && enConditions[toks[0]] {
			return nil // a heading such as "When making changes:"
		}
		if _, directive := matchPrefix(toks[:i]); directive || enUseVerbs[toks[0]] || i+1 == len(toks) || isQuotedCode(tail) {
			toks = toks[:i]
		} else {
			situation, toks = append(situation, toks[:i]...), toks[i+1:]
		}
	}
	// "When X, rest".
	if len(toks) > 2 && enConditions[toks[0]] {
		if i := slices.Index(toks, ","); i > 1 && i+1 < len(toks) {
			situation, toks = append(situation, toks[1:i]...), toks[i+1:]
		}
	}
	toks = trimQualifiers(toks)
	// "rest when X".
	for i := 1; i < len(toks); i++ {
		if enTrailing[toks[i]] {
			situation, toks = append(situation, toks[i+1:]...), toks[:i]
			break
		}
	}
	toks = trimQualifiers(toks)
	pol, implicit := Do, false
	for {
		r, ok := matchPrefix(toks)
		if !ok || len(r.words) >= len(toks) {
			break
		}
		toks = toks[len(r.words):]
		if r.negate {
			pol = -pol
			implicit = implicit || r.implicit
		}
	}
	// "X is discouraged", "X should be avoided".
	for _, p := range enPassive {
		if n := len(p.words); len(toks) > n && slices.Equal(toks[len(toks)-n:], p.words) {
			toks = append([]string{"use"}, toks[:len(toks)-n]...)
			pol *= p.pol
			break
		}
	}
	if len(toks) == 0 {
		return nil
	}
	verb, rest := toks[0], toks[1:]
	// "avoid blocking calls" may be a verb ("block calls") or an adjective
	// ("use blocking calls"): claim both readings.
	var alsoUse []string
	if implicit {
		switch {
		case enUseVerbs[verb]:
		case strings.HasSuffix(verb, "ing"):
			alsoUse = toks
		default:
			verb, rest = "use", toks
		}
	}
	if enNotVerbs[verb] || !isWord(verb) {
		return nil
	}
	first, second, swapped := splitPreference(verb, rest)
	sit := normWords(situation)
	var out []Claim
	if a := actionKey(verb, first); a != "" {
		out = append(out, Claim{Polarity: pol, Action: a, Situation: sit})
	}
	if alsoUse != nil && !swapped {
		if a := actionKey("use", alsoUse); a != "" {
			out = append(out, Claim{Polarity: pol, Action: a, Situation: sit})
		}
	}
	if swapped {
		v2 := verb
		if len(second) > 1 && strings.HasSuffix(second[0], "ing") {
			v2, second = second[0], second[1:]
		}
		if a := actionKey(v2, second); a != "" {
			out = append(out, Claim{Polarity: -pol, Action: a, Situation: sit})
		}
	}
	return out
}

func matchPrefix(toks []string) (prefixRule, bool) {
	for _, r := range enPrefixes() {
		if len(toks) >= len(r.words) && slices.Equal(toks[:len(r.words)], r.words) {
			return r, true
		}
	}
	return prefixRule{}, false
}

func trimQualifiers(toks []string) []string {
	for changed := true; changed; {
		changed = false
		for len(toks) > 0 && toks[len(toks)-1] == "," {
			toks, changed = toks[:len(toks)-1], true
		}
		for _, q := range enQualifiers {
			if len(toks) > len(q) && slices.Equal(toks[len(toks)-len(q):], q) {
				toks, changed = toks[:len(toks)-len(q)], true
			}
		}
	}
	return toks
}

// splitPreference splits "X instead of Y", "X rather than Y", "X in favor
// of Y", "X, not Y" and, after prefer-like verbs, "X over Y".
func splitPreference(verb string, rest []string) (first, second []string, ok bool) {
	markers := [][]string{{"instead", "of"}, {"rather", "than"}, {"in", "favor", "of"}, {"in", "favour", "of"}, {",", "not"}}
	if enPreferVerb[verb] {
		markers = append(markers, []string{"over"})
	}
	for i := 1; i < len(rest); i++ {
		for _, m := range markers {
			if i+len(m) < len(rest) && slices.Equal(rest[i:i+len(m)], m) {
				return rest[:i], rest[i+len(m):], true
			}
		}
	}
	return rest, nil, false
}

// actionKey normalises a verb and its object into a comparable key.
func actionKey(verb string, object []string) string {
	if enUseVerbs[verb] {
		verb = "use"
	} else {
		verb = terms.StemLight(verb)
	}
	parts := []string{verb}
	for _, w := range object {
		if w == "," || w == ":" || enStopwords[w] {
			continue
		}
		parts = append(parts, terms.StemLight(w))
	}
	if len(parts) == 1 {
		// Only stop words, e.g. "use any": keep them, they are the object.
		for _, w := range object {
			if w != "," && w != ":" {
				parts = append(parts, w)
			}
		}
	}
	if len(parts) < 2 {
		return ""
	}
	return strings.Join(parts, " ")
}

func normWords(ws []string) string {
	var parts []string
	for _, w := range ws {
		if w == "," || w == ":" || enStopwords[w] {
			continue
		}
		parts = append(parts, terms.StemLight(w))
	}
	return strings.Join(parts, " ")
}
