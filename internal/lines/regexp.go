package lines

import (
	"regexp"
	"sync"
)

// Regexp is a regular expression compiled on first use. Every ctx command
// links every profile, and compiling all their patterns at start-up would tax
// `ctx run` (and the host hook) for parsers they never call. Its methods are
// those of regexp.Regexp.
type Regexp struct {
	pattern string
	once    sync.Once
	re      *regexp.Regexp
}

// Lazy returns a Regexp for pattern. A pattern that does not compile panics
// on first use, as regexp.MustCompile would at start-up; tests that touch each
// pattern catch it.
func Lazy(pattern string) *Regexp { return &Regexp{pattern: pattern} }

// Re returns the compiled expression.
func (r *Regexp) Re() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.pattern) })
	return r.re
}

func (r *Regexp) String() string                       { return r.pattern }
func (r *Regexp) Match(b []byte) bool                  { return r.Re().Match(b) }
func (r *Regexp) MatchString(s string) bool            { return r.Re().MatchString(s) }
func (r *Regexp) Find(b []byte) []byte                 { return r.Re().Find(b) }
func (r *Regexp) FindIndex(b []byte) []int             { return r.Re().FindIndex(b) }
func (r *Regexp) FindString(s string) string           { return r.Re().FindString(s) }
func (r *Regexp) FindStringIndex(s string) []int       { return r.Re().FindStringIndex(s) }
func (r *Regexp) FindSubmatch(b []byte) [][]byte       { return r.Re().FindSubmatch(b) }
func (r *Regexp) FindSubmatchIndex(b []byte) []int     { return r.Re().FindSubmatchIndex(b) }
func (r *Regexp) FindStringSubmatch(s string) []string { return r.Re().FindStringSubmatch(s) }
func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	return r.Re().FindStringSubmatchIndex(s)
}
func (r *Regexp) FindAllString(s string, n int) []string { return r.Re().FindAllString(s, n) }
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int {
	return r.Re().FindAllStringIndex(s, n)
}
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.Re().FindAllStringSubmatch(s, n)
}
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.Re().FindAllStringSubmatchIndex(s, n)
}
func (r *Regexp) FindAllSubmatchIndex(b []byte, n int) [][]int {
	return r.Re().FindAllSubmatchIndex(b, n)
}
func (r *Regexp) FindAllIndex(b []byte, n int) [][]int { return r.Re().FindAllIndex(b, n) }
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.Re().ReplaceAllString(src, repl)
}
func (r *Regexp) ReplaceAllLiteralString(src, repl string) string {
	return r.Re().ReplaceAllLiteralString(src, repl)
}
func (r *Regexp) ReplaceAllStringFunc(src string, f func(string) string) string {
	return r.Re().ReplaceAllStringFunc(src, f)
}
func (r *Regexp) ReplaceAll(src, repl []byte) []byte { return r.Re().ReplaceAll(src, repl) }
func (r *Regexp) Split(s string, n int) []string     { return r.Re().Split(s, n) }
func (r *Regexp) SubexpIndex(name string) int        { return r.Re().SubexpIndex(name) }
func (r *Regexp) SubexpNames() []string              { return r.Re().SubexpNames() }
func (r *Regexp) NumSubexp() int                     { return r.Re().NumSubexp() }
