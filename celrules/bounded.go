package celrules

import (
	"math"
	"sync"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common/overloads"

	"github.com/crdschema/crdschema/internal/cellib"
)

// Evaluation without runtime cost tracking.
//
// cel-go's runtime cost tracking is most of the time (and of the
// allocations) of evaluating a rule. It matters only when a limit could be
// reached: the per-call limit of one evaluation, or the budget of the
// object. Before validating an object, a bounded run walks the object along
// the rules and adds up, for every evaluation the run could make, a static
// upper bound of its cost (the rule's and its messageExpression's). The
// bounds are twice cel-go's cost estimates (costMargin), computed with the
// runtime cost functions (cellib.CostEstimator) for value sizes the walk
// then checks the object against: every string, list, map and object a
// rule can see must be within the size its type declaration gives it
// (maxLength, maxItems, maxProperties, or the request-size worst case;
// sizeBound), and map keys within maxKeyBytes. The tests check the bounds
// against the cost tracked runs spend (bounded_test.go, and the fuzz
// targets with random rules and objects). When every single bound is
// within the per-call limit and
// their sum stays below the budget, no limit can be reached, and the rules
// run on programs without cost tracking: the errors are those of a tracked
// run. Otherwise, or when the object does not fit the sizes, every rule
// runs tracked, as always.
//
// Callers ask for this with WithBoundedCost.

// maxKeyBytes bounds the length of map keys in the cost bounds. The API
// server's estimates give map keys no size at all; a bound of the runtime
// cost needs one.
const maxKeyBytes = 512

// WithBoundedCost lets Validate run the rules without tracking their cost
// where static bounds of the object's sizes prove that no cost limit can
// be reached: the errors are those of a tracked run, faster to get. The
// Remaining budget of such a run is the budget less the bound, not less
// the cost actually spent: use it where only the errors count, as the API
// server's request pipeline does (package crd uses it).
func WithBoundedCost() ValidateOption {
	return func(v *validateConfig) { v.bounded = true }
}

// unboundedCost marks a rule or node whose cost has no usable bound.
const unboundedCost = math.MaxUint64

// lazyBounds are a compiled rule's untracked programs and cost bound, made
// on first use.
type lazyBounds struct {
	once      sync.Once
	program   cel.Program // the rule without cost tracking
	message   cel.Program // the messageExpression without cost tracking
	cost      uint64      // bound of one evaluation of rule and message together
	perCallOK bool        // both are bounded within PerCallLimit
}

// boundsOf returns the rule's untracked programs and bound.
func (cr *compiledRule) boundsOf() *lazyBounds {
	b := cr.bounds
	b.once.Do(func() {
		b.cost = unboundedCost
		defer func() {
			if recover() != nil {
				b.cost, b.perCallOK = unboundedCost, false
			}
		}()
		if !cr.rule.compiled {
			// Never evaluated: a compile error or an empty rule.
			b.cost, b.perCallOK = 0, true
			return
		}
		prog, cost, ok := untracked(cr.rule.env, cr.rule.ast, cr.dt)
		if !ok {
			return
		}
		if cr.message.compiled {
			mprog, mcost, ok := untracked(cr.message.env, cr.message.ast, cr.dt)
			if !ok {
				return
			}
			b.message = mprog
			cost += mcost
		}
		b.program, b.cost, b.perCallOK = prog, cost, true
	})
	return b
}

// untracked makes the program of a checked expression without cost
// tracking, and bounds the cost of one evaluation for values that fit dt.
func untracked(env *nodeEnv, a *cel.Ast, dt *declType) (cel.Program, uint64, bool) {
	if env == nil || a == nil || dt == nil {
		return nil, 0, false
	}
	est, err := env.base.env.EstimateCost(a, &boundEstimator{cellib.CostEstimator{SizeEstimator: &sizeEstimator{root: dt, bounds: true}}})
	if err != nil || est.Max > PerCallLimit/costMargin {
		return nil, 0, false
	}
	prog, err := env.program(a, cel.InterruptCheckFrequency(checkFrequency), matchesConstants)
	if err != nil {
		return nil, 0, false
	}
	return prog, est.Max * costMargin, true
}

// costMargin multiplies the estimates. cel-go's estimator does not count
// everything its runtime charges: an attribute on a value that is not a
// variable, as in (a + b)[0].k or x.value().f, costs 1 more at run time
// than estimated, once per qualifier chain, which itself is estimated at
// 1 or more. Twice the estimate covers that.
const costMargin = 2

// boundEstimator is the runtime cost estimator with result sizes for the
// conversions to string, whose results the API server's estimator leaves
// unbounded (so that a messageExpression such as 'got ' + string(self.n)
// has no bound at all). The conversion itself costs 1, as at run time.
type boundEstimator struct{ cellib.CostEstimator }

// stringConversionSizes bound the length of the string conversions of
// scalars: 20 characters for integers, 24 for doubles ('g' format), 35 for
// RFC 3339 timestamps, about 25 for durations.
var stringConversionSizes = map[string]uint64{
	overloads.BoolToString:      5,
	overloads.IntToString:       32,
	overloads.UintToString:      32,
	overloads.DoubleToString:    32,
	overloads.TimestampToString: 64,
	overloads.DurationToString:  64,
}

func (e *boundEstimator) EstimateCallCost(function, overloadID string, target *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	if max, ok := stringConversionSizes[overloadID]; ok {
		return &checker.CallEstimate{CostEstimate: checker.FixedCostEstimate(1), ResultSize: &checker.SizeEstimate{Min: 0, Max: max}}
	}
	return e.CostEstimator.EstimateCallCost(function, overloadID, target, args)
}

// sizeBound bounds the size cel-go's runtime cost functions see for a value
// of type t that fits t: the length of strings, lists and maps, the number
// of keys of objects (fields CEL cannot see included), 1 for other values.
// The API server's estimator gives scalars and objects size 0, which is
// below what the runtime charges for comparing them.
func sizeBound(t *declType) uint64 {
	var n int64
	switch t.kind {
	case kindObject:
		n = objectKeys(t)
	default:
		n = t.maxElements
	}
	return uint64(max(n, 1))
}

// objectKeys bounds the number of keys of an object of type t: the values
// CEL cannot see (unknown fields kept by x-kubernetes-preserve-unknown-fields,
// the rest of metadata) count when objects are compared.
func objectKeys(t *declType) int64 { return 2*int64(len(t.fields)) + 32 }

// nodeBounds are a node's summed bound, made on first use, and whether
// the types of all nodes below it are parts of its type (chained): then a
// value that fits the node's type fits theirs.
type nodeBounds struct {
	once        sync.Once
	cost        uint64
	chainedOnce sync.Once
	chained     bool
}

// boundOf returns the bound of one evaluation of all of n's rules, or
// unboundedCost. n is ready.
func (n *node) boundOf() uint64 {
	b := &n.bounds
	b.once.Do(func() {
		var sum uint64
		for _, cr := range n.rules {
			if cr.rule.err != "" {
				continue
			}
			rb := cr.boundsOf()
			if !rb.perCallOK || rb.cost > unboundedCost-sum {
				sum = unboundedCost
				break
			}
			sum += rb.cost
		}
		b.cost = sum
	})
	return b.cost
}

// isChained reports whether the types of all nodes below n are parts of
// n's type (nodeBounds.chained). It needs the nodes' types only, not their
// compiled rules: nodes compiled lazily stay uncompiled.
func (n *node) isChained() bool {
	b := &n.bounds
	b.chainedOnce.Do(func() { b.chained = n.chainedBelow() })
	return b.chained
}

// chainedBelow reports whether the type of every node below n is the type
// of the value it validates within n's type.
func (n *node) chainedBelow() bool {
	if n.dt == nil {
		return false
	}
	below := func(c *node, t *declType) bool {
		if c == nil {
			return true
		}
		return c.dt == t && c.isChained()
	}
	for _, a := range n.allOf {
		if !below(a, n.dt) {
			return false
		}
	}
	if !below(n.items, n.dt.elem) || !below(n.additional, n.dt.elem) {
		return false
	}
	for k, sub := range n.props {
		if !below(sub, fieldType(n.dt, k)) {
			return false
		}
	}
	return true
}

// boundWalk adds up the bounds of the evaluations a run over an object
// would make, and checks the values the rules see against the sizes the
// bounds assume.
type boundWalk struct {
	total, budget uint64
}

// boundedRun reports whether a run of the rules below n over obj (and old)
// stays below budget, with every evaluation within the per-call limit, and
// returns the bound of the run's cost.
func boundedRun(n *node, obj, old any, budget int64) (uint64, bool) {
	if budget <= 0 {
		return 0, false
	}
	w := &boundWalk{budget: uint64(budget)}
	if !w.node(n, obj, old, false, 0) {
		return 0, false
	}
	return w.total, true
}

// node mirrors run.node. covered tells that obj and old were checked
// against the sizes of the type this node's type is part of.
func (w *boundWalk) node(n *node, obj, old any, covered bool, depth int) bool {
	if n == nil || obj == nil {
		return true
	}
	if depth > maxSchemaDepth {
		return false
	}
	if isNil(old) {
		old = nil
	}
	n.ready()
	if covered && n.isChained() {
		// obj and old fit, and so do the values of every node below:
		// the old values matter no more (what is counted depends on obj
		// alone).
		old = nil
	}
	if n.compileErr == nil && len(n.rules) > 0 {
		c := n.boundOf()
		if c >= w.budget-w.total {
			// the total would reach the budget: the run must track
			return false
		}
		w.total += c
		if !covered {
			if !fits(obj, n.dt, 0) || (old != nil && !fits(old, n.dt, 0)) {
				return false
			}
			covered = true
		}
	}
	for _, a := range n.allOf {
		if !w.node(a, obj, old, covered, depth+1) {
			return false
		}
	}
	switch x := obj.(type) {
	case []any:
		if n.items == nil {
			return true
		}
		c := covered && n.dt != nil && n.items.dt == n.dt.elem
		oldList, _ := old.([]any)
		olds := oldItems(n.schema, oldList)
		for _, item := range x {
			if !w.node(n.items, item, oldItem(olds, item), c, depth+1) {
				return false
			}
		}
	case map[string]any:
		oldMap, _ := old.(map[string]any)
		if !correlatableMap(n.schema.XMapType) {
			oldMap = nil
		}
		if n.additional != nil {
			c := covered && n.dt != nil && n.additional.dt == n.dt.elem
			for k, val := range x {
				if !w.node(n.additional, val, oldMap[k], c, depth+1) {
					return false
				}
			}
		}
		if n.props != nil {
			for k, val := range x {
				sub, ok := n.props[k]
				if !ok {
					continue
				}
				c := covered && n.dt != nil && sub.dt == fieldType(n.dt, k)
				if !w.node(sub, val, oldMap[k], c, depth+1) {
					return false
				}
			}
		}
	}
	return true
}

// fieldType returns the type of the property named k of an object type,
// or nil.
func fieldType(t *declType, k string) *declType {
	if t == nil {
		return nil
	}
	if e, ok := escapeProperty(k); ok {
		return t.fields[e]
	}
	return nil
}

// fits reports whether every string, list and map of v that CEL sees
// through t is within the size t gives it.
func fits(v any, t *declType, depth int) bool {
	if t == nil || v == nil {
		return true
	}
	if depth > maxSchemaDepth {
		return false
	}
	switch t.kind {
	case kindScalar:
		// Strings count by their bytes, at least their number of
		// characters, as CEL sizes them. Durations and timestamps are
		// checked too, within their serialized size: releases before 1.37
		// give a rule the optional oldSelf as plain JSON, where they are
		// strings. A string where the type is not one (an integer, a
		// boolean) does not fit.
		s, ok := v.(string)
		if !ok {
			return true
		}
		return int64(len(s)) <= t.maxElements
	case kindList:
		l, ok := v.([]any)
		if !ok {
			return true
		}
		if int64(len(l)) > t.maxElements {
			return false
		}
		for _, item := range l {
			if !fits(item, t.elem, depth+1) {
				return false
			}
		}
		return true
	case kindMap:
		m, ok := v.(map[string]any)
		if !ok {
			return true
		}
		if int64(len(m)) > t.maxElements {
			return false
		}
		for k, item := range m {
			if len(k) > maxKeyBytes || !fits(item, t.elem, depth+1) {
				return false
			}
		}
		return true
	case kindObject:
		m, ok := v.(map[string]any)
		if !ok {
			return true
		}
		if int64(len(m)) > objectKeys(t) {
			return false
		}
		for k, item := range m {
			if item == nil {
				continue
			}
			if ft := fieldType(t, k); ft != nil && !fits(item, ft, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}
