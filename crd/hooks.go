package crd

import (
	"reflect"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/defaulting"
	"github.com/crdschema/crdschema/structural"
)

// hooks are the checks that plug into schema validation from other files of
// this package: default validation and CEL rule compilation. A nil hook
// skips its check.
type hooks struct {
	// defaults reports the invalid defaults of the structural schema ss,
	// whose errors are reported under path; requirePruned also reports
	// defaults that pruning would change. It runs only when ss passed
	// the structural checks. A non-nil error is a failure of the check
	// itself.
	defaults func(path *crdschema.Path, ss *structural.Schema, requirePruned bool) (crdschema.ErrorList, error)

	// defaultRules evaluates the CEL rules of s on the default value
	// (reported at path, the default's path) within the remaining runtime
	// cost budget, as the API server does when it validates defaults
	// (with the default as old value, then, if that passes, without old
	// value). It returns the errors and the budget left; a negative
	// budget stops default validation. Nil: rules are not evaluated on
	// defaults.
	defaultRules func(path *crdschema.Path, s *structural.Schema, isResourceRoot bool, value any, budget int64) (crdschema.ErrorList, int64)

	// unprunedDefaults reports whether pruning would change a default of
	// ss (to relax requirePrunedDefaults on update).
	unprunedDefaults func(ss *structural.Schema) bool

	// rules compiles and costs the x-kubernetes-validations rules.
	rules ruleChecker
}

// builtinHooks returns the hooks Validate uses unless an Option changes
// them.
func builtinHooks() hooks {
	// One validation parses each distinct CEL expression once, for the
	// rule checks and the defaults' evaluation alike.
	rules := celChecker{cache: new(celrules.Cache)}
	h := hooks{unprunedDefaults: hasUnprunedDefault, rules: rules, defaultRules: rules.defaultRules}
	h.defaults = defaultsCheck(h.defaultRules)
	return h
}

// hasUnprunedDefault reports whether pruning the defaults of ss changes
// one of them.
func hasUnprunedDefault(ss *structural.Schema) bool {
	pruned, err := defaulting.PruneDefaults(ss)
	return err == nil && !reflect.DeepEqual(ss, pruned)
}

// A ruleChecker checks the CEL rules of schemas.
type ruleChecker interface {
	// start begins the rules of one schema (root, reported under path). It
	// is called only for a schema that passed the structural and default
	// checks.
	start(root *structural.Schema, path *crdschema.Path, opts *validationOptions) ruleSchema
}

// A ruleSchema checks the rules of one schema.
type ruleSchema interface {
	// finish returns the errors of the schema's rules, once the schema's
	// other checks are done; schemaErrs are the errors found in the
	// schema by then.
	finish(schemaErrs crdschema.ErrorList) crdschema.ErrorList
}

// A ruleSchema that also implements nodeRules is shown every node with
// rules during the walk over the schema.
type nodeRules interface {
	// node checks the rules of n, which has x-kubernetes-validations and
	// no schema error at or below it. It is called in the API server's
	// walk order (see structural.PropsOptions.CEL).
	node(n *structural.CELNode) crdschema.ErrorList
}
