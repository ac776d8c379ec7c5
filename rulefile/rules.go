package rulefile

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// maxShortWords is the most words an item may have and still be merged
// with its heading instead of becoming a rule of its own.
const maxShortWords = 2

// maxLead bounds a paragraph ending in ":" that introduces a list; it
// becomes part of the list items' trigger instead of a rule.
const maxLead = 200

type heading struct {
	level int
	text  string
}

// builder turns blocks into rules, keeping the heading path, the rule a
// code block attaches to and short items waiting to merge.
type builder struct {
	ctx      context
	stack    []heading
	rules    []Rule
	last     int  // rule a following code block attaches to, or -1
	lastLead bool // the last rule is a paragraph ending in ":"
	lead     string
	leadList int
	short    []block // pending short items or paragraphs
	skip     bool    // inside a table of contents
	// leads are the heads of the list items whose nested items are being
	// read: "Tailwind Only" for "- **Tailwind Only**:\n  - Do not use
	// scoped CSS". They join the nested rules' trigger, as headings do.
	leads []string
}

// maxLabelWords is the most words an item head may have and still be a
// label for its nested items rather than a rule of its own.
const maxLabelWords = 4

func buildRules(ctx context, blocks []block) []Rule {
	b := &builder{ctx: ctx, last: -1}
	for i, bl := range blocks {
		var next *block
		if i+1 < len(blocks) {
			next = &blocks[i+1]
		}
		b.add(bl, next)
	}
	b.flushShort()
	return b.rules
}

func (b *builder) add(bl block, next *block) {
	if bl.kind == blockHeading {
		b.flushShort()
		for len(b.stack) > 0 && b.stack[len(b.stack)-1].level >= bl.level {
			b.stack = b.stack[:len(b.stack)-1]
		}
		title := strings.TrimSpace(bl.text)
		if !(bl.level == 1 && len(b.stack) == 0 && strings.EqualFold(title, b.ctx.skipTitle)) && title != "" {
			b.stack = append(b.stack, heading{bl.level, title})
		}
		b.skip = isTOC(title)
		b.last, b.lastLead, b.lead = -1, false, ""
		return
	}
	if bl.kind == blockBreak {
		b.flushShort()
		b.last, b.lastLead, b.lead = -1, false, ""
		return
	}
	if b.skip {
		return
	}
	switch bl.kind {
	case blockParagraph:
		b.flushShort()
		b.lead = ""
		text := strings.TrimSpace(bl.text)
		if words(text) == 0 || pureLinks(text) {
			b.last = -1
			return
		}
		if strings.HasSuffix(text, ":") && len(text) <= maxLead && next != nil && next.kind == blockItem {
			b.lead, b.leadList = strings.TrimSpace(strings.TrimSuffix(text, ":")), next.list
			b.last = -1
			return
		}
		if words(text) <= maxShortWords && (next == nil || next.kind != blockCode && next.kind != blockTable) {
			b.short = append(b.short, bl)
			return
		}
		b.emit(text, bl.line)
		b.lastLead = strings.HasSuffix(text, ":")
	case blockItem:
		if len(b.short) > 0 && (b.short[0].kind != blockItem || b.short[0].list != bl.list) {
			b.flushShort()
		}
		if bl.list != b.leadList {
			b.lead = ""
		}
		text := strings.TrimSpace(bl.text)
		if words(text) == 0 || pureLinks(text) {
			return
		}
		if head, nested, ok := splitNested(text); ok {
			if l, ok := itemLabel(head); ok {
				b.nested(l, nested, bl.line)
				return
			}
		}
		if words(text) <= maxShortWords && !strings.Contains(text, "\n") {
			b.short = append(b.short, bl)
			return
		}
		b.flushShort()
		b.emit(text, bl.line)
	case blockCode, blockTable:
		b.flushShort()
		text := strings.TrimSpace(bl.text)
		if text == "" {
			return
		}
		if b.last >= 0 && (bl.kind == blockCode || b.lastLead) {
			r := &b.rules[b.last]
			r.Content += "\n\n" + text
			b.lastLead = false
			return
		}
		b.emit(text, bl.line)
	}
}

// splitNested splits a list item at its first nested list item: the head
// (the item's own text, with continuation lines and code) and the nested
// blocks. ok is false for an item without nested items, and for one whose
// nested items are all a word or two long.
func splitNested(text string) (head string, nested []block, ok bool) {
	lines := strings.Split(text, "\n")
	inFence := ""
	for k, l := range lines {
		t := strings.TrimSpace(l)
		if f := fenceOf(t); f != "" {
			switch {
			case inFence == "":
				inFence = f
			case f[0] == inFence[0] && len(f) >= len(inFence):
				inFence = ""
			}
			continue
		}
		if k == 0 || inFence != "" || listMarker(l) == 0 {
			continue
		}
		nested = parseBlocks(lines[k:], k)
		for _, nb := range nested {
			if first, _, _ := strings.Cut(nb.text, "\n"); nb.kind == blockItem && words(first) > maxShortWords {
				return strings.TrimSpace(strings.Join(lines[:k], "\n")), nested, true
			}
		}
		// Nested items of a word or two are values of the item's sentence
		// ("in:\n- packages/ui\n- apps/web"): the item stays whole.
		return "", nil, false
	}
	return "", nil, false
}

// nested emits the rules of a list item whose head is a label ("**Testing**:",
// "Backend") for its nested items: each nested item is a rule of its own,
// with the label in its trigger, as a heading would be.
func (b *builder) nested(label string, blocks []block, line int) {
	b.flushShort()
	b.leads = append(b.leads, label)
	saveLead, saveList := b.lead, b.leadList
	b.lead, b.leadList = "", -1
	b.last = -1
	for i, nb := range blocks {
		nb.line += line
		var next *block
		if i+1 < len(blocks) {
			next = &blocks[i+1]
		}
		if nb.kind == blockHeading {
			// A heading-like line inside an item (a bold line) is text.
			nb.kind, nb.text = blockParagraph, "**"+nb.text+"**"
		}
		b.add(nb, next)
	}
	b.flushShort()
	b.leads = b.leads[:len(b.leads)-1]
	b.lead, b.leadList = saveLead, saveList
	b.last = -1
}

// itemLabel returns what an item head names when it only names what its nested
// items are about: a line of at most maxLabelWords words that is not a
// sentence ("**Testing**:", "Backend", "Tailwind only:"). ok is false for
// a head that is a rule itself ("All tests must pass.", "Keep files small.
// Split by concern:"), which keeps its nested items.
func itemLabel(head string) (string, bool) {
	h := strings.TrimSpace(stripInline(head))
	if strings.Contains(h, "\n") || words(h) > maxLabelWords || strings.HasSuffix(h, ".") || strings.HasSuffix(h, "!") {
		return "", false
	}
	h = strings.TrimSpace(strings.TrimSuffix(h, ":"))
	return h, h != ""
}

// clipWords keeps the first n words of s, on one line.
func clipWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) > n {
		f = append(f[:n], "…")
	}
	return strings.Join(f, " ")
}

// emit appends a rule with the current context.
func (b *builder) emit(content string, line int) {
	b.rules = append(b.rules, Rule{
		Content: content,
		Trigger: b.trigger(),
		Tags:    b.tags(),
		Source:  b.source(line),
	})
	b.last, b.lastLead = len(b.rules)-1, false
}

// flushShort merges pending short items into one rule labelled with the
// list's lead-in or the nearest heading: "Tech stack: Go, SQLite".
func (b *builder) flushShort() {
	if len(b.short) == 0 {
		return
	}
	items := make([]string, 0, len(b.short))
	for _, s := range b.short {
		if item := strings.TrimRight(strings.TrimSpace(s.text), ".;,"); item != "" {
			items = append(items, item)
		}
	}
	label := b.lead
	if label == "" && len(b.leads) > 0 {
		label = b.leads[len(b.leads)-1]
	}
	if label == "" && len(b.stack) > 0 {
		label = b.stack[len(b.stack)-1].text
	}
	content := strings.Join(items, ", ")
	if label != "" {
		content = label + ": " + content
	}
	line := b.short[0].line
	b.short = b.short[:0]
	if len(items) > 0 {
		b.emit(content, line)
	}
}

func (b *builder) trigger() string {
	var parts []string
	if b.ctx.description != "" {
		parts = append(parts, b.ctx.description)
	}
	if len(b.ctx.globs) > 0 {
		parts = append(parts, FilesPrefix+strings.Join(b.ctx.globs, ", "))
	}
	if b.ctx.dir != "" {
		parts = append(parts, DirPrefix+b.ctx.dir)
	}
	var path []string
	for _, h := range b.stack {
		path = append(path, stripInline(h.text))
	}
	for _, l := range b.leads {
		path = append(path, stripInline(l))
	}
	if b.lead != "" {
		path = append(path, stripInline(b.lead))
	}
	if len(path) > 0 {
		parts = append(parts, strings.Join(path, " > "))
	}
	return strings.Join(parts, "; ")
}

func (b *builder) tags() []string {
	tags := append([]string(nil), b.ctx.tags...)
	for _, h := range b.stack {
		if s := slug(stripInline(h.text)); len(s) <= 40 {
			tags = append(tags, s)
		}
	}
	return dedup(tags)
}

func (b *builder) source(line int) string {
	src := b.ctx.name
	if len(b.stack) > 0 {
		src += "#" + slug(stripInline(b.stack[len(b.stack)-1].text))
	}
	return src + ":" + strconv.Itoa(line)
}

var tocTitles = map[string]bool{"table of contents": true, "contents": true, "toc": true, "index of rules": true}

func isTOC(title string) bool { return tocTitles[strings.ToLower(stripInline(title))] }

var (
	linkRE   = regexp.MustCompile(`!?\[[^\]]*\]\([^)]*\)|<https?://[^>]*>|https?://\S+|</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>`)
	inlineRE = regexp.MustCompile("[*_`~]+")
)

// pureLinks reports text that is nothing but links, images, HTML tags and
// punctuation: a link list entry, a badge row, a table-of-contents line or
// layout markup such as <div align="center">.
func pureLinks(text string) bool {
	if !strings.Contains(text, "](") && !strings.Contains(text, "://") && !strings.Contains(text, "<") || !linkRE.MatchString(text) {
		return false
	}
	rest := linkRE.ReplaceAllString(text, "")
	for _, r := range rest {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// stripInline removes emphasis and code markers from a heading.
func stripInline(s string) string {
	return strings.TrimSpace(inlineRE.ReplaceAllString(s, ""))
}

// words counts the words of text that carry a letter or digit.
func words(text string) int {
	n := 0
	for _, f := range strings.Fields(text) {
		if strings.IndexFunc(f, isLetterOrDigit) >= 0 {
			n++
		}
	}
	return n
}

func isLetterOrDigit(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
