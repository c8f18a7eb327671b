package crd

import (
	"fmt"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/structural"
)

// RuleCosts returns the static cost figures of every CEL rule and
// messageExpression of the named version of def, as CRD validation
// computes them: the field of the expression (in the CRD's internal form,
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
func RuleCosts(def, old *crdschema.CustomResourceDefinition, version string) ([]celrules.Cost, error) {
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
	if errs := structural.Validate(path, s, nil); len(errs) > 0 {
		return nil, fmt.Errorf("crd.RuleCosts: %s: the schema is not structural: %w", version, errs.ToError())
	}
	var pre celrules.Expressions
	if old != nil {
		var schemas []*crdschema.JSONSchemaProps
		for _, v := range old.Spec.Versions {
			if v.Schema != nil {
				schemas = append(schemas, v.Schema.OpenAPIV3Schema)
			}
		}
		pre = celrules.CollectExpressions(schemas...)
	}
	_, costs, err := celrules.CheckSchema(s, path, celrules.NewExpressions(pre))
	if err != nil {
		return nil, fmt.Errorf("crd.RuleCosts: %s: %w", version, err)
	}
	return costs, nil
}
