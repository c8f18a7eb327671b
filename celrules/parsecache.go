package celrules

import (
	"sync"

	"github.com/google/cel-go/cel"
)

// A ParseCache keeps the parsed form of CEL expressions so that several
// compilations share it: an expression written at many places of a CRD
// (the same rule in every version, or on every list of a kind) is parsed
// once, and only type-checked at each place. Parsing is most of the cost
// of compiling a typical rule.
//
// Pass one to Compile and CheckSchema with the ReuseParses option. Results
// are the same with and without it. A ParseCache is safe for concurrent
// use and its zero value is ready to use. It keeps every distinct
// expression it sees, so give it the lifetime of one piece of work, such
// as the validation of one CRD.
type ParseCache struct {
	mu sync.Mutex
	m  map[parseKey]parseResult
}

// parseKey identifies a parse: the text, and the parser of the base
// environment (parserOf), which is the parser of every environment built
// on it.
type parseKey struct {
	parser string
	text   string
}

type parseResult struct {
	ast *cel.Ast
	iss *cel.Issues
}

// ReuseParses makes Compile and CheckSchema take parsed expressions from c
// and add the ones they parse to it.
func ReuseParses(c *ParseCache) Option {
	return func(cfg *config) { cfg.parses = c }
}

// emptyOptimizer copies an AST: type-checking rewrites the AST it is given,
// so a cached parse is checked as a copy.
var emptyOptimizer, _ = cel.NewStaticOptimizer()

// compile parses text in env, which extends a base environment whose
// parser parser describes with declarations only, and type-checks it, as
// env.Compile does; it parses text only when c has not parsed it before
// with the same parser.
func (c *ParseCache) compile(env *cel.Env, parser, text string) (*cel.Ast, *cel.Issues) {
	if c == nil || emptyOptimizer == nil {
		return env.Compile(text)
	}
	k := parseKey{parser, text}
	c.mu.Lock()
	r, ok := c.m[k]
	c.mu.Unlock()
	if !ok {
		r.ast, r.iss = env.Parse(text)
		c.mu.Lock()
		if c.m == nil {
			c.m = map[parseKey]parseResult{}
		}
		c.m[k] = r
		c.mu.Unlock()
	}
	if r.iss.Err() != nil || r.ast == nil {
		return nil, r.iss
	}
	parsed, iss := emptyOptimizer.Optimize(env, r.ast)
	if iss.Err() != nil {
		return nil, iss
	}
	checked, iss := env.Check(parsed)
	if iss.Err() != nil {
		return nil, iss
	}
	return checked, iss
}
