package main

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
)

// instruction is one Dockerfile instruction: its keyword (upper case) and
// the rest of its line, continuations joined.
type instruction struct {
	Cmd, Args string
}

// parseDockerfile reads a Dockerfile's instructions and the stage each
// belongs to (0 for the first FROM's).
func parseDockerfile(t *testing.T, path string) (ins []instruction, stage []int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cur strings.Builder
	st := -1
	for _, line := range strings.Split(string(b), "\n") {
		trimmed := strings.TrimSpace(line)
		if cur.Len() == 0 && (trimmed == "" || strings.HasPrefix(trimmed, "#")) {
			continue
		}
		if strings.HasPrefix(trimmed, "#") { // a comment inside a continuation
			continue
		}
		if strings.HasSuffix(trimmed, "\\") {
			cur.WriteString(strings.TrimSuffix(trimmed, "\\") + " ")
			continue
		}
		cur.WriteString(trimmed)
		cmd, args, _ := strings.Cut(cur.String(), " ")
		cur.Reset()
		in := instruction{Cmd: strings.ToUpper(cmd), Args: strings.TrimSpace(args)}
		if in.Cmd == "FROM" {
			st++
		}
		ins = append(ins, in)
		stage = append(stage, st)
	}
	return ins, stage
}

// execForm reads an instruction's JSON (exec) form; it fails the test for
// the shell form, which needs a shell the final image does not have.
func execForm(t *testing.T, in instruction) []string {
	t.Helper()
	var args []string
	if err := json.Unmarshal([]byte(in.Args), &args); err != nil {
		t.Errorf("%s %s: not the exec form [\"…\"] (the image has no shell): %v", in.Cmd, in.Args, err)
	}
	return args
}

// TestDockerfile checks the team server's Dockerfile without building it
// (no Docker daemon here): a Go builder of go.mod's Go version building
// the command static with the release's flags; a distroless static final
// stage run as a non-root user; the built binary copied to the path the
// entrypoint runs; serve --http on the exposed port by default.
func TestDockerfile(t *testing.T) {
	ins, stage := parseDockerfile(t, "../../Dockerfile")
	var froms []string
	final := map[string][]instruction{}
	var buildRun string
	for i, in := range ins {
		if in.Cmd == "FROM" {
			froms = append(froms, in.Args)
			continue
		}
		if stage[i] == 0 && in.Cmd == "RUN" && strings.Contains(in.Args, "go build") {
			buildRun = in.Args
		}
		if stage[i] == 1 {
			final[in.Cmd] = append(final[in.Cmd], in)
		}
	}
	if len(froms) != 2 {
		t.Fatalf("FROM: %q, want two stages (a Go builder, the final image)", froms)
	}

	gomod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	goVersion := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindSubmatch(gomod)
	if goVersion == nil {
		t.Fatal("go.mod has no go line")
	}
	builder := regexp.MustCompile(`golang:(\d+\.\d+)[\w.-]* AS (\w+)`).FindStringSubmatch(froms[0])
	if builder == nil || builder[1] != string(goVersion[1]) {
		t.Errorf("builder %q: want golang:%s… AS NAME (go.mod's Go)", froms[0], goVersion[1])
	}
	if f := froms[1]; f != "gcr.io/distroless/static-debian12:nonroot" && f != "scratch" {
		t.Errorf("final image %q: want gcr.io/distroless/static-debian12:nonroot (or scratch)", f)
	}

	// The build: static, with the release's flags, into one output path.
	if buildRun == "" {
		t.Fatal("the builder stage has no RUN … go build")
	}
	if !strings.Contains(buildRun, "CGO_ENABLED=0") {
		t.Errorf("go build without CGO_ENABLED=0: the binary would need a C library the final image lacks:\n%s", buildRun)
	}
	for _, f := range buildFlags("$VERSION") {
		if f != "-ldflags" && !strings.Contains(buildRun, f) {
			t.Errorf("go build lacks %q, a flag of the release build (internal/release buildFlags):\n%s", f, buildRun)
		}
	}
	built := regexp.MustCompile(`-o (\S+) \./cmd/innate-mcp`).FindStringSubmatch(buildRun)
	if built == nil {
		t.Fatalf("go build does not build ./cmd/innate-mcp with -o PATH:\n%s", buildRun)
	}

	// The final stage: the binary at the entrypoint's path, non-root.
	var entry []string
	if e := final["ENTRYPOINT"]; len(e) == 1 {
		entry = execForm(t, e[0])
	}
	if len(entry) != 1 {
		t.Fatalf("ENTRYPOINT: %v, want one exec-form ENTRYPOINT naming the binary", final["ENTRYPOINT"])
	}
	copied := false
	for _, c := range final["COPY"] {
		if c.Args == "--from="+builder[2]+" "+built[1]+" "+entry[0] {
			copied = true
		}
	}
	if !copied {
		t.Errorf("no COPY --from=%s %s %s: the entrypoint runs a binary the image does not hold", builder[2], built[1], entry[0])
	}
	users := final["USER"]
	if len(users) == 0 {
		t.Error("no USER in the final stage: the server would run as root")
	}
	for _, u := range users {
		name, _, _ := strings.Cut(u.Args, ":")
		if name == "root" || name == "0" {
			t.Errorf("USER %s: the server would run as root", u.Args)
		}
	}
	var cmd []string
	if c := final["CMD"]; len(c) == 1 {
		cmd = execForm(t, c[0])
	}
	if strings.Join(cmd, " ") != "serve --http 0.0.0.0:8765" {
		t.Errorf("CMD %q: want [\"serve\", \"--http\", \"0.0.0.0:8765\"]", cmd)
	}
	if e := final["EXPOSE"]; len(e) != 1 || e[0].Args != "8765" {
		t.Errorf("EXPOSE %v: want 8765, the port CMD serves", e)
	}
	if len(final["HEALTHCHECK"]) > 0 {
		t.Error("HEALTHCHECK in an image without a shell or curl cannot run: document /healthz instead")
	}
}
