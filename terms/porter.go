package terms

// This file is a byte-level port of Martin Porter's reference C implementation
// of the Porter (1980) stemming algorithm (porter), the same algorithm
// SQLite's FTS5 "porter" tokenizer applies, and Stem, which applies it with a
// minimum stem length. It works on lower-case ASCII words only and allocates
// once per call.

// stemmer holds the word being stemmed: b[0:k+1] is the current word and j
// marks the end of a matched stem.
type stemmer struct {
	b    []byte
	k, j int
}

// minStem is the fewest letters a stem keeps (see Stem).
const minStem = 3

// Stem returns the Porter stem of a lower-case ASCII word, but never shorter
// than three letters: when Porter's stem is shorter, Stem returns the word's
// first three letters instead, or, for the -ing form of a vowel-consonant
// stem, the stem with its e (using → use). Words of three letters or fewer
// come back unchanged.
//
// Porter's algorithm strips suffixes by the measure of what remains, and on
// the shortest English words it leaves one or two letters: going → go,
// using → us, added → ad, dies → di, ones → on. Two-letter strings are where
// a programmer's vocabulary is densest in names and abbreviations (Go, ad,
// DI, US, CI, DB, IO, OS) and where the stop words are (on, in, it), so such
// a stem turns a word into another word rather than into a form of itself:
// "I'm going to refactor the parser" would share the term go with every
// lesson about the Go language. Giving the word's own letters back (going →
// goi, added → add, dies → die, ones → one), or the e of a short stem (using
// → use), still joins the inflected forms of a three-letter word with the
// word itself (used, uses, using → use; words of three letters are never
// stemmed). Stems of three letters or more are Porter's, so a word that is
// itself a name (rusting → rust, makes → make) still meets it: that is one
// word with two senses, which no stemmer can tell apart, not a collision the
// stemmer makes.
func Stem(word string) string {
	if len(word) <= minStem {
		return word
	}
	st := porter(word)
	switch {
	case len(st) >= minStem:
		return st
	case len(st) == 2 && word == st+"ing" && shortSyllable(st):
		// using → use, aging → age: the e Porter restores after -ing on
		// longer short stems (hoping → hope), which Porter's successor,
		// Snowball English, also restores on a word-initial vowel and
		// consonant.
		return st + "e"
	}
	return word[:minStem]
}

// shortSyllable reports whether a two-letter stem is a vowel followed by a
// consonant other than w, x or y, Snowball English's short syllable at the
// start of a word.
func shortSyllable(st string) bool {
	s := stemmer{b: []byte(st), k: 1}
	if s.cons(0) || !s.cons(1) {
		return false
	}
	switch st[1] {
	case 'w', 'x', 'y':
		return false
	}
	return true
}

// porter returns the Porter (1980) stem of a lower-case ASCII word, exactly
// as the reference implementation does. Words of two letters or fewer come
// back unchanged.
func porter(word string) string {
	if len(word) <= 2 {
		return word
	}
	s := stemmer{b: []byte(word), k: len(word) - 1}
	s.step1ab()
	if s.k > 0 {
		s.step1c()
		s.step2()
		s.step3()
		s.step4()
		s.step5()
	}
	return string(s.b[:s.k+1])
}

// cons reports whether b[i] is a consonant.
func (s *stemmer) cons(i int) bool {
	switch s.b[i] {
	case 'a', 'e', 'i', 'o', 'u':
		return false
	case 'y':
		if i == 0 {
			return true
		}
		return !s.cons(i - 1)
	}
	return true
}

// m measures the number of consonant sequences between 0 and j.
func (s *stemmer) m() int {
	n, i := 0, 0
	for {
		if i > s.j {
			return n
		}
		if !s.cons(i) {
			break
		}
		i++
	}
	i++
	for {
		for {
			if i > s.j {
				return n
			}
			if s.cons(i) {
				break
			}
			i++
		}
		i++
		n++
		for {
			if i > s.j {
				return n
			}
			if !s.cons(i) {
				break
			}
			i++
		}
		i++
	}
}

// vowelInStem reports whether b[0:j+1] contains a vowel.
func (s *stemmer) vowelInStem() bool {
	for i := 0; i <= s.j; i++ {
		if !s.cons(i) {
			return true
		}
	}
	return false
}

// doublec reports whether b[j-1:j+1] is a double consonant.
func (s *stemmer) doublec(j int) bool {
	if j < 1 || s.b[j] != s.b[j-1] {
		return false
	}
	return s.cons(j)
}

// cvc reports whether b[i-2:i+1] is consonant-vowel-consonant and the last
// consonant is not w, x or y.
func (s *stemmer) cvc(i int) bool {
	if i < 2 || !s.cons(i) || s.cons(i-1) || !s.cons(i-2) {
		return false
	}
	switch s.b[i] {
	case 'w', 'x', 'y':
		return false
	}
	return true
}

// ends reports whether b[0:k+1] ends with suffix and sets j accordingly.
func (s *stemmer) ends(suffix string) bool {
	l := len(suffix)
	if l > s.k+1 || string(s.b[s.k+1-l:s.k+1]) != suffix {
		return false
	}
	s.j = s.k - l
	return true
}

// setTo replaces b[j+1:k+1] by r.
func (s *stemmer) setTo(r string) {
	s.b = append(s.b[:s.j+1], r...)
	s.k = s.j + len(r)
}

// r replaces the suffix by r when the stem has a positive measure.
func (s *stemmer) r(r string) {
	if s.m() > 0 {
		s.setTo(r)
	}
}

func (s *stemmer) step1ab() {
	if s.b[s.k] == 's' {
		switch {
		case s.ends("sses"):
			s.k -= 2
		case s.ends("ies"):
			s.setTo("i")
		case s.b[s.k-1] != 's':
			s.k--
		}
	}
	if s.ends("eed") {
		if s.m() > 0 {
			s.k--
		}
	} else if (s.ends("ed") || s.ends("ing")) && s.vowelInStem() {
		s.k = s.j
		switch {
		case s.ends("at"):
			s.setTo("ate")
		case s.ends("bl"):
			s.setTo("ble")
		case s.ends("iz"):
			s.setTo("ize")
		case s.doublec(s.k):
			s.k--
			switch s.b[s.k] {
			case 'l', 's', 'z':
				s.k++
			}
		default:
			s.j = s.k
			if s.m() == 1 && s.cvc(s.k) {
				s.setTo("e")
			}
		}
	}
}

func (s *stemmer) step1c() {
	if s.ends("y") && s.vowelInStem() {
		s.b[s.k] = 'i'
	}
}

// step2 maps double suffixes to single ones.
func (s *stemmer) step2() {
	if s.k < 1 {
		return
	}
	for _, p := range step2Pairs[s.b[s.k-1]] {
		if s.ends(p[0]) {
			s.r(p[1])
			return
		}
	}
}

var step2Pairs = map[byte][][2]string{
	'a': {{"ational", "ate"}, {"tional", "tion"}},
	'c': {{"enci", "ence"}, {"anci", "ance"}},
	'e': {{"izer", "ize"}},
	'l': {{"bli", "ble"}, {"alli", "al"}, {"entli", "ent"}, {"eli", "e"}, {"ousli", "ous"}},
	'o': {{"ization", "ize"}, {"ation", "ate"}, {"ator", "ate"}},
	's': {{"alism", "al"}, {"iveness", "ive"}, {"fulness", "ful"}, {"ousness", "ous"}},
	't': {{"aliti", "al"}, {"iviti", "ive"}, {"biliti", "ble"}},
	'g': {{"logi", "log"}},
}

// step3 deals with -ic-, -full, -ness etc.
func (s *stemmer) step3() {
	for _, p := range step3Pairs[s.b[s.k]] {
		if s.ends(p[0]) {
			s.r(p[1])
			return
		}
	}
}

var step3Pairs = map[byte][][2]string{
	'e': {{"icate", "ic"}, {"ative", ""}, {"alize", "al"}},
	'i': {{"iciti", "ic"}},
	'l': {{"ical", "ic"}, {"ful", ""}},
	's': {{"ness", ""}},
}

// step4 takes off -ant, -ence etc. in context <c>vcvc<v>.
func (s *stemmer) step4() {
	if s.k < 1 {
		return
	}
	matched := false
	switch s.b[s.k-1] {
	case 'a':
		matched = s.ends("al")
	case 'c':
		matched = s.ends("ance") || s.ends("ence")
	case 'e':
		matched = s.ends("er")
	case 'i':
		matched = s.ends("ic")
	case 'l':
		matched = s.ends("able") || s.ends("ible")
	case 'n':
		matched = s.ends("ant") || s.ends("ement") || s.ends("ment") || s.ends("ent")
	case 'o':
		if s.ends("ion") && s.j >= 0 && (s.b[s.j] == 's' || s.b[s.j] == 't') {
			matched = true
		} else {
			matched = s.ends("ou")
		}
	case 's':
		matched = s.ends("ism")
	case 't':
		matched = s.ends("ate") || s.ends("iti")
	case 'u':
		matched = s.ends("ous")
	case 'v':
		matched = s.ends("ive")
	case 'z':
		matched = s.ends("ize")
	}
	if matched && s.m() > 1 {
		s.k = s.j
	}
}

// step5 removes a final -e and changes -ll to -l where the measure allows.
func (s *stemmer) step5() {
	s.j = s.k
	if s.b[s.k] == 'e' {
		a := s.m()
		if a > 1 || (a == 1 && !s.cvc(s.k-1)) {
			s.k--
		}
	}
	if s.b[s.k] == 'l' && s.doublec(s.k) && s.m() > 1 {
		s.k--
	}
}
