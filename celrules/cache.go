package celrules

import (
	"fmt"
	"sync"
	"time"

	"github.com/google/cel-go/cel"

	"github.com/crdschema/crdschema/internal/celshare"
	"github.com/crdschema/crdschema/internal/release"
	"github.com/crdschema/crdschema/structural"
)

// A Cache keeps what compilations can share, so that work done for one
// place of a CRD is not done again for another:
//
//   - the compiled rules of each schema node, by the node's rules and its
//     type: a node whose rules and type (declarations and size bounds,
//     everything compiling and cost estimation depend on) equal those of a
//     node compiled before gets that node's results, in the same
//     environment and for the same Kubernetes release. The same rules
//     over a type that differs in anything, one maxLength say, compile
//     anew: they get their own errors and cost figures;
//   - the environment of each distinct declaration set (the type of self
//     and oldSelf without its bounds): nodes of equal types share one;
//   - the parsed form of each expression: an expression written at many
//     places is parsed once;
//   - the type-check of each expression over each declaration set, and its
//     cost estimate over each type: an expression is checked once for
//     every environment where the check is provably the same, such as
//     CRD validation's environment of new expressions and a resource's
//     environment of stored expressions when they differ only in
//     functions the expression does not call (at 1.37, includes). The
//     object types of a declaration set have one name per Cache, so that
//     checks in both environments agree.
//
// Pass one to Compile and Check with the WithCache option. Results are the
// same with and without it. A Cache is safe for concurrent use and its zero
// value is ready to use; concurrent requests for one parse, check or
// node's rules wait for the one in flight. It keeps everything it is given: give it the
// lifetime of one piece of work, such as the validation of one CRD, or of
// a set of CRDs that share rules (a test suite, a command-line check).
// Compile and Check use a Cache of their own when given none.
type Cache struct {
	mu     sync.Mutex
	parses map[parseKey]*flight[parseResult]
	envs   map[envKey]*flight[envResult]
	nodes  map[nodeKey]*flight[nodeResult]
	// checks and costs hold type-checks and cost estimates, shared
	// between environments where they are provably the same (share.go).
	checks map[checkKey]*flight[checkResult]
	costs  map[costKey]*flight[costResult]
	// names holds the name of the object types of each declaration set
	// (typeName), and nextName the number of the next name.
	names    map[typeID]string
	nextName int
	// types gives the node types ids, which key what depends on them.
	types typeInterner
	// noShare keeps checks apart by environment (tests compare).
	noShare bool
	// nodeTypes, when not nil, keeps the CEL type of every schema node
	// by node (ShareNodeTypes).
	nodeTypes *nodeTypes
}

// nodeTypes are the CEL types derived from schema nodes, by node, so that
// checking the rules of a schema and compiling them for serving derive
// (and intern) each node's type once. Only a Cache whose schemas are
// never modified may keep them: crd.New's own (internal/celshare).
type nodeTypes struct {
	mu    sync.Mutex
	types map[nodeTypeKey]nodeType
	// withRules holds, by the schema Check was given, the nodes with
	// rules at or below them (hasRules), which Compile then needs not
	// look for again.
	withRules map[*structural.Schema]map[*structural.Schema]bool
}

// withRules returns the nodes of s with rules at or below them (hasRules),
// found once per s when c keeps types by node.
func (c *Cache) withRules(s *structural.Schema) map[*structural.Schema]bool {
	m := c.nodeTypes
	if m != nil {
		m.mu.Lock()
		defer m.mu.Unlock()
		if marked, ok := m.withRules[s]; ok {
			return marked
		}
	}
	marked := map[*structural.Schema]bool{}
	hasRules(s, 0, marked)
	if m != nil {
		m.withRules[s] = marked
	}
	return marked
}

// hasRules reports whether s has rules outside its junctors, from what
// withRules found when it did.
func (c *Cache) hasRules(s *structural.Schema) bool {
	if m := c.nodeTypes; m != nil {
		m.mu.Lock()
		defer m.mu.Unlock()
		if marked, ok := m.withRules[s]; ok {
			return marked[s]
		}
	}
	return hasRules(s, 0, nil)
}

// nodeTypeKey is what a node's CEL type is derived from: the node (and
// the nodes below it), whether it is a resource root and the release's
// rule for metadata names.
type nodeTypeKey struct {
	s              *structural.Schema
	isResourceRoot bool
	capNames       bool
}

// nodeType is a node's type and how far below the node its derivation
// went (declTypeReach).
type nodeType struct {
	t     *declType
	reach int
}

func init() {
	celshare.ShareNodeTypes = func(c any) {
		c.(*Cache).nodeTypes = &nodeTypes{types: map[nodeTypeKey]nodeType{}, withRules: map[*structural.Schema]map[*structural.Schema]bool{}}
	}
}

// typeName returns the name of the object types of the declaration set
// decl: one per Cache and declaration set, so that the environments of
// new and stored expressions of a node name self's type alike and their
// checks can be shared. The API server derives its names from the clock
// ("selfType" and the nanoseconds); so does a Cache for its first name,
// and it counts up from there, so that no two declaration sets share one.
func (c *Cache) typeName(decl typeID) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n, ok := c.names[decl]; ok {
		return n
	}
	if c.names == nil {
		c.names = map[typeID]string{}
		c.nextName = time.Now().Nanosecond()
	}
	name := fmt.Sprintf("selfType%d", c.nextName)
	c.nextName++
	c.names[decl] = name
	return name
}

// nodeKey identifies the compilation of one node's rules: the options of
// the compilation that reach the result, the rules with the environment
// each expression compiles in (rulesKey), and the node's type.
type nodeKey struct {
	minor     uint
	release   release.Minor
	checkOnly bool
	rules     string
	typ       typeID
}

type nodeResult struct {
	rules []*compiledRule
	err   error
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
	// refs are the flagged functions the expression may call
	// (flaggedRefs).
	refs []string
}

// envKey identifies the environment of a node (see nodeCompiler.env): the
// declarations of its type (typeIDs.decl; the bounds do not reach the
// environment), the compatibility version and release of the compilation,
// which a Cache may serve several of, and the choices of the expression.
type envKey struct {
	decl             typeID
	minor            uint
	release          release.Minor
	stored, optional bool
}

// compile parses text in env, which extends its base environment with the
// declarations of a node (shape), and type-checks it, as the API server's
// cel.Env.Compile does; it parses text only when c has not parsed it
// before with the same parser, and type-checks it only when c has not
// checked it before in env or in an environment where the check is
// provably the same (share.go).
func (c *Cache) compile(env *nodeEnv, shape nodeShape, text string) (*cel.Ast, *cel.Issues) {
	base := env.base
	r := c.parsed(base, text)
	if r.iss.Err() != nil || r.ast == nil {
		return nil, r.iss
	}
	ck := checkKey{config: base.profile.config, text: text, refs: base.profile.refsKey(r.refs), node: shape}
	if c.noShare {
		ck.env = env
	}
	res := once(&c.mu, &c.checks, ck, func() checkResult {
		checked, iss := env.check(r.ast)
		return checkResult{checked, iss}
	})
	return res.ast, res.iss
}

// parsed returns the parse of text by the parser of base, parsing it when
// c has not parsed it before with that parser.
func (c *Cache) parsed(base *lazyEnv, text string) parseResult {
	return once(&c.mu, &c.parses, parseKey{base.parser, text}, func() (r parseResult) {
		r.ast, r.iss = base.env.Parse(text)
		if r.iss.Err() == nil && r.ast != nil {
			r.refs = flaggedRefs(r.ast)
		}
		return r
	})
}

// estimate returns the cost estimate of the checked AST a over the type
// dt at release rel, computing it with f when c has none.
func (c *Cache) estimate(a *cel.Ast, dt *declType, rel uint, f func() costResult) costResult {
	return once(&c.mu, &c.costs, costKey{ast: a, typ: c.types.ids(dt).full, release: rel}, f)
}

// env returns the environment cached under k, building it with build
// when c has none.
func (c *Cache) env(k envKey, build func() (*nodeEnv, error)) (*nodeEnv, error) {
	r := once(&c.mu, &c.envs, k, func() (r envResult) {
		r.env, r.err = build()
		return r
	})
	return r.env, r.err
}

type envResult struct {
	env *nodeEnv
	err error
}
