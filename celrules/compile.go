package celrules

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common/decls"
	"github.com/google/cel-go/common/types"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/cellib"
	"github.com/crdschema/crdschema/structural"
)

// The names under which rules see the value of their node.
const (
	selfVar    = "self"
	oldSelfVar = "oldSelf"
)

// maxCardinalityFor is the number of values of serialized size minSize
// that fit in the largest request: the API server's worst case for how
// often a rule under an unbounded list or map runs.
func maxCardinalityFor(minSize int64) uint64 {
	return uint64(maxRequestSize / (minSize + 1))
}

// compiledRule is one x-kubernetes-validations rule, compiled: its
// expression (rule) and its messageExpression (message).
type compiledRule struct {
	src           crdschema.ValidationRule
	rule, message compiledExpr
	usesOldSelf   bool
	// maxCardinality is the worst-case number of evaluations per request
	// when the rule's node lies under an unbounded list or map.
	maxCardinality uint64
	tracked        *trackedPrograms // shared by the copies a cache hands out
	// fieldPath is the rule's fieldPath normalised ("a.b"), or "".
	fieldPath string
	// dt is the node's type.
	dt     *declType
	bounds *lazyBounds // shared by the copies a cache hands out
}

// compiledExpr is a rule's expression or its messageExpression, compiled.
type compiledExpr struct {
	program cel.Program
	// err is why the expression did not compile, as the API server's
	// detail says it; "" when it did.
	err string
	// compiled tells that the expression compiled, was estimated, and
	// that its program was (or, for Check, could be) created.
	// Without checkOnly, program is then set, or, with lazy compilation,
	// made on first use (trackedPrograms).
	compiled bool
	// maxCost is the estimated cost of one evaluation.
	maxCost uint64
	// env and ast are what the untracked program and the evaluation
	// bounds are made from, on first use (bounded.go).
	env *nodeEnv
	ast *cel.Ast
	// unbounded are the schema paths, relative to the node, of the lists,
	// maps and strings without a declared limit that the cost estimate
	// depends on ("" is the node itself).
	unbounded []string
}

// schemaPathOf renders a path of the cost estimator (field names,
// @items, @values, @keys) as a schema path relative to the node:
// "properties[a].items".
func schemaPathOf(path []string) string {
	var b strings.Builder
	for _, name := range path {
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		switch name {
		case "@items":
			b.WriteString("items")
		case "@values", "@keys":
			b.WriteString("additionalProperties")
		default:
			if n, ok := unescapeProperty(name); ok {
				name = n
			}
			b.WriteString("properties[" + name + "]")
		}
	}
	return b.String()
}

// sizeEstimator bounds the sizes of values reached from self through the
// node's type declaration. With used set, it records the schema paths
// (relative to the node) of the values it bounded only by the request
// size.
type sizeEstimator struct {
	root *declType
	used map[string]bool
	// legacyIntOrString bounds int-or-string values by the request size
	// whatever their maxLength, as Kubernetes 1.33 does.
	legacyIntOrString bool
	// bounds gives the sizes of the evaluation bounds (bounded.go)
	// instead of the API server's: map keys bounded by maxKeyBytes, the
	// other values by sizeBound; fits checks objects against exactly
	// these sizes.
	bounds bool
}

func (e *sizeEstimator) EstimateSize(n checker.AstNode) *checker.SizeEstimate {
	path := n.Path()
	if len(path) == 0 {
		return nil
	}
	t, key := typeAt(e.root, path[1:])
	switch {
	case t == nil:
		return nil
	case e.bounds && key:
		return &checker.SizeEstimate{Min: 0, Max: maxKeyBytes}
	case e.bounds:
		return &checker.SizeEstimate{Min: 0, Max: sizeBound(t)}
	}
	if e.legacyIntOrString && t.intOrString {
		if e.used != nil {
			e.used[schemaPathOf(path[1:])] = true
		}
		return &checker.SizeEstimate{Min: 0, Max: maxRequestSize - 2}
	}
	if e.used != nil && t.unbounded {
		e.used[schemaPathOf(path[1:])] = true
	}
	return &checker.SizeEstimate{Min: 0, Max: uint64(t.maxElements)}
}

// typeAt returns the type of the values reached from root along path, a
// path of the cost estimator (field names, @items, @values, @keys), and
// whether its last step is @keys; nil when the declarations end first.
func typeAt(root *declType, path []string) (t *declType, key bool) {
	t = root
	for _, name := range path {
		switch name {
		case "@items", "@values":
			t, key = t.elem, false
		case "@keys":
			t, key = t.key, true
		default:
			f := t.fields[name]
			if f == nil {
				return nil, false
			}
			t, key = f, false
		}
		if t == nil {
			return nil, false
		}
	}
	return t, key
}

func (e *sizeEstimator) EstimateCallCost(string, string, *checker.AstNode, []checker.AstNode) *checker.CallEstimate {
	return nil
}

// nodeCompiler compiles the rules of one schema node.
type nodeCompiler struct {
	cfg       *config
	dt        *declType
	estimator *cellib.CostEstimator
	// envs by [stored][optionalOldSelf].
	envs [2][2]*nodeEnv
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// shape returns what of the node's environment for new or stored
// expressions reaches the type checker besides the base environment.
func (nc *nodeCompiler) shape(stored, optional bool) nodeShape {
	oldSelf := stored || nc.cfg.minor >= 24
	return nodeShape{
		decl:     nc.cfg.cache.types.ids(nc.dt).decl,
		oldSelf:  oldSelf,
		optional: optional && oldSelf,
		keyword:  stored || nc.cfg.minor >= 31,
	}
}

// env returns the environment with self and oldSelf declared.
func (nc *nodeCompiler) env(stored, optional bool) (*nodeEnv, error) {
	if e := nc.envs[b2i(stored)][b2i(optional)]; e != nil {
		return e, nil
	}
	// The environment declares self and oldSelf with the node's CEL type
	// and makes its object types known, nothing else of the node: it
	// suits every node whose type declares the same.
	k := envKey{decl: nc.cfg.cache.types.ids(nc.dt).decl, minor: nc.cfg.minor, release: nc.cfg.release, stored: stored, optional: optional}
	e, err := nc.cfg.cache.env(k, func() (*nodeEnv, error) { return nc.buildEnv(stored, optional) })
	if err != nil {
		return nil, err
	}
	nc.envs[b2i(stored)][b2i(optional)] = e
	return e, nil
}

// buildEnv builds the environment with self and oldSelf declared.
func (nc *nodeCompiler) buildEnv(stored, optional bool) (*nodeEnv, error) {
	base, err := baseFor(nc.cfg.minor, nc.cfg.release, stored)
	if err != nil {
		return nil, err
	}
	shape := nc.shape(stored, optional)
	// The object types are named as the API server names them
	// ("selfType" and a number that changes with every compilation): the
	// Cache's name for the type's declarations, the same in every
	// environment.
	provider := newTypeProvider(base.env.CELTypeProvider(), nc.dt, nc.cfg.cache.typeName(shape.decl), shape.keyword)
	self := provider.selfType()
	vars := []*decls.VariableDecl{decls.NewVariable(selfVar, self)}
	if shape.oldSelf {
		oldType := self
		if shape.optional {
			oldType = types.NewOptionalType(oldType)
		}
		vars = append(vars, decls.NewVariable(oldSelfVar, oldType))
	}
	return newNodeEnv(base, provider, vars)
}

// estimate estimates the cost of the checked expression a, which env
// compiled, and records the schema paths of the unbounded values the
// estimate depends on.
func (nc *nodeCompiler) estimate(env *nodeEnv, a *cel.Ast) costResult {
	return nc.cfg.cache.estimate(a, nc.dt, uint(nc.cfg.release), func() costResult {
		rec := &sizeEstimator{root: nc.dt, used: map[string]bool{}, legacyIntOrString: nc.cfg.release < 34}
		est, err := env.base.env.EstimateCost(a, &cellib.CostEstimator{SizeEstimator: rec, FlatGlobalMatches: nc.cfg.release < 37})
		if err != nil {
			return costResult{err: err}
		}
		return costResult{max: est.Max, unbounded: slices.Sorted(maps.Keys(rec.used))}
	})
}

// compileRules compiles the rules of the node whose schema is s and whose
// CEL type is dt. An error means no rule of the node could be compiled.
// With a cache, a node whose rules and type equal those of a node compiled
// before gets that node's results (with its own rules and fieldPaths).
func compileRules(s *structural.Schema, rules []crdschema.ValidationRule, dt *declType, cfg *config) ([]*compiledRule, error) {
	if len(rules) == 0 {
		return nil, nil
	}
	if dt == nil {
		return nil, fmt.Errorf("failed to convert to declType for CEL validation rules")
	}
	k := nodeKey{minor: cfg.minor, release: cfg.release, checkOnly: cfg.checkOnly, rules: rulesKey(rules, cfg), typ: cfg.cache.types.ids(dt).full}
	// The results are cached under k, or were compiled for another node
	// (hit).
	hit := true
	r := once(&cfg.cache.mu, &cfg.cache.nodes, k, func() nodeResult {
		hit = false
		rules, err := compileNode(s, rules, dt, cfg)
		if cfg.checkOnly {
			for _, cr := range rules {
				cr.dropEvaluation()
			}
		}
		return nodeResult{rules, err}
	})
	if !hit || r.err != nil {
		return r.rules, r.err
	}
	// The results are those of another node: the rules are equal, but
	// they are this node's, and a fieldPath resolves in this node's
	// schema.
	out := make([]*compiledRule, len(r.rules))
	for i, cr := range r.rules {
		c := *cr
		c.src = rules[i]
		c.fieldPath = ""
		// compile resolves the fieldPath of a rule whose expressions
		// all compiled.
		if c.src.FieldPath != "" && c.rule.compiled && (c.src.MessageExpression == "" || c.message.compiled) {
			c.fieldPath = resolveFieldPath(c.src.FieldPath, s)
		}
		out[i] = &c
	}
	return out, nil
}

// rulesKey identifies a node's rules and the environment each of their
// expressions compiles in.
func rulesKey(rules []crdschema.ValidationRule, cfg *config) string {
	n := 0
	for i := range rules {
		r := &rules[i]
		n += len(r.Rule) + len(r.Message) + len(r.MessageExpression) + len(r.FieldPath) + 32
		if r.Reason != nil {
			n += len(*r.Reason)
		}
	}
	b := make([]byte, 0, n)
	// Each string is written after its length, so that no two lists of
	// rules write the same bytes.
	str := func(s string) {
		b = strconv.AppendInt(b, int64(len(s)), 10)
		b = append(b, ':')
		b = append(b, s...)
	}
	for i := range rules {
		r := &rules[i]
		str(r.Rule)
		str(r.Message)
		str(r.MessageExpression)
		str(r.FieldPath)
		if r.Reason != nil {
			str(string(*r.Reason))
		} else {
			b = append(b, '-')
		}
		switch {
		case r.OptionalOldSelf == nil:
			b = append(b, '-')
		case *r.OptionalOldSelf:
			b = append(b, 't')
		default:
			b = append(b, 'f')
		}
		b = append(b, "ns"[b2i(cfg.storedFor(r.Rule, false))])
		b = append(b, "ns"[b2i(r.MessageExpression != "" && cfg.storedFor(r.MessageExpression, true))])
		b = append(b, ';')
	}
	return string(b)
}

// compileNode compiles the rules of a node, as compileRules describes.
func compileNode(s *structural.Schema, rules []crdschema.ValidationRule, dt *declType, cfg *config) ([]*compiledRule, error) {
	nc := &nodeCompiler{
		cfg:       cfg,
		dt:        dt,
		estimator: &cellib.CostEstimator{SizeEstimator: &sizeEstimator{root: dt}},
	}
	// Build every environment the rules need first: a failure is the
	// node's, as in the API server.
	// (Check may compile new expressions in the environment of stored
	// expressions: envStored.)
	for _, r := range rules {
		optional := r.OptionalOldSelf != nil && *r.OptionalOldSelf
		if _, err := nc.env(nc.envStored(cfg.storedFor(r.Rule, false), optional, ""), optional); err != nil {
			return nil, err
		}
		if r.MessageExpression != "" {
			if _, err := nc.env(nc.envStored(cfg.storedFor(r.MessageExpression, true), optional, ""), optional); err != nil {
				return nil, err
			}
		}
	}
	card := maxCardinalityFor(dt.minSize)
	out := make([]*compiledRule, len(rules))
	for i, r := range rules {
		out[i] = nc.compile(s, r, card)
	}
	return out, nil
}

// dropEvaluation drops what only evaluation uses (programs, environments,
// ASTs, bounds) from a rule compiled by Check, which evaluates nothing,
// before the Cache keeps it: the Cache keeps it for Check only, and should
// not keep alive what no one will use.
func (cr *compiledRule) dropEvaluation() {
	cr.rule.program, cr.message.program = nil, nil
	cr.rule.env, cr.message.env = nil, nil
	cr.rule.ast, cr.message.ast = nil, nil
	cr.dt, cr.bounds, cr.tracked = nil, nil, nil
}

// newTrackedProgram creates the program of the checked expression ast
// with the API server's cost tracking, estimator giving the runtime cost
// of library calls.
func newTrackedProgram(env *nodeEnv, a *cel.Ast, estimator *cellib.CostEstimator) (cel.Program, error) {
	opts := append(trackingOptions[:len(trackingOptions):len(trackingOptions)],
		cel.CostTracking(estimator),
		cel.InterruptCheckFrequency(checkFrequency),
		matchesConstants,
	)
	return env.program(a, opts...)
}

// programFor creates the program with cost tracking of the checked
// expression a, except when creating it cannot fail: then it returns a nil
// program and no error, and the program is made on first use
// (trackedPrograms), which objects within their cost bounds never reach
// (they run untracked programs, bounded.go). Creating a program is then
// work only the first request that needs it does.
func (nc *nodeCompiler) programFor(env *nodeEnv, a *cel.Ast) (cel.Program, error) {
	if !nc.cfg.eagerPrograms && plansSafely(a) {
		return nil, nil
	}
	return newTrackedProgram(env, a, nc.estimator)
}

// compile compiles one rule; the result carries its errors.
func (nc *nodeCompiler) compile(s *structural.Schema, r crdschema.ValidationRule, card uint64) (cr *compiledRule) {
	cr = &compiledRule{src: r, bounds: new(lazyBounds), tracked: new(trackedPrograms)}
	defer func() {
		if p := recover(); p != nil {
			cr.rule.program, cr.message.program = nil, nil
			cr.rule.compiled, cr.message.compiled = false, false
			cr.rule.err = fmt.Sprintf("unexpected compilation error: %v", p)
		}
	}()
	if strings.TrimSpace(r.Rule) == "" {
		return cr
	}
	optional := r.OptionalOldSelf != nil && *r.OptionalOldSelf
	if checked := nc.compileExpr(&cr.rule, r.Rule, false, optional); checked != nil {
		for _, ref := range checked.NativeRep().ReferenceMap() {
			if ref.Name == oldSelfVar {
				cr.usesOldSelf = true
				break
			}
		}
	}
	if !cr.rule.compiled {
		return cr
	}
	cr.maxCardinality = card
	cr.dt = nc.dt
	if r.MessageExpression != "" {
		if nc.compileExpr(&cr.message, r.MessageExpression, true, optional); !cr.message.compiled {
			return cr
		}
	}
	if r.FieldPath != "" {
		cr.fieldPath = resolveFieldPath(r.FieldPath, s)
	}
	return cr
}

// exprTexts are the error texts of a rule's expression or of its
// messageExpression, and the type it must have.
type exprTexts struct {
	output                                *cel.Type
	compile, wrongType, program, estimate string
}

var (
	ruleTexts    = exprTexts{cel.BoolType, "compilation failed: ", "cel expression must evaluate to a bool", "program instantiation failed: ", "cost estimation failed: "}
	messageTexts = exprTexts{cel.StringType, "messageExpression compilation failed: ", "messageExpression must evaluate to a string",
		"messageExpression instantiation failed: ", "cost estimation failed for messageExpression: "}
)

// compileExpr compiles text, a rule's expression or (with message) its
// messageExpression, into e, which then carries its error, if any. It
// returns the checked expression when it type-checked with the right output
// type.
func (nc *nodeCompiler) compileExpr(e *compiledExpr, text string, message, optional bool) *cel.Ast {
	t := &ruleTexts
	if message {
		t = &messageTexts
	}
	stored := nc.envStored(nc.cfg.storedFor(text, message), optional, text)
	env, err := nc.env(stored, optional)
	if err != nil {
		e.err = t.compile + err.Error()
		return nil
	}
	checked, iss := nc.cfg.cache.compile(env, nc.shape(stored, optional), text)
	if iss != nil || checked == nil {
		e.err = t.compile + iss.String()
		return nil
	}
	if checked.OutputType() != t.output {
		e.err = t.wrongType
		return nil
	}
	prog, err := nc.programFor(env, checked)
	if err != nil {
		e.err = t.program + err.Error()
		return checked
	}
	est := nc.estimate(env, checked)
	if est.err != nil {
		e.err = t.estimate + est.err.Error()
		return checked
	}
	e.program, e.compiled, e.maxCost, e.unbounded = prog, true, est.max, est.unbounded
	e.env, e.ast = env, checked
	return checked
}

// resolveFieldPath returns a rule's fieldPath normalised ("a.b") when it
// resolves in the node's schema s, or "".
func resolveFieldPath(fieldPath string, s *structural.Schema) string {
	if p, _, err := s.FieldPath(fieldPath, true); err == nil {
		return p.String()
	}
	return ""
}
