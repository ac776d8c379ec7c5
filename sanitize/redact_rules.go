package sanitize

import (
	"math"
	"strings"
)

// Value alternatives shared by the assignment rules: double-, single- or
// back-quoted (groups 1-3), or bare (group 4).
const assignValue = `(?:"([^"\n]{1,512})"|'([^'\n]{1,512})'|\x60([^\x60\n]{1,512})\x60|([^\s"'\x60,;)}\]]{1,512}))`

// assignOp is an assignment or comparison operator with optional quotes
// around the name before it.
const assignOp = `["'\]]?[ \t]{0,3}(?::=|=>|===|==|=|:)[ \t]{0,3}`

// secretRuleTable lists the redaction rules, most specific first: when
// matches overlap, the earlier rule wins.
var secretRuleTable = []secretRule{
	{
		kind:    "private-key",
		anchors: []string{"-----begin"},
		pattern: `-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:\s{0,4}(?:[A-Za-z0-9+/=]{16,128}|[A-Za-z-]{1,30}: [^\n]{0,200}))*\s{0,4}(?:-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----)?`,
		maxLen:  64 << 10,
		check: func(_ string, _ []int, v string, _ int) bool {
			// A bare mention of the header carries no secret.
			head := strings.Index(v[len("-----BEGIN"):], "-----") + len("-----BEGIN") + len("-----")
			return strings.Contains(v[head:], "-----END") || len(strings.TrimSpace(v[head:])) >= 16
		},
	},
	{
		kind: "aws-access-key-id", edge: true, maxLen: 20,
		anchors: []string{"akia", "asia", "agpa", "aida", "aroa", "aipa", "anpa", "anva", "abia", "acca", "a3t"},
		pattern: `(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}`,
		check:   tokenCheck(4),
	},
	{
		kind: "aws-secret-key", maxLen: 160, groups: []int{1},
		anchors: []string{"secret_access_key", "secretaccesskey", "secret-access-key", "aws_secret", "aws-secret", "awssecret"},
		pattern: `(?i:secret[_-]?access[_-]?key|aws[_-]?secret[A-Za-z0-9_-]{0,20})` + assignOp + `["']?([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+]|$)`,
		check:   tokenCheck(0),
	},
	{
		// innate-mcp's own team-server tokens (package auth).
		kind: "innate-token", edge: true, maxLen: 68,
		anchors: []string{"inn_"},
		pattern: `inn_[0-9a-f]{64}`,
	},
	{
		kind: "github-token", edge: true, maxLen: 300,
		anchors: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"},
		pattern: `gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255}`,
		check:   tokenCheck(4),
	},
	{
		kind: "gitlab-token", edge: true, maxLen: 300,
		anchors: []string{"glpat-", "gldt-", "glptt-", "glrt-", "glcbt-", "glsoat-", "glft-", "glimt-", "gloas-", "glagent-"},
		pattern: `gl(?:pat|dt|ptt|rt|cbt|soat|ft|imt|oas|agent)-[0-9A-Za-z_-]{20,255}`,
		check:   tokenCheck(6),
	},
	{
		kind: "slack-token", edge: true, maxLen: 300,
		anchors: []string{"xoxa-", "xoxb-", "xoxp-", "xoxo-", "xoxs-", "xoxr-", "xoxe-"},
		pattern: `xox[abposre]-[0-9A-Za-z-]{10,255}`,
		check:   tokenCheck(5),
	},
	{
		kind: "slack-webhook", maxLen: 300,
		anchors: []string{"https://hooks.slack.com/"},
		pattern: `https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]{20,255}`,
	},
	{
		kind: "stripe-key", edge: true, maxLen: 300,
		anchors: []string{"sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_"},
		pattern: `(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,247}|whsec_[A-Za-z0-9+/=]{24,128}`,
		check:   tokenCheck(8),
	},
	{
		kind: "anthropic-api-key", edge: true, maxLen: 300,
		anchors: []string{"sk-ant-"},
		pattern: `sk-ant-[A-Za-z0-9]{2,10}-[A-Za-z0-9_-]{20,255}`,
		check:   tokenCheck(7),
	},
	{
		kind: "openai-api-key", edge: true, maxLen: 300,
		anchors: []string{"sk-"},
		pattern: `sk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,255}`,
		check: func(text string, m []int, v string, g int) bool {
			if strings.HasPrefix(v, "sk-ant-") {
				return false
			}
			return mixedToken(v[3:]) && tokenCheck(3)(text, m, v, g)
		},
	},
	{
		kind: "google-api-key", edge: true, maxLen: 40,
		anchors: []string{"aiza"},
		pattern: `AIza[0-9A-Za-z_-]{35}`,
		check:   tokenCheck(4),
	},
	{
		kind: "npm-token", edge: true, maxLen: 40,
		anchors: []string{"npm_"},
		pattern: `npm_[A-Za-z0-9]{36}`,
		check: func(text string, m []int, v string, g int) bool {
			return mixedToken(v[4:]) && tokenCheck(4)(text, m, v, g)
		},
	},
	{
		kind: "pypi-token", edge: true, maxLen: 320,
		anchors: []string{"pypi-age"},
		pattern: `pypi-AgE[A-Za-z0-9_-]{50,300}`,
	},
	{
		kind: "huggingface-token", edge: true, maxLen: 40,
		anchors: []string{"hf_"},
		pattern: `hf_[A-Za-z]{34}`,
		check: func(text string, m []int, v string, g int) bool {
			return hasUpperLower(v[3:]) && tokenCheck(3)(text, m, v, g)
		},
	},
	{
		kind: "sendgrid-key", edge: true, maxLen: 80,
		anchors: []string{"sg."},
		pattern: `SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}`,
	},
	{
		kind: "digitalocean-token", edge: true, maxLen: 80,
		anchors: []string{"dop_v1_", "doo_v1_", "dor_v1_"},
		pattern: `do[opr]_v1_[a-f0-9]{64}`,
	},
	{
		kind: "jwt", edge: true, maxLen: 8 << 10,
		anchors: []string{"eyj"},
		pattern: `eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*`,
	},
	{
		kind: "url-password", maxLen: 400, groups: []int{1},
		anchors: []string{"://"},
		pattern: `://[^\s:/?#@'"\x60<>]{1,128}:([^\s/?#@'"\x60<>]{1,256})@`,
		left:    func(text string, start int) bool { return start > 0 && isAlnum(text[start-1]) },
		check:   valueCheck,
	},
	{
		kind: "authorization", maxLen: 1100, groups: []int{1},
		anchors: []string{"authorization"},
		pattern: `(?i:authorization)["']?[ \t]{0,3}[:=][ \t]{0,3}["']?(?i:bearer|basic|token|bot|digest|apikey)[ \t]{1,3}([A-Za-z0-9._~+/=-]{8,1000})`,
		check:   valueCheck,
	},
	{
		kind: "bearer-token", maxLen: 1100, groups: []int{1},
		anchors: []string{"bearer"},
		pattern: `(?i:bearer)[ \t]{1,3}([A-Za-z0-9._~+/-]{20,1000}=*)`,
		check: func(text string, m []int, v string, g int) bool {
			return hasDigit(v) && hasLetter(v) && valueCheck(text, m, v, g)
		},
	},
	{
		kind: "cli-secret", maxLen: 300, groups: []int{1, 2, 3},
		anchors: []string{"--password", "--passwd", "--pass ", "--pass=", "--token", "--api-key", "--apikey", "--secret", "--client-secret", "--auth-token", "--access-token"},
		pattern: `--(?i:password|passwd|pass|token|api-key|apikey|secret|client-secret|auth-token|access-token)[= ](?:"([^"\n]{1,256})"|'([^'\n]{1,256})'|([^\s"'\x60]{1,256}))`,
		check: func(text string, m []int, v string, g int) bool {
			return v[0] != '-' && !strings.ContainsAny(v, " \t") && valueCheck(text, m, v, g)
		},
	},
	{
		kind: "password", maxLen: 600, groups: []int{1, 2, 3, 4},
		anchors: []string{"password", "passwd", "passphrase", "pass", "pwd", "pw"},
		pattern: `(?i:password|passwd|passphrase|pass|pwd|pw)s?\d{0,2}` + assignOp + assignValue,
		left:    nameEnd,
		check:   passwordCheck,
	},
	{
		kind: "api-key", maxLen: 600, groups: []int{1, 2, 3, 4},
		anchors: []string{"api_key", "api-key", "apikey", "access_key", "access-key", "accesskey", "auth_key", "auth-key", "authkey"},
		pattern: `(?i:api[_-]?key|access[_-]?key|auth[_-]?key)s?\d{0,2}` + assignOp + assignValue,
		check:   strictAssignCheck,
	},
	{
		kind: "token", maxLen: 600, groups: []int{1, 2, 3, 4},
		anchors: []string{"token"},
		pattern: `(?i:token)s?\d{0,2}` + assignOp + assignValue,
		check:   strictAssignCheck,
	},
	{
		kind: "secret", maxLen: 600, groups: []int{1, 2, 3, 4},
		anchors: []string{"secret", "private_key", "private-key", "privatekey", "signing_key", "signing-key", "encryption_key", "encryption-key", "master_key", "master-key", "session_key", "session-key", "credential"},
		pattern: `(?i:secret|private[_-]?key|secret[_-]?key|signing[_-]?key|encryption[_-]?key|master[_-]?key|session[_-]?key|credentials?)s?\d{0,2}` + assignOp + assignValue,
		check:   strictAssignCheck,
	},
	{
		kind: "secret", maxLen: 600, groups: []int{1, 2, 3, 4},
		anchors: []string{"key", "salt", "sig", "cookie"},
		pattern: `(?i:key|salt|signature|sig|cookie)s?\d{0,2}` + assignOp + assignValue,
		check: func(text string, m []int, v string, g int) bool {
			return len(v) >= 16 && highEntropy(v) && valueCheck(text, m, v, g) && (g != 4 || !isCodeLike(v))
		},
	},
}

// nameEnd accepts a password keyword only where it can end a name: the
// long forms anywhere (dbPassword, DB_PASSWORD), "pass" and "pw" as a whole
// name or after a separator (DB_PASS, db.pw) but not inside a word
// (bypass), and "pwd" only after a separator, since a bare PWD is the
// shell's working directory.
func nameEnd(text string, start int) bool {
	rest := strings.ToLower(text[start:min(len(text), start+10)])
	if strings.HasPrefix(rest, "passw") || strings.HasPrefix(rest, "passphrase") {
		return true
	}
	if start == 0 {
		return !strings.HasPrefix(rest, "pwd")
	}
	c := text[start-1]
	if c == '_' || c == '.' || c == '-' {
		return true
	}
	return !strings.HasPrefix(rest, "pwd") && !isWordByte(c)
}

// tokenCheck rejects self-identifying tokens whose body (after a prefix of
// the given length) is masked or a documented example.
func tokenCheck(prefix int) func(string, []int, string, int) bool {
	return func(_ string, _ []int, v string, _ int) bool {
		body := v[min(prefix, len(v)):]
		if distinct(body) <= 3 {
			return false
		}
		lb := strings.ToLower(body)
		return !strings.Contains(lb, "example") && !strings.Contains(lb, "xxxx") && !strings.Contains(lb, "redacted")
	}
}

// assignCheck decides whether a value assigned to a password-like name is
// a literal secret. Quoted literals count from three characters.
func assignCheck(text string, m []int, v string, g int) bool {
	return literalSecret(text, m, v, g, false)
}

// passwordCheck is assignCheck for password names, minus three look-alikes:
// a bare "pass:" label (as in go test's "--- PASS: TestX"), file paths
// ("/etc/master.passwd") and identifiers that repeat the name
// (encodeUserPassword: "encodeUserPassword").
func passwordCheck(text string, m []int, v string, g int) bool {
	start := m[0]
	kw := strings.ToLower(text[start:min(len(text), start+10)])
	short := !strings.HasPrefix(kw, "passw") && !strings.HasPrefix(kw, "passphrase")
	if short && (start == 0 || !strings.ContainsRune("_.-", rune(text[start-1]))) {
		// A bare pass/pw name: only an = assignment counts.
		op := strings.TrimLeft(text[start:m[2*g]], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789\"' \t")
		if !strings.HasPrefix(op, "=") && !strings.HasPrefix(op, ":=") {
			return false
		}
	}
	if isPath(v) {
		return false
	}
	if lv := strings.ToLower(v); (strings.Contains(lv, "passw") || strings.Contains(lv, "passphrase")) && !hasDigit(v) {
		return false
	}
	return assignCheck(text, m, v, g)
}

// isPath reports an absolute, home or relative file path.
func isPath(v string) bool {
	rest, ok := strings.CutPrefix(v, "~/")
	if !ok {
		rest, ok = strings.CutPrefix(v, "./")
	}
	if !ok {
		rest, ok = strings.CutPrefix(v, "../")
	}
	if !ok {
		rest, ok = strings.CutPrefix(v, "/")
	}
	if !ok || rest == "" {
		return false
	}
	for i := 0; i < len(rest); i++ {
		if c := rest[i]; !(c == '/' || c == '.' || c == '_' || c == '-' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// strictAssignCheck is assignCheck for token, secret and key names, whose
// quoted values are often ordinary words ({Token: "hello"}): a quoted
// literal must have eight characters and mix two classes of letters,
// digits and symbols.
func strictAssignCheck(text string, m []int, v string, g int) bool {
	return literalSecret(text, m, v, g, true)
}

func literalSecret(text string, m []int, v string, g int, strict bool) bool {
	if !valueCheck(text, m, v, g) {
		return false
	}
	if g != 4 { // quoted literal
		if strings.ContainsAny(v, " \t") {
			return false
		}
		return !strict || len(v) >= 8 && charClasses(v) >= 2
	}
	if envLine(text, m[0]) {
		return len(v) >= 3
	}
	// A bare value in code or YAML: identifiers, calls and types are code,
	// not secrets, unless they carry digits or symbols.
	if len(v) < 6 || isCodeLike(v) || strict && isTypeName(v) {
		return false
	}
	return hasDigit(v) || strings.ContainsAny(v, "!@#%^&*+/=~?|<>")
}

// charClasses counts which of lower case, upper case, digits and other
// characters occur in v.
func charClasses(v string) int {
	var lower, upper, digit, other int
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case 'a' <= c && c <= 'z':
			lower = 1
		case 'A' <= c && c <= 'Z':
			upper = 1
		case '0' <= c && c <= '9':
			digit = 1
		default:
			other = 1
		}
	}
	return lower + upper + digit + other
}

// envLine reports whether the match at start sits on a line of the form
// NAME=value (an env file or shell export), where bare values are literals.
func envLine(text string, start int) bool {
	lo := max(0, start-maxEnvName)
	nl := strings.LastIndexByte(text[lo:start], '\n')
	if nl < 0 && lo > 0 {
		return false // the name would be longer than any env variable's
	}
	line := strings.TrimLeft(text[lo+nl+1:], " \t")
	line = strings.TrimPrefix(line, "export ")
	i := 0
	for i < len(line) && (line[i] == '_' || 'A' <= line[i] && line[i] <= 'Z' || '0' <= line[i] && line[i] <= '9') {
		i++
	}
	return i > 0 && i < len(line) && line[i] == '='
}

// maxEnvName bounds how far before a keyword an env line may start.
const maxEnvName = 128

var codeWords = []string{"await", "new", "function", "func", "lambda", "this.", "self.", "req.", "request.", "params.", "props.", "config.", "settings.", "args.", "input.", "data.", "user.", "ctx."}

func isCodeLike(v string) bool {
	lv := strings.ToLower(v)
	for _, w := range codeWords {
		if strings.HasPrefix(lv, w) {
			return true
		}
	}
	if strings.ContainsAny(v, "()[]{}*") || strings.HasPrefix(v, "&") {
		return true // calls, indexing, literals, pointers, products
	}
	// Identifiers, dotted paths and type names (String!, Option?) without
	// digits.
	id := strings.TrimRight(v, "!?")
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c == '_' || c == '.' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

// isTypeName reports a CamelCase identifier that starts upper case, like
// the Go type in "type Fts5Token = TFts5Token".
func isTypeName(v string) bool {
	if v == "" || v[0] < 'A' || v[0] > 'Z' || strings.ToUpper(v) == v {
		return false
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

var placeholderWords = []string{"your", "example", "placeholder", "redacted", "insert", "replace", "dummy", "sample", "fake", "here", "todo", "xxx", "***", "•••", "...", "<", ">"}

var notSecrets = map[string]bool{
	"true": true, "false": true, "null": true, "none": true, "nil": true, "undefined": true,
	"required": true, "optional": true, "string": true, "str": true, "number": true, "int": true,
	"bool": true, "boolean": true, "password": true, "secret": true, "token": true, "text": true,
	"hidden": true, "bearer": true, "basic": true, "empty": true, "any": true, "object": true,
	"include": true, "same-origin": true, "omit": true,
}

// envRefs are substrings of values that read a secret from somewhere else.
var envRefs = []string{"process.env", "os.environ", "getenv", "env(", "env[", "env.", "secrets.", "vault:", "ssm:", "secretsmanager", "import.meta", "${{"}

// valueCheck rejects placeholders, references and masked values.
func valueCheck(_ string, _ []int, v string, _ int) bool {
	if len(v) < 3 {
		return false
	}
	switch v[0] {
	case '$', '%', '<', '{', '[', '@', '#':
		return false
	}
	lv := strings.ToLower(v)
	if notSecrets[strings.TrimRight(lv, "!?")] {
		return false
	}
	for _, w := range placeholderWords {
		if strings.Contains(lv, w) {
			return false
		}
	}
	for _, w := range envRefs {
		if strings.Contains(lv, w) {
			return false
		}
	}
	if strings.Contains(v, "{{") || strings.Contains(v, "${") {
		return false
	}
	if allDigits(v) && len(v) < 16 {
		return false // counts, sizes, ports
	}
	return distinct(strings.Trim(lv, "-_.")) > 2
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func distinct(s string) int {
	var seen [256]bool
	n := 0
	for i := 0; i < len(s); i++ {
		if !seen[s[i]] {
			seen[s[i]] = true
			n++
		}
	}
	return n
}

func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

func hasLetter(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; 'a' <= c && c <= 'z' {
			return true
		}
	}
	return false
}

func hasUpperLower(s string) bool {
	return strings.ToLower(s) != s && strings.ToUpper(s) != s
}

// mixedToken reports a random-looking token body: digits and both cases,
// so that "sk-my-long-descriptive-name" is not taken for an API key.
func mixedToken(s string) bool {
	return hasDigit(s) && hasUpperLower(s) && !strings.Contains(s, "--")
}

// highEntropy reports a value whose bytes carry at least 3.5 bits of
// Shannon entropy each and that mixes letters and at least two digits.
func highEntropy(v string) bool {
	if strings.ContainsAny(v, " \t") || !hasLetter(v) {
		return false
	}
	digits := 0
	var counts [256]int
	for i := 0; i < len(v); i++ {
		counts[v[i]]++
		if '0' <= v[i] && v[i] <= '9' {
			digits++
		}
	}
	if digits < 2 {
		return false
	}
	h := 0.0
	n := float64(len(v))
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h >= 3.5
}
