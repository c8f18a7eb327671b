package celrules

import (
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/containers"
	"github.com/google/cel-go/common/decls"
)

// Sharing type-checks between environments.
//
// CRD validation compiles a rule in the environment of new expressions
// (the compatibility version's), a resource compiles it in the environment
// of stored expressions (the release's). Through one Cache both type-check
// the same text over the same node type; the two base environments of a
// release differ little (at 1.37 only in the function includes). A check
// is done once and its result used in both whenever it is provably the
// same:
//
// The type checker (cel.Env.Check) reads of its environment: the checker
// options and features, the container, the type provider, the variables,
// the AST validators, and the declarations of the functions the
// expression calls. It looks a function up only for a call, by the call's
// name or, for a call with a receiver that is a qualified name (a.b.f()),
// by the qualified name first (a.b.f); the container is empty in every
// environment of this package, so these are the only names looked up
// (with a leading dot dropped). The AST validators read the AST only,
// except those of duration and timestamp literals, which evaluate the
// call with the environment's implementation of duration or timestamp.
//
// The base environments are made of the rows of baseTable. A row flagged
// declaresFunctionsOnly adds function declarations (with their
// implementations) and nothing else: no variable, type, macro, option or
// validator (TestFlaggedRowsDeclareFunctionsOnly checks what of this is
// observable). So two base environments with the same unflagged rows have
// the same checker configuration, and the same declaration and
// implementation of every function no flagged row declares
// (flaggedFunctions). They can differ only in the declarations (and
// implementations) of a set D of flagged functions: those whose
// declarations (name, overload IDs, signatures, member flags, type
// parameters, disabled state) differ. An expression that calls none of D
// type-checks alike in both: the checker sees the same declarations for
// every name it looks up, and duration and timestamp are not flagged
// (the test checks it), so the literal validators run the same
// implementations. The node's environment extends the base with self and
// oldSelf over the node's type (the same object type names for both
// environments: Cache.typeName) and a type provider that depends on the
// base provider, the type and whether field names are escaped: what of it
// reaches the checker (nodeShape) is part of the key.
//
// The key of a check (checkKey) therefore holds the unflagged rows and the
// parser of the base environment (checkProfile.config), the node's
// declarations, and, for every flagged name the expression may look up,
// that function's declaration digest in the base environment (or its
// absence): two environments get the same key for an expression exactly
// when their configurations are equal and the expression refers to no
// function of D. The checked AST is then used in both; a program made from
// it in either environment binds that environment's implementations, as
// one made from its own check would.
//
// Cost estimates (checker.Cost) read the checked AST, the estimator (the
// node's full type and the release) and the environment's cost options,
// which come from an unflagged row: an estimate is shared by the checked
// AST it was made from, the node's full type id and the release.

// checkProfile is what of a base environment reaches the type checker.
type checkProfile struct {
	// config identifies the configuration apart from the flagged rows:
	// the unflagged rows of baseTable it was built with and its parser.
	config string
	// funcs holds the declaration digest of every flagged function the
	// environment declares.
	funcs map[string]string
}

// newCheckProfile describes the base environment e built for minor.
func newCheckProfile(minor uint, e *cel.Env, parser string) *checkProfile {
	var b strings.Builder
	for i, row := range baseTable {
		if minor < row.introduced || (row.removed != 0 && minor >= row.removed) || row.declaresFunctionsOnly {
			continue
		}
		b.WriteString(strconv.Itoa(i))
		b.WriteByte(',')
	}
	b.WriteByte('\n')
	b.WriteString(parser)
	p := &checkProfile{config: b.String(), funcs: map[string]string{}}
	flagged := flaggedFunctions()
	for name, fd := range e.Functions() {
		if flagged.names[name] {
			p.funcs[name] = funcDigest(fd)
		}
	}
	return p
}

// refsKey renders the declarations of the flagged functions refs (sorted)
// as p's environment declares them.
func (p *checkProfile) refsKey(refs []string) string {
	if len(refs) == 0 {
		return ""
	}
	var b strings.Builder
	for _, name := range refs {
		b.WriteString(name)
		b.WriteByte('=')
		b.WriteString(p.funcs[name]) // "" when not declared
		b.WriteByte(';')
	}
	return b.String()
}

// funcDigest identifies what the type checker sees of a function
// declaration.
func funcDigest(fd *decls.FunctionDecl) string {
	var b strings.Builder
	b.WriteString(fd.Name())
	if fd.IsDeclarationDisabled() {
		b.WriteString(" disabled")
	}
	ovs := fd.OverloadDecls()
	lines := make([]string, 0, len(ovs))
	for _, o := range ovs {
		var l strings.Builder
		l.WriteString(strconv.Quote(o.ID()))
		if o.IsMemberFunction() {
			l.WriteString(" member")
		}
		if o.IsNonStrict() {
			l.WriteString(" nonstrict")
		}
		l.WriteString(" trait=" + strconv.Itoa(o.OperandTrait()))
		params := append([]string(nil), o.TypeParams()...)
		sort.Strings(params) // collected from a map: in no set order
		l.WriteString(" params=" + strings.Join(params, ","))
		l.WriteString(" (")
		for _, t := range o.ArgTypes() {
			l.WriteString(typeString(t))
			l.WriteByte(',')
		}
		l.WriteString(") " + typeString(o.ResultType()))
		lines = append(lines, l.String())
	}
	sort.Strings(lines)
	for _, l := range lines {
		b.WriteByte('\n')
		b.WriteString(l)
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:16])
}

// typeString renders a type with its kind, name and parameters.
func typeString(t *cel.Type) string {
	if t == nil {
		return "nil"
	}
	var b strings.Builder
	b.WriteString(strconv.Itoa(int(t.Kind())))
	b.WriteByte(':')
	b.WriteString(strconv.Quote(t.TypeName()))
	if ps := t.Parameters(); len(ps) > 0 {
		b.WriteByte('<')
		for _, p := range ps {
			b.WriteString(typeString(p))
			b.WriteByte(',')
		}
		b.WriteByte('>')
	}
	return b.String()
}

// flaggedSet is the set of functions the flagged rows of baseTable
// declare: every name whose declaration a flagged row adds or changes.
type flaggedSet struct {
	names map[string]bool
	// tails holds the last part of every qualified name ("f" of "a.b.f"):
	// only a call of such a function may be looked up by a qualified name.
	tails map[string]bool
	// all is every name, sorted: the references of an expression too
	// deep to walk.
	all []string
}

var (
	flaggedOnce sync.Once
	flagged     flaggedSet
)

// flaggedFunctions returns the functions the flagged rows declare,
// computed once from the rows themselves.
func flaggedFunctions() *flaggedSet {
	flaggedOnce.Do(func() {
		flagged.names = map[string]bool{}
		e0, err := cel.NewEnv()
		if err != nil {
			return
		}
		before := map[string]string{}
		for name, fd := range e0.Functions() {
			before[name] = funcDigest(fd)
		}
		for _, row := range baseTable {
			if !row.declaresFunctionsOnly {
				continue
			}
			e1, err := e0.Extend(cel.Lib(&envLib{env: row.env()}))
			if err != nil {
				// The row cannot be told apart: no environment with it
				// builds either.
				continue
			}
			for name, fd := range e1.Functions() {
				if d, ok := before[name]; !ok || d != funcDigest(fd) {
					flagged.names[name] = true
				}
			}
		}
		flagged.tails = map[string]bool{}
		for name := range flagged.names {
			flagged.all = append(flagged.all, name)
			if i := strings.LastIndexByte(name, '.'); i >= 0 {
				flagged.tails[name[i+1:]] = true
			}
		}
		sort.Strings(flagged.all)
	})
	return &flagged
}

// flaggedRefs returns the flagged functions the parsed expression a may
// look up when it is type-checked (see above), sorted; every flagged name
// when a is too deep to walk.
func flaggedRefs(a *cel.Ast) []string {
	f := flaggedFunctions()
	if len(f.names) == 0 || a == nil {
		return nil
	}
	refs, ok := f.refs(a.NativeRep().Expr())
	if !ok {
		return f.all
	}
	return refs
}

// refs returns the names of f that a call in e may be looked up by (its
// name and, with a receiver that is a qualified name, a.b.f()), sorted;
// false when e is too deep.
func (f *flaggedSet) refs(e ast.Expr) ([]string, bool) {
	var seen map[string]bool // made on the first name found
	add := func(n string) {
		if n = strings.TrimPrefix(n, "."); f.names[n] {
			if seen == nil {
				seen = map[string]bool{}
			}
			seen[n] = true
		}
	}
	tooDeep := anyExpr(e, func(e ast.Expr) bool {
		if e.Kind() == ast.CallKind {
			c := e.AsCall()
			add(c.FunctionName())
			// Only a flagged name's last part may be looked up as a.b.f.
			if c.IsMemberFunction() && f.tails[c.FunctionName()] {
				if q, ok := containers.ToQualifiedName(c.Target()); ok {
					add(q + "." + c.FunctionName())
				}
			}
		}
		return false
	}, 0)
	return slices.Sorted(maps.Keys(seen)), !tooDeep // nil when none is found
}

// nodeShape is what of a node's environment, besides its base
// environment, reaches the type checker: the declarations of self and
// oldSelf (the node's type without its bounds, under the Cache's names
// for it), whether oldSelf is declared and optional, and whether the type
// provider escapes keywords in field names.
type nodeShape struct {
	decl                       typeID
	oldSelf, optional, keyword bool
}

// checkKey identifies a type-check (see above).
type checkKey struct {
	config string
	text   string
	refs   string
	node   nodeShape
	// env is set when the Cache does not share checks between
	// environments (noShare, for tests).
	env *nodeEnv
}

// checkResult is the result of a type-check.
type checkResult struct {
	ast *cel.Ast
	iss *cel.Issues
}

// costKey identifies a cost estimate: the checked AST, the node's full
// type and the release, which decides the estimator's options.
type costKey struct {
	ast     *cel.Ast
	typ     typeID
	release uint
}

type costResult struct {
	max       uint64
	unbounded []string
	err       error
}

// flight is one computation of a value that concurrent callers wait for.
type flight[V any] struct {
	done sync.WaitGroup
	v    V
	ok   bool // false when the computation panicked
}

// once returns the value cached in m under k, computing it with f when no
// computation of it has started; a caller that finds one in flight waits
// for it. A computation that panics is not cached: its waiters compute on
// their own.
func once[K comparable, V any](mu *sync.Mutex, m *map[K]*flight[V], k K, f func() V) V {
	mu.Lock()
	if fl, ok := (*m)[k]; ok {
		mu.Unlock()
		fl.done.Wait()
		if fl.ok {
			return fl.v
		}
		return f()
	}
	if *m == nil {
		*m = map[K]*flight[V]{}
	}
	fl := &flight[V]{}
	fl.done.Add(1)
	(*m)[k] = fl
	mu.Unlock()
	defer func() {
		if !fl.ok {
			mu.Lock()
			delete(*m, k)
			mu.Unlock()
		}
		fl.done.Done()
	}()
	fl.v = f()
	fl.ok = true
	return fl.v
}

// Check compiles new expressions in the node's environment of stored
// expressions where that gives what the environment of new expressions
// gives, so that it builds (and the Cache keeps) one environment per node
// type rather than two: Compile later uses the same. It does so only when
// it evaluates nothing (checkOnly), where an expression's results are its
// check, its cost estimate and whether a program can be made:
//
//   - the check, as argued above, when the expression calls no flagged
//     function and the node's declarations are the same in both;
//   - the estimate, which reads the checked AST, the node's type and the
//     cost options of an unflagged row;
//   - the program: planning reads the checked AST, the type provider,
//     the program options (an unflagged row's: flagged rows have none)
//     and the implementations of the overloads the AST references, which
//     are all of functions no flagged row declares: the same declarations
//     and implementations, from the same rows.
//
// (An expression that calls a flagged function declared alike in both,
// such as isSorted at 1.37, shares its check but is compiled by Check in
// the environment of new expressions: the flagged rows' implementations
// are not compared.)
//
// Building the node's environment succeeds or fails alike on either base:
// it adds self, oldSelf and the node's type provider, the same on both,
// to base environments whose own declarations were validated when they
// were built (EagerlyValidateDeclarations) and whose configurations are
// equal.

// envStored reports whether the expression text (every expression of the
// node, when text is ""), to be compiled in the node's environment for
// new or stored expressions (stored), compiles in the environment of
// stored expressions, as explained above.
func (nc *nodeCompiler) envStored(stored, optional bool, text string) bool {
	if stored {
		return true
	}
	c := nc.cfg.cache
	if !nc.cfg.checkOnly || c == nil || c.noShare {
		return false
	}
	fresh, err := baseFor(nc.cfg.minor, nc.cfg.release, false)
	if err != nil {
		return false
	}
	kept, err := baseFor(nc.cfg.minor, nc.cfg.release, true)
	if err != nil {
		return false
	}
	if fresh.profile.config != kept.profile.config || nc.shape(false, optional) != nc.shape(true, optional) {
		return false
	}
	if text == "" {
		return true
	}
	r := c.parsed(fresh, text)
	if r.iss.Err() != nil || r.ast == nil {
		// The same parser (config holds it): the same errors.
		return true
	}
	return len(r.refs) == 0
}
