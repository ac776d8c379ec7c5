package sanitize

import (
	"regexp"
	"strings"
	"sync"
)

// The shell form of the intent screen parses command lines (a line of the
// text, or a code span of it) into pipelines and command substitutions and
// asks what flows where: decoded bytes into an interpreter (decode-exec),
// a credential file or the environment into a program that talks to the
// network (send-out). Quoting is honoured for the separators; the parse is
// approximate, as it must be for shell in prose, but it looks at the
// commands, not at phrases.

// stage is one command of a pipeline: its words, with the byte span of
// the stage in the normalised text.
type stage struct {
	words      []string
	offs       []int // offset of each word in the normalised text
	start, end int
	redirect   string // the file a "> FILE" redirection writes, if any
}

// cmdStart is the offset of the stage's command word.
func (st stage) cmdStart(first bool) int {
	if _, _, k := command(st, first); k < len(st.offs) {
		return st.offs[k]
	}
	return st.start
}

// shellFindings parses every line of normalised text s that can hold a
// pipeline or a substitution.
func shellFindings(s string) []idSpan {
	var out []idSpan
	for lo := 0; lo < len(s); {
		hi := strings.IndexByte(s[lo:], '\n')
		if hi < 0 {
			hi = len(s)
		} else {
			hi += lo
		}
		line := s[lo:hi]
		if strings.IndexByte(line, '|') >= 0 || strings.Contains(line, "$(") || strings.Contains(line, "<(") {
			out = append(out, shellLine(s, lo, hi)...)
		}
		lo = hi + 1
	}
	out = append(out, codeExecFindings(s)...)
	return out
}

// shellLine analyses s[lo:hi], one line.
func shellLine(s string, lo, hi int) []idSpan {
	var out []idSpan
	line := s[lo:hi]
	// Markdown code spans: a backtick pair delimits code, not a shell
	// substitution; blank the backticks so the code reads as a command.
	if strings.Count(line, "`")%2 == 0 {
		b := []byte(line)
		for i := range b {
			if b[i] == '`' {
				b[i] = ' '
			}
		}
		line = string(b)
	}
	lists := splitTop(line, lo, []string{"&&", "||", ";"})
	var decodedFiles []string
	for _, l := range lists {
		stages := pipeline(line, lo, l)
		if len(stages) == 0 {
			continue
		}
		dec, sens := -1, -1
		for k, st := range stages {
			switch {
			case dec >= 0 && execStage(st):
				out = append(out, idSpan{"tool/decode-exec", stages[dec].cmdStart(dec == 0), st.end})
			case sens >= 0 && netStage(st):
				out = append(out, idSpan{"exfil/send-out", stages[sens].cmdStart(sens == 0), st.end})
			}
			if decodeStage(st, k == 0) {
				dec = k
				if st.redirect != "" {
					decodedFiles = append(decodedFiles, st.redirect)
				}
			}
			if readsSensitive(st) {
				sens = k
			}
			if k == len(stages)-1 && dec >= 0 && st.redirect != "" {
				decodedFiles = append(decodedFiles, st.redirect)
			}
		}
		// Decoded into a file, then the file is run.
		if first := stages[0]; len(decodedFiles) > 0 && dec < 0 && runsFile(first, decodedFiles) {
			out = append(out, idSpan{"tool/decode-exec", first.cmdStart(true), first.end})
		}
		// eval or sh -c over a pipeline that decodes.
		if dec > 0 && evalWord(stages[0]) {
			out = append(out, idSpan{"tool/decode-exec", stages[0].cmdStart(true), stages[len(stages)-1].end})
		}
	}
	out = append(out, substitutions(s, lo, hi)...)
	return out
}

// splitTop splits line (whose first byte is at offset base of the
// normalised text) at the separators outside quotes and parentheses, and
// returns the pieces as spans of the normalised text.
func splitTop(line string, base int, seps []string) []span {
	var out []span
	start, depth := 0, 0
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
			continue
		case c == '\'' || c == '"':
			if i > 0 && isWordByte(line[i-1]) && c == '\'' {
				continue // an apostrophe
			}
			quote = c
			continue
		case c == '(':
			depth++
			continue
		case c == ')':
			if depth > 0 {
				depth--
			}
			continue
		}
		if depth > 0 {
			continue
		}
		for _, sep := range seps {
			if strings.HasPrefix(line[i:], sep) {
				if sep == "|" && strings.HasPrefix(line[i:], "||") {
					break
				}
				out = append(out, span{base + start, base + i})
				start = i + len(sep)
				i += len(sep) - 1
				break
			}
		}
	}
	return append(out, span{base + start, base + len(line)})
}

// pipeline splits one command list into its stages.
func pipeline(line string, base int, l span) []stage {
	var out []stage
	for _, sp := range splitTop(line[l.start-base:l.end-base], l.start, []string{"|"}) {
		text := line[sp.start-base : sp.end-base]
		st := stage{start: sp.start, end: sp.end}
		fields, offs := fieldsAt(text, sp.start)
		for k := 0; k < len(fields); k++ {
			f := strings.Trim(fields[k], "\"'")
			if f == ">" || f == ">>" {
				if k+1 < len(fields) {
					st.redirect = strings.Trim(fields[k+1], "\"'")
				}
				k++
				continue
			}
			if strings.HasPrefix(f, ">") && len(f) > 1 && f[1] != '&' {
				st.redirect = strings.TrimLeft(f, ">")
				continue
			}
			st.words = append(st.words, f)
			st.offs = append(st.offs, offs[k])
		}
		if len(st.words) > 0 || st.redirect != "" {
			out = append(out, st)
		}
	}
	return out
}

// fieldsAt splits text (at offset base of the normalised text) into
// space-separated fields with their offsets.
func fieldsAt(text string, base int) ([]string, []int) {
	var fs []string
	var offs []int
	for i := 0; i < len(text); {
		if text[i] == ' ' {
			i++
			continue
		}
		j := i
		for j < len(text) && text[j] != ' ' {
			j++
		}
		fs, offs = append(fs, text[i:j]), append(offs, base+i)
		i = j
	}
	return fs, offs
}

// command returns the stage's command word, its arguments and the index
// of the command word, past wrappers (sudo, env, exec, nohup, time,
// command) and variable assignments. In the first stage of a line the
// command may follow prose ("run: echo ..."); then the first word that is
// a known producer starts it.
func command(st stage, first bool) (string, []string, int) {
	w := st.words
	k := 0
	if first {
		for j := range w {
			switch base(w[j]) {
			case "echo", "printf", "cat", "curl", "wget", "base64", "openssl", "xxd", "env", "printenv", "tar", "zip",
				"gzip", "head", "tail", "eval", "sh", "bash", "zsh", "python", "python3", "perl", "ruby", "node", "nc",
				"gpg", "find", "set", "history", "less", "more", "strings", "od", "tr", "rev", "zcat", "gunzip", "sudo":
				k = j
			default:
				continue
			}
			break
		}
	}
	for k < len(w) {
		c := base(w[k])
		switch {
		case c == "sudo" || c == "env" && k+1 < len(w) && strings.Contains(w[k+1], "=") || c == "exec" || c == "nohup" ||
			c == "time" || c == "command" || c == "$" || c == "run:" || c == ">":
			k++
			for c == "sudo" && k < len(w) && strings.HasPrefix(w[k], "-") {
				k++
			}
			continue
		case strings.Contains(w[k], "=") && !strings.HasPrefix(w[k], "-") && !strings.Contains(w[k], "("):
			k++
			continue
		}
		return c, w[k+1:], k
	}
	return "", nil, len(w)
}

// base is a command word without its directory and .exe.
func base(w string) string {
	if k := strings.LastIndexAny(w, "/\\"); k >= 0 && k < len(w)-1 {
		w = w[k+1:]
	}
	return strings.TrimSuffix(w, ".exe")
}

func hasArg(args []string, want ...string) bool {
	for _, a := range args {
		for _, w := range want {
			if a == w || strings.HasPrefix(w, "-") && len(w) == 2 && strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsRune(a[1:], rune(w[1])) {
				return true
			}
		}
	}
	return false
}

// decodeStage reports a stage that turns encoded bytes back into what
// they hide: base64 -d, xxd -r, openssl base64 -d, rev, tr (rot13),
// gunzip and their kin.
func decodeStage(st stage, first bool) bool {
	c, args, _ := command(st, first)
	switch c {
	case "base64", "base32", "basenc", "b64":
		return hasArg(args, "-d", "--decode", "-D")
	case "openssl":
		return hasArg(args, "-d", "--decode") || strings.Contains(strings.Join(args, " "), "base64 -d")
	case "xxd":
		return hasArg(args, "-r")
	case "rev", "tr", "gunzip", "zcat", "bunzip2", "unxz", "uudecode", "uncompress", "zstdcat", "unzstd":
		return true
	case "gzip", "bzip2", "xz", "zstd":
		return hasArg(args, "-d", "--decompress")
	case "certutil":
		return hasArg(args, "-decode")
	case "python", "python3", "perl", "ruby", "node":
		j := strings.Join(args, " ")
		return strings.Contains(j, "decode") || strings.Contains(j, "atob") || strings.Contains(j, "base64")
	}
	return false
}

var shells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "fish": true,
	"csh": true, "tcsh": true, "ash": true, "busybox": true, "mksh": true, "iex": true, "invoke-expression": true,
	"powershell": true, "pwsh": true, "cmd": true, "source": true, ".": true, "eval": true}

var interpreters = map[string]bool{"python": true, "python2": true, "python3": true, "perl": true, "ruby": true,
	"node": true, "php": true, "deno": true, "bun": true, "lua": true, "osascript": true, "tclsh": true}

// execStage reports a stage that runs what it reads: a shell, eval, or an
// interpreter reading its program from standard input (no script named).
func execStage(st stage) bool {
	c, args, _ := command(st, false)
	if shells[c] {
		return true
	}
	if c == "xargs" {
		for _, a := range args {
			if shells[base(a)] {
				return true
			}
		}
		return false
	}
	if interpreters[c] {
		for _, a := range args {
			if a == "-" {
				return true
			}
			if !strings.HasPrefix(a, "-") {
				return false
			}
		}
		return true
	}
	return false
}

// netStage reports a stage that sends what it reads over the network.
func netStage(st stage) bool {
	c, _, _ := command(st, false)
	switch c {
	case "curl", "wget", "nc", "ncat", "netcat", "socat", "telnet", "ssh", "mail", "mailx", "sendmail", "mutt",
		"openssl", "http", "https", "xh", "iwr", "irm", "invoke-webrequest", "invoke-restmethod", "aws", "gsutil",
		"rclone", "gh":
		return true
	}
	return false
}

// readsSensitive reports a stage that reads a credential file or dumps
// the environment or the shell history.
func readsSensitive(st stage) bool {
	c, args, _ := command(st, true)
	switch c {
	case "env", "printenv", "history", "set", "export":
		return len(args) == 0 || c == "export" && hasArg(args, "-p") || c == "printenv" && len(args) == 1 && secretVar("$"+args[0]) > 0
	}
	for _, a := range append([]string{c}, args...) {
		if sensitivePath(strings.TrimLeft(a, "<@")) {
			return true
		}
	}
	return false
}

// runsFile reports a command that runs one of files: sh FILE, bash FILE,
// ./FILE, source FILE.
func runsFile(st stage, files []string) bool {
	c, args, _ := command(st, false)
	for _, f := range files {
		name := base(f)
		if base(c) == name && name != "" {
			return true
		}
		if shells[c] || interpreters[c] {
			for _, a := range args {
				if base(a) == name {
					return true
				}
			}
		}
	}
	return false
}

// evalWord reports a first stage that evaluates its input as code: eval,
// sh -c, bash -c.
func evalWord(st stage) bool {
	c, args, _ := command(st, true)
	return c == "eval" || shells[c] && hasArg(args, "-c")
}

// substitutions finds command substitutions $(...) and process
// substitutions <(...) in s[lo:hi] whose output is run (eval "$(...)", sh
// -c "$(...)", source <(...), or a substitution in command position) and
// which decode, and substitutions that read a credential or the
// environment inside a command that talks to the network.
func substitutions(s string, lo, hi int) []idSpan {
	var out []idSpan
	line := s[lo:hi]
	for i := 0; i < len(line); i++ {
		if line[i] != '(' || i == 0 || line[i-1] != '$' && line[i-1] != '<' {
			continue
		}
		// Find the matching parenthesis.
		depth, j := 1, i+1
		for ; j < len(line) && depth > 0; j++ {
			switch line[j] {
			case '(':
				depth++
			case ')':
				depth--
			}
		}
		if depth != 0 {
			continue
		}
		body := line[i+1 : j-1]
		bodyLo := lo + i + 1
		var decodes, reads bool
		for _, l := range splitTop(body, bodyLo, []string{"&&", "||", ";"}) {
			for k, st := range pipeline(body, bodyLo, l) {
				decodes = decodes || decodeStage(st, k == 0)
				reads = reads || readsSensitive(st)
			}
		}
		before := strings.TrimRight(strings.Trim(strings.TrimRight(line[:i-1], " "), "\"'"), " ")
		prev := before
		if k := strings.LastIndexAny(before, " |;&(`"); k >= 0 {
			prev = before[k+1:]
		}
		runs := prev == "eval" || prev == "source" || prev == "." || prev == "-c" || prev == "iex" || prev == "" ||
			prev == "sh" || prev == "bash" || prev == "zsh" || strings.HasSuffix(before, "<<<") || prev == "exec"
		if decodes && runs {
			out = append(out, idSpan{"tool/decode-exec", lo + max(0, i-1-len(prev)), lo + j})
		}
		if reads {
			// The substitution is an argument of a command that talks to
			// the network.
			cmdStart := strings.LastIndexAny(before, "|;&") + 1
			if netStage(stage{words: strings.Fields(before[cmdStart:])}) {
				out = append(out, idSpan{"exfil/send-out", lo + cmdStart, lo + j})
			}
		}
		i = j - 1
	}
	return out
}

// codeExec matches, anchored at one of codeExecAnchors, a call that runs
// code (exec, eval, new Function, Invoke-Expression, os.system,
// subprocess) on something it decodes (base64, hex, rot13, zlib, marshal)
// on the same line, and PowerShell's -EncodedCommand with a payload.
var codeExec = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:(?:exec|eval|execfile|function|system|popen|execsync|spawnsync|spawn|compile|loadstring|invoke-expression|iex|os\.system|subprocess\.\w{1,20}|child_process\.\w{1,20}|runtime\.getruntime\(\)\.exec)\s?\(\s?[^\n]{0,160}?(?:b64decode|base64\.\w{0,12}decode|decodebytes|decodestring|\batob\s?\(|frombase64string|['"]base64['"]|codecs\.decode|bytes\.fromhex|unhexlify|zlib\.decompress|marshal\.loads|['"]rot[_-]?13['"]|base64\.getdecoder|base64_decode|str_rot13|gzinflate))` +
		`|^(?:powershell|pwsh)(?:\.exe)?\b[^\n]{0,80}?\s-(?:e|ec|en|enc|enco|encod|encode|encoded|encodedc\w{0,10})\s['"]?[a-z0-9+/=]{16,}`)
})

var codeExecAnchors = []string{"exec", "eval", "function", "system", "popen", "execsync", "spawnsync", "spawn",
	"compile", "loadstring", "invoke-expression", "iex", "os.system", "subprocess.", "child_process.",
	"runtime.getruntime", "powershell", "pwsh"}

// codeExecNeeds are literals of which a codeExec match holds one after
// its anchor: the decoding, or PowerShell's encoded-command flag.
var codeExecNeeds = []string{"decod", "atob", "frombase64", "base64", "fromhex", "unhexlify", "decompress",
	"marshal", "rot13", "rot_13", "rot-13", "gzinflate", " -e"}

var codeExecScanner = sync.OnceValue(func() *anchorScanner {
	sc, _ := newAnchorScanner([][]string{codeExecAnchors}, codeExecNeeds, true)
	return sc
})

// codeExecFindings runs codeExec at every anchor of s that has one of
// codeExecNeeds within reach.
func codeExecFindings(s string) []idSpan {
	const reach = 300
	sc := codeExecScanner()
	var anchors, needs []int
	sc.scan(s, func(lit, start, _ int) {
		if len(sc.rules[lit]) > 0 {
			if sc.anchorOK(s, lit, start) {
				anchors = append(anchors, start)
			}
			return
		}
		needs = append(needs, start)
	})
	if len(needs) == 0 {
		return nil
	}
	var out []idSpan
	re := codeExec()
	last, k := -1, 0
	for _, a := range anchors {
		for k < len(needs) && needs[k] <= a {
			k++
		}
		if a <= last || k == len(needs) || needs[k] > a+reach {
			continue
		}
		if m := matchAt(re, s, a, reach); m != nil {
			out = append(out, idSpan{"tool/decode-exec", m[0], m[1]})
			last = m[1]
		}
	}
	return out
}
