package crd

import (
	"fmt"
	"math"
	"math/bits"
	"strings"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/structural"
)

// RuleCost is the static cost figure CRD validation computes for one rule
// or messageExpression.
type RuleCost struct {
	// Field is the path of the expression in the CRD
	// ("spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule").
	Field string
	// Rule is the expression's text.
	Rule string
	// Cost is the estimated maximum cost of one evaluation.
	Cost uint64
	// Cardinality is how many times the expression may run per object: the
	// product of the maxItems/maxProperties of the lists and maps above it,
	// or the worst case the request size allows when one is unbounded. A
	// messageExpression has the cardinality of its rule.
	Cardinality uint64
	// Unbounded is set when the expression exceeds
	// celrules.StaticCostLimit: the paths in the CRD of the lists, maps and
	// strings without maxItems, maxProperties or maxLength that drive the
	// estimate, either because the expression reads them or because they
	// contain the rule's node. Declaring limits there lowers the cost.
	Unbounded []string
}

// Total is the figure the API server compares with
// celrules.StaticCostLimit: a rule's cost multiplied by its cardinality
// (saturated at the largest uint64), and a messageExpression's cost alone,
// as the API server does not multiply it.
func (c RuleCost) Total() uint64 {
	if strings.HasSuffix(c.Field, ".messageExpression") {
		return c.Cost
	}
	hi, lo := bits.Mul64(c.Cost, c.Cardinality)
	if hi != 0 {
		return math.MaxUint64
	}
	return lo
}

// RuleCosts returns the static cost figures of every CEL rule and
// messageExpression of the named version of def, as CRD validation
// computes them, in schema order (a node's expressions, then those of its
// additionalProperties, its properties by name, its items): the field of
// the expression (in the CRD's internal form,
// spec.validation.openAPIV3Schema... when all versions share one schema),
// its estimated cost per evaluation, its cardinality, and for an
// expression over the per-expression limit the unbounded lists, maps and
// strings that drive the estimate. Expressions that do not compile are
// left out; Validate reports them.
//
// old is the stored CRD when def updates it, or nil: expressions that old
// already has compile in the API server's environment for stored
// expressions, which may know more functions.
//
// Use it in a test to keep an eye on how close a CRD's rules are to the
// API server's limits (celrules.StaticCostLimit per expression,
// celrules.StaticCRDCostLimit in total).
func RuleCosts(def, old *crdschema.CustomResourceDefinition, version string, opts ...Option) ([]RuleCost, error) {
	set := applyOptions(opts)
	if def == nil {
		return nil, fmt.Errorf("crd.RuleCosts: nil CustomResourceDefinition")
	}
	props, path := VersionSchema(Defaulted(def), version)
	if props == nil {
		return nil, nil
	}
	s, err := structural.New(props)
	if err != nil {
		return nil, fmt.Errorf("crd.RuleCosts: %s: %w", version, err)
	}
	if errs := structural.Validate(path, s, structural.Options{}); len(errs) > 0 {
		return nil, fmt.Errorf("crd.RuleCosts: %s: the schema is not structural: %w", version, errs.ToAggregate())
	}
	var stored []*crdschema.JSONSchemaProps
	if old != nil {
		for _, v := range old.Spec.Versions {
			if v.Schema != nil {
				stored = append(stored, v.Schema.OpenAPIV3Schema)
			}
		}
	}
	tree, err := celrules.Check(s, path, celrules.WithKubernetesVersion(set.Version), celrules.WithCache(set.Cache), celrules.WithStoredExpressions(stored...))
	if err != nil {
		return nil, fmt.Errorf("crd.RuleCosts: %s: %w", version, err)
	}
	var costs []RuleCost
	var walk func(n *celrules.NodeCheck)
	walk = func(n *celrules.NodeCheck) {
		xv := n.Path.Child("x-kubernetes-validations")
		for i := range n.Rules {
			r := &n.Rules[i]
			if r.Compiled {
				c := RuleCost{Field: xv.Index(i).Child("rule").String(), Rule: r.Rule.Rule, Cost: r.Cost, Cardinality: r.Cardinality}
				if r.Total() > celrules.StaticCostLimit {
					c.Unbounded = r.Unbounded()
				}
				costs = append(costs, c)
			}
			if r.MessageErr == "" && r.MessageCompiled {
				c := RuleCost{Field: xv.Index(i).Child("messageExpression").String(), Rule: r.Rule.MessageExpression, Cost: r.MessageCost, Cardinality: r.Cardinality}
				if r.MessageCost > celrules.StaticCostLimit {
					c.Unbounded = r.MessageUnbounded()
				}
				costs = append(costs, c)
			}
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	if tree != nil {
		walk(tree)
	}
	return costs, nil
}
