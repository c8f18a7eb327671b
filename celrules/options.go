package celrules

import (
	"fmt"

	"github.com/crdschema/crdschema"
)

// Option configures Compile and CheckSchema.
type Option func(*config)

type config struct {
	minor    uint
	badMajor int
	// newExpressions selects the environment of new expressions for every
	// expression not in preexisting (CRD creation and update); otherwise
	// every expression compiles in the stored-expressions environment, as
	// at request time.
	newExpressions bool
	preexisting    Expressions
	// suppressExpressionCost drops the per-expression cost errors (the
	// schema is unchanged by a CRD update).
	suppressExpressionCost bool
	schemaErrors           crdschema.ErrorList
	// checkOnly is set by CheckSchema, which evaluates nothing: programs
	// are created only for expressions whose program creation might fail.
	checkOnly bool
	// lazy defers each node's compilation to its first use (LazyCompile).
	lazy bool
	// cache, if set, shares parses and environments (UseCache).
	cache *Cache
}

func newConfig(opts []Option) (*config, error) {
	c := &config{minor: defaultMinor, badMajor: 1}
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	if c.badMajor != 1 {
		return nil, fmt.Errorf("celrules: unsupported compatibility version %d.%d: only 1.x is known", c.badMajor, c.minor)
	}
	return c, nil
}

// CompatibilityVersion selects the Kubernetes compatibility version whose
// CEL environment compiles new expressions: each version has the
// libraries and options the API server of that version allows. Only major
// version 1 exists. The default is 1.36, the compatibility version of a
// 1.37 API server. It has no effect on stored expressions.
func CompatibilityVersion(major, minor int) Option {
	return func(c *config) {
		c.badMajor = major
		if minor < 0 {
			minor = 0
		}
		c.minor = uint(minor)
	}
}

// Expressions is a set of rule and messageExpression texts, typically
// those of the stored version of a CRD before an update.
type Expressions struct {
	Rules              map[string]bool
	MessageExpressions map[string]bool
}

// NewExpressions compiles every expression that is not in preexisting in
// the environment for new expressions at the compatibility version (the
// API server's choice when a CRD is created or updated); preexisting
// expressions compile in the stored-expressions environment. Without this
// option every expression compiles in the stored-expressions environment,
// as the API server does when it validates objects.
func NewExpressions(preexisting Expressions) Option {
	return func(c *config) {
		c.newExpressions = true
		c.preexisting = preexisting
	}
}

// SuppressExpressionCost makes CheckSchema skip the per-expression cost
// limit, as the API server does for a version whose schema an update does
// not change. The limit on the schema's total still applies.
func SuppressExpressionCost() Option {
	return func(c *config) { c.suppressExpressionCost = true }
}

// LazyCompile makes Compile defer compiling the rules of each schema node
// until Validate first reaches the node with a value. Validation results
// are the same; the cost of compiling moves from Compile to the first
// validations, and rules of nodes no value reaches are never compiled. It
// suits a Compiled that validates one small value, such as a default,
// and not one shared by many validations.
func LazyCompile() Option {
	return func(c *config) { c.lazy = true }
}

// SchemaErrors gives CheckSchema the errors CRD validation found in the
// schema so far. As the API server does, CheckSchema compiles no rule of a
// node where one of these errors lies at or below the node.
func SchemaErrors(errs crdschema.ErrorList) Option {
	return func(c *config) { c.schemaErrors = errs }
}

// storedFor reports whether the rule text (or messageExpression, when
// message is true) compiles in the stored-expressions environment.
func (c *config) storedFor(expr string, message bool) bool {
	if !c.newExpressions {
		return true
	}
	if message {
		return c.preexisting.MessageExpressions[expr]
	}
	return c.preexisting.Rules[expr]
}

// CollectExpressions returns the rule and messageExpression texts of the
// given schemas (typically every schema of the CRD before an update), for
// NewExpressions. It looks everywhere a rule can be written, junctors
// included.
func CollectExpressions(schemas ...*crdschema.JSONSchemaProps) Expressions {
	e := Expressions{Rules: map[string]bool{}, MessageExpressions: map[string]bool{}}
	for _, s := range schemas {
		e.collect(s, 0)
	}
	return e
}

func (e Expressions) collect(s *crdschema.JSONSchemaProps, depth int) {
	if s == nil || depth > maxSchemaDepth {
		return
	}
	for _, r := range s.XValidations {
		e.Rules[r.Rule] = true
		if r.MessageExpression != "" {
			e.MessageExpressions[r.MessageExpression] = true
		}
	}
	d := depth + 1
	if s.Items != nil {
		e.collect(s.Items.Schema, d)
		for i := range s.Items.JSONSchemas {
			e.collect(&s.Items.JSONSchemas[i], d)
		}
	}
	for _, list := range [][]crdschema.JSONSchemaProps{s.AllOf, s.AnyOf, s.OneOf} {
		for i := range list {
			e.collect(&list[i], d)
		}
	}
	e.collect(s.Not, d)
	for _, m := range []map[string]crdschema.JSONSchemaProps{s.Properties, s.PatternProperties, s.Definitions} {
		for k := range m {
			p := m[k]
			e.collect(&p, d)
		}
	}
	if s.AdditionalProperties != nil {
		e.collect(s.AdditionalProperties.Schema, d)
	}
	if s.AdditionalItems != nil {
		e.collect(s.AdditionalItems.Schema, d)
	}
	for k := range s.Dependencies {
		e.collect(s.Dependencies[k].Schema, d)
	}
}
