package crd

import (
	"context"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/structural"
)

// celChecker checks the CEL rules of a schema at CRD validation: compile
// errors, oldSelf where old values cannot be correlated, optionalOldSelf
// without oldSelf, and the cost limits, with package celrules. Its
// compilations share parses.
type celChecker struct {
	cache *celrules.Cache
}

func (c celChecker) start(root *structural.Schema, path *crdschema.Path, opts *validationOptions) ruleSchema {
	return &celSchema{root: root, path: path, opts: opts, cache: c.cache}
}

// celSchema checks one schema's rules once the walk over the schema has
// found every other error: celrules.CheckSchema then skips the nodes with
// errors at or below them, as the API server does.
type celSchema struct {
	root  *structural.Schema
	path  *crdschema.Path
	opts  *validationOptions
	cache *celrules.Cache
}

func (c *celSchema) finish(schemaErrs crdschema.ErrorList) crdschema.ErrorList {
	opts := []celrules.Option{
		celrules.UseCache(c.cache),
		celrules.SchemaErrors(schemaErrs),
		celrules.NewExpressions(celrules.Expressions{
			Rules:              c.opts.preexisting.rules,
			MessageExpressions: c.opts.preexisting.messageExpressions,
		}),
	}
	if c.opts.suppressPerExpressionCost {
		opts = append(opts, celrules.SuppressExpressionCost())
	}
	errs, _, err := celrules.CheckSchema(c.root, c.path, opts...)
	if err != nil {
		return crdschema.ErrorList{crdschema.InternalError(c.path, err)}
	}
	// The rules' own defects (a missing rule, a bad message, reason or
	// fieldPath) are schema errors that the walk has reported already.
	seen := make(map[crdschema.Error]bool, len(schemaErrs))
	for _, e := range schemaErrs {
		seen[errorKey(e)] = true
	}
	out := errs[:0]
	for _, e := range errs {
		if !seen[errorKey(e)] {
			out = append(out, e)
		}
	}
	return out
}

// errorKey identifies an error by what a user sees of it.
func errorKey(e *crdschema.Error) crdschema.Error {
	return crdschema.Error{Type: e.Type, Field: e.Field, Detail: e.Detail}
}

// defaultRules evaluates the rules of s on one of its defaults, as CRD
// validation does: with the default as its own old value and, when that
// passes, without an old value; the lower remaining budget counts.
func (ch celChecker) defaultRules(path *crdschema.Path, s *structural.Schema, isResourceRoot bool, value any, budget int64) (crdschema.ErrorList, int64) {
	if !hasRules(s) {
		return nil, budget
	}
	// The compiled rules serve this one default: only the nodes the
	// default reaches are compiled.
	c, err := celrules.Compile(s, isResourceRoot, celrules.LazyCompile(), celrules.UseCache(ch.cache))
	if err != nil {
		return crdschema.ErrorList{crdschema.InternalError(path, err)}, budget
	}
	ctx := context.Background()
	errs, left := c.Validate(ctx, path, value, value, budget)
	if len(errs) == 0 {
		more, left2 := c.Validate(ctx, path, value, nil, budget)
		errs = append(errs, more...)
		if left2 < left {
			left = left2
		}
	}
	return errs, left
}
