package celrules

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/google/cel-go/cel"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/apiextensions"
	"github.com/crdschema/crdschema/internal/release"
	"github.com/crdschema/crdschema/structural"
)

// The tests of this package were written against a CheckSchema that also
// applied CRD validation's policy (cost limits, the schema's total, the
// nodes skipped for schema errors), which package crd now owns. checkSchema
// reproduces that contract on top of Check, so that the tests keep checking
// the compile results and cost figures against upstream's goldens; crd's
// tests and the conformance suite check crd's own policy code.

type testOption struct {
	check      Option
	schemaErrs crdschema.ErrorList
	suppress   bool
	badMajor   bool
}

func UseCache(c *Cache) Option { return WithCache(c) }
func NewExpressions(schemas ...*crdschema.JSONSchemaProps) testOption {
	return testOption{check: WithStoredExpressions(schemas...)}
}
func SchemaErrors(errs crdschema.ErrorList) testOption { return testOption{schemaErrs: errs} }
func SuppressExpressionCost() testOption               { return testOption{suppress: true} }
func LazyCompile() Option                              { return WithLazyCompile() }
func CompatibilityVersion(major, minor int) testOption {
	return testOption{check: withCompatibilityVersion(minor), badMajor: major != 1}
}

// Cost is a cost figure as CheckSchema reported it.
type Cost struct {
	Field             string
	Rule              string
	Cost, Cardinality uint64
	Unbounded         []string
}

func (c Cost) Total() uint64 {
	if strings.HasSuffix(c.Field, ".messageExpression") {
		return c.Cost
	}
	return mulSaturate(c.Cost, c.Cardinality)
}

var CheckSchema = checkSchema

func checkSchema(s *structural.Schema, fldPath *crdschema.Path, opts ...any) (crdschema.ErrorList, []Cost, error) {
	var co []Option
	var o testOption
	for _, a := range opts {
		var t testOption
		switch a := a.(type) {
		case testOption:
			t = a
		case Option:
			t.check = a
		default:
			return nil, nil, fmt.Errorf("not a CheckSchema option: %T", a)
		}
		if t.check != nil {
			co = append(co, t.check)
		}
		o.schemaErrs = append(o.schemaErrs, t.schemaErrs...)
		o.suppress = o.suppress || t.suppress
		if t.badMajor {
			return nil, nil, fmt.Errorf("unsupported major version")
		}
	}
	tree, err := Check(s, fldPath, co...)
	if err != nil || tree == nil {
		return nil, nil, err
	}
	p := policy{suppress: o.suppress}
	for _, e := range o.schemaErrs {
		p.errFields = append(p.errFields, e.Field)
	}
	p.node(tree)
	if p.total > StaticCRDCostLimit {
		for _, e := range p.top {
			p.errs = append(p.errs, crdschema.Forbidden(e.path, "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"))
		}
		p.errs = append(p.errs, crdschema.Forbidden(fldPath, costMessage("x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema", p.total, StaticCRDCostLimit)))
	}
	var costs []Cost
	var walk func(n *NodeCheck)
	walk = func(n *NodeCheck) {
		xv := n.Path.Child("x-kubernetes-validations")
		for i := range n.Rules {
			r := &n.Rules[i]
			if r.Compiled {
				c := Cost{Field: xv.Index(i).Child("rule").String(), Rule: r.Rule.Rule, Cost: r.Cost, Cardinality: r.Cardinality}
				if mulSaturate(r.Cost, r.Cardinality) > StaticCostLimit {
					c.Unbounded = r.Unbounded()
				}
				costs = append(costs, c)
			}
			if r.MessageErr == "" && r.MessageCompiled {
				c := Cost{Field: xv.Index(i).Child("messageExpression").String(), Rule: r.Rule.MessageExpression, Cost: r.MessageCost, Cardinality: r.Cardinality}
				if r.MessageCost > StaticCostLimit {
					c.Unbounded = r.MessageUnbounded()
				}
				costs = append(costs, c)
			}
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(tree)
	return p.errs, costs, nil
}

type policy struct {
	suppress  bool
	errFields []string
	total     uint64
	top       []struct {
		path *crdschema.Path
		cost uint64
	}
	errs crdschema.ErrorList
}

func (p *policy) observe(path *crdschema.Path, cost uint64) {
	if math.MaxUint64-p.total < cost {
		p.total = math.MaxUint64
	} else {
		p.total += cost
	}
	if cost < StaticCRDCostLimit/100 {
		return
	}
	p.top = append(p.top, struct {
		path *crdschema.Path
		cost uint64
	}{path, cost})
	sort.SliceStable(p.top, func(i, j int) bool { return p.top[i].cost > p.top[j].cost })
	if len(p.top) > 4 {
		p.top = p.top[:4]
	}
}

func (p *policy) node(n *NodeCheck) {
	for _, c := range n.Children {
		p.node(c)
	}
	ps := n.Path.String()
	for _, f := range p.errFields {
		if strings.HasPrefix(f, ps) && (len(f) == len(ps) || f[len(ps)] == '.' || f[len(ps)] == '[') {
			return
		}
	}
	xv := n.Path.Child("x-kubernetes-validations")
	if n.Err != nil {
		p.errs = append(p.errs, crdschema.InternalError(xv, n.Err))
		return
	}
	for i := range n.Rules {
		r := &n.Rules[i]
		rp := xv.Index(i)
		cost := mulSaturate(r.Cost, r.Cardinality)
		if !p.suppress && cost > StaticCostLimit {
			p.errs = append(p.errs, crdschema.Forbidden(rp.Child("rule"), costMessage("estimated rule cost", cost, StaticCostLimit)))
		}
		p.observe(rp.Child("rule"), cost)
		if r.Err != "" {
			p.errs = append(p.errs, crdschema.Invalid(rp.Child("rule"), apiextensions.Rule(r.Rule), r.Err))
		}
		if r.MessageErr != "" {
			p.errs = append(p.errs, crdschema.Invalid(rp.Child("messageExpression"), apiextensions.Rule(r.Rule), r.MessageErr))
		} else if r.MessageCompiled {
			if !p.suppress && r.MessageCost > StaticCostLimit {
				p.errs = append(p.errs, crdschema.Forbidden(rp.Child("messageExpression"), costMessage("estimated messageExpression cost", r.MessageCost, StaticCostLimit)))
			}
			p.observe(rp.Child("messageExpression"), r.MessageCost)
		}
		if r.UsesOldSelf {
			if n.Uncorrelatable != nil {
				p.errs = append(p.errs, crdschema.Invalid(rp.Child("rule"), r.Rule.Rule, fmt.Sprintf("oldSelf cannot be used on the uncorrelatable portion of the schema within %v", n.Uncorrelatable)))
			}
		} else if r.Rule.OptionalOldSelf != nil {
			p.errs = append(p.errs, crdschema.Invalid(rp.Child("optionalOldSelf"), *r.Rule.OptionalOldSelf, "may not be set if oldSelf is not used in rule"))
		}
	}
}

func costMessage(what string, cost, limit uint64) string {
	f := float64(cost) / float64(limit)
	var factor string
	switch {
	case f > 100:
		factor = "more than 100x"
	case f < 1.5:
		factor = fmt.Sprintf("%fx", f)
	default:
		factor = fmt.Sprintf("%.1fx", f)
	}
	return fmt.Sprintf("%s exceeds budget by factor of %s (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)", what, factor)
}

var costErrorMessage = costMessage

// withCompatibilityVersion selects the Kubernetes compatibility version
// 1.minor whose CEL environment compiles new expressions: each version has
// the libraries and options the API server of that version allows. The
// default is 1.36, the compatibility version of a 1.37 API server. It has no
// effect on stored expressions (every expression Compile compiles, and the
// expressions Check is told an update keeps).
func withCompatibilityVersion(minor int) Option {
	return func(c *config) { c.minor = uint(max(minor, 0)) }
}

// newDeclType is declTypeAt without a cache at 1.37.
func newDeclType(s *structural.Schema, isResourceRoot bool) *declType {
	t, _ := declTypeReach(s, isResourceRoot, true, 0, nil)
	return t
}

// baseEnv returns the base environment for new expressions at
// compatibility version 1.minor, or for stored expressions.
func baseEnv(minor uint, rel release.Minor, stored bool) (*cel.Env, error) {
	l, err := baseFor(minor, rel, stored)
	if err != nil {
		return nil, err
	}
	return l.env, nil
}
