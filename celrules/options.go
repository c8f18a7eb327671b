package celrules

import (
	"fmt"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/release"
)

// An Option configures the compile stage, Compile and Check: the CEL
// environment (WithKubernetesVersion, WithCache) for both, WithLazyCompile
// for Compile (Check compiles every node), WithStoredExpressions for Check
// (Compile compiles every expression as stored, as at request time). The
// evaluation stage, Compiled.Validate, takes ValidateOptions.
type Option func(*config)

type config struct {
	minor uint
	// release is the Kubernetes release whose CEL behaviour (cost
	// estimates, error texts) applies.
	release release.Minor
	// newExpressions selects the environment of new expressions for every
	// expression not in preexisting (Check: CRD creation and update);
	// otherwise every expression compiles in the stored-expressions
	// environment, as at request time.
	newExpressions bool
	preexisting    expressions
	// checkOnly is set by Check, which evaluates nothing: programs are
	// created only for expressions whose program creation might fail.
	checkOnly bool
	// lazy defers each node's compilation to its first use (WithLazyCompile).
	lazy bool
	// eagerPrograms creates every program at compile time, even where
	// creating it cannot fail (tests compare plansSafely with it).
	eagerPrograms bool
	// cache, if set, shares parses and environments (WithCache).
	cache *Cache
}

// newConfig returns the configuration opts give, or an error for a
// compatibility version this package does not know.
func newConfig(opts []Option) (*config, error) {
	c := &config{minor: defaultMinor, release: release.Default}
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	if c.minor > maxMinor {
		return nil, fmt.Errorf("celrules: unknown compatibility version 1.%d", c.minor)
	}
	return c, nil
}

// WithKubernetesVersion makes rules compile, cost and fail as on the API
// server of the Kubernetes release v (the default is 1.37): new
// expressions compile in the environment of its compatibility version (v
// minus one), and cost estimates, error texts and the semantics of values
// (such as the raw-element set and map lists before 1.37) are that
// release's.
func WithKubernetesVersion(v crdschema.KubernetesVersion) Option {
	return func(c *config) {
		r := release.Of(v)
		c.release = r
		c.minor = uint(r.Compatibility())
	}
}

// WithCache makes Compile and Check take what they can from c and add what
// they compute to it: parsed expressions and environments.
func WithCache(c *Cache) Option {
	return func(cfg *config) { cfg.cache = c }
}

// WithLazyCompile makes Compile defer compiling the rules of each schema
// node until Validate first reaches the node with a value. Validation
// results are the same; the cost of compiling moves from Compile to the
// first validations, and rules of nodes no value reaches are never
// compiled. It suits a Compiled that validates one small value, such as a
// default, and not one shared by many validations.
func WithLazyCompile() Option {
	return func(c *config) { c.lazy = true }
}

// expressions is a set of rule and messageExpression texts.
type expressions struct {
	rules              map[string]bool
	messageExpressions map[string]bool
}

// WithStoredExpressions makes Check compile the rules and
// messageExpressions found in schemas (those of every version of the
// stored CRD, before an update) in the environment of stored expressions,
// which may know more functions than the one of new expressions, as the
// API server compiles the expressions that a CRD update keeps. It looks
// everywhere a rule can be written, junctors included.
func WithStoredExpressions(schemas ...*crdschema.JSONSchemaProps) Option {
	e := expressions{rules: map[string]bool{}, messageExpressions: map[string]bool{}}
	for _, s := range schemas {
		e.collect(s, 0)
	}
	return func(c *config) { c.preexisting = e }
}

// storedFor reports whether the rule text (or messageExpression, when
// message is true) compiles in the stored-expressions environment.
func (c *config) storedFor(expr string, message bool) bool {
	if !c.newExpressions {
		return true
	}
	if message {
		return c.preexisting.messageExpressions[expr]
	}
	return c.preexisting.rules[expr]
}

func (e expressions) collect(s *crdschema.JSONSchemaProps, depth int) {
	if s == nil || depth > maxSchemaDepth {
		return
	}
	for _, r := range s.XValidations {
		e.rules[r.Rule] = true
		if r.MessageExpression != "" {
			e.messageExpressions[r.MessageExpression] = true
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
