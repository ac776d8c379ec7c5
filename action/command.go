package action

import (
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

// valued reports whether an option of a program takes the next word.
func valued(prog, opt string) bool {
	return contains(valuedOptions()[prog], opt)
}

// Words are the command's arguments as they read, unknown ones empty.
func (c Command) Words() []string { return values(c.Args) }

// Has reports whether the command is given a flag: exactly, as
// "--flag=value", or for a one-letter flag inside a cluster of one-letter
// flags ("-f" in "-fd"; "-am" holds -a and -m).
func (c Command) Has(flag string) bool {
	if name, want, ok := strings.Cut(flag, "="); ok && len(name) > 1 && name[0] == '-' && want != "" {
		// A flag with its value ("--base=main") is the option given that
		// value, however it is written: `--base=main` or `--base main`.
		if v, known := c.ValueOK(name); known && v == want {
			return true
		}
	}
	short := len(flag) == 2 && flag[0] == '-' && flag[1] != '-'
	for i, a := range c.Args {
		if !a.Known {
			continue
		}
		v := a.Value
		if v == "--" {
			return false
		}
		if i > 0 && c.Args[i-1].Known && valued(c.Program, c.Args[i-1].Value) {
			continue // a value, not a flag
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
	dash := false
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		if !a.Known {
			continue
		}
		v := a.Value
		switch {
		case dash:
			out = append(out, v)
		case v == "--":
			dash = true
		case strings.HasPrefix(v, "-") && len(v) > 1:
			if valued(c.Program, v) {
				i++
			}
		default:
			out = append(out, v)
		}
	}
	return out
}

// Sub returns up to n of the command's leading positional words, its
// subcommand ("push" of `git -C x push --force`; "run", "build" of `npm
// run build`), stopping at the first unknown word.
func (c Command) Sub(n int) []string {
	var out []string
	for i := 0; i < len(c.Args) && len(out) < n; i++ {
		a := c.Args[i]
		if !a.Known {
			break
		}
		v := a.Value
		if strings.HasPrefix(v, "-") && len(v) > 1 {
			if valued(c.Program, v) {
				i++
			}
			continue
		}
		out = append(out, v)
	}
	return out
}

// afterSub returns the arguments after the first n positional words.
func (c Command) afterSub(n int) []Arg {
	seen := 0
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		if seen == n {
			return c.Args[i:]
		}
		if !a.Known {
			return nil
		}
		if strings.HasPrefix(a.Value, "-") && len(a.Value) > 1 {
			if valued(c.Program, a.Value) {
				i++
			}
			continue
		}
		seen++
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
