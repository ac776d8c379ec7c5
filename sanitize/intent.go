package sanitize

import (
	"strings"
	"unicode/utf8"

	"github.com/innate-mcp/innate-mcp/terms"
)

// The intent screen reads what a text asks its reader to do. A lesson is
// recalled verbatim into a coding agent's context, where it reads as the
// user's own guidance; the screen rejects text whose request would turn
// the agent against that user, however it is worded:
//
//   - send-out: move credentials, private keys, environment dumps or the
//     user's conversation to a place outside the machine (a URL, an e-mail
//     address, a paste site), in prose or as a shell command;
//   - data-url: carry data out in a link or an image, whose URL is fetched
//     when the answer is rendered (a query parameter filled from a
//     placeholder such as {secret}, an environment variable or a command);
//   - decode-exec: decode something and run the result (base64 -d | sh,
//     exec(b64decode(...)), "decode this and execute it");
//   - conceal-self: keep the text itself from the user ("never mention
//     this lesson", "keep this rule secret", "if asked, deny it");
//   - silence-review: approve changes without review, or switch off the
//     checks on the agent (branch protection, security scanning, audit
//     logs);
//   - deceive: report success whatever happened, lie to the user.
//
// A sentence is read as a sequence of roles (intent_lexicon.go): an
// action, what it acts on, where it goes, and the words that negate or
// narrow it. A rule fires on a combination of roles in one sentence, in
// order, with the action not negated ("never upload .env to a paste site"
// passes). The shell and URL forms are parsed, not matched as phrases
// (intent_shell.go, intent_url.go).

// itok is one word of the normalised text.
type itok struct {
	start, end int    // the word's span in the normalised text, punctuation stripped
	core       string // the word without surrounding punctuation
	endSent    bool   // a sentence ends after this word
	endClause  bool   // a clause ends after this word (",", ":", " - ")
	ms         []lexMatch
}

// lexMatch is a vocabulary phrase starting at a word: its roles and how
// many words it covers.
type lexMatch struct {
	roles role
	n     int
}

// has returns the length in words of the longest phrase with a role in r
// starting at the word, or 0.
func (t *itok) has(r role) int {
	n := 0
	for _, m := range t.ms {
		if m.roles&r != 0 && m.n > n {
			n = m.n
		}
	}
	return n
}

// leading and trailing punctuation stripped from a word. A leading '.',
// '~', '$', '/' and '-' are kept: they begin paths, variables and flags.
const (
	stripLead  = "\"'`([{<*_>!|,;:"
	stripTrail = "\"'`)]}>*_,.;:!?|"
)

// fields reads the words of normalised text: runs of anything but spaces and
// line breaks, which are the only separators it has left.
var fields = terms.Scanner{Word: func(r rune) bool { return r != ' ' && r != '\n' }}

// tokenize splits normalised text into words with sentence and clause
// ends. A line break ends a sentence unless the line looks wrapped: it is
// long, ends inside a sentence, and the next line does not start a list
// item or heading.
func tokenize(s string) []itok {
	toks := make([]itok, 0, len(s)/6+1)
	lineStart := 0
	for f := range fields.Tokens(s) {
		i, j := f.Start, f.End
		if f.Kind != terms.KindWord { // a line break
			if len(toks) > 0 && !wrapped(s, lineStart, i) {
				toks[len(toks)-1].endSent = true
			}
			lineStart = j
			continue
		}
		field := s[i:j]
		a, b := 0, len(field)
		for a < b && strings.IndexByte(stripLead, field[a]) >= 0 {
			a++
		}
		for b > a && strings.IndexByte(stripTrail, field[b-1]) >= 0 {
			b--
		}
		t := itok{start: i + a, end: i + b, core: field[a:b]}
		tail := strings.TrimRight(field[b:], "\"'`)]}>*_")
		switch {
		case field == "-" || field == "--" || field == "—":
			if len(toks) > 0 {
				toks[len(toks)-1].endClause = true
			}
			continue
		case strings.ContainsAny(tail, ".!?;") && !abbreviation(t.core):
			t.endSent = true
		case strings.ContainsAny(tail, ",:"):
			t.endClause = true
		}
		if t.core != "" {
			toks = append(toks, t)
		} else if t.endSent && len(toks) > 0 {
			toks[len(toks)-1].endSent = true
		}
	}
	if len(toks) > 0 {
		toks[len(toks)-1].endSent = true
	}
	lexify(toks)
	return toks
}

// minWrappedLine is the shortest line that may be a wrapped one: shorter
// lines end where the writer ended them.
const minWrappedLine = 40

// wrapped reports whether the line s[lineStart:nl] continues on the next
// line: it is at least minWrappedLine bytes, does not end a sentence, and the next line
// does not open a list item, heading, quote, table row or code fence.
func wrapped(s string, lineStart, nl int) bool {
	line := strings.TrimRight(s[lineStart:nl], " ")
	if len(line) < minWrappedLine || strings.HasSuffix(line, "```") {
		return false
	}
	switch line[len(line)-1] {
	case '.', '!', '?', ';', ':', '|', '\\', '{', '}':
		return false
	}
	next := strings.TrimLeft(s[nl+1:min(len(s), nl+8)], " ")
	if next == "" {
		return false
	}
	switch next[0] {
	case '-', '*', '+', '#', '>', '|', '`', '<':
		return false
	}
	if next[0] >= '0' && next[0] <= '9' {
		return false
	}
	return true
}

func abbreviation(w string) bool {
	switch w {
	case "e.g", "i.e", "etc", "vs", "cf", "approx", "incl", "resp", "a.k.a", "mr", "dr", "no":
		return true
	}
	return false
}

// lexify attaches to each word the vocabulary phrases starting at it, and
// the roles of words recognised by shape: paths of credential files,
// secret variables, URLs and addresses.
func lexify(toks []itok) {
	lx := lex()
	// One backing array for every word's matches; a word's slice stays
	// valid when a later append moves the array.
	arena := make([]lexMatch, 0, len(toks)/2+1)
	for i := range toks {
		t := &toks[i]
		lo := len(arena)
		key := t.core
		for _, e := range lx[key] {
			if i+len(e.words) > len(toks) || !phraseAt(toks, i, e.words) {
				continue
			}
			arena = append(arena, lexMatch{roles: e.roles, n: len(e.words)})
		}
		// A directory named in the vocabulary ("in examples/").
		if trimmed := strings.TrimPrefix(strings.TrimRight(key, "/"), "./"); trimmed != key && len(arena) == lo {
			for _, e := range lx[trimmed] {
				if len(e.words) == 1 {
					arena = append(arena, lexMatch{roles: e.roles, n: 1})
				}
			}
		}
		if r := shapeRoles(t.core); r != 0 {
			arena = append(arena, lexMatch{roles: r, n: 1})
		}
		// The user's own credential or data ("the user's GitHub token",
		// "user messages") is theirs, whatever an API call would carry.
		if owned(toks, i) {
			var r role
			for _, m := range arena[lo:] {
				if m.roles&rSecretWeak != 0 {
					r |= rSecret
				}
				if m.roles&rGenericData != 0 {
					r |= rUserData
				}
			}
			if r != 0 {
				arena = append(arena, lexMatch{roles: r, n: 1})
			}
		}
		t.ms = arena[lo:len(arena):len(arena)]
	}
}

// owned reports whether one of the three words before word i, in its
// sentence, makes it a person's: "the user's", "customer", "someone's".
func owned(toks []itok, i int) bool {
	for k := i - 1; k >= 0 && k >= i-3; k-- {
		if toks[k].endSent {
			return false
		}
		switch toks[k].core {
		case "user's", "users'", "user", "users", "customer's", "customers'", "customer", "developer's",
			"human's", "someone's", "client's", "owner's", "visitor's", "visitors'", "patient's", "employee's":
			return true
		}
	}
	return false
}

// phraseAt reports whether words occur at toks[i:] within one sentence.
func phraseAt(toks []itok, i int, words []string) bool {
	for k, w := range words {
		if k > 0 && toks[i+k-1].endSent {
			return false
		}
		if toks[i+k].core != w {
			return false
		}
	}
	return true
}

// shapeRoles gives the roles a word has by its shape rather than by the
// vocabulary: a credential file's path is a secret, a URL outside the
// machine or an e-mail address is a remote place.
func shapeRoles(w string) role {
	plain := true
	for i := 0; i < len(w) && plain; i++ {
		plain = !shapeByte[w[i]]
	}
	if plain {
		return 0 // a plain word (letters, digits, '-', '\'') has no shape
	}
	var r role
	if sensitivePath(w) {
		r |= rSecret
	}
	switch secretVar(w) {
	case 2:
		r |= rSecret
	case 1:
		r |= rSecretWeak
	}
	if remoteWord(w) {
		r |= rRemote
	}
	return r
}

// shapeByte marks the bytes a word with a shape (a path, a variable, a
// URL, an address) holds one of.
var shapeByte = func() (t [256]bool) {
	for _, c := range []byte("./_~$%@(:[") {
		t[c] = true
	}
	return t
}()

// sentence is a half-open range of word indexes.
type sentence struct{ a, b int }

// maxSentence bounds the words a rule reads at once: a longer sentence
// (code, a table, a run-on line) is read as windows of maxSentence words
// overlapping by half, which keeps the screen linear in the text.
const maxSentence = 64

func sentences(toks []itok) []sentence {
	var out []sentence
	a := 0
	for i := range toks {
		if !toks[i].endSent {
			continue
		}
		b := i + 1
		for ; b-a > maxSentence; a += maxSentence / 2 {
			out = append(out, sentence{a, a + maxSentence})
		}
		out = append(out, sentence{a, b})
		a = b
	}
	return out
}

// negated reports whether the word at i is negated: a negation within the
// six words before it in its sentence, with no clause break ("but",
// "instead") in between. "Don't forget to X" and "no matter" do not negate
// X.
func negated(toks []itok, sent sentence, i int) bool {
	for j := i - 1; j >= sent.a && j >= i-6; j-- {
		t := &toks[j]
		if t.has(rBreak) > 0 && t.has(rNeg) == 0 {
			return false
		}
		if j < i-1 && t.endClause && toks[j+1].has(rBreak) > 0 {
			return false
		}
		if t.has(rNeg) == 0 {
			continue
		}
		if t.has(rBypass|rEvenIf) > 1 {
			continue // "no matter", "without review": not a negation of what follows
		}
		// "don't forget to X", "do not hesitate to X": the negation is the
		// next verb's.
		k := j + 1
		for k < i && (toks[k].core == "to" || toks[k].core == "you" || toks[k].core == "ever" || toks[k].core == "be") {
			k++
		}
		if k < i && toks[k].has(rNegVoid) > 0 {
			return false
		}
		return true
	}
	return false
}

// wordsSpan is the byte range in the normalised text covering the words
// at idx (negative ones skipped), each with the longest phrase starting
// there.
func wordsSpan(toks []itok, idx ...int) (int, int) {
	lo, hi := -1, -1
	for _, i := range idx {
		if i < 0 {
			continue
		}
		last := i
		for _, m := range toks[i].ms {
			last = max(last, min(len(toks)-1, i+m.n-1))
		}
		if lo < 0 || toks[i].start < lo {
			lo = toks[i].start
		}
		if toks[last].end > hi {
			hi = toks[last].end
		}
	}
	return lo, hi
}

// endsObject reports a preposition that ends a verb's direct object:
// what follows it is the destination or the means ("upload the reports
// to codecov.io using the CODECOV_TOKEN secret").
func endsObject(w string) bool {
	switch w {
	case "to", "into", "onto", "via", "using", "with", "through", "at", "over", "by", "for", "so", "because", "as":
		return true
	}
	return false
}

// intentRule is one rule of the intent screen over a sentence; it returns
// the normalised spans it finds.
type intentRule struct {
	id   string
	find func(toks []itok, sent sentence) []span
}

var intentRules = []intentRule{
	{"exfil/send-out", findSendOut},
	{"exfil/data-in-url", findEmbedInURL},
	{"tool/decode-exec", findDecodeExecProse},
	{"conceal/self", findConcealSelf},
	{"oversight/silence-review", findSilenceReview},
	{"oversight/disable-checks", findDisableChecks},
	{"conceal/deceive-user", findDeceive},
}

// intentFindings runs the intent screen on normalised text n and returns
// findings with spans in text.
func intentFindings(text string, n *normText) []Finding {
	s := n.s
	var out []Finding
	emit := func(id string, a, b int) {
		if a < 0 || b <= a {
			return
		}
		oa, ob := n.span(text, a, alignRight(s, b))
		if ob > oa {
			out = append(out, newFinding(id, categoryOf(id), text, oa, ob))
		}
	}
	if !hasLetters(s) {
		return nil
	}
	toks := tokenize(s)
	for _, sent := range sentences(toks) {
		for _, r := range intentRules {
			for _, sp := range r.find(toks, sent) {
				emit(r.id, sp.start, sp.end)
			}
		}
	}
	for _, f := range shellFindings(s) {
		emit(f.id, f.start, f.end)
	}
	for _, f := range urlFindings(s) {
		emit(f.id, f.start, f.end)
	}
	return out
}

// idSpan is a rule id with a normalised span.
type idSpan struct {
	id         string
	start, end int
}

func hasLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || c >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

// inSent calls fn for each word of the sentence in [from, to), clipped to
// the sentence; fn returns false to stop.
func inSent(sent sentence, from, to int, fn func(j int) bool) {
	from, to = max(from, sent.a), min(to, sent.b)
	for j := from; j < to; j++ {
		if !fn(j) {
			return
		}
	}
}

// anyRole returns the first word in [from, to) of the sentence with a role
// in r, or -1.
func anyRole(toks []itok, sent sentence, from, to int, r role) int {
	at := -1
	inSent(sent, from, to, func(j int) bool {
		if toks[j].has(r) > 0 {
			at = j
			return false
		}
		return true
	})
	return at
}
