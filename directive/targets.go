package directive

import (
	"encoding/json"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/innate-mcp/innate-mcp/action"
	"github.com/innate-mcp/innate-mcp/check"
)

// writeVerbs change a file, and deleteVerbs remove one.
var (
	writeVerb   = lazyRE(`(?i)\b(edit|modify|modifies|modifying|change|changing|touch|touching|write|writing|update|updating|alter|overwrite|rewrite|delete|deleting|remove|removing|rename|move|create|creating|add|adding|put|place|commit|committing|stage|hand-edit|hand edit|manually edit)\w*\b`)
	deleteVerbs = set("delete", "deleting", "remove", "removing")
	gitAddVerbs = set("commit", "committing", "stage", "add", "adding")
)

// writeVerbIn returns the first verb of a clause that changes a file, or
// "".
func writeVerbIn(clause string) string {
	// A verb inside a code span is code: "must not call `session.commit(`"
	// commits nothing.
	if m := writeVerb.FindStringSubmatch(codeSpan.ReplaceAllString(clause, "``")); m != nil {
		return strings.ToLower(m[1])
	}
	return ""
}

// pathCheck compiles a path a rule rules out, governed by verb: edits and
// writes of it, its removal, or its staging for a commit.
func pathCheck(p, verb string) (check.Check, bool) {
	g, ok := globOf(p)
	if !ok || verb == "" {
		return check.Check{}, false
	}
	verb = strings.ToLower(verb)
	switch {
	case gitAddVerbs[verb]:
		if verb == "add" || verb == "adding" {
			// "add files to X" writes there; "add X" is ambiguous.
			return check.Check{Kind: check.Forbid, Write: &check.WritePattern{Paths: []string{g}, New: true}}, strings.HasSuffix(g, "/")
		}
		return check.Check{Kind: check.Forbid, Command: &check.CommandPattern{Programs: []string{"git"}, Sub: []string{"add"}, Args: []string{g}}}, true
	case deleteVerbs[verb]:
		return check.Check{Kind: check.Forbid, Write: &check.WritePattern{Paths: []string{g}, Delete: true}}, true
	case writeVerb.MatchString(verb):
		if verb == "create" || verb == "creating" || verb == "put" || verb == "place" {
			if !strings.HasSuffix(g, "/") {
				return check.Check{}, false // "create X.md" asks for a file, not where
			}
			return check.Check{Kind: check.Forbid, Write: &check.WritePattern{Paths: []string{g}, New: true}}, true
		}
		return check.Check{Kind: check.Forbid, Write: &check.WritePattern{Paths: []string{g}}}, true
	}
	return check.Check{}, false
}

// notPaths are words that look like places in a rule but name none.
var notPaths = set("root", "project", "repo", "repository", "same", "this", "that", "new", "any", "other", "the",
	"main", "master", "production", "prod", "source", "src/**", "and/or", "e.g", "i.e", "etc", "n/a", "tcp/ip", "i/o", "ci/cd", "ui/ux")

// globOf turns a path a rule names into a glob: "generated/" stays,
// "`dist`" named as a folder becomes "dist/", a file stays a file.
// Placeholders, URLs and words that name no place are refused.
func globOf(p string) (string, bool) {
	p = unemphasize(strings.Trim(strings.TrimSpace(p), "`'\""))
	p = strings.TrimRight(p, ".,;:!?)")
	if strings.HasSuffix(p, "/.") {
		p = strings.TrimSuffix(p, ".")
	}
	p = strings.TrimPrefix(p, "./")
	low := strings.ToLower(p)
	switch {
	case strings.Trim(p, "*/.") == "" || notPaths[low] || strings.ContainsAny(p, "<>{} $|") || strings.Contains(p, "://") || callLike.MatchString(p):
		return "", false
	case strings.HasPrefix(p, "/") && strings.Count(p, "/") == 1 && !strings.Contains(p, "."):
		return "", false // "/api" is more often a route than a root folder
	case strings.Contains(p, "..."):
		return "", false
	}
	if !strings.Contains(p, "/") && !strings.Contains(p, ".") && !strings.Contains(p, "*") {
		return "", false // a bare word is not known to be a place
	}
	if strings.HasPrefix(p, "*/") {
		// "*/mocks/mocks.go" in a rule means such a file at any depth, as
		// its examples show, not one folder down as .gitignore reads it.
		p = "**/" + strings.TrimPrefix(p, "*/")
	}
	return p, true
}

// unemphasize strips the Markdown emphasis around a path ("**generated/**",
// "*dist*") and a trailing "/*" or "/**" (the folder itself), and keeps
// the stars of a glob: "*.pem" is every such file, not a file named
// ".pem", and "**/*.pb.go" stays as written.
func unemphasize(p string) string {
	lead := len(p) - len(strings.TrimLeft(p, "*"))
	trail := len(p) - len(strings.TrimRight(p, "*"))
	if lead > 0 && lead == trail && lead < len(p) && !strings.ContainsRune("/.", rune(p[lead])) {
		p = p[lead : len(p)-trail]
	}
	for _, suffix := range []string{"/**", "/*"} {
		if strings.HasSuffix(p, suffix) && len(p) > len(suffix) {
			return strings.TrimSuffix(p, suffix[1:])
		}
	}
	return p
}

// callLike is a call in code (`session.commit(`, `resetAll()`), never a
// path; a route group (`app/(auth)/`) is one.
var callLike = lazyRE(`\w\(`)

// folderWord is a name followed by "folder" or "directory": a place.
var (
	folderWord = lazyRE("(?i)`?([\\w.-]+(?:/[\\w.-]+)*/?)`?\\s+(?:folder|directory|dir)s?\\b")
	pathToken  = lazyRE("(?:`([^`\\s]+)`)|(?:^|[\\s(\"'])((?:\\.{0,2}/)?[\\w@.-]+(?:/[\\w@.*-]+)*/(?:[\\w@.*-]+)?|[\\w@-]*\\.(?:env|lock|json|ya?ml|toml|lock|md|sql|go|py|ts|tsx|js|jsx|rs|java|kt|swift|rb|php|cs|c|h|cpp|hpp|sh|proto|graphql|css|scss|html|xml|ini|cfg|conf|txt))(?:[\\s,;:.)\"']|$)")
)

// pathsIn returns the paths a clause names: code spans and words that look
// like paths, and names called a folder or directory.
func pathsIn(clause string) []string {
	var out []string
	for _, m := range folderWord.FindAllStringSubmatch(clause, -1) {
		p := m[1]
		if !notPaths[strings.ToLower(strings.TrimSuffix(p, "/"))] && !strings.HasSuffix(p, "/") {
			p += "/"
		}
		out = append(out, p)
	}
	for _, m := range pathToken.FindAllStringSubmatch(clause, -1) {
		p := m[1] + m[2]
		if m[1] != "" && !strings.ContainsAny(p, "/.*") {
			continue // a code span that is no path (`any`)
		}
		if m[1] == "" && alternatives.MatchString(p) {
			continue // "Claude/AI references": words or words, no place
		}
		if _, ok := globOf(p); ok && !slices.Contains(out, p) && !slices.Contains(out, p+"/") {
			out = append(out, p)
		}
	}
	return out
}

// alternatives is a pair of capitalised words joined by a slash in prose
// ("Claude/AI", "Dev/Prod"): one word or the other, not a path, which
// has a dot, a trailing slash or lower-case folders.
var alternatives = lazyRE(`^[A-Z][\w-]*/[A-Za-z][\w-]*$|^[a-z][\w-]*/[A-Z][\w-]*$`)

// isProgram reports whether an object names a known program alone.
func isProgram(text string) bool {
	t := strings.ToLower(strings.Trim(strings.TrimSpace(text), "`"))
	return knownPrograms[t]
}

// phraseCommand reads a phrase a run verb governs as a command written in
// prose ("run npm install", "execute cargo build --release"): a known
// program that is no everyday word, then subcommand words and flags only.
// Nil for any other phrase ("npm scripts" is npm's things, read by
// attributive; "make sure" is no command).
func phraseCommand(o Object) *check.CommandPattern {
	if o.Kind != KindPhrase || o.Verb != "run" && o.Verb != "execute" && o.Verb != "call" && o.Verb != "invoke" {
		return nil
	}
	words := strings.Fields(o.Text)
	if len(words) < 2 || len(words) > 4 {
		return nil
	}
	prog, next := words[0], strings.ToLower(words[1])
	if !knownPrograms[prog] || proseWords[prog] || toolThings[next] || pluralNoun(next) {
		return nil
	}
	for _, w := range words[1:] {
		if !proseCommandWord.MatchString(w) {
			return nil
		}
	}
	return codeCommand(o.Text, o.Verb)
}

// proseCommandWord is a subcommand or a flag as prose writes a command.
var proseCommandWord = lazyRE(`^(?:[a-z][a-z0-9-]*|--?[a-z][a-z0-9-]*)$`)

// runVerbs govern a code span that is a command even when its program is
// not a known one ("run `./scripts/check.sh`").
var runVerbs = set("run", "execute", "call", "invoke", "use", "always", "prefer")

// codeCommand reads a code span as a command pattern: its program (known,
// or any program when a run verb governs it and it has arguments), its
// subcommand words and its flags; placeholders and paths are dropped. Nil
// for a span that is not a command.
func codeCommand(code, verb string) *check.CommandPattern {
	c, ok := spanCommand(code)
	if !ok {
		return nil
	}
	if codeKeywords[c.Program] {
		return nil // `new Date`, `import x`, `return nil`: code, not a command
	}
	// `./gradlew`, `bin/rails`: a known program by its base name.
	known := knownPrograms[c.Program] || knownPrograms[viaProgram(c.Via)] || strings.Contains(c.Program, "/") && knownPrograms[path.Base(c.Program)]
	if !known && !(runVerbs[verb] && len(c.Args) > 0 && !strings.Contains(c.Program, ".")) {
		return nil
	}
	if !known && (strings.ContainsAny(c.Program, "()=:") || len(c.Program) < 2 || strings.HasPrefix(c.Program, "-")) {
		// A span that opens with a flag (`-count 1`) names options of
		// some command, not a program.
		return nil
	}
	p := &check.CommandPattern{Programs: []string{c.Program}}
	if len(c.Via) > 0 && !knownPrograms[c.Program] {
		p.Programs = []string{c.Program}
	}
	for _, w := range c.Args {
		v := w.Value
		if !w.Known || placeholder(v) {
			break
		}
		if strings.HasPrefix(v, "-") {
			if strings.Contains(v, "=") {
				v = v[:strings.IndexByte(v, '=')]
			}
			p.Flags = append(p.Flags, v)
			continue
		}
		if len(p.Flags) > 0 || strings.ContainsAny(v, "/.*") {
			break // a flag's value or a path: not part of the command's shape
		}
		p.Sub = append(p.Sub, v)
		if len(p.Sub) == 2 {
			break
		}
	}
	return p
}

// spanCommand parses a code span as one shell command, a placeholder in
// angle brackets read as one (`<target>` would be a redirection).
func spanCommand(code string) (action.Command, bool) {
	code = strings.TrimSpace(strings.Trim(code, "`"))
	if code == "" || strings.ContainsAny(code, "\n") || quotedLiteral(code) {
		return action.Command{}, false
	}
	a := action.Shell(angled.ReplaceAllString(code, "{x}"), action.Env{})
	if !a.Parsed || len(a.Commands) != 1 {
		return action.Command{}, false
	}
	return a.Commands[0], true
}

// codeKeywords open code, never a command line: a span that starts with
// one is a construct of a language. General knowledge of common languages.
var codeKeywords = set("new", "return", "const", "let", "var", "def", "class", "import", "from", "await", "async",
	"function", "fn", "func", "type", "interface", "struct", "enum", "public", "private", "protected", "static",
	"throw", "raise", "if", "else", "elif", "for", "while", "try", "catch", "except", "finally", "with", "yield",
	"lambda", "typeof", "instanceof", "delete", "void", "package", "impl", "trait", "mod", "pub", "use", "extends",
	"implements", "override", "abstract", "final", "val", "fun", "object", "module", "require", "include", "defer")

// quotedLiteral reports whether a code span is a quoted string
// (`"pnpm"`, `'lodash'`): a value written in a file, not a command.
func quotedLiteral(code string) bool {
	return len(code) >= 2 && (code[0] == '"' || code[0] == '\'') && code[len(code)-1] == code[0]
}

// throughRunner is, for a ruled-out command span that runs its program
// through a runner (`uv run pytest`), the pattern of that runner's form
// (`uv` with `run pytest`): ruling out `uv run pytest` leaves `pytest`
// alone. Other spans keep p.
func throughRunner(code string, p *check.CommandPattern) *check.CommandPattern {
	c, ok := spanCommand(code)
	if !ok || len(c.Via) == 0 {
		return p
	}
	via := strings.Fields(c.Via[0])
	if len(via) == 0 || len(via)+len(p.Sub) > 7 {
		return p
	}
	sub := append(append(via[1:len(via):len(via)], p.Programs[0]), p.Sub...)
	return &check.CommandPattern{Programs: []string{via[0]}, Sub: sub, Flags: p.Flags}
}

// literalArgs are the words of a command span past the pattern's
// subcommands that are neither flags nor placeholders: `git add .` rules
// out adding ".", not every `git add`; `rm -rf /` removing "/". A
// placeholder ends them (`npm install <pkg>` names no argument).
func literalArgs(code string, p *check.CommandPattern) []string {
	c, ok := spanCommand(code)
	if !ok {
		return nil
	}
	pos := c.Positionals()
	if len(pos) <= len(p.Sub) {
		return nil
	}
	var out []string
	for _, w := range pos[len(p.Sub):] {
		if placeholder(w) {
			return nil
		}
		out = append(out, w)
	}
	return out
}

// chainCommands reads a code span that chains commands (`npm run lint &&
// npm run build`) as one pattern a command, each of a known program;
// nil unless every command of the chain reads as one.
func chainCommands(code string) []*check.CommandPattern {
	code = strings.TrimSpace(strings.Trim(code, "`"))
	parts := chainSep.Split(code, -1)
	if len(parts) < 2 || len(parts) > 8 {
		return nil
	}
	var out []*check.CommandPattern
	for _, p := range parts {
		c := codeCommand(p, "run")
		if c == nil || !knownPrograms[c.Programs[0]] {
			return nil
		}
		out = append(out, c)
	}
	return out
}

// chainSep separates the commands of a chain.
var chainSep = lazyRE(`\s*(?:&&|;)\s*`)

func viaProgram(via []string) string {
	if len(via) == 0 {
		return ""
	}
	w, _, _ := strings.Cut(via[0], " ")
	return w
}

// angled is a placeholder in angle brackets.
var angled = lazyRE(`<[^<>\s]+>`)

// openCommand reports whether a rule's command has a placeholder right
// after its program (`bun <file>`, `make $TARGET`): its pattern is then the
// program alone.
func openCommand(code string) bool {
	f := strings.Fields(strings.Trim(strings.TrimSpace(code), "`"))
	return len(f) > 1 && placeholder(f[1])
}

// placeholder reports whether a word of a rule's command stands for any
// text: <target>, {name}, $VAR, ..., UPPER_CASE.
func placeholder(w string) bool {
	return strings.ContainsAny(w, "<>{}[]$") || strings.Contains(w, "...") || w == "…" ||
		len(w) > 1 && w[0] != '-' && strings.ToUpper(w) == w && strings.ToLower(w) != w // not a flag: `git add -A`
}

// flagPattern compiles a flag a rule rules out, with the command the rule
// names for it (a code span's, a known program, or the verb's: "never push
// with `--force`"); a long flag alone is ruled out on any command.
func flagPattern(o Object, s string) *check.CommandPattern {
	flag := o.Text
	if i := strings.IndexByte(flag, '='); i > 0 {
		flag = flag[:i]
	}
	if vc, ok := verbCommands[strings.ToLower(o.Verb)]; ok && len(vc) > 0 {
		return &check.CommandPattern{Programs: []string{vc[0]}, Sub: vc[1:], Flags: []string{flag}}
	}
	lower := strings.ToLower(s)
	spans := strings.ToLower(strings.Join(codeSpan.FindAllString(s, -1), " "))
	for _, w := range wordRE.FindAllString(lower, -1) {
		if vc, ok := verbCommands[w]; ok && len(vc) > 0 {
			return &check.CommandPattern{Programs: []string{vc[0]}, Sub: vc[1:], Flags: []string{flag}}
		}
		if knownPrograms[w] && (!proseWords[w] || slices.Contains(wordRE.FindAllString(spans, -1), w)) {
			return &check.CommandPattern{Programs: []string{w}, Flags: []string{flag}}
		}
	}
	if strings.HasPrefix(flag, "--") && len(flag) > 5 {
		return &check.CommandPattern{Programs: []string{"*"}, Flags: []string{flag}}
	}
	return nil
}

// proseWords are programs' names that are everyday words ("just built",
// "make sure", "go ahead"): in prose they name the program only inside a
// code span.
var proseWords = set("just", "make", "go", "task", "use", "run", "find", "test", "time", "watch", "open", "less",
	"more", "head", "tail", "sort", "yes", "cut", "join", "touch", "top", "kill", "wait", "true", "false", "read",
	"exec", "source", "type", "tree", "file", "info", "man", "which", "say", "see", "pass", "install")

// boundFlags pairs the commands of a clause with the flags it gives them:
// "never run `git push` with `--force`" and "never pass `--no-verify` to
// `git commit`" rule out the command with that flag, not the command. It
// returns, by index in objs, each bound command's flag (as written, with
// its value: `-count=1`), and the flags so bound.
func boundFlags(s string, objs []Object) (flagOf map[int]string, bound map[int]bool, without map[int]bool) {
	flagOf, bound, without = map[int]string{}, map[int]bool{}, map[int]bool{}
	at := func(o Object) (int, int) {
		if i := strings.Index(s, "`"+o.Text+"`"); i >= 0 {
			return i, i + len(o.Text) + 2
		}
		if o.Kind == KindFlag {
			// A flag named in prose: "don't use --no-verify with `git commit`".
			if loc := regexp.MustCompile(`(?:^|[\s(])(` + regexp.QuoteMeta(o.Text) + `)(?:$|[\s),.;:])`).FindStringSubmatchIndex(s); loc != nil {
				return loc[2], loc[3]
			}
		}
		return -1, -1
	}
	// A flag given to a list of commands ("`--tl:off` for `dotnet build`
	// and `dotnet test`") is given to each.
	listed, listedEnd := -1, 0
	for ci, c := range objs {
		if c.Kind != KindCode && !isProgram(c.Text) || c.Example {
			continue
		}
		cs, ce := at(c)
		if cs < 0 {
			continue
		}
		if listed >= 0 && cs >= listedEnd && listJoin.MatchString(s[listedEnd:cs]) {
			flagOf[ci], listed, listedEnd = flagOf[listed], ci, ce
			continue
		}
		listed = -1
		for fi, f := range objs {
			if f.Kind != KindFlag || bound[fi] || f.Example {
				continue
			}
			fs, fe := at(f)
			if fs < 0 {
				continue // a flag named outside a code span ("`git push` --force")
			}
			switch {
			case fs >= ce && commandThenFlag.MatchString(s[ce:fs]):
			case fs >= ce && commandWithoutFlag.MatchString(s[ce:fs]):
				// "never run `npm install` without `--save-exact`": the
				// command lacking the flag.
				without[ci] = true
			case cs >= fe && flagThenCommand.MatchString(s[fe:cs]):
				listed, listedEnd = ci, ce
			default:
				continue
			}
			flagOf[ci], bound[fi] = f.Text, true
			break
		}
	}
	return flagOf, bound, without
}

// listJoin joins the commands of a list: ", ", " and ", " or ".
var listJoin = lazyRE(`(?i)^\s*(?:,\s*)?(?:and|or|,)\s*$`)

// commandThenFlag and flagThenCommand are the words that join a command
// and its flag in a rule: "`git push` with `--force`", "`--no-verify` to
// `git commit`".
var (
	commandThenFlag    = lazyRE(`(?i)^\s*(?:with|using|passing|and)\s+(?:the\s+|a\s+|an\s+)?(?:(?:flag|option)\s+)?$`)
	commandWithoutFlag = lazyRE(`(?i)^\s*without\s+(?:the\s+|a\s+|an\s+)?(?:(?:flag|option)\s+)?$`)
	flagThenCommand    = lazyRE(`(?i)^\s*(?:(?:flag|option)\s+)?(?:to|with|on|in|for|when\s+(?:running|calling|using))\s+(?:the\s+|a\s+)?$`)
)

// runnerCheck compiles a runner a rule asks for: `uv run pytest` rules out
// pytest run without uv run; `uv run` alone, or `bundle exec`, rules out
// the runner's tools run bare.
func runnerCheck(code string) (check.Check, bool) {
	code = strings.ToLower(strings.TrimSpace(strings.Trim(code, "`")))
	for _, r := range runners {
		for _, prefix := range r.prefixes {
			if !strings.HasPrefix(code, prefix) || prefix == "yarn" || prefix == "pnpm" || prefix == "npx" {
				continue
			}
			rest := strings.TrimSpace(strings.TrimPrefix(code, prefix))
			progs := r.tools
			if rest != "" {
				tool, _, _ := strings.Cut(rest, " ")
				if !slices.Contains(r.tools, tool) {
					return check.Check{}, false
				}
				progs = []string{tool}
			}
			if len(r.tools) > 0 && r.tools[0] == "jest" {
				return check.Check{}, false // JavaScript runners are too many to tell bare from run
			}
			return check.Check{Kind: check.Forbid, Command: &check.CommandPattern{Programs: progs, NotVia: []string{prefix}}}, true
		}
	}
	return check.Check{}, false
}

// mergePrefers folds the prefer-instead checks of one rule that rule out
// bare programs into one, naming every tool the rule asks for ("use pnpm
// or bun, not npm": npm and yarn, use pnpm or bun instead).
func mergePrefers(cs []check.Check) []check.Check {
	var out []check.Check
	samePattern := func(a, b *check.CommandPattern) bool {
		x, _ := json.Marshal(a)
		y, _ := json.Marshal(b)
		return string(x) == string(y)
	}
	for _, c := range cs {
		if c.Kind == check.PreferInstead && c.Command != nil && !bareProgram(c.Command) {
			if i := slices.IndexFunc(out, func(x check.Check) bool {
				return x.Kind == check.PreferInstead && x.RemindOnly == c.RemindOnly && samePattern(x.Command, c.Command)
			}); i >= 0 {
				if !slices.Contains(strings.Split(out[i].Instead, " or "), c.Instead) {
					out[i].Instead += " or " + c.Instead
				}
				continue
			}
		}
		if c.Kind == check.PreferInstead && bareProgram(c.Command) {
			if i := slices.IndexFunc(out, func(x check.Check) bool {
				return x.Kind == check.PreferInstead && bareProgram(x.Command) && x.RemindOnly == c.RemindOnly
			}); i >= 0 {
				m := &out[i]
				for _, p := range c.Command.Programs {
					if !slices.Contains(m.Command.Programs, p) {
						m.Command.Programs = append(m.Command.Programs, p)
					}
				}
				if !slices.Contains(strings.Split(m.Instead, " or "), c.Instead) {
					m.Instead += " or " + c.Instead
				}
				continue
			}
			c.Command = &check.CommandPattern{Programs: slices.Clone(c.Command.Programs)}
		}
		out = append(out, c)
	}
	// A tool asked for is never ruled out by another reading of the rule.
	for i := range out {
		if out[i].Kind == check.PreferInstead && bareProgram(out[i].Command) {
			asked := strings.Split(out[i].Instead, " or ")
			out[i].Command.Programs = slices.DeleteFunc(out[i].Command.Programs, func(p string) bool { return slices.Contains(asked, p) })
		}
	}
	return slices.DeleteFunc(out, func(c check.Check) bool {
		return c.Command != nil && len(c.Command.Programs) == 0 && len(c.Command.Classes) == 0
	})
}

func bareProgram(p *check.CommandPattern) bool {
	return p != nil && len(p.Sub) == 0 && len(p.Flags) == 0 && len(p.Args) == 0 && len(p.PipeTo) == 0 && len(p.Classes) == 0 && len(p.NotVia) == 0
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
