package directive

import (
	"slices"
	"strconv"
)

// Indent is a rule's indentation width: "2-space indentation", "indent
// with 4 spaces", "use tabs for indentation". Width is the number of
// spaces, 0 for tabs. Plain data.
type Indent struct {
	Width int `json:"width"`
}

// String names the convention in words: "2-space indentation".
func (n Indent) String() string {
	if n.Width == 0 {
		return "tab indentation"
	}
	return strconv.Itoa(n.Width) + "-space indentation"
}

var (
	// indentWord says a rule or plan is about indentation.
	indentWord = lazyRE(`(?i)\b(?:re-?)?indent(?:ation|ed|ing|s)?\b`)
	// spacesWidth is a width in spaces: "2-space", "4 spaces", "two spaces".
	spacesWidth = lazyRE(`(?i)\b([1-8]|two|four|eight)[- ]?spaces?\b`)
	// tabsWord is indentation by tabs.
	tabsWord = lazyRE(`(?i)\b(?:hard )?tabs?\b`)
	// noTabs rules tabs out: "4 spaces, no tabs", "not tabs".
	noTabs = lazyRE(`(?i)\b(?:no|not|never|without|avoid)\s+(?:hard\s+)?tabs?\b`)
)

var widthWords = map[string]int{"two": 2, "four": 4, "eight": 8}

// width reads an indentation width from text: spaces, or tabs (0); ok is
// false when the text names neither, or both.
func width(text string) (w int, ok bool) {
	m := spacesWidth.FindStringSubmatch(text)
	tabs := tabsWord.MatchString(noTabs.ReplaceAllString(text, " "))
	switch {
	case m != nil && !tabs:
		if n, err := strconv.Atoi(m[1]); err == nil {
			return n, true
		}
		return widthWords[m[1]], true
	case m == nil && tabs:
		return 0, true
	}
	return 0, false
}

// readIndent returns the indentation width a rule's statement sets, if it
// speaks of indentation and names one width.
func readIndent(text string) *Indent {
	if !indentWord.MatchString(text) && !noTabs.MatchString(text) {
		return nil
	}
	w, ok := width(text)
	if !ok {
		return nil
	}
	return &Indent{Width: w}
}

// indentOf returns where the candidate states an indentation width and
// that width: the first width it names that it does not refuse ("with
// tabs, not 4 spaces"), or nil.
func (c *candidate) indentOf() (*occurrence, int) {
	if !indentWord.MatchString(c.text) && !spacesWidth.MatchString(c.text) {
		return nil, 0
	}
	locs := append(spacesWidth.FindAllStringIndex(c.text, 8), tabsWord.FindAllStringIndex(c.text, 8)...)
	slices.SortFunc(locs, func(a, b []int) int { return a[0] - b[0] })
	for _, loc := range locs {
		if c.negatedAt(loc[0]) {
			continue
		}
		if w, ok := width(c.text[loc[0]:loc[1]]); ok {
			return &occurrence{text: c.text[loc[0]:loc[1]], at: loc[0]}, w
		}
	}
	return nil, 0
}
