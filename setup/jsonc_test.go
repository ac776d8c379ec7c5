package setup

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestJSONC_editsKeepEverythingElse(t *testing.T) {
	tests := []struct {
		name, in, want string
		path           []string
		val            any
	}{
		{"empty file", "", "{\n  \"a\": 1\n}\n", []string{"a"}, 1},
		{"empty object", "{}\n", "{\n  \"a\": 1\n}\n", []string{"a"}, 1},
		{"nested new", "{\n    \"x\": true\n}\n", "{\n    \"x\": true,\n    \"a\": {\n        \"b\": \"c\"\n    }\n}\n", []string{"a", "b"}, "c"},
		{"replace keeps comment", "{\n  // keep\n  \"a\": 1 // one\n}\n", "{\n  // keep\n  \"a\": 2 // one\n}\n", []string{"a"}, 2},
		{"trailing comma", "{\n\t\"a\": 1,\n}", "{\n\t\"a\": 1,\n\t\"b\": [\n\t\t\"x\"\n\t],\n}", []string{"b"}, []string{"x"}},
		{"one-line object", `{"a": 1}`, "{\"a\": 1,\n  \"b\": 2\n}", []string{"b"}, 2},
		{"no HTML escaping", "{}", "{\n  \"a\": \"<&>\"\n}", []string{"a"}, "<&>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := openJSONC([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := d.set(tt.val, tt.path...); err != nil {
				t.Fatal(err)
			}
			if string(d.text) != tt.want {
				t.Errorf("got\n%s\nwant\n%s", d.text, tt.want)
			}
			changed, err := d.set(tt.val, tt.path...)
			if err != nil || changed {
				t.Errorf("setting the same value again: changed=%v err=%v", changed, err)
			}
		})
	}
}

func TestJSONC_removeMemberAndElem(t *testing.T) {
	in := "{\n  \"a\": 1, // first\n  \"b\": [1, 2, 3],\n  \"c\": 3\n}\n"
	d, err := openJSONC([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := d.removeMember(d.root, "c"); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if err := d.removeElem(d.get("b"), 0); err != nil {
		t.Fatal(err)
	}
	if ok, err := d.removeMember(d.root, "a"); !ok || err != nil {
		t.Fatal(ok, err)
	}
	want := "{\n  \"b\": [2, 3]\n}\n"
	if string(d.text) != want {
		t.Errorf("got\n%q\nwant\n%q", d.text, want)
	}
	if ok, _ := d.removeMember(d.root, "zz"); ok {
		t.Error("removed a member that is not there")
	}
}

func TestJSONC_refusesWhatItCannotEdit(t *testing.T) {
	for _, in := range []string{`{"a": 1,, }`, `[1, 2]`, `{"a": }`, `{"a": 1} x`, `{"a": "x`, `/* open`, `{"a": tru}`, `{'a': 1}`} {
		if _, err := openJSONC([]byte(in)); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
}

func TestStripJSONC(t *testing.T) {
	got, err := stripJSONC([]byte("{\"a\": \"//not a comment\", /* c */ \"b\": [1, 2,], // x\n}"))
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(got, &v); err != nil || v["a"] != "//not a comment" {
		t.Errorf("%s: %v %v", got, v, err)
	}
}

// FuzzJSONC: no input makes the parser panic, and on every input it
// accepts, adding and removing a member gives back text it accepts, with
// the member gone.
func FuzzJSONC(f *testing.F) {
	for _, s := range []string{"", "{}", `{"a": [1, {"b": null}], // c
"d": "e",}`, "/* x */ {\"mcpServers\": {\"innate\": {}}}", existing[".cursor/mcp.json"], existing[".claude/settings.json"]} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		d, err := openJSONC(in)
		if err != nil {
			return
		}
		before := append([]byte(nil), d.text...)
		if _, err := d.set(map[string]any{"command": "x"}, "mcpServers", "innate-fuzz"); err != nil {
			return // a member on the path that is not an object
		}
		if _, err := parseJSONC(d.text); err != nil {
			t.Fatalf("set produced text it cannot parse: %v\n%s", err, d.text)
		}
		if _, err := d.removeMember(d.get("mcpServers"), "innate-fuzz"); err != nil {
			t.Fatal(err)
		}
		if d.get("mcpServers", "innate-fuzz") != nil {
			t.Fatal("member still there after remove")
		}
		if bytes.Equal(before, d.text) {
			return
		}
		if _, err := parseJSONC(d.text); err != nil {
			t.Fatalf("remove produced text it cannot parse: %v\n%s", err, d.text)
		}
	})
}

func TestTOMLTable(t *testing.T) {
	body := tomlServerTable("innate", `C:\bin\innate "x".exe`, []string{"serve"})
	if want := "[mcp_servers.innate]\ncommand = \"C:\\\\bin\\\\innate \\\"x\\\".exe\"\nargs = [\"serve\"]\n"; body != want {
		t.Errorf("table %q, want %q", body, want)
	}
	in := "a = 1\n\n[mcp_servers.innate]\ncommand = \"old\"\nargs = []\n\n# next\n[other]\nb = 2\n"
	out, changed := tomlSetTable(in, "mcp_servers.innate", body)
	if !changed || out != "a = 1\n\n"+body+"\n# next\n[other]\nb = 2\n" {
		t.Errorf("set: %q", out)
	}
	if _, changed := tomlSetTable(out, "mcp_servers.innate", body); changed {
		t.Error("set again changed the text")
	}
	rm, ok := tomlRemoveTable(out, "mcp_servers.innate")
	if !ok || rm != "a = 1\n\n\n# next\n[other]\nb = 2\n" {
		t.Errorf("remove: %q", rm)
	}
	if name := tomlHeaderName(`[ mcp_servers . "innate" ] # c`); name != "mcp_servers.innate" {
		t.Errorf("header name %q", name)
	}
}
