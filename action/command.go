package action

import (
	"path"
	"strings"
	"sync"
)

// valuedOptions are, per program, the options that take the next word as
// their value, so that the value is not read as a subcommand or a file
// ("git -C dir push": push is the subcommand; "sed -e s/a/b/ f": f is the
// file). General knowledge of common command lines; an option missing
// here makes its value read as a positional word, which a check's glob or
// subcommand then has to match exactly, so it errs towards silence.
var valuedOptions = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"git":   {"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path"},
		"npm":   {"--prefix", "-w", "--workspace"},
		"pnpm":  {"-C", "--dir", "-F", "--filter"},
		"yarn":  {"--cwd"},
		"make":  {"-C", "-f", "--file", "--directory", "-I", "-o", "-W", "-l"},
		"gmake": {"-C", "-f", "--file", "--directory"},
		"go": {"-C", "-run", "-skip", "-bench", "-benchtime", "-count", "-cpu", "-timeout", "-tags", "-p", "-parallel",
			"-coverprofile", "-covermode", "-coverpkg", "-o", "-exec", "-ldflags", "-gcflags", "-asmflags", "-mod", "-modfile",
			"-shuffle", "-list", "-outputdir", "-memprofile", "-cpuprofile", "-blockprofile", "-mutexprofile", "-trace"},
		"cargo":    {"--manifest-path", "-Z", "--config", "-C", "-p", "--package", "--target", "--features", "-F", "-j", "--jobs", "--bin", "--example", "--test", "--bench", "--target-dir"},
		"docker":   {"-H", "--host", "--context", "-c", "--config", "-l", "--log-level"},
		"kubectl":  {"-n", "--namespace", "--context", "--kubeconfig", "-l", "--selector", "-o", "--output", "-c", "--container"},
		"uv":       {"--directory", "--project", "--python", "-p"},
		"sed":      {"-e", "-f", "--expression", "--file", "-l", "--line-length"},
		"perl":     {"-e", "-E", "-I", "-x"},
		"cp":       {"-t", "--target-directory", "-S", "--suffix"},
		"mv":       {"-t", "--target-directory", "-S", "--suffix"},
		"install":  {"-t", "--target-directory", "-m", "--mode", "-o", "--owner", "-g", "--group", "-S", "--suffix"},
		"touch":    {"-d", "--date", "-r", "--reference", "-t"},
		"mkdir":    {"-m", "--mode"},
		"tee":      {},
		"truncate": {"-s", "--size", "-r", "--reference"},
		"gh": {"-R", "--repo", "-t", "--title", "-b", "--body", "-F", "--body-file", "-B", "--base", "-H", "--head",
			"-l", "--label", "-a", "--assignee", "-r", "--reviewer", "-m", "--milestone", "-p", "--project", "--template"},
		"curl":    {"-o", "--output", "-H", "--header", "-d", "--data", "--data-raw", "--data-binary", "-X", "--request", "-u", "--user", "-A", "--user-agent", "-e", "--referer", "-F", "--form", "-T", "--upload-file", "-w", "--write-out", "-m", "--max-time", "--connect-timeout", "-b", "--cookie", "-c", "--cookie-jar", "-x", "--proxy"},
		"wget":    {"-O", "--output-document", "-P", "--directory-prefix", "-o", "--output-file", "-U", "--user-agent", "--header"},
		"meson":   {"-C", "--backend", "-D", "--buildtype", "--prefix"},
		"ninja":   {"-C", "-f", "-j", "-k", "-l", "-t"},
		"cmake":   {"-S", "-B", "-G", "-D", "-C", "--build", "--target", "-t", "--config", "-j", "--parallel", "--preset"},
		"dotnet":  {"-c", "--configuration", "-f", "--framework", "-o", "--output", "-r", "--runtime", "-v", "--verbosity", "--project"},
		"gcc":     {"-o", "-I", "-L", "-l", "-D", "-U", "-x", "-include", "-MF", "-MT"},
		"g++":     {"-o", "-I", "-L", "-l", "-D", "-U", "-x", "-include", "-MF", "-MT"},
		"cc":      {"-o", "-I", "-L", "-l", "-D", "-U", "-x"},
		"clang":   {"-o", "-I", "-L", "-l", "-D", "-U", "-x", "-include", "-MF", "-MT"},
		"clang++": {"-o", "-I", "-L", "-l", "-D", "-U", "-x", "-include", "-MF", "-MT"},
	}
})

// toolchainFirst are the programs that rustup's proxies run, whose first
// word may pick a toolchain ("cargo +nightly fmt"): that word is no
// subcommand.
var toolchainFirst = map[string]bool{"cargo": true, "rustc": true, "rustdoc": true, "rustfmt": true, "cargo-clippy": true, "clippy-driver": true}

// selector reports whether the i-th argument, v, picks a toolchain.
func (c Command) selector(i int, v string) bool {
	return i == 0 && PicksToolchain(c.Program, v)
}

// PicksToolchain reports whether word, as the first argument of prog,
// picks a toolchain ("+nightly" of `cargo +nightly fmt`) rather than
// naming a subcommand.
func PicksToolchain(prog, word string) bool {
	return len(word) > 1 && word[0] == '+' && toolchainFirst[prog]
}

// valued reports whether an option of a program takes the next word.
func valued(prog, opt string) bool {
	return contains(valuedOptions()[prog], opt)
}

// globalOptions are the programs whose valued options above are the
// program's own, given before its subcommand: `git -c k=v commit` gives -c
// a value, `git switch -c topic` names a new branch.
var globalOptions = map[string]bool{"git": true}

// role is what an argument is to its command.
type role uint8

const (
	roleUnknown    role = iota // holds an expansion
	roleFlag                   // an option
	roleValue                  // the value of the option before it
	rolePositional             // a word: a subcommand, a file, a target
	roleSelector               // a toolchain picked ("+nightly")
	roleDash                   // "--", the end of the options
)

// roles reads each argument's role, in one pass: after "--" every known
// word is positional.
func (c Command) roles() []role {
	out := make([]role, len(c.Args))
	dash, seenPos := false, false
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		v := a.Value
		switch {
		case !a.Known:
			out[i] = roleUnknown
		case dash:
			out[i] = rolePositional
		case c.selector(i, v):
			out[i] = roleSelector
		case v == "--":
			out[i], dash = roleDash, true
		case strings.HasPrefix(v, "-") && len(v) > 1:
			out[i] = roleFlag
			if valued(c.Program, v) && !(globalOptions[c.Program] && seenPos) && i+1 < len(c.Args) {
				i++
				out[i] = roleValue
			}
		default:
			out[i], seenPos = rolePositional, true
		}
	}
	return out
}

// Words are the command's arguments as they read, unknown ones empty.
func (c Command) Words() []string { return values(c.Args) }

// Has reports whether the command is given a flag: exactly, as
// "--flag=value", or for a one-letter flag inside a cluster of one-letter
// flags ("-f" in "-fd"; "-am" holds -a and -m). A toolchain picked
// ("+nightly") is a flag too.
func (c Command) Has(flag string) bool {
	if name, want, ok := strings.Cut(flag, "="); ok && len(name) > 1 && name[0] == '-' && want != "" {
		// A flag with its value ("--base=main") is the option given that
		// value, however it is written: `--base=main` or `--base main`.
		if v, known := c.ValueOK(name); known && v == want {
			return true
		}
	}
	short := len(flag) == 2 && flag[0] == '-' && flag[1] != '-'
	roles := c.roles()
	for i, a := range c.Args {
		v := a.Value
		switch roles[i] {
		case roleDash:
			// The end of the options; a rule may rule out that marker
			// itself ("don't pass `--` to pnpm").
			return flag == "--"
		case roleSelector:
			// The toolchain picked is an option of the command's
			// ("build with `cargo +nightly`"); "+*" is any.
			if ok, _ := path.Match(flag, v); ok || v == flag {
				return true
			}
			continue
		case roleFlag:
		default:
			continue // a value, a word, an expansion
		}
		// A long flag may carry its value after "=": `--out=x`, and Go's
		// and Java's single-dash `-tags=x`.
		if v == flag || len(flag) > 2 && flag[0] == '-' && strings.HasPrefix(v, flag+"=") {
			return true
		}
		if short && len(v) > 2 && v[0] == '-' && v[1] != '-' && !valued(c.Program, v[:2]) && isLetters(v[1:]) && strings.IndexByte(v[1:], flag[1]) >= 0 {
			return true
		}
	}
	return false
}

func isLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		b := s[i]
		if !(b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z') {
			return false
		}
	}
	return true
}

// Value returns the value of the first of the options given ("-o out",
// "--output=out", "--output out"), or "".
func (c Command) Value(opts ...string) string {
	v, _ := c.ValueOK(opts...)
	return v
}

// ValueOK is Value, and whether the option was given with a known value.
func (c Command) ValueOK(opts ...string) (string, bool) {
	for i, a := range c.Args {
		if !a.Known {
			continue
		}
		for _, o := range opts {
			if a.Value == o && i+1 < len(c.Args) {
				return c.Args[i+1].Value, c.Args[i+1].Known
			}
			if strings.HasPrefix(o, "--") && strings.HasPrefix(a.Value, o+"=") {
				return strings.TrimPrefix(a.Value, o+"="), true
			}
		}
	}
	return "", false
}

// Positionals are the command's arguments that are neither flags nor the
// values of its options (known values only; everything after "--").
func (c Command) Positionals() []string {
	var out []string
	for i, r := range c.roles() {
		if r == rolePositional {
			out = append(out, c.Args[i].Value)
		}
	}
	return out
}

// Sub returns up to n of the command's leading positional words, its
// subcommand ("push" of `git -C x push --force`; "run", "build" of `npm
// run build`), stopping at the first unknown word.
func (c Command) Sub(n int) []string {
	var out []string
	for i, r := range c.roles() {
		if len(out) == n || r == roleUnknown {
			break
		}
		if r == rolePositional {
			out = append(out, c.Args[i].Value)
		}
	}
	return out
}

// afterSub returns the arguments after the first n positional words.
func (c Command) afterSub(n int) []Arg {
	seen := 0
	for i, r := range c.roles() {
		if seen == n {
			return c.Args[i:]
		}
		switch r {
		case roleUnknown:
			return nil
		case rolePositional:
			seen++
		}
	}
	return nil
}

// Runs reports whether the command runs prog: as its program, or as one of
// the wrappers or runners it was found inside ("npx" of `npx jest`, "uv"
// of `uv run pytest`).
func (c Command) Runs(prog string) bool {
	if c.Program == prog {
		return true
	}
	for _, v := range c.Via {
		if v == prog || strings.HasPrefix(v, prog+" ") {
			return true
		}
	}
	return false
}

// SwitchesTo reports whether the command moves the checkout to another
// branch (`git checkout main`, `git switch -c topic`, `git checkout -b
// topic`), and to which; "" when git cannot be read to name one (`git
// switch -`). Restoring files (`git checkout -- a.go`, `git checkout main
// -- a.go`, `git checkout .`) moves nothing.
func (c Command) SwitchesTo() (string, bool) {
	if c.Program != "git" {
		return "", false
	}
	pos := c.Positionals()
	if len(pos) == 0 || pos[0] != "checkout" && pos[0] != "switch" {
		return "", false
	}
	if pos[0] == "checkout" && c.Has("--") {
		return "", false
	}
	if len(pos) < 2 {
		return "", false
	}
	b := pos[1]
	if b == "-" {
		return "", true // the branch before: not known here
	}
	if b == "." || strings.HasPrefix(b, "./") || strings.HasPrefix(b, "../") {
		return "", false
	}
	return b, true
}
