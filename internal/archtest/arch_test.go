// Package archtest checks that the packages import each other the way
// ARCHITECTURE.md says: each package sits in a layer and imports only
// packages of its own layer or the layers below; only the command opens
// a store (SQLite or PostgreSQL); nothing imports the command.
package archtest

import (
	"bytes"
	"encoding/json"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/innate-mcp/innate-mcp"

// layers lists every package of the module by layer, lowest first, as in
// ARCHITECTURE.md. A package that is in none fails the test: a new package
// is placed on purpose.
var layers = [][]string{
	// 0: primitives (text, numbers, file formats, the encoder).
	{"terms", "action", "runlog", "rulefile", "sanitize", "auth", "embed", "embed/internal/usefile", "embed/internal/asmgen", "embed/cmd/convert-use",
		"internal/ahocorasick", "internal/clip", "internal/metric", "internal/randid", "internal/split", "internal/linediff", "internal/gitref",
		"internal/answerfree", "internal/evaldata", "internal/fakeembed", "internal/mcptest", "internal/archtest", "internal/pgtest", "internal/atomicfile", "internal/bm25", "internal/vecindex", "internal/svgchart", "internal/regfile", "internal/release"},
	// 1: judgement, pure functions over text and numbers.
	{"confidence", "check", "consult", "directive", "route", "hesitation", "capture", "appraise", "regulate"},
	// 2: the knowledge base.
	{"kb"},
	// 3: what stands on the knowledge base: its store, its front ends,
	// reports and evaluations; setup edits the clients' files.
	{"storage", "pgstore", "mcpserver", "hook", "stats", "tuning", "eval", "setup", "dashboard", "internal/storetest", "internal/storerow", "rulesync", "consultant"},
	// 4: the command, which wires them.
	{"cmd/innate-mcp"},
}

type pkg struct {
	ImportPath string
	Imports    []string
}

func listPackages(t *testing.T) []pkg {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH")
	}
	cmd := exec.Command("go", "list", "-json", module+"/...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var ps []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(p.ImportPath, module+"/_") { // scratch directories
			ps = append(ps, p)
		}
	}
	return ps
}

func layerOf(rel string) int {
	for i, l := range layers {
		if slices.Contains(l, rel) {
			return i
		}
	}
	return -1
}

func TestImports_followTheLayers(t *testing.T) {
	for _, p := range listPackages(t) {
		rel := strings.TrimPrefix(p.ImportPath, module+"/")
		li := layerOf(rel)
		if li < 0 {
			t.Errorf("%s is in no layer: add it to ARCHITECTURE.md and to layers here", rel)
			continue
		}
		for _, imp := range p.Imports {
			if !strings.HasPrefix(imp, module+"/") {
				continue
			}
			dep := strings.TrimPrefix(imp, module+"/")
			lj := layerOf(dep)
			switch {
			case lj > li:
				t.Errorf("%s (layer %d) imports %s (layer %d): a layer imports only its own and lower layers", rel, li, dep, lj)
			case strings.HasPrefix(dep, "cmd/"):
				t.Errorf("%s imports the command %s", rel, dep)
			case (dep == "storage" || dep == "pgstore") && rel != "cmd/innate-mcp":
				t.Errorf("%s imports %s: only the command opens the store; the rest work through kb.Store", rel, dep)
			}
		}
	}
}
