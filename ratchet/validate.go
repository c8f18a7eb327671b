package ratchet

import (
	"context"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/structural"
	"github.com/crdschema/crdschema/validation"
)

// An Option configures Validate and ValidateStatus.
type Option func(*config)

type config struct {
	ctx    context.Context
	budget int64
	prior  crdschema.ErrorList
	corr   *Correlated
}

// WithContext sets the context that bounds the evaluation of CEL rules.
// The default is context.Background().
func WithContext(ctx context.Context) Option {
	return func(c *config) { c.ctx = ctx }
}

// WithBudget sets the runtime cost the CEL rules of the object may spend
// together. The default is celrules.RuntimeBudget, the API server's.
func WithBudget(budget int64) Option {
	return func(c *config) { c.budget = budget }
}

// WithPriorErrors gives the errors the caller found in the update before
// (type and object metadata, the scale subresource's paths). They are not
// returned again; like the errors Validate finds itself, they keep the CEL
// rules from running when one of them is of a blocking type (Unsupported
// value, Required value, Too long, Too many, Invalid type).
func WithPriorErrors(errs crdschema.ErrorList) Option {
	return func(c *config) { c.prior = errs }
}

// WithCorrelation makes Validate or ValidateStatus use c, the correlation
// of the whole new object with the whole old one (see Correlate), instead
// of building its own: what c has compared already is not compared again.
func WithCorrelation(c *Correlated) Option {
	return func(cfg *config) { cfg.corr = c }
}

func newConfig(opts []Option) config {
	c := config{budget: celrules.RuntimeBudget}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	if c.ctx == nil {
		c.ctx = context.Background()
	}
	return c
}

// blockedRules is the error the API server adds instead of running the CEL
// rules of an object that has errors of a blocking type.
const blockedRules = "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"

// Validate validates obj, an update of the whole custom resource old, as
// the API server's custom resource strategy does with ratcheting, given
// the compiled parts of the resource's structural schema s: v, the schema
// validator of s, and rules, its compiled CEL rules (nil when there are
// none). It reports, in this order:
//
//   - the schema validation errors, ratcheted: an error in a part of obj
//     that correlates with an equal part of old (see Correlated) is a
//     warning; errors of allOf, anyOf, oneOf and not, and of required
//     properties, stay with the nearest correlated value, so they are
//     ratcheted only when that whole value is unchanged; kind and
//     apiVersion at the root never ratchet on their own;
//   - the embedded resources' apiVersion, kind and metadata, never
//     ratcheted;
//   - the x-kubernetes-list-type set and map errors of obj, only when old
//     has none;
//   - the CEL rules: when the errors so far (WithPriorErrors included)
//     contain one of a blocking type, the single error "<nil>: Invalid
//     value: null: some validation rules were not checked ..."; otherwise
//     every rule's failure, a failure being a warning when the rule does
//     not use oldSelf and its value (or, for a value that does not
//     correlate, its nearest correlated ancestor) is unchanged.
//     Transition rules see the correlated old values; optionalOldSelf
//     rules also run where there is none.
//
// The type and object metadata of the root and the scale paths are the
// caller's to check (see WithPriorErrors). The warnings are the errors
// ratcheting dropped. obj and old are not modified.
func Validate(v *validation.Validator, rules *celrules.Compiled, s *structural.Schema, obj, old map[string]any, opts ...Option) (errs, warnings crdschema.ErrorList) {
	cfg := newConfig(opts)
	c := cfg.corr
	if c == nil {
		c = Correlate(obj, object(old), s)
	}
	errs, warnings = v.ValidateUpdate(nil, obj, c)
	errs = append(errs, validation.ValidateEmbeddedMeta(nil, obj, s, false)...)
	if len(validation.ValidateListSetsAndMaps(nil, s, old)) == 0 {
		errs = append(errs, validation.ValidateListSetsAndMaps(nil, s, obj)...)
	}
	return validateRules(&cfg, rules, s, obj, old, c, errs, warnings)
}

// ValidateStatus validates obj, an update of old through the status
// subresource, as the API server's status strategy does with ratcheting.
// obj is the object to store: old with the new status (see the /status
// request handling in package crd). v is the schema validator of the
// status property's schema alone, rules the compiled CEL rules and s the
// structural schema of the whole resource. It reports, in this order:
//
//   - when obj has a status, the schema validation errors of the status,
//     with paths under "status", ratcheted as in Validate through the
//     correlation of the status values;
//   - the x-kubernetes-list-type errors of the whole obj, only when old
//     has none;
//   - the CEL rules of the whole object, ratcheted, as in Validate.
//
// Embedded resources are not checked. obj and old are not modified.
func ValidateStatus(v *validation.Validator, rules *celrules.Compiled, s *structural.Schema, obj, old map[string]any, opts ...Option) (errs, warnings crdschema.ErrorList) {
	cfg := newConfig(opts)
	c := cfg.corr
	if c == nil {
		c = Correlate(obj, object(old), s)
	}
	if status, ok := obj["status"]; ok {
		errs, warnings = v.ValidateUpdate(crdschema.NewPath("status"), status, StatusCorrelation(c, s))
	}
	if lt := validation.ValidateListSetsAndMaps(nil, s, obj); len(lt) > 0 {
		if len(validation.ValidateListSetsAndMaps(nil, s, old)) == 0 {
			errs = append(errs, lt...)
		}
	}
	return validateRules(&cfg, rules, s, obj, old, c, errs, warnings)
}

// StatusCorrelation returns the correlation that the schema validation of
// the status takes on a status subresource update, given c, the
// correlation of the whole objects, and s, the resource's structural
// schema: c's status child, or, when the status does not correlate (the
// old object has none, or s no status property), a correlation of the two
// status values on their own, as the API server makes it. It is nil (no
// ratcheting) when s is nil.
func StatusCorrelation(c *Correlated, s *structural.Schema) validation.Correlation {
	if s == nil {
		return nil
	}
	if x := c.key("status"); x != nil {
		return x
	}
	newObj, oldObj := c.Values()
	newMap, _ := newObj.(map[string]any)
	oldMap, _ := oldObj.(map[string]any)
	return Correlate(newMap["status"], oldMap["status"], s.Properties["status"])
}

// validateRules is the CEL step of both strategies.
func validateRules(cfg *config, rules *celrules.Compiled, s *structural.Schema, obj, old map[string]any, c *Correlated, errs, warnings crdschema.ErrorList) (crdschema.ErrorList, crdschema.ErrorList) {
	if rules == nil {
		return errs, warnings
	}
	if blocking(cfg.prior) || blocking(errs) {
		// The API server has no rule validator for a schema without
		// rules, and so no blocking error either.
		if hasRules(s, 0) {
			errs = append(errs, crdschema.Invalid(nil, nil, blockedRules))
		}
		return errs, warnings
	}
	ruleErrs, _ := rules.Validate(cfg.ctx, nil, obj, object(old), cfg.budget,
		celrules.WithRatcheting(c.CEL()),
		celrules.WithWarnings(func(e *crdschema.Error) { warnings = append(warnings, e) }))
	return append(errs, ruleErrs...), warnings
}

// object returns m as a value, nil for a nil map.
func object(m map[string]any) any {
	if m == nil {
		return nil
	}
	return m
}

// blocking reports whether errs has an error after which the API server
// does not evaluate CEL rules.
func blocking(errs crdschema.ErrorList) bool {
	for _, e := range errs {
		switch e.Type {
		case crdschema.ErrorTypeNotSupported, crdschema.ErrorTypeRequired, crdschema.ErrorTypeTooLong,
			crdschema.ErrorTypeTooMany, crdschema.ErrorTypeTypeInvalid:
			return true
		}
	}
	return false
}

// maxSchemaDepth bounds the walk of hasRules.
const maxSchemaDepth = 10000

// hasRules reports whether s has x-kubernetes-validations on a node
// outside the junctors, as the API server decides whether a schema has a
// rule validator.
func hasRules(s *structural.Schema, depth int) bool {
	if s == nil || depth > maxSchemaDepth {
		return false
	}
	if len(s.XValidations) > 0 || hasRules(s.Items, depth+1) {
		return true
	}
	if ap := s.AdditionalProperties; ap != nil && hasRules(ap.Schema, depth+1) {
		return true
	}
	for _, p := range s.Properties {
		if hasRules(p, depth+1) {
			return true
		}
	}
	return false
}
