package celrules

import (
	"sync"

	"github.com/google/cel-go/cel"

	"github.com/crdschema/crdschema/internal/release"
)

// A Cache keeps what compilations can share, so that work done for one
// place of a CRD is not done again for another: the parsed form of each
// expression (an expression written at many places, such as the same rule
// in every version, is parsed once and only type-checked at each place;
// parsing is most of the cost of compiling a typical rule), and the
// environment of each type without objects (every string with rules, say, is
// compiled in the same environment, and so is every list of strings).
//
// Pass one to Compile and Check with the WithCache option. Results
// are the same with and without it. A Cache is safe for concurrent use and
// its zero value is ready to use. It keeps everything it is given, so give
// it the lifetime of one piece of work, such as the validation of one CRD.
type Cache struct {
	mu     sync.Mutex
	parses map[parseKey]parseResult
	envs   map[envKey]*cel.Env
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

// envKey identifies the environment of a node whose type holds no object
// (see nodeCompiler.env): nothing else of the node reaches it. The compatibility version is the
// compilation's, which a Cache may serve several of.
type envKey struct {
	celType          string
	minor            uint
	release          release.Minor
	stored, optional bool
}

// emptyOptimizer copies an AST: type-checking rewrites the AST it is given,
// so a cached parse is checked as a copy.
var emptyOptimizer, _ = cel.NewStaticOptimizer()

// compile parses text in env, which extends a base environment whose
// parser parser describes with declarations only, and type-checks it, as
// env.Compile does; it parses text only when c has not parsed it before
// with the same parser.
func (c *Cache) compile(env *cel.Env, parser, text string) (*cel.Ast, *cel.Issues) {
	if c == nil || emptyOptimizer == nil {
		return env.Compile(text)
	}
	k := parseKey{parser, text}
	c.mu.Lock()
	r, ok := c.parses[k]
	c.mu.Unlock()
	if !ok {
		r.ast, r.iss = env.Parse(text)
		c.mu.Lock()
		if c.parses == nil {
			c.parses = map[parseKey]parseResult{}
		}
		c.parses[k] = r
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

// env returns the environment cached under k, or builds it with build and
// caches it.
func (c *Cache) env(k envKey, build func() (*cel.Env, error)) (*cel.Env, error) {
	c.mu.Lock()
	e, ok := c.envs[k]
	c.mu.Unlock()
	if ok {
		return e, nil
	}
	e, err := build()
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.envs == nil {
		c.envs = map[envKey]*cel.Env{}
	}
	c.envs[k] = e
	c.mu.Unlock()
	return e, nil
}
