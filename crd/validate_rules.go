package crd

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/internal/apiextensions"
	"github.com/crdschema/crdschema/structural"
)

// validateRules reports what CRD validation reports about the CEL rules of
// the structural schema root at path, once the other checks of the schema
// found schemaErrs: compile errors, oldSelf where old values cannot be
// correlated, optionalOldSelf without oldSelf, and the per-expression and
// whole-schema cost limits. As the API server does, it reports nothing of
// a node with schema errors at or below it, and leaves its costs out of
// the total.
func validateRules(c *config, root *structural.Schema, path *crdschema.Path, opts *validationOptions, schemaErrs crdschema.ErrorList) crdschema.ErrorList {
	tree, err := celrules.Check(root, path, celrules.WithCache(c.cache), c.celOption(), celrules.WithStoredExpressions(opts.preexisting...))
	if err != nil {
		return crdschema.ErrorList{crdschema.InternalError(path, err)}
	}
	if tree == nil {
		return nil
	}
	v := ruleReporter{suppressCost: opts.suppressPerExpressionCost}
	for _, e := range schemaErrs {
		v.errFields = append(v.errFields, e.Field)
	}
	v.node(tree)
	if v.total.total > celrules.StaticCRDCostLimit {
		for _, e := range v.total.top {
			v.errs = append(v.errs, crdschema.Forbidden(e.path, "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"))
		}
		v.errs = append(v.errs, crdschema.Forbidden(path, costErrorMessage("x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema", v.total.total, celrules.StaticCRDCostLimit)))
	}
	return v.errs
}

type ruleReporter struct {
	suppressCost bool     // the schema is unchanged by an update
	errFields    []string // the fields of the schema's other errors
	total        totalCost
	errs         crdschema.ErrorList
}

// node reports the errors of n's subtree, children first, as the API
// server compiles them.
func (v *ruleReporter) node(n *celrules.NodeCheck) {
	for _, c := range n.Children {
		v.node(c)
	}
	if v.hasErrorsAt(n.Path.String()) {
		return
	}
	xv := n.Path.Child("x-kubernetes-validations")
	if n.Err != nil {
		v.errs = append(v.errs, crdschema.InternalError(xv, n.Err))
		return
	}
	for i := range n.Rules {
		r := &n.Rules[i]
		rp := xv.Index(i)
		cost := r.Total()
		if !v.suppressCost && cost > celrules.StaticCostLimit {
			v.errs = append(v.errs, crdschema.Forbidden(rp.Child("rule"), costErrorMessage("estimated rule cost", cost, celrules.StaticCostLimit)))
		}
		v.total.observe(rp.Child("rule"), cost)
		if r.Err != "" {
			v.errs = append(v.errs, crdschema.Invalid(rp.Child("rule"), apiextensions.Rule(r.Rule), r.Err))
		}
		if r.MessageErr != "" {
			v.errs = append(v.errs, crdschema.Invalid(rp.Child("messageExpression"), apiextensions.Rule(r.Rule), r.MessageErr))
		} else if r.MessageCompiled {
			if !v.suppressCost && r.MessageCost > celrules.StaticCostLimit {
				v.errs = append(v.errs, crdschema.Forbidden(rp.Child("messageExpression"), costErrorMessage("estimated messageExpression cost", r.MessageCost, celrules.StaticCostLimit)))
			}
			v.total.observe(rp.Child("messageExpression"), r.MessageCost)
		}
		if r.UsesOldSelf {
			if n.Uncorrelatable != nil {
				v.errs = append(v.errs, crdschema.Invalid(rp.Child("rule"), r.Rule.Rule, fmt.Sprintf("oldSelf cannot be used on the uncorrelatable portion of the schema within %v", n.Uncorrelatable)))
			}
		} else if r.Rule.OptionalOldSelf != nil {
			v.errs = append(v.errs, crdschema.Invalid(rp.Child("optionalOldSelf"), *r.Rule.OptionalOldSelf, "may not be set if oldSelf is not used in rule"))
		}
	}
}

// hasErrorsAt reports whether one of the schema's other errors lies at or
// below p.
func (v *ruleReporter) hasErrorsAt(p string) bool {
	return slices.ContainsFunc(v.errFields, func(f string) bool {
		return strings.HasPrefix(f, p) && (len(f) == len(p) || f[len(p)] == '.' || f[len(p)] == '[')
	})
}

// costErrorMessage renders how far cost exceeds limit, as the API server
// words it.
func costErrorMessage(what string, cost, limit uint64) string {
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

type pathCost struct {
	path *crdschema.Path
	cost uint64
}

// totalCost sums a schema's expression costs and keeps the four largest
// that count (at least 1% of the schema limit).
type totalCost struct {
	total uint64
	top   []pathCost
}

func (t *totalCost) observe(p *crdschema.Path, cost uint64) {
	if math.MaxUint64-t.total < cost {
		t.total = math.MaxUint64
	} else {
		t.total += cost
	}
	if cost < celrules.StaticCRDCostLimit/100 {
		return
	}
	t.top = append(t.top, pathCost{p, cost})
	sort.SliceStable(t.top, func(i, j int) bool { return t.top[i].cost > t.top[j].cost })
	if len(t.top) > 4 {
		t.top = t.top[:4]
	}
}
