// Package celparse is a hand-written parser of CEL expressions that
// produces exactly the AST cel-go's parser (github.com/google/cel-go
// v0.29.2, an ANTLR parser) produces for the same text in the same
// environment: the same expressions, IDs, source offsets and source
// information, macros expanded by the environment's own expanders. It is
// several times faster and allocates far less.
//
// It parses what valid expressions are made of. Whatever it is not sure
// of — an error, a backtick-quoted identifier, a character outside string
// literals that is not ASCII, a reserved word used as an identifier, an
// expression nested deeper than maxDepth, a text longer than maxText, an
// environment whose parser is configured in a way the package does not
// reproduce — it declines, and the caller parses the text with cel-go
// (env.Parse), so that every error and its text stay cel-go's.
package celparse

import (
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/parser"
)

// maxText bounds the length, in bytes, of the texts the parser takes; the
// parser's probe checks that the environment parses texts that long.
const maxText = 10000

// macroKey identifies a macro: its function, its argument count (-1 for
// a variadic macro) and whether it is receiver-style.
type macroKey struct {
	function string
	args     int
	receiver bool
}

// A Parser parses texts as the parser of one environment does.
type Parser struct {
	macros     map[macroKey]parser.Macro
	macroNames map[string]bool
	optional   bool
	fac        ast.ExprFactory
	// ok tells that the environment's parser is one this package
	// reproduces; when false, Parse always declines.
	ok bool
}

// New returns the parser of env: its macros and whether optional syntax
// is on. New probes env's parser with a few texts and makes a parser that
// always declines if env's parser answers any of them otherwise than this
// package would (macro call tracking, variadic logical operators, another
// accumulator name, lower limits). Probing costs a few cel-go parses
// (about 3ms and 1.5MB the first time in a process).
func New(env *cel.Env) *Parser {
	p, ok := newParser(env)
	if !ok {
		return p
	}
	// Without macros, nothing uses the accumulator.
	accu := parser.HiddenAccumulatorName
	if len(p.macros) != 0 {
		if accu, ok = probeAccumulator(env); !ok {
			return p
		}
	}
	p.fac = ast.NewExprFactoryWithAccumulator(accu)
	// The probe parses with p itself, which works only while p.ok.
	p.ok = true
	p.ok = p.probe(env)
	return p
}

// NewTrusted returns the parser of env without probing it, for an
// environment whose parser is known to be configured as cel-go's default
// but for its macros and optional syntax: accumulators named "@result",
// no macro call tracking, no variadic logical operators, the default
// depth and size limits. celrules' base environments are (its tests
// probe every one of them).
func NewTrusted(env *cel.Env) *Parser {
	p, ok := newParser(env)
	if ok {
		p.fac = ast.NewExprFactoryWithAccumulator(parser.HiddenAccumulatorName)
		p.ok = true
	}
	return p
}

// newParser returns a parser with env's macros and optional syntax,
// not yet working (ok false); ok tells that env's macros are ones the
// package reads.
func newParser(env *cel.Env) (*Parser, bool) {
	p := &Parser{
		macros:     map[macroKey]parser.Macro{},
		macroNames: map[string]bool{},
		optional:   env.HasLibrary("cel.lib.optional"),
	}
	for _, m := range env.Macros() {
		k, ok := parseMacroKey(m.MacroKey())
		if !ok {
			return p, false
		}
		// Later macros replace earlier ones with the same key, as in
		// cel-go's parser options.
		p.macros[k] = m
		p.macroNames[k.function] = true
	}
	return p, true
}

// Probed tells whether p works, that is, whether New found that env's
// parser is one this package reproduces.
func (p *Parser) Probed() bool { return p != nil && p.ok }

// parseMacroKey reads a macro key, function:args:receiver.
func parseMacroKey(s string) (macroKey, bool) {
	j := strings.LastIndexByte(s, ':')
	if j < 0 {
		return macroKey{}, false
	}
	recv, err := strconv.ParseBool(s[j+1:])
	if err != nil {
		return macroKey{}, false
	}
	i := strings.LastIndexByte(s[:j], ':')
	if i < 0 {
		return macroKey{}, false
	}
	k := macroKey{function: s[:i], receiver: recv, args: -1}
	if s[i+1:j] != "*" {
		n, err := strconv.Atoi(s[i+1 : j])
		if err != nil || n < 0 {
			return macroKey{}, false
		}
		k.args = n
	}
	return k, true
}

// probeAccumulator returns the accumulator name of env's comprehensions
// (cel-go's default is "@result", an option makes it "__result__"), as the
// all macro makes them: an environment with macros but not all gets no
// working parser.
func probeAccumulator(env *cel.Env) (string, bool) {
	a, iss := env.Parse("[].all(x, x)")
	if iss.Err() != nil {
		return "", false
	}
	e := a.NativeRep().Expr()
	if e.Kind() != ast.ComprehensionKind {
		return "", false
	}
	return e.AsComprehension().AccuVar(), true
}

// probe parses texts that show what of env's parser configuration this
// package does not see (macro call tracking, variadic operators, limits)
// with both parsers, and tells whether the ASTs agree.
func (p *Parser) probe(env *cel.Env) bool {
	deep := strings.Repeat("(", maxDepth-1) + "x" + strings.Repeat(")", maxDepth-1)
	chain := "x" + strings.Repeat(".a", maxDepth-1)
	long := "x" + strings.Repeat(" ", maxText-1)
	texts := []string{
		"a || b || c && d && e",
		"[1, 2].all(x, x > 0) && {'a': 1}.exists(k, k == 'a') && has(a.b)",
		"[1].map(x, x * 2).filter(y, y > 1).exists_one(z, z == 2) ? -1 : 1u",
		deep, chain, long,
	}
	for _, text := range texts {
		want, iss := env.Parse(text)
		if iss.Err() != nil {
			return false
		}
		got, ok := p.Parse(text)
		if !ok || !equalAST(got.NativeRep(), want.NativeRep()) {
			return false
		}
	}
	return true
}

// tokenPool keeps token buffers for reuse.
var tokenPool = sync.Pool{New: func() any { s := make([]token, 0, 64); return &s }}

// Parse parses text as env.Parse would, for the environment p was made
// for. ok is false when the parser declines (see the package
// documentation): the caller then parses text with env.Parse.
func (p *Parser) Parse(text string) (_ *cel.Ast, ok bool) {
	if p == nil || !p.ok || len(text) > maxText || !utf8.ValidString(text) {
		return nil, false
	}
	buf := tokenPool.Get().(*[]token)
	defer func() {
		*buf = (*buf)[:0]
		tokenPool.Put(buf)
	}()
	toks, ok := lex(text, (*buf)[:0])
	*buf = toks
	if !ok {
		return nil, false
	}
	src := common.NewTextSource(text)
	s := &state{cfg: p, text: text, toks: toks}
	s.h = ids{fac: p.fac, info: ast.NewSourceInfo(src), nextID: 1}
	e, ok := s.run()
	if !ok {
		return nil, false
	}
	return toCelAst(src, ast.NewAST(e, s.h.info))
}

// run parses the text; ok is false if the parser gave up, or if a macro
// expander panicked.
func (s *state) run() (e ast.Expr, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			e, ok = nil, false
		}
	}()
	return s.start(), true
}
