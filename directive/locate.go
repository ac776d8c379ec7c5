package directive

import (
	"strings"

	"github.com/innate-mcp/innate-mcp/terms"
)

// find returns the first occurrence of o in the candidate, preferring one
// that is not negated; nil when there is none.
func (c *candidate) find(o Object) *occurrence {
	var first *occurrence
	for _, loc := range c.locate(o) {
		occ := &occurrence{text: c.text[loc[0]:loc[1]], at: loc[0], negated: c.negatedAt(loc[0])}
		if !occ.negated {
			return occ
		}
		if first == nil {
			first = occ
		}
	}
	return first
}

// locate returns where o occurs in the candidate.
func (c *candidate) locate(o Object) [][]int {
	switch o.Kind {
	case KindPhrase:
		return c.locatePhrase(o.Text)
	case KindName:
		if locs := c.locateName(o.Text); len(locs) > 0 {
			return locs
		}
		if locs := c.locatePhrase(o.Text); len(locs) > 0 {
			return locs
		}
	}
	re := c.patterns.pattern(o)
	if re == nil {
		return nil
	}
	return re.FindAllStringIndex(c.text, 8)
}

// maxNameSites bounds the places locateName reports for one name.
const maxNameSites = 8

// locateName finds a name as a word or as a part of a CamelCase or
// snake_case identifier, singular or plural: "ViewModels" in "ListsViewModel", at most
// maxNameSites times.
func (c *candidate) locateName(name string) [][]int {
	base := name
	if len(base) > 4 && strings.HasSuffix(base, "s") && !strings.HasSuffix(base, "ss") {
		base = base[:len(base)-1]
	}
	lb := terms.LowerASCII(base)
	var out [][]int
	for i := 0; i+len(lb) <= len(c.lower) && len(out) < maxNameSites; {
		j := strings.Index(c.lower[i:], lb)
		if j < 0 {
			break
		}
		at := i + j
		end := at + len(lb)
		if end < len(c.lower) && c.lower[end] == 's' {
			end++
		}
		// A part of a snake_case name counts too ("Riverpod" in
		// `flutter_riverpod`), but not one of a path's (`crates/biome_js/`
		// does not name Biome).
		snake := !c.paths.holds(at)
		leftOK := at == 0 || !isWordByte(c.text[at-1]) || snake && c.text[at-1] == '_' || isUpperByte(c.text[at]) && !isUpperByte(c.text[at-1])
		rightOK := end == len(c.text) || !isWordByte(c.text[end]) || snake && c.text[end] == '_' || isUpperByte(c.text[end])
		if leftOK && rightOK {
			out = append(out, []int{at, end})
		}
		i = at + 1
	}
	return out
}

func isUpperByte(b byte) bool { return b >= 'A' && b <= 'Z' }

// doubleQuoted is a double-quoted string.
var doubleQuoted = lazyRE(`"[^"\n]{0,400}"|“[^”\n]{0,400}”`)

// pathRun is a run of text without spaces or backticks that holds a slash:
// a path, whose words are not prose.
var pathRun = lazyRE("[^\\s`]*[/\\\\][^\\s`]*")

// locatePhrase finds the phrase's content terms together in one clause,
// in its prose: a rule's words are not read out of an identifier or a path
// ("latest versions" is not in `fetch_latest_version`).
func (c *candidate) locatePhrase(phrase string) [][]int {
	want := terms.Tokens(phrase)
	if len(want) == 0 {
		return nil
	}
	var out [][]int
	for _, cl := range c.clauses {
		first, found := -1, 0
		for _, w := range want {
			for _, t := range c.toks {
				if !t.part && cl.holds(t.start) && t.term == w {
					if first < 0 || t.start < first {
						first = t.start
					}
					found++
					break
				}
			}
		}
		if found == len(want) && first >= 0 {
			end := first + len(want[0])
			out = append(out, []int{first, min(end, len(c.text))})
		}
	}
	return out
}
