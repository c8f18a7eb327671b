package crd

import (
	"context"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/structural"
)

// celRules validates the x-kubernetes-validations rules of a version.
type celRules struct {
	compiled *celrules.Compiled
}

// newRuleValidator compiles the CEL rules of a version's schema, in the
// environment the API server validates objects with. It returns nil when
// the schema has no rules (outside junctors), as the API server then
// runs no CEL step at all.
func newRuleValidator(s *structural.Schema) (ruleValidator, error) {
	if !hasRules(s) {
		return nil, nil
	}
	c, err := celrules.Compile(s, true)
	if err != nil {
		return nil, err
	}
	return &celRules{compiled: c}, nil
}

func (r *celRules) validate(ctx context.Context, obj, old map[string]any, opts ...celrules.ValidateOption) crdschema.ErrorList {
	var oldObj any
	if old != nil {
		oldObj = old
	}
	errs, _ := r.compiled.Validate(ctx, nil, obj, oldObj, celrules.RuntimeBudget, opts...)
	return errs
}

// hasRules reports whether s has a rule on a node that objects reach:
// through properties, additionalProperties and items.
func hasRules(s *structural.Schema) bool {
	found := false
	if s == nil {
		return false
	}
	s.Walk(nil, func(_ *crdschema.Path, n *structural.Schema) bool {
		if len(n.XValidations) > 0 {
			found = true
		}
		return !found
	})
	return found
}
