package hesitation

import "bytes"

// specificKind classifies a checkable detail.
type specificKind uint8

const (
	specNumber specificKind = iota
	specVersion
	specDate
	specIdentifier
	specFlag
)

// String names the kind for signal details.
func (k specificKind) String() string {
	switch k {
	case specVersion:
		return "version"
	case specDate:
		return "date"
	case specIdentifier:
		return "identifier"
	case specFlag:
		return "flag"
	}
	return "number"
}

// specific is one checkable detail in a text: a number, version, date, API
// or flag name.
type specific struct {
	kind specificKind
	span Span
	hash uint64 // hash of the normalised form, looked up in the evidence
}

// isDigit reports an ASCII digit.
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// isUpper reports an ASCII capital.
func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }

// isLower reports an ASCII small letter.
func isLower(c byte) bool { return 'a' <= c && c <= 'z' }

// draftTokens makes one pass over the draft orig (folded copy folded). It
// calls onSpec, when not nil, with every checkable detail, and returns,
// when keys is not nil, the set of those tokens keys lets through, for
// pattern matching. Numbers that are list markers ("1." at the start of a
// line) and lone single digits are not details: they rarely carry a factual
// claim.
func draftTokens(orig string, folded []byte, keys *keyFilter, onSpec func(specific)) *tokenSet {
	l := lex()
	var (
		buf, tok []byte
		set      *tokenSet
	)
	if keys != nil {
		set = newTokenSet()
	}
	addTok := func(t []byte) {
		if keys.mayHave(t) {
			set.add(t)
		}
	}
	tz := tokenizer[string]{s: orig}
	for {
		a, b, hint, ok := tz.next()
		if !ok {
			break
		}
		tok, buf = normalised(buf, folded, a, b, hint)
		if len(tok) == 0 {
			continue
		}
		if keys != nil {
			addTok(tok)
			if hint&bSep != 0 {
				eachPart(tok, addTok)
			}
		}
		if onSpec == nil {
			continue
		}
		if hint&(bDigit|bSep|bComma|bOther) == 0 {
			// A plain word: a specific only if camelCase ("readConfig").
			if hint&bUpper != 0 && camelCase(orig[a:b]) {
				onSpec(specific{kind: specIdentifier, span: Span{a, b}, hash: hashBytes(tok)})
			}
			continue
		}
		if k, ok := classifyToken(l, orig, folded, a, b); ok {
			onSpec(specific{kind: k, span: Span{a, b}, hash: hashBytes(tok)})
		}
	}
	eachCodeSpan(folded, func(a, b int) {
		buf = normInto(buf[:0], folded[a:b])
		if onSpec != nil {
			onSpec(specific{kind: specIdentifier, span: Span{a, b}, hash: hashBytes(buf)})
		}
		if keys != nil {
			addTok(buf)
		}
	})
	if keys != nil && keys.cjk {
		eachBigram(folded, addTok)
	}
	return set
}

// keyFilter is a small Bloom-style filter over (length, first byte, last
// byte) of pattern keywords: a draft token whose triple is not set cannot be
// a keyword, so it is neither hashed nor stored.
type keyFilter struct {
	bits [256]uint64
	all  bool // no filtering: every token may be a keyword
	cjk  bool // some keyword is non-ASCII (CJK bigrams needed)
}

// keyIndex maps a token to its filter bit.
func keyIndex[T string | []byte](t T) uint {
	n := len(t)
	return (uint(n)*131 + uint(t[0])*31 + uint(t[n-1])) & (256*64 - 1)
}

// newKeyFilter builds the filter of the patterns' keywords for a draft of
// draftLen bytes, or returns nil when there are no keywords. For a draft
// with fewer tokens than there are keywords, building the filter costs more
// than it saves, so it lets everything through.
func newKeyFilter(patterns []Pattern, draftLen int) *keyFilter {
	n := 0
	cjk := false
	for i := range patterns {
		p := &patterns[i]
		for _, k := range p.Keywords {
			if k != "" {
				n++
				cjk = cjk || k[0] >= 0x80
			}
		}
	}
	if n == 0 {
		return nil
	}
	if draftLen < 8*n {
		return &keyFilter{all: true, cjk: cjk}
	}
	f := &keyFilter{cjk: cjk}
	for i := range patterns {
		p := &patterns[i]
		for _, k := range p.Keywords {
			if k != "" {
				i := keyIndex(k)
				f.bits[i/64] |= 1 << (i % 64)
			}
		}
	}
	return f
}

// mayHave reports whether t may be a keyword.
func (f *keyFilter) mayHave(t []byte) bool {
	if len(t) == 0 {
		return false
	}
	if f.all {
		return true
	}
	i := keyIndex(t)
	return f.bits[i/64]&(1<<(i%64)) != 0
}

// camelCase reports a word with a capital after two or more leading small
// letters ("readConfig", "getURL", but not "iPhone").
func camelCase(o string) bool {
	for i := 2; i < len(o); i++ {
		if isUpper(o[i]) && isLower(o[i-1]) {
			return true
		}
	}
	return false
}

// maxSpecificBytes is the longest token that can be a specific; longer runs
// are blobs (base64, hashes, minified code), not claims to check.
const maxSpecificBytes = 80

// classifyToken decides whether folded[a:b] is a specific and of which
// kind; orig is the unfolded text, for letter case.
func classifyToken(l *lexicon, orig string, folded []byte, a, b int) (specificKind, bool) {
	t := folded[a:b]
	if len(t) < 2 || len(t) > maxSpecificBytes {
		return 0, false
	}
	digits, letters, dots, other := 0, 0, 0, 0
	for _, c := range t {
		switch {
		case isLower(c):
			letters++
		case isDigit(c):
			digits++
		case c == '.':
			dots++
		case c != '\'':
			other++
		}
	}
	if digits == 0 && dots == 0 && other == 0 {
		return specIdentifier, camelCase(orig[a:b])
	}
	if (other > 0 && bytes.Contains(t, []byte("://"))) || (dots > 0 && bytes.HasPrefix(t, []byte("www."))) {
		return 0, false // a link is a citation, not a claim
	}
	// Flags: --name, or -x / -rf after a space.
	if t[0] == '-' {
		if len(t) > 2 && t[1] == '-' && isLower(t[2]) {
			return specFlag, true
		}
		if len(t) <= 5 && (a == 0 || isSpace(folded[a-1])) && allLower(t[1:]) {
			return specFlag, true
		}
		return 0, false
	}
	if digits > 0 {
		return classifyNumeric(l, folded, a, b, digits, letters, dots)
	}
	// No digits: API or identifier names.
	if bytes.HasSuffix(t, []byte("()")) || bytes.IndexByte(t, '_') >= 0 {
		return specIdentifier, true
	}
	if dots > 0 && dottedName(t) {
		return specIdentifier, true
	}
	return specIdentifier, camelCase(orig[a:b])
}

// dottedName reports "pkg.Func"-like tokens: two or more dot-separated
// parts, each starting with a word byte, not single-letter abbreviations
// ("e.g", "u.s.a") nor "etc.".
func dottedName(t []byte) bool {
	t = bytes.TrimSuffix(t, []byte("()"))
	long := false
	n := 0
	for _, p := range bytes.Split(t, []byte{'.'}) {
		if len(p) == 0 || !isWordByte(p[0]) {
			return false
		}
		if len(p) > 1 {
			long = true
		}
		n++
	}
	return n >= 2 && long && !bytes.Equal(t, []byte("ph.d"))
}

// classifyNumeric handles tokens that contain digits.
func classifyNumeric(l *lexicon, s []byte, a, b, digits, letters, dots int) (specificKind, bool) {
	t := s[a:b]
	// List markers "1." / "2)" at the start of a line.
	if atLineStart(s, a) && b < len(s) && (s[b] == '.' || s[b] == ')') && digits == len(t) {
		return 0, false
	}
	if t[0] == 'v' && len(t) > 1 && isDigit(t[1]) && dots >= 1 {
		return specVersion, true
	}
	if dots >= 2 && letters == 0 && !bytes.Contains(t, []byte("..")) {
		return specVersion, true
	}
	if len(t) == 4 && digits == 4 && (t[0] == '1' || (t[0] == '2' && t[1] == '0')) {
		return specDate, true
	}
	if len(t) == 10 && t[4] == '-' && t[7] == '-' && digits == 8 {
		return specDate, true
	}
	if digits == len(t) && l.months[prevWord(s, a)] {
		return specDate, true // "march 5"
	}
	if letters > 3 {
		return specIdentifier, true // sha256, utf8mb4, x86_64
	}
	if digits == 1 && letters == 0 && !bytes.ContainsAny(t, "%$") {
		return 0, false
	}
	return specNumber, true
}

// allLower reports whether t is non-empty ASCII small letters only.
func allLower(t []byte) bool {
	for _, c := range t {
		if !isLower(c) {
			return false
		}
	}
	return len(t) > 0
}
