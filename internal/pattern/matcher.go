package pattern

import (
	"regexp"
	"regexp/syntax"
	"sync"
	"sync/atomic"
)

// buildAfter is how many matches a Matcher leaves to regexp before it
// builds its automaton: building costs about as much as tens of regexp
// matches, which patterns matched a few times only (CRD validation, a
// single object) would not win back.
const buildAfter = 16

// Matcher matches strings against one regular expression, with the
// answers of (*regexp.Regexp).MatchString. It is safe for concurrent use.
type Matcher struct {
	expr string
	// dfa is nil until built; then the automaton, or declined when the
	// expression has none.
	dfa  atomic.Pointer[dfa]
	uses atomic.Uint32
	// re is compiled on first use (reOnce).
	re     *regexp.Regexp
	reOnce sync.Once
}

// declined marks a Matcher whose expression has no automaton.
var declined = &dfa{}

// Compile checks expr as regexp.Compile does and returns its error if
// it is invalid. regexp.Compile fails only where syntax.Parse with the
// Perl flags fails, with that error; the rest of the compilation waits
// for the first match, so that a schema's patterns cost only their
// parsing until a value is matched.
func Compile(expr string) (*Matcher, error) {
	if _, err := syntax.Parse(expr, syntax.Perl); err != nil {
		return nil, err
	}
	return &Matcher{expr: expr}, nil
}

// MustCompile is Compile for expressions known to be valid, such as
// package-level ones. It compiles expr on first use too, and panics then
// if expr is invalid, as regexp.MustCompile does.
func MustCompile(expr string) *Matcher {
	return &Matcher{expr: expr}
}

// String returns the expression.
func (m *Matcher) String() string { return m.expr }

// MatchString reports whether s contains a match of the expression, as
// (*regexp.Regexp).MatchString does.
func (m *Matcher) MatchString(s string) bool {
	if d := m.dfa.Load(); d != nil && d.next != nil {
		matched, fallback := d.match(s)
		if fallback {
			return m.regexp().MatchString(s)
		}
		return matched
	}
	return m.slow(s)
}

// slow matches with regexp, and builds the automaton after buildAfter
// matches.
func (m *Matcher) slow(s string) bool {
	if m.dfa.Load() == nil && m.uses.Add(1) == buildAfter {
		m.build()
	}
	return m.regexp().MatchString(s)
}

// regexp returns the compiled expression, compiling it on first use.
func (m *Matcher) regexp() *regexp.Regexp {
	m.reOnce.Do(m.compile)
	return m.re
}

func (m *Matcher) compile() {
	m.re = regexp.MustCompile(m.expr)
}

// build builds the automaton now (or records that there is none).
func (m *Matcher) build() {
	d := compileDFA(m.expr)
	if d == nil {
		d = declined
	}
	m.dfa.Store(d)
}
