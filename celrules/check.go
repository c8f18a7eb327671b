package celrules

import (
	"fmt"
	"math"
	"sort"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/release"
	"github.com/crdschema/crdschema/structural"
)

// NodeCheck is what compiling the x-kubernetes-validations rules of one
// schema node gives at CRD validation, and the same for the nodes below it.
// Check returns a tree of them; package crd turns it into the API server's
// errors and limits.
type NodeCheck struct {
	// Path is the node's path, below the path given to Check.
	Path *crdschema.Path
	// Err is set when the node's rules cannot be compiled at all, because
	// no CEL type could be derived for the node; Rules is then empty.
	Err error
	// Rules holds the results of the node's rules, in order; it is empty
	// for a node that only has rules below it.
	Rules []RuleCheck
	// Uncorrelatable is the path of the closest list or map above the node
	// whose items or entries have no old counterpart on updates (atomic or
	// set lists, maps of an atomic map type), where a rule may not use
	// oldSelf; nil when there is none.
	Uncorrelatable *crdschema.Path
	// Children are the nodes below with rules at or below them, in schema
	// order: additionalProperties, properties by name, items. (The API
	// server compiles children before their parent.)
	Children []*NodeCheck
}

// RuleCheck is what compiling one rule and its messageExpression gives.
type RuleCheck struct {
	// Rule is the rule as written in the schema.
	Rule crdschema.ValidationRule
	// Compiled says the rule compiled; otherwise Err is the API server's
	// detail of the compile error, and Cost is still set when the rule
	// type-checked.
	Compiled bool
	Err      string
	// Cost is the estimated maximum cost of one evaluation, and
	// Cardinality how many times the rule may run per object: the product
	// of the maxItems/maxProperties of the lists and maps above it, or the
	// worst case the request size allows when one is unbounded.
	Cost, Cardinality uint64
	// UsesOldSelf says the rule is a transition rule.
	UsesOldSelf bool
	// MessageCompiled says the messageExpression, if any, compiled;
	// otherwise MessageErr is the detail of its compile error.
	// MessageCost is its estimated maximum cost, which the API server
	// does not multiply by the cardinality.
	MessageCompiled bool
	MessageErr      string
	MessageCost     uint64

	ctx              *celContext
	unbounded        []string
	messageUnbounded []string
}

// Unbounded returns the paths in the CRD of the lists, maps and strings
// without maxItems, maxProperties or maxLength that drive the rule's cost
// figure: those the rule reads, and those that contain its node. Declaring
// limits there lowers the figure.
func (r *RuleCheck) Unbounded() []string { return r.ctx.unboundedPaths(r.unbounded, true) }

// MessageUnbounded is Unbounded for the messageExpression, whose cost is
// not multiplied: only the values it reads count.
func (r *RuleCheck) MessageUnbounded() []string {
	return r.ctx.unboundedPaths(r.messageUnbounded, false)
}

// Total is the rule's cost multiplied by its cardinality, saturated at the
// largest uint64: the figure the API server compares with StaticCostLimit.
func (r *RuleCheck) Total() uint64 { return mulSaturate(r.Cost, r.Cardinality) }

// mulSaturate multiplies a cost by a cardinality as the API server does,
// saturating at the largest uint64.
func mulSaturate(a, b uint64) uint64 {
	if a == 0 {
		return 0
	}
	if math.MaxUint64/a < b {
		return math.MaxUint64
	}
	return a * b
}

// Check compiles the x-kubernetes-validations rules of the structural
// schema s, found at fldPath in a CRD, as CRD validation compiles them: in
// the environment of new expressions (but for WithStoredExpressions), with
// the CEL type and the cardinality the API server derives for each node. It
// returns nil when s has no rules outside its junctors (where the API server
// compiles none).
//
// The API server looks at rules only when the schema is structural and its
// defaults are valid; check only such a schema. The result is the same
// for a node and its rules whatever errors the schema has elsewhere; what
// CRD validation reports of it is package crd's business.
func Check(s *structural.Schema, fldPath *crdschema.Path, opts ...Option) (*NodeCheck, error) {
	cfg, err := newConfig(opts)
	if err != nil || s == nil {
		return nil, err
	}
	cfg.newExpressions, cfg.lazy, cfg.checkOnly = true, false, true
	if cfg.cache == nil {
		cfg.cache = new(Cache)
	}
	ch := &ruleChecker{cfg: cfg, withRules: cfg.cache.withRules(s)}
	if !ch.withRules[s] {
		return nil, nil
	}
	one := uint64(1)
	root := &celContext{schema: s, inScope: len(s.XValidations) > 0, cardinality: &one, path: fldPath.String(), release: cfg.release, cache: cfg.cache}
	return ch.walk(s, fldPath, root, nil, 0), nil
}

// celContext follows CRD validation's derivation of the CEL type and the
// cardinality of each node.
type celContext struct {
	schema  *structural.Schema
	parent  *celContext
	release release.Minor // the release whose types are derived
	cache   *Cache        // the call's, which may keep types by node
	inScope bool
	// access derives the node's type from its parent's, if it can; nil
	// at the root.
	access func(parent *declType) (*declType, bool)
	// cardinality is nil when a list or map above is unbounded.
	cardinality *uint64
	// path is the node's path in the CRD; unboundedAbove the paths of the
	// lists and maps above it without maxItems or maxProperties.
	path           string
	unboundedAbove []string

	done bool
	dt   *declType
	err  error
}

// declType returns the CEL type of the node, which is in scope: derived
// from its parent's where the parent is in scope too, else from its
// schema.
func (c *celContext) declType() (*declType, error) {
	if c.done {
		return c.dt, c.err
	}
	c.done = true
	if c.parent != nil && c.parent.inScope {
		pt, err := c.parent.declType()
		if err != nil {
			c.err = err
			return nil, err
		}
		var ok bool
		if c.dt, ok = c.access(pt); ok {
			return c.dt, nil
		}
	}
	if c.dt = c.cache.declTypeAt(c.schema, c.parent == nil || c.schema.XEmbeddedResource, c.release); c.dt == nil {
		c.err = fmt.Errorf("unable to convert structural schema to CEL declarations")
	}
	return c.dt, c.err
}

// maxElements is how many children a value of s has at most (maxItems,
// maxProperties or one); nil means unbounded. It must not be modified.
func maxElements(s *structural.Schema) *int64 {
	switch {
	case s.Type == "array":
		return validationOf(s).MaxItems
	case s.Type == "object" && s.AdditionalProperties != nil:
		return validationOf(s).MaxProperties
	}
	return &oneElement
}

var oneElement int64 = 1

func (c *celContext) child(s *structural.Schema, access func(*declType) (*declType, bool), path *crdschema.Path) *celContext {
	out := &celContext{schema: s, parent: c, release: c.release, cache: c.cache, inScope: c.inScope || len(s.XValidations) > 0, access: access,
		path: path.String(), unboundedAbove: c.unboundedAbove}
	m := maxElements(c.schema)
	if m == nil {
		out.unboundedAbove = append(append([]string(nil), c.unboundedAbove...), c.path)
	}
	if c.cardinality == nil {
		return out
	}
	if m != nil {
		n := mulSaturate(*c.cardinality, uint64(nonNegative(*m)))
		out.cardinality = &n
	}
	return out
}

// propertyAccess derives the type of the property name, where the
// parent's type declares it.
func propertyAccess(name string) func(*declType) (*declType, bool) {
	return func(p *declType) (*declType, bool) {
		f := fieldType(p, name)
		return f, f != nil
	}
}

// elemAccess derives the type of the items or additionalProperties.
func elemAccess(p *declType) (*declType, bool) {
	if p == nil {
		return nil, true
	}
	return p.elem, true
}

// unboundedPaths joins the unbounded lists and maps above the node (when
// above is set) with the node-relative paths an expression's estimate
// used; there are none without a context (a RuleCheck not made by Check).
func (c *celContext) unboundedPaths(used []string, above bool) []string {
	if c == nil {
		return nil
	}
	var out []string
	if above {
		out = append(out, c.unboundedAbove...)
	}
	for _, u := range used {
		if u == "" {
			out = append(out, c.path)
		} else {
			out = append(out, c.path+"."+u)
		}
	}
	sort.Strings(out)
	return out
}

type ruleChecker struct {
	cfg *config
	// withRules holds the nodes with rules at or below them; the walk
	// skips the others, where there is nothing to report, without deriving
	// their types.
	withRules map[*structural.Schema]bool
}

// walk checks the node s at p and everything below it. forbidOldSelf is
// the path of the list or map above s whose items cannot be correlated,
// if any.
func (ch *ruleChecker) walk(s *structural.Schema, p *crdschema.Path, ctx *celContext, forbidOldSelf *crdschema.Path, depth int) *NodeCheck {
	if s == nil || depth > maxSchemaDepth {
		return nil
	}
	n := &NodeCheck{Path: p, Uncorrelatable: forbidOldSelf}
	add := func(c *NodeCheck) {
		if c != nil {
			n.Children = append(n.Children, c)
		}
	}
	// A node without rules at or below it (nil included) is not marked.
	if s.AdditionalProperties != nil && ch.withRules[s.AdditionalProperties.Schema] {
		ap := s.AdditionalProperties.Schema
		add(ch.walk(ap, p.Child("additionalProperties"), ctx.child(ap, elemAccess, p.Child("additionalProperties")), forbidOldSelf, depth+1))
	}
	names := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		ps := s.Properties[k]
		if !ch.withRules[ps] {
			continue
		}
		sub := forbidOldSelf
		if sub == nil && !correlatableMap(s.XMapType) {
			sub = p
		}
		add(ch.walk(ps, p.Child("properties").Key(k), ctx.child(ps, propertyAccess(k), p.Child("properties").Key(k)), sub, depth+1))
	}
	if ch.withRules[s.Items] {
		sub := forbidOldSelf
		if sub == nil && (s.XListType == nil || *s.XListType != "map") {
			sub = p
		}
		add(ch.walk(s.Items, p.Child("items"), ctx.child(s.Items, elemAccess, p.Child("items")), sub, depth+1))
	}
	if len(s.XValidations) > 0 {
		ch.compileNode(n, ctx)
	}
	return n
}

// compileNode compiles the node's rules as CRD validation does.
func (ch *ruleChecker) compileNode(n *NodeCheck, ctx *celContext) {
	dt, err := ctx.declType()
	if err != nil {
		n.Err = fmt.Errorf("internal error: failed to construct type information for x-kubernetes-validations rules: %s", err)
		return
	}
	// Nodes with the same rules and an equal type share one compilation
	// through the cache: a schema often repeats a structure with its
	// rules, and versions repeat schemas.
	results, err := compileRules(ctx.schema, ctx.schema.XValidations, dt, ch.cfg)
	if err != nil {
		n.Err = err
		return
	}
	n.Rules = make([]RuleCheck, len(results))
	for i, cr := range results {
		card := cr.maxCardinality
		if ctx.cardinality != nil {
			card = *ctx.cardinality
		}
		r := &n.Rules[i]
		*r = RuleCheck{
			Rule:             cr.src,
			Err:              cr.rule.err,
			MessageErr:       cr.message.err,
			Compiled:         cr.rule.compiled,
			Cost:             cr.rule.maxCost,
			Cardinality:      card,
			UsesOldSelf:      cr.usesOldSelf,
			MessageCompiled:  cr.message.compiled,
			MessageCost:      cr.message.maxCost,
			ctx:              ctx,
			unbounded:        cr.rule.unbounded,
			messageUnbounded: cr.message.unbounded,
		}
	}
}
