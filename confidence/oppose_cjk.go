package confidence

import (
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Chinese and Japanese directives. Both are read with short, fixed word
// lists: negation markers at the start (Chinese) or verb endings
// (Japanese), a situation clause before the first comma, and a
// canonical "use" verb so that 使用/采用/用 and 使う/使用する compare equal.

type cjkPrefix struct {
	text     string
	negate   bool
	implicit bool
}

// zhPrefixes are tried longest first.
var zhPrefixes = sync.OnceValue(func() []cjkPrefix {
	neg := func(implicit bool, ps ...string) []cjkPrefix {
		var out []cjkPrefix
		for _, p := range ps {
			out = append(out, cjkPrefix{text: p, negate: true, implicit: implicit})
		}
		return out
	}
	var rules []cjkPrefix
	rules = append(rules, neg(false, "永远不要", "千万不要", "绝对不要", "一定不要", "绝对不能", "绝不要", "绝不能", "绝不",
		"从不", "不应该", "不应当", "不应", "不要", "不能", "不得", "不许", "不可以", "不可", "不用", "切勿", "请勿", "勿",
		"别", "不")...)
	rules = append(rules, neg(true, "禁止", "避免", "停止", "杜绝", "不准")...)
	for _, p := range []string{"请", "一定要", "务必要", "务必", "总是", "始终", "永远", "应该", "应当", "应", "必须",
		"要", "尽量", "最好", "记得", "记住", "优先", "尽可能", "你", "我们"} {
		rules = append(rules, cjkPrefix{text: p})
	}
	slices.SortStableFunc(rules, func(a, b cjkPrefix) int { return len(b.text) - len(a.text) })
	return rules
})

var (
	zhUseVerbs   = []string{"使用", "采用", "选用", "运用", "利用", "用"}
	zhPreference = []string{"而不是", "而非", "而不用", "代替", "替代", "取代"}
	zhSituation  = []string{"在", "当", "如果", "若", "对于"}
	zhSitSuffix  = []string{"的时候", "时候", "时", "中", "里", "前", "后", "的话"}
)

// cjkKey keeps letters, digits and a few identifier characters, lowercased.
func cjkKey(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '_' || r == '#' || r == '+' {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// splitSituation cuts a leading clause ending in a comma when isSit says it
// is a situation.
func splitSituation(s string, isSit func(string) (string, bool)) (sit, rest string) {
	i := strings.IndexAny(s, "，,、")
	if i <= 0 {
		return "", s
	}
	head := s[:i]
	_, w := utf8.DecodeRuneInString(s[i:])
	if v, ok := isSit(head); ok {
		return v, s[i+w:]
	}
	return "", s
}

func zhClaims(sentence string) []Claim {
	sit, rest := splitSituation(strings.TrimSpace(sentence), func(head string) (string, bool) {
		h := strings.TrimSpace(head)
		ok := false
		for _, p := range zhSituation {
			if strings.HasPrefix(h, p) {
				h, ok = strings.TrimPrefix(h, p), true
				break
			}
		}
		for _, p := range zhSitSuffix {
			if strings.HasSuffix(h, p) {
				h, ok = strings.TrimSuffix(h, p), true
				break
			}
		}
		return cjkKey(h), ok && cjkKey(h) != ""
	})
	rest = strings.TrimSpace(rest)
	pol, implicit := Do, false
	for {
		matched := false
		for _, p := range zhPrefixes() {
			if strings.HasPrefix(rest, p.text) && len(rest) > len(p.text) {
				rest = strings.TrimSpace(rest[len(p.text):])
				if p.negate {
					pol = -pol
					implicit = implicit || p.implicit
				}
				matched = true
				break
			}
		}
		if !matched {
			break
		}
	}
	verb := ""
	for _, v := range zhUseVerbs {
		if strings.HasPrefix(rest, v) {
			verb, rest = "用", rest[len(v):]
			break
		}
	}
	if verb == "" && implicit {
		verb = "用"
	}
	first, second := rest, ""
	for _, m := range zhPreference {
		if i := strings.Index(rest, m); i > 0 {
			first, second = rest[:i], rest[i+len(m):]
			break
		}
	}
	var out []Claim
	if k := cjkKey(first); k != "" {
		out = append(out, Claim{Polarity: pol, Action: verb + k, Situation: sit})
	}
	if second != "" {
		v2 := verb
		for _, v := range zhUseVerbs {
			if strings.HasPrefix(second, v) {
				v2, second = "用", second[len(v):]
				break
			}
		}
		if k := cjkKey(second); k != "" {
			out = append(out, Claim{Polarity: -pol, Action: v2 + k, Situation: sit})
		}
	}
	return out
}

type jaEnding struct {
	text string
	pol  Polarity
	verb string // canonical verb appended to the object
}

// jaEndings are tried longest first against the end of the sentence.
var jaEndings = sync.OnceValue(func() []jaEnding {
	var out []jaEnding
	add := func(pol Polarity, verb string, ends ...string) {
		for _, e := range ends {
			out = append(out, jaEnding{text: e, pol: pol, verb: verb})
		}
	}
	add(Dont, "使う",
		"を使用しないでください", "を使用しないこと", "を使用しない", "を使わないでください", "を使わないこと",
		"を使わない", "を使うな", "を用いない", "は使用しないでください", "は使用しない", "は使わないでください",
		"は使わない", "の使用を避けてください", "の使用を避ける", "の使用は避ける", "の使用を禁止する", "の使用禁止",
		"を避けてください", "を避けること", "を避ける", "は避けてください", "は避ける", "は禁止", "を禁止する", "禁止")
	add(Dont, "する", "しないでください", "しないこと", "しない", "するな")
	add(Do, "使う",
		"を使用してください", "を使用すること", "を使用する", "を使ってください", "を使うこと", "を使う",
		"を用いる", "を優先してください", "を優先する", "の使用を推奨します", "の使用を推奨", "を推奨します", "を推奨する")
	add(Do, "する", "してください", "すること", "する")
	slices.SortStableFunc(out, func(a, b jaEnding) int { return len(b.text) - len(a.text) })
	return out
})

func jaClaims(sentence string) []Claim {
	sit, rest := splitSituation(strings.TrimSpace(sentence), func(head string) (string, bool) {
		for _, m := range []string{"場合は", "場合", "ときは", "とき", "時は", "時", "際は", "際", "では", "には", "なら"} {
			if strings.HasSuffix(head, m) {
				k := cjkKey(strings.TrimSuffix(head, m))
				return k, k != ""
			}
		}
		return "", false
	})
	rest = strings.TrimRight(strings.TrimSpace(rest), "。．.!！")
	for _, e := range jaEndings() {
		if !strings.HasSuffix(rest, e.text) || len(rest) == len(e.text) {
			continue
		}
		obj := strings.TrimSuffix(rest, e.text)
		first, second := obj, ""
		for _, m := range []string{"ではなく", "の代わりに", "じゃなくて"} {
			if i := strings.Index(obj, m); i > 0 {
				// "Y ではなく X を使う": Y gets the opposite polarity.
				first, second = obj[i+len(m):], obj[:i]
				break
			}
		}
		var out []Claim
		if k := cjkKey(first); k != "" {
			out = append(out, Claim{Polarity: e.pol, Action: k + "|" + e.verb, Situation: sit})
		}
		if k := cjkKey(strings.TrimSuffix(strings.TrimSuffix(second, "を"), "は")); k != "" {
			out = append(out, Claim{Polarity: -e.pol, Action: k + "|" + e.verb, Situation: sit})
		}
		return out
	}
	return nil
}
