package action

import (
	"strings"
	"sync"
)

// wrapper is a command that runs another one: the words it takes before
// the command it runs.
type wrapper struct {
	// words that open it after the program ("run" of `uv run`), if any.
	sub []string
	// valued are its options that take the next word as their value.
	valued []string
	// positional is how many plain words it takes before the command
	// (timeout's duration).
	positional int
	// assigns: NAME=value words are skipped (env).
	assigns bool
	// stop are options after which no command follows (`command -v x`).
	stop []string
}

// wrappers are the programs that run another program: privilege and
// environment wrappers, timing and scheduling, xargs, and the runners of
// package managers and environments. General knowledge of the shell and of
// common ecosystems; add one when agents commonly run commands through it.
var wrappers = sync.OnceValue(func() map[string][]wrapper {
	return map[string][]wrapper{
		"sudo":    {{valued: []string{"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "--user", "--group"}}},
		"doas":    {{valued: []string{"-u", "-C"}}},
		"env":     {{valued: []string{"-u", "-C", "-S", "--unset", "--chdir"}, assigns: true}},
		"time":    {{valued: []string{"-f", "-o", "--format", "--output"}}},
		"nohup":   {{}},
		"exec":    {{valued: []string{"-a"}}},
		"command": {{stop: []string{"-v", "-V"}}},
		"builtin": {{}},
		"nice":    {{valued: []string{"-n", "--adjustment"}}},
		"ionice":  {{valued: []string{"-c", "-n", "-p", "--class", "--classdata"}}},
		"stdbuf":  {{valued: []string{"-i", "-o", "-e"}}},
		"timeout": {{valued: []string{"-k", "-s", "--kill-after", "--signal"}, positional: 1}},
		"watch":   {{valued: []string{"-n", "-d", "--interval"}}},
		"xargs": {{valued: []string{"-n", "-L", "-I", "-P", "-d", "-a", "-s", "-E", "--max-args", "--max-lines",
			"--replace", "--max-procs", "--delimiter", "--arg-file", "--max-chars", "--eof"}}},
		"npx":    {{valued: []string{"-p", "--package", "-c", "--call", "-w", "--workspace"}}},
		"bunx":   {{valued: []string{"-p", "--package"}}},
		"uvx":    {{valued: []string{"--from", "--with", "--python", "-p"}}},
		"pnpx":   {{}},
		"pnpm":   {{sub: []string{"dlx"}, valued: []string{"--package", "-C", "--dir", "--filter", "-F"}}, {sub: []string{"exec"}, valued: []string{"-C", "--dir", "--filter", "-F"}}},
		"yarn":   {{sub: []string{"dlx"}, valued: []string{"-p", "--package"}}, {sub: []string{"exec"}}},
		"npm":    {{sub: []string{"exec"}, valued: []string{"-p", "--package", "-c", "--call", "-w", "--workspace"}}},
		"bun":    {{sub: []string{"x"}, valued: []string{"-p", "--package"}}},
		"uv":     {{sub: []string{"run"}, valued: uvRunValued}, {sub: []string{"tool", "run"}, valued: []string{"--from", "--with", "--python", "-p"}}},
		"poetry": {{sub: []string{"run"}, valued: []string{"-C", "--directory", "-P", "--project"}}},
		"pipenv": {{sub: []string{"run"}}},
		"pdm":    {{sub: []string{"run"}, valued: []string{"-p", "--project"}}},
		"hatch":  {{sub: []string{"run"}, valued: []string{"-e", "--env"}}},
		"rye":    {{sub: []string{"run"}}},
		"pipx":   {{sub: []string{"run"}, valued: []string{"--spec", "--python"}}},
		"conda":  {{sub: []string{"run"}, valued: []string{"-n", "--name", "-p", "--prefix", "--cwd"}}},
		"bundle": {{sub: []string{"exec"}}},
		"mise":   {{sub: []string{"exec"}}, {sub: []string{"x"}}},
		"dotenv": {{valued: []string{"-e", "-c"}}},
		// A container's exec runs a command in it, after the container
		// or service it names: the command is the same one.
		"docker":         containerExec,
		"podman":         containerExec,
		"docker-compose": composeExec,
		"kubectl":        {{sub: []string{"exec"}, valued: []string{"-c", "--container", "-n", "--namespace", "--context", "-f", "--filename"}, positional: 1}},
		"ddev":           {{sub: []string{"exec"}, valued: []string{"-s", "--service", "-d", "--dir"}}},
	}
})

// execValued are the options of `docker exec` and `docker compose exec`
// or `run` that take a value.
var execValued = []string{"-e", "--env", "--env-file", "-u", "--user", "-w", "--workdir", "--detach-keys", "--index",
	"--name", "--entrypoint", "-p", "--publish", "-v", "--volume", "-l", "--label"}

// containerExec and composeExec are the ways docker, podman and compose
// run a command in a container: `docker exec [options] CONTAINER cmd`,
// `docker compose exec|run [options] SERVICE cmd`. `docker run IMAGE` is
// not among them: its many options leave the image unsure.
var (
	containerExec = []wrapper{
		{sub: []string{"exec"}, valued: execValued, positional: 1},
		{sub: []string{"compose", "exec"}, valued: execValued, positional: 1},
		{sub: []string{"compose", "run"}, valued: execValued, positional: 1},
	}
	composeExec = []wrapper{
		{sub: []string{"exec"}, valued: execValued, positional: 1},
		{sub: []string{"run"}, valued: execValued, positional: 1},
	}
)

// uvRunValued are uv run's options that take a value.
var uvRunValued = []string{"--with", "--with-requirements", "--python", "-p", "--project", "--directory", "--package",
	"--extra", "--group", "--env-file", "--index", "--index-url", "--only-group", "--no-group", "--script"}

// pythons are the Python interpreters whose `-m module` runs a module as
// a program (`python -m pytest`).
func python(prog string) bool {
	if prog == "python" || prog == "python3" || prog == "py" || prog == "pypy3" {
		return true
	}
	return strings.HasPrefix(prog, "python3.") || strings.HasPrefix(prog, "python2")
}

// unwrap takes one wrapper off a command: the words of the command it
// runs and how the wrapper is named in Command.Via; ok is false when args
// is not a wrapper that runs a known command.
func unwrap(prog string, args []Arg) (rest []Arg, via string, ok bool) {
	if python(prog) {
		// python -m module args: the module is the program.
		for i := 1; i < len(args); i++ {
			v := args[i].Value
			switch {
			case !args[i].Known:
				return nil, "", false
			case v == "-m" && i+1 < len(args):
				return args[i+1:], prog + " -m", true
			case strings.HasPrefix(v, "-m") && len(v) > 2:
				return append([]Arg{{Value: v[2:], Known: true}}, args[i+1:]...), prog + " -m", true
			case v == "-c" || !strings.HasPrefix(v, "-"):
				return nil, "", false
			}
		}
		return nil, "", false
	}
	ws, found := wrappers()[prog]
	if !found {
		return nil, "", false
	}
	for _, w := range ws {
		i := 1
		subOK := true
		for _, s := range w.sub {
			if i >= len(args) || !args[i].Known || args[i].Value != s {
				subOK = false
				break
			}
			i++
		}
		if !subOK {
			continue
		}
		name := strings.Join(append([]string{prog}, w.sub...), " ")
		positional := w.positional
		for i < len(args) {
			a := args[i]
			if !a.Known {
				return nil, "", false
			}
			v := a.Value
			switch {
			case v == "--":
				i++
				return args[i:], name, i < len(args)
			case contains(w.stop, v):
				return nil, "", false
			case strings.HasPrefix(v, "-") && len(v) > 1:
				if contains(w.valued, v) {
					i++
				}
				i++
			case w.assigns && strings.Contains(v, "=") && !strings.HasPrefix(v, "="):
				i++
			case positional > 0:
				positional--
				i++
			default:
				rest := args[i:]
				if len(rest) > 0 && rest[0].Known {
					rest = append([]Arg{{Value: packageName(rest[0].Value), Known: true}}, rest[1:]...)
				}
				return rest, name, true
			}
		}
		return nil, "", false
	}
	return nil, "", false
}

// packageName strips a version from a package a runner fetches
// ("prettier@3" → "prettier", "@biomejs/biome@1.9" → "@biomejs/biome").
func packageName(s string) string {
	if i := strings.LastIndexByte(s, '@'); i > 0 {
		return s[:i]
	}
	return s
}

// shellScript reports the script of `bash -c 'script'` (sh, zsh, dash,
// ksh; option clusters such as -lc and -ec count).
func shellScript(prog string, args []Arg) (string, bool) {
	switch prog {
	case "bash", "sh", "zsh", "dash", "ksh":
	default:
		return "", false
	}
	for i, a := range args {
		if !a.Known {
			return "", false
		}
		v := a.Value
		if !strings.HasPrefix(v, "-") || strings.HasPrefix(v, "--") {
			if strings.HasPrefix(v, "--") {
				continue
			}
			return "", false // `bash script.sh`
		}
		if strings.ContainsRune(v[1:], 'c') {
			if i+1 < len(args) && args[i+1].Known {
				return args[i+1].Value, true
			}
			return "", false
		}
	}
	return "", false
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
