package directive

import (
	"regexp"
	"sync"
)

// lazyRegexp is a regular expression compiled on first use. The package
// holds a few hundred patterns; compiled at start-up they cost every
// process that links the package (each hook is a new process) some 20 ms
// whether or not it reads a rule. The value, once compiled, never
// changes; safe for concurrent use.
type lazyRegexp struct {
	once sync.Once
	src  string
	re   *regexp.Regexp
}

// lazyRE returns a regular expression compiled on first use; an invalid
// pattern panics then, as regexp.MustCompile does (the package's tests
// use every one).
func lazyRE(src string) *lazyRegexp {
	l := &lazyRegexp{src: src}
	lazyPatterns = append(lazyPatterns, l)
	return l
}

// lazyPatterns are every pattern lazyRE made, written only while the
// package initialises, so that a test compiles each one.
var lazyPatterns []*lazyRegexp

func (l *lazyRegexp) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.src) })
	return l.re
}

func (l *lazyRegexp) MatchString(s string) bool            { return l.get().MatchString(s) }
func (l *lazyRegexp) FindStringIndex(s string) []int       { return l.get().FindStringIndex(s) }
func (l *lazyRegexp) FindString(s string) string           { return l.get().FindString(s) }
func (l *lazyRegexp) FindStringSubmatch(s string) []string { return l.get().FindStringSubmatch(s) }
func (l *lazyRegexp) FindStringSubmatchIndex(s string) []int {
	return l.get().FindStringSubmatchIndex(s)
}
func (l *lazyRegexp) FindAllString(s string, n int) []string { return l.get().FindAllString(s, n) }
func (l *lazyRegexp) FindAllStringIndex(s string, n int) [][]int {
	return l.get().FindAllStringIndex(s, n)
}
func (l *lazyRegexp) FindAllStringSubmatch(s string, n int) [][]string {
	return l.get().FindAllStringSubmatch(s, n)
}
func (l *lazyRegexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return l.get().FindAllStringSubmatchIndex(s, n)
}
func (l *lazyRegexp) ReplaceAllString(s, repl string) string {
	return l.get().ReplaceAllString(s, repl)
}
func (l *lazyRegexp) ReplaceAllStringFunc(s string, fn func(string) string) string {
	return l.get().ReplaceAllStringFunc(s, fn)
}
func (l *lazyRegexp) Split(s string, n int) []string { return l.get().Split(s, n) }
func (l *lazyRegexp) String() string                 { return l.src }
