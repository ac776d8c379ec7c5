package setup

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// The clients' configuration files are JSON, and some (VS Code's, Cursor's)
// are JSON with comments and trailing commas. Setup edits them as text: it
// parses the file into the spans of its values, then splices in or cuts
// out exactly the members and elements it owns, so that every other byte
// (settings, comments, key order, indentation) stays as the user left it.

// jnode is one JSON value of a parsed file: its kind and its byte span.
type jnode struct {
	kind       byte // '{', '[', '"', 'n' (number), 't', 'f', '0' (null)
	start, end int  // value span: text[start:end]
	members    []jmember
	elems      []*jnode
}

// jmember is an object member: its key, where the key starts, its value.
type jmember struct {
	key      string
	keyStart int
	val      *jnode
}

// member returns the value of key in object n, or nil.
func (n *jnode) member(key string) *jnode {
	if n == nil || n.kind != '{' {
		return nil
	}
	for i := len(n.members) - 1; i >= 0; i-- { // the last duplicate wins, as in most readers
		if n.members[i].key == key {
			return n.members[i].val
		}
	}
	return nil
}

// ErrSyntax is wrapped by the error of a configuration file setup cannot
// parse.
var ErrSyntax = errors.New("not valid JSON")

// jparser parses JSON with comments (// and /* */) and trailing commas.
type jparser struct {
	s   []byte
	pos int
}

// parseJSONC parses text into its value tree. Empty text (or only white
// space and comments) gives nil and no error.
func parseJSONC(text []byte) (*jnode, error) {
	p := &jparser{s: text}
	if err := p.space(); err != nil {
		return nil, err
	}
	if p.pos == len(p.s) {
		return nil, nil
	}
	n, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if err := p.space(); err != nil {
		return nil, err
	}
	if p.pos != len(p.s) {
		return nil, p.errorf("unexpected %q after the top-level value", p.s[p.pos])
	}
	return n, nil
}

func (p *jparser) errorf(format string, args ...any) error {
	line := 1 + bytes.Count(p.s[:min(p.pos, len(p.s))], []byte("\n"))
	return fmt.Errorf("%w: line %d: %s", ErrSyntax, line, fmt.Sprintf(format, args...))
}

// space skips white space and comments.
func (p *jparser) space() error {
	for p.pos < len(p.s) {
		switch c := p.s[p.pos]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.pos++
		case c == '/' && p.pos+1 < len(p.s) && p.s[p.pos+1] == '/':
			for p.pos < len(p.s) && p.s[p.pos] != '\n' {
				p.pos++
			}
		case c == '/' && p.pos+1 < len(p.s) && p.s[p.pos+1] == '*':
			end := bytes.Index(p.s[p.pos+2:], []byte("*/"))
			if end < 0 {
				return p.errorf("comment not closed")
			}
			p.pos += 2 + end + 2
		default:
			return nil
		}
	}
	return nil
}

// maxDepth bounds nesting, so that a hostile file cannot exhaust the stack.
const maxDepth = 200

func (p *jparser) value(depth int) (*jnode, error) {
	if depth > maxDepth {
		return nil, p.errorf("nested more than %d deep", maxDepth)
	}
	if p.pos >= len(p.s) {
		return nil, p.errorf("unexpected end of file")
	}
	start := p.pos
	switch c := p.s[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		if _, err := p.str(); err != nil {
			return nil, err
		}
		return &jnode{kind: '"', start: start, end: p.pos}, nil
	case c == '-' || (c >= '0' && c <= '9'):
		for p.pos < len(p.s) && strings.IndexByte("+-0123456789.eE", p.s[p.pos]) >= 0 {
			p.pos++
		}
		if !json.Valid(p.s[start:p.pos]) {
			return nil, p.errorf("bad number %q", p.s[start:p.pos])
		}
		return &jnode{kind: 'n', start: start, end: p.pos}, nil
	default:
		for _, lit := range []struct {
			word string
			kind byte
		}{{"true", 't'}, {"false", 'f'}, {"null", '0'}} {
			if bytes.HasPrefix(p.s[p.pos:], []byte(lit.word)) {
				p.pos += len(lit.word)
				return &jnode{kind: lit.kind, start: start, end: p.pos}, nil
			}
		}
		return nil, p.errorf("unexpected %q", c)
	}
}

// str reads a string literal and returns its value.
func (p *jparser) str() (string, error) {
	start := p.pos
	p.pos++
	for p.pos < len(p.s) {
		switch p.s[p.pos] {
		case '\\':
			p.pos += 2
			continue
		case '"':
			p.pos++
			var v string
			if err := json.Unmarshal(p.s[start:p.pos], &v); err != nil {
				return "", p.errorf("bad string %s", p.s[start:p.pos])
			}
			return v, nil
		case '\n':
			return "", p.errorf("string not closed on its line")
		}
		p.pos++
	}
	return "", p.errorf("string not closed")
}

func (p *jparser) object(depth int) (*jnode, error) {
	n := &jnode{kind: '{', start: p.pos}
	p.pos++
	for {
		if err := p.space(); err != nil {
			return nil, err
		}
		if p.pos >= len(p.s) {
			return nil, p.errorf("object not closed")
		}
		if p.s[p.pos] == '}' {
			p.pos++
			n.end = p.pos
			return n, nil
		}
		if p.s[p.pos] != '"' {
			return nil, p.errorf("expected a quoted key, found %q", p.s[p.pos])
		}
		keyStart := p.pos
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		if err := p.space(); err != nil {
			return nil, err
		}
		if p.pos >= len(p.s) || p.s[p.pos] != ':' {
			return nil, p.errorf("expected ':' after key %q", key)
		}
		p.pos++
		if err := p.space(); err != nil {
			return nil, err
		}
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		n.members = append(n.members, jmember{key: key, keyStart: keyStart, val: v})
		if err := p.space(); err != nil {
			return nil, err
		}
		if p.pos < len(p.s) && p.s[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.pos < len(p.s) && p.s[p.pos] == '}' {
			continue
		}
		return nil, p.errorf("expected ',' or '}' after the value of %q", key)
	}
}

func (p *jparser) array(depth int) (*jnode, error) {
	n := &jnode{kind: '[', start: p.pos}
	p.pos++
	for {
		if err := p.space(); err != nil {
			return nil, err
		}
		if p.pos >= len(p.s) {
			return nil, p.errorf("array not closed")
		}
		if p.s[p.pos] == ']' {
			p.pos++
			n.end = p.pos
			return n, nil
		}
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		n.elems = append(n.elems, v)
		if err := p.space(); err != nil {
			return nil, err
		}
		if p.pos < len(p.s) && p.s[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.pos < len(p.s) && p.s[p.pos] == ']' {
			continue
		}
		return nil, p.errorf("expected ',' or ']' in an array")
	}
}

// jdoc is a configuration file being edited: its text, re-parsed after
// every edit, and the indentation unit it uses.
type jdoc struct {
	text   []byte
	root   *jnode
	indent string
}

// openJSONC parses text for editing. Empty text is an empty object. The
// top-level value must be an object.
func openJSONC(text []byte) (*jdoc, error) {
	root, err := parseJSONC(text)
	if err != nil {
		return nil, err
	}
	d := &jdoc{text: text, root: root, indent: detectIndent(text)}
	if root == nil {
		// Only white space and comments: the object goes after them, on
		// a line of its own (a // comment runs to the end of its line).
		d.text = []byte("{}\n")
		if t := bytes.TrimRight(text, " \t\r\n"); len(t) > 0 {
			d.text = append(append(append([]byte(nil), t...), '\n'), d.text...)
		}
		if d.root, err = parseJSONC(d.text); err != nil {
			return nil, err
		}
	}
	if d.root.kind != '{' {
		return nil, fmt.Errorf("%w: the top-level value is not an object", ErrSyntax)
	}
	return d, nil
}

// detectIndent returns the indentation of the first indented line, or two
// spaces.
func detectIndent(text []byte) string {
	for _, line := range bytes.Split(text, []byte("\n")) {
		trimmed := bytes.TrimLeft(line, " \t")
		if len(trimmed) == 0 || len(trimmed) == len(line) {
			continue
		}
		ind := line[:len(line)-len(trimmed)]
		if ind[0] == '\t' {
			return "\t"
		}
		return string(ind)
	}
	return "  "
}

// splice replaces text[start:end] with repl and re-parses.
func (d *jdoc) splice(start, end int, repl string) error {
	var b bytes.Buffer
	b.Grow(len(d.text) + len(repl))
	b.Write(d.text[:start])
	b.WriteString(repl)
	b.Write(d.text[end:])
	root, err := parseJSONC(b.Bytes())
	if err != nil {
		return fmt.Errorf("edit produced invalid JSON (a bug): %w", err)
	}
	d.text, d.root = b.Bytes(), root
	return nil
}

// lineIndent returns the white space that starts the line holding pos.
func (d *jdoc) lineIndent(pos int) string {
	ls := bytes.LastIndexByte(d.text[:pos], '\n') + 1
	i := ls
	for i < len(d.text) && (d.text[i] == ' ' || d.text[i] == '\t') {
		i++
	}
	return string(d.text[ls:i])
}

// render formats v as JSON indented to sit at base indentation.
func (d *jdoc) render(v any, base string) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent(base, d.indent)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimRight(b.String(), "\n"), nil
}

// get returns the value at path, or nil.
func (d *jdoc) get(path ...string) *jnode {
	n := d.root
	for _, k := range path {
		if n = n.member(k); n == nil {
			return nil
		}
	}
	return n
}

// decode returns the Go value of n (nil for a nil node).
func (d *jdoc) decode(n *jnode) (any, error) {
	if n == nil {
		return nil, nil
	}
	// Comments and trailing commas inside the value are removed first.
	clean, err := stripJSONC(d.text[n.start:n.end])
	if err != nil {
		return nil, err
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(clean))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// set makes the value at path equal to v, creating the objects on the way.
// It reports whether the text changed: a value already equal to v (as JSON
// data) is left as it is written.
func (d *jdoc) set(v any, path ...string) (bool, error) {
	if cur := d.get(path...); cur != nil {
		old, err := d.decode(cur)
		if err == nil && jsonEqual(old, v) {
			return false, nil
		}
		r, err := d.render(v, d.lineIndent(cur.start))
		if err != nil {
			return false, err
		}
		return true, d.splice(cur.start, cur.end, r)
	}
	// Find the deepest existing object on the path.
	obj, i := d.root, 0
	for ; i < len(path)-1; i++ {
		next := obj.member(path[i])
		if next == nil {
			break
		}
		if next.kind != '{' {
			return false, fmt.Errorf("%s is not an object", strings.Join(path[:i+1], "."))
		}
		obj = next
	}
	// Wrap v in the objects still missing.
	val := v
	for j := len(path) - 1; j > i; j-- {
		val = orderedObject{{path[j], val}}
	}
	return true, d.addMember(obj, path[i], val)
}

// addMember appends key: v as the last member of object obj.
func (d *jdoc) addMember(obj *jnode, key string, v any) error {
	objIndent := d.lineIndent(obj.start)
	memberIndent := objIndent + d.indent
	if len(obj.members) > 0 {
		memberIndent = d.lineIndent(obj.members[0].keyStart)
	}
	k, _ := json.Marshal(key)
	r, err := d.render(v, memberIndent)
	if err != nil {
		return err
	}
	entry := string(k) + ": " + r
	if len(obj.members) == 0 {
		return d.splice(obj.start+1, obj.end-1, "\n"+memberIndent+entry+"\n"+objIndent)
	}
	last := obj.members[len(obj.members)-1].val
	if !bytes.ContainsRune(d.text[obj.start:obj.end], '\n') {
		// A one-line object: the new member goes on a line of its own,
		// and the closing brace after it.
		memberIndent = objIndent + d.indent
		if r, err = d.render(v, memberIndent); err != nil {
			return err
		}
		return d.splice(last.end, last.end, ",\n"+memberIndent+string(k)+": "+r+"\n"+objIndent)
	}
	return d.splice(last.end, last.end, ",\n"+memberIndent+entry)
}

// appendElem appends v as the last element of array arr.
func (d *jdoc) appendElem(arr *jnode, v any) error {
	arrIndent := d.lineIndent(arr.start)
	elemIndent := arrIndent + d.indent
	if len(arr.elems) > 0 {
		elemIndent = d.lineIndent(arr.elems[0].start)
	}
	r, err := d.render(v, elemIndent)
	if err != nil {
		return err
	}
	if len(arr.elems) == 0 {
		return d.splice(arr.start+1, arr.end-1, "\n"+elemIndent+r+"\n"+arrIndent)
	}
	last := arr.elems[len(arr.elems)-1]
	return d.splice(last.end, last.end, ",\n"+elemIndent+r)
}

// replaceNode replaces the value n with v.
func (d *jdoc) replaceNode(n *jnode, v any) error {
	r, err := d.render(v, d.lineIndent(n.start))
	if err != nil {
		return err
	}
	return d.splice(n.start, n.end, r)
}

// removeMember cuts member key out of object obj, with its separator. It
// reports whether there was one.
func (d *jdoc) removeMember(obj *jnode, key string) (bool, error) {
	if obj == nil || obj.kind != '{' {
		return false, nil
	}
	for i, m := range obj.members {
		if m.key != key {
			continue
		}
		starts := make([]int, len(obj.members))
		ends := make([]int, len(obj.members))
		for j, mm := range obj.members {
			starts[j], ends[j] = mm.keyStart, mm.val.end
		}
		return true, d.cut(obj, i, starts, ends)
	}
	return false, nil
}

// removeElem cuts element i out of array arr, with its separator.
func (d *jdoc) removeElem(arr *jnode, i int) error {
	starts := make([]int, len(arr.elems))
	ends := make([]int, len(arr.elems))
	for j, e := range arr.elems {
		starts[j], ends[j] = e.start, e.end
	}
	return d.cut(arr, i, starts, ends)
}

// cut removes item i of a container whose items span starts[j]:ends[j]:
// from the end of the item before it, or when it is the first, up to the
// start of the item after it; the only item leaves the container empty.
func (d *jdoc) cut(container *jnode, i int, starts, ends []int) error {
	switch {
	case len(starts) == 1:
		return d.splice(container.start+1, container.end-1, "")
	case i > 0:
		return d.splice(ends[i-1], ends[i], "")
	default:
		return d.splice(starts[0], starts[1], "")
	}
}

// stripJSONC removes comments and trailing commas, leaving strict JSON.
func stripJSONC(text []byte) ([]byte, error) {
	var out bytes.Buffer
	p := &jparser{s: text}
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		switch {
		case c == '"':
			start := p.pos
			if _, err := p.str(); err != nil {
				return nil, err
			}
			out.Write(p.s[start:p.pos])
		case c == '/' && p.pos+1 < len(p.s) && (p.s[p.pos+1] == '/' || p.s[p.pos+1] == '*'):
			if err := p.space(); err != nil {
				return nil, err
			}
		case c == ',':
			p.pos++
			save := p.pos
			if err := p.space(); err != nil {
				return nil, err
			}
			if p.pos < len(p.s) && (p.s[p.pos] == '}' || p.s[p.pos] == ']') {
				continue // trailing comma
			}
			out.WriteByte(',')
			p.pos = save
		default:
			out.WriteByte(c)
			p.pos++
		}
	}
	return out.Bytes(), nil
}

// orderedObject is a JSON object whose members keep their order when
// rendered.
type orderedObject []kv

// kv is one member of an orderedObject.
type kv struct {
	key string
	val any
}

// MarshalJSON renders the members in order.
func (o orderedObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.key)
		b.Write(k)
		b.WriteByte(':')
		var vb bytes.Buffer
		enc := json.NewEncoder(&vb)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(m.val); err != nil {
			return nil, err
		}
		b.Write(bytes.TrimRight(vb.Bytes(), "\n"))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// jsonEqual reports whether a (decoded with UseNumber) and b (any Go
// value) are the same JSON data.
func jsonEqual(a, b any) bool {
	norm := func(v any) (any, bool) {
		raw, err := json.Marshal(v)
		if err != nil {
			return nil, false
		}
		var out any
		if json.Unmarshal(raw, &out) != nil {
			return nil, false
		}
		return out, true
	}
	na, ok1 := norm(a)
	nb, ok2 := norm(b)
	if !ok1 || !ok2 {
		return false
	}
	ra, _ := json.Marshal(na)
	rb, _ := json.Marshal(nb)
	return bytes.Equal(ra, rb)
}
