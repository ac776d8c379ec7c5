package sanitize

import (
	"strings"
)

// The URL form of the intent screen reads the URLs of a text as carriers
// of data: a Markdown or HTML image is fetched as soon as the answer is
// rendered, so an image whose URL has a slot for data (a {secret}
// placeholder, an environment variable, a command substitution) sends that
// data to the URL's host without anyone clicking. A link or a bare URL
// carries data when a slot filled from a secret or the user's conversation
// sits in a query parameter that is not the API's own credential
// parameter (?key=$MAPS_API_KEY authenticates to the host that issued the
// key; ?q={secret} hands a secret to whoever runs the host), or when a
// command substitution reads a credential file or the environment into it.

// slotWords name data a placeholder stands for, in a link or an image.
var slotWords = []string{"secret", "token", "key", "password", "passwd", "pwd", "cred", "env", "cookie",
	"session", "ssh", "private", "conversation", "history", "clipboard", "auth", "system_prompt", "systemprompt"}

// imageSlotWords name data that only an image must not carry (it is
// fetched unasked).
var imageSlotWords = []string{"prompt", "chat", "memory", "data", "payload", "content", "message", "info", "summary", "file", "code",
	"source", "output", "result", "response", "answer", "input", "text", "context", "details", "log",
	"repo", "query", "user", "email", "name", "path", "diff"}

// authParams are query parameters an API takes its own credential in.
var authParams = map[string]bool{"key": true, "api_key": true, "apikey": true, "api-key": true, "token": true,
	"access_token": true, "auth": true, "auth_token": true, "client_id": true, "client_secret": true, "sig": true,
	"signature": true, "appid": true, "app_id": true, "code": true, "state": true, "x-amz-signature": true,
	"x-amz-credential": true, "x-amz-security-token": true, "sv": true, "se": true, "sp": true, "sr": true,
	"access_key": true, "private_token": true, "secret": true, "session": true, "sessionid": true}

// urlFindings finds the data-carrying URLs of normalised text s.
func urlFindings(s string) []idSpan {
	if !strings.Contains(s, "://") && !strings.Contains(s, "![") && !strings.Contains(s, "<img") {
		return nil
	}
	var out []idSpan
	refs := refDefinitions(s)
	seen := map[int]bool{}
	// Images: ![alt](url), ![alt][ref], <img src=url>.
	for i := 0; ; {
		k := strings.Index(s[i:], "![")
		if k < 0 {
			break
		}
		k += i
		i = k + 2
		close := strings.IndexByte(s[i:min(len(s), i+300)], ']')
		if close < 0 || strings.IndexByte(s[i:i+close], '\n') >= 0 {
			continue
		}
		after := i + close + 1
		switch {
		case after < len(s) && s[after] == '(':
			u0, u1 := readURL(s, after+1)
			seen[u0] = true
			if imageCarries(s[u0:u1]) {
				out = append(out, idSpan{"exfil/data-in-url", k, u1})
			}
		case after < len(s) && s[after] == '[':
			end := strings.IndexByte(s[after:min(len(s), after+100)], ']')
			if end < 0 {
				continue
			}
			ref := s[after+1 : after+end]
			if ref == "" {
				ref = s[i : i+close]
			}
			if u, ok := refs[ref]; ok {
				seen[u.start] = true
				if imageCarries(s[u.start:u.end]) {
					out = append(out, idSpan{"exfil/data-in-url", k, after + end + 1})
				}
			}
		}
	}
	for i := 0; ; {
		k := strings.Index(s[i:], "<img")
		if k < 0 {
			break
		}
		k += i
		i = k + 4
		tagEnd := strings.IndexByte(s[i:min(len(s), i+600)], '>')
		if tagEnd < 0 {
			tagEnd = min(len(s), i+600) - i
		}
		src := strings.Index(s[i:i+tagEnd], "src")
		if src < 0 {
			continue
		}
		p := i + src + 3
		for p < len(s) && (s[p] == ' ' || s[p] == '=' || s[p] == '"' || s[p] == '\'' || s[p] == '{') {
			p++
		}
		u0, u1 := readURL(s, p)
		seen[u0] = true
		if imageCarries(s[u0:u1]) {
			out = append(out, idSpan{"exfil/data-in-url", k, u1})
		}
	}
	// Every other URL, as a link.
	for i := 0; ; {
		k := strings.Index(s[i:], "://")
		if k < 0 {
			break
		}
		k += i
		i = k + 3
		a := k
		for a > 0 && isSchemeByte(s[a-1]) {
			a--
		}
		if a == k || seen[a] {
			continue
		}
		_, u1 := readURL(s, a)
		if linkCarries(s[a:u1]) {
			out = append(out, idSpan{"exfil/data-in-url", a, u1})
		}
		i = max(i, u1)
	}
	return out
}

func isSchemeByte(c byte) bool {
	return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'
}

// readURL reads a URL starting at s[p]: up to white space, a quote, '>' or
// an unbalanced ')', but through parentheses, braces and brackets, which
// hold placeholders and substitutions. It returns the URL's span.
func readURL(s string, p int) (int, int) {
	depth := 0
	q := p
	for ; q < len(s) && q-p < 2048; q++ {
		c := s[q]
		switch c {
		case '(', '{', '[':
			depth++
			continue
		case ')', '}', ']':
			if depth == 0 {
				return p, q
			}
			depth--
			continue
		case '\n', '"', '\'', '>', '`':
			if depth == 0 || c == '\n' {
				return p, q
			}
		case ' ':
			if depth == 0 {
				return p, q
			}
		case '<':
			if depth == 0 && !strings.HasPrefix(s[q:], "<secret") {
				// "<" opens a placeholder only when a ">" closes it on the line.
				gt := strings.IndexByte(s[q:min(len(s), q+64)], '>')
				if gt < 0 || strings.IndexByte(s[q:q+gt], ' ') >= 0 {
					return p, q
				}
				q += gt
			}
		}
	}
	return p, q
}

// refDefinitions returns the Markdown reference definitions "[ref]: url"
// of s, by reference.
func refDefinitions(s string) map[string]span {
	refs := map[string]span{}
	for i := 0; ; {
		k := strings.Index(s[i:], "\n[")
		if k < 0 {
			return refs
		}
		k += i + 1
		i = k + 1
		end := strings.Index(s[k:min(len(s), k+120)], "]:")
		if end < 0 {
			continue
		}
		ref := s[k+1 : k+end]
		p := k + end + 2
		for p < len(s) && s[p] == ' ' {
			p++
		}
		u0, u1 := readURL(s, p)
		if u1 > u0 {
			refs[ref] = span{u0, u1}
		}
	}
}

// urlSlot is a place in a URL that a program or the reader fills with
// data: a placeholder, a variable, a command substitution.
type urlSlot struct {
	param   string // the query parameter it is the value of; "" in the path
	name    string // what the placeholder or variable is called
	command bool   // a command substitution
	reads   bool   // the command reads a credential file or the environment
	whole   bool   // the whole value is a bare word naming data (?d=summary)
}

// slots returns the slots of a URL, in its path and its query (not its
// fragment, which is never sent).
func slots(u string) []urlSlot {
	if k := strings.IndexByte(u, '#'); k >= 0 && !strings.Contains(u[k:], "$(") && !strings.Contains(u[k:], "}") {
		u = u[:k]
	}
	path, query, _ := strings.Cut(u, "?")
	var out []urlSlot
	for _, seg := range strings.Split(path, "/") {
		out = append(out, valueSlots("", seg)...)
	}
	for _, kv := range strings.FieldsFunc(query, func(r rune) bool { return r == '&' || r == ';' }) {
		k, v, _ := strings.Cut(kv, "=")
		out = append(out, valueSlots(k, v)...)
		if v != "" && !strings.ContainsAny(v, "{}<>[]$%`()") {
			w := strings.Trim(v, "_-.")
			if containsAny(w, slotWords) || containsAny(w, imageSlotWords) && len(w) <= 16 {
				out = append(out, urlSlot{param: k, name: w, whole: true})
			}
		}
	}
	return out
}

// valueSlots returns the slots in one path segment or query value.
func valueSlots(param, v string) []urlSlot {
	var out []urlSlot
	for i := 0; i < len(v); i++ {
		switch {
		case strings.HasPrefix(v[i:], "$("):
			end := matchClose(v, i+1, '(', ')')
			body := v[i+2 : end]
			out = append(out, urlSlot{param: param, name: body, command: true, reads: substitutionReads(body)})
			i = end
		case v[i] == '`':
			end := strings.IndexByte(v[i+1:], '`')
			if end < 0 {
				return out
			}
			body := v[i+1 : i+1+end]
			out = append(out, urlSlot{param: param, name: body, command: true, reads: substitutionReads(body)})
			i += end + 1
		case v[i] == '$':
			j := i + 1
			if j < len(v) && v[j] == '{' {
				end := matchClose(v, j, '{', '}')
				out = append(out, urlSlot{param: param, name: v[j+1 : end]})
				i = end
				continue
			}
			for j < len(v) && (isWordByte(v[j]) || v[j] == '.') {
				j++
			}
			if j > i+1 {
				out = append(out, urlSlot{param: param, name: v[i+1 : j]})
			}
			i = j - 1
		case v[i] == '{' || v[i] == '<' || v[i] == '[':
			open, closeB := v[i], map[byte]byte{'{': '}', '<': '>', '[': ']'}[v[i]]
			end := matchClose(v, i, open, closeB)
			name := strings.Trim(v[i+1:end], "{}[]<> ")
			out = append(out, urlSlot{param: param, name: name})
			i = end
		case v[i] == '%' && i+1 < len(v):
			switch {
			case v[i+1] == 's' || v[i+1] == 'v':
				out = append(out, urlSlot{param: param})
				i++
			case v[i+1] == '(':
				end := matchClose(v, i+1, '(', ')')
				out = append(out, urlSlot{param: param, name: v[i+2 : end]})
				i = end
			default:
				if end := strings.IndexByte(v[i+1:], '%'); end > 0 && !isHex2(v[i+1:]) {
					out = append(out, urlSlot{param: param, name: v[i+1 : i+1+end]})
					i += end + 1
				}
			}
		}
	}
	return out
}

func isHex2(s string) bool {
	if len(s) < 2 {
		return false
	}
	h := func(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' }
	return h(s[0]) && h(s[1])
}

// matchClose returns the index of the bracket closing the one at v[i], or
// len(v) when it is not closed.
func matchClose(v string, i int, open, closeB byte) int {
	depth := 0
	for j := i; j < len(v); j++ {
		switch v[j] {
		case open:
			depth++
		case closeB:
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return len(v)
}

// substitutionReads reports whether a command substitution's body reads
// a credential file, the environment, the shell history or who and where
// the user is.
func substitutionReads(body string) bool {
	f := strings.Fields(strings.NewReplacer("|", " ", ";", " ", "<", " ", "(", " ", ")", " ").Replace(body))
	for _, w := range f {
		switch base(w) {
		case "env", "printenv", "history", "whoami", "hostname", "id", "uname", "pwd":
			return true
		}
		if sensitivePath(strings.Trim(w, "\"'")) || secretVar(w) > 0 {
			return true
		}
	}
	return false
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// imageCarries reports whether an image URL has a slot for data: any
// command substitution or variable, or a placeholder or bare value naming
// data.
func imageCarries(u string) bool {
	if !strings.Contains(u, "://") && !strings.HasPrefix(u, "//") {
		return false // a relative image is served by the page's own host
	}
	for _, sl := range slots(u) {
		switch {
		case sl.command:
			return true
		case sl.name == "" && sl.param != "":
			return true // %s
		case containsAny(sl.name, slotWords) || containsAny(sl.name, imageSlotWords):
			return true
		case !sl.whole && strings.HasPrefix(sl.name, "process.env") || strings.Contains(sl.name, "environ"):
			return true
		}
	}
	return false
}

// linkCarries reports whether a link or bare URL smuggles data: a command
// substitution that reads credentials or the environment, or a query
// value filled from a secret or the conversation under a parameter that
// is not a credential parameter of the API.
func linkCarries(u string) bool {
	if !remoteURL(u) {
		return false
	}
	for _, sl := range slots(u) {
		switch {
		case sl.command:
			if sl.reads {
				return true
			}
		case sl.param == "" || sl.whole || authParams[strings.Trim(sl.param, "\"'")]:
		case containsAny(sl.name, slotWords):
			return true
		}
	}
	return false
}
