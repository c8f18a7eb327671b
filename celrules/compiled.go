package celrules

import (
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/release"
	"github.com/crdschema/crdschema/structural"
)

// Compiled holds every x-kubernetes-validations rule of a schema,
// compiled, ready to validate any number of objects. It is immutable and
// safe for concurrent use. The zero of *Compiled (nil) validates nothing.
type Compiled struct {
	root    *node
	release release.Minor // the Kubernetes release compiled for
}

// node mirrors a schema node that has rules at or below it.
type node struct {
	// schema is the node's schema, with apiVersion, kind and metadata for
	// resource roots.
	schema *structural.Schema
	vs     *valueSchema
	// dt is the node's CEL type; bounds the cost bound of its rules.
	dt     *declType
	bounds nodeBounds
	// With LazyCompile, build compiles the node's rules on first use:
	// rules, compileErr and usesOldSelf are valid once ready returned.
	once  sync.Once
	build func()
	rules []*compiledRule
	// compileErr means none of the node's rules could be compiled.
	compileErr error
	// usesOldSelf tells whether any rule reads oldSelf; only then is the
	// old value converted.
	usesOldSelf bool

	children
	// propKeys are the keys of props, sorted: the order in which a run
	// visits them.
	propKeys []string
}

// ready compiles the node's rules if that was deferred.
func (n *node) ready() {
	if n.build != nil {
		n.once.Do(n.build)
	}
}

// setRules records the result of compiling the node's rules.
func (n *node) setRules(rules []*compiledRule, err error) {
	n.rules, n.compileErr = rules, err
	n.usesOldSelf = slices.ContainsFunc(rules, func(r *compiledRule) bool { return r.usesOldSelf })
}

// Compile compiles every x-kubernetes-validations rule and
// messageExpression of s (allOf included) once. isResourceRoot tells
// whether s is the schema of a whole custom resource, whose rules see
// apiVersion, kind and metadata.name/generateName. Rules that do not
// compile are reported by the Compiled's Errors, and by Validate on the
// values of their nodes (as the API server reports them); the error is for
// a compatibility version this package does not know. When s has no
// rules outside its junctors, Compile returns nil, which validates nothing:
// the API server then has no CEL step at all.
//
// Without options, rules compile in the environment the API server uses for
// stored expressions, the one it validates objects with.
func Compile(s *structural.Schema, isResourceRoot bool, opts ...Option) (*Compiled, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	if cfg.cache == nil {
		// Nodes with the same rules and an equal type compile once.
		cfg.cache = new(Cache)
	}
	if !cfg.cache.hasRules(s) {
		return nil, nil
	}
	vs := newValueSchema(s, isResourceRoot, cfg.release, 0)
	return &Compiled{root: buildNode(s, s, isResourceRoot, cfg.cache.declTypeAt(s, isResourceRoot, cfg.release), vs, cfg, 0), release: cfg.release}, nil
}

// hasRules reports whether s or a node below it (outside the junctors)
// has rules. With marked, it records there every node for which that is
// true; without, it stops at the first rule.
func hasRules(s *structural.Schema, depth int, marked map[*structural.Schema]bool) bool {
	if s == nil || depth > maxSchemaDepth {
		return false
	}
	has := len(s.XValidations) > 0
	below := func(c *structural.Schema) {
		if (!has || marked != nil) && hasRules(c, depth+1, marked) {
			has = true
		}
	}
	below(s.Items)
	if s.AdditionalProperties != nil {
		below(s.AdditionalProperties.Schema)
	}
	for _, p := range s.Properties {
		below(p)
	}
	if has && marked != nil {
		marked[s] = true
	}
	return has
}

// buildNode compiles the rules that validation (the node's schema, or one
// of its allOf schemas) sets on the node whose schema is nodeSchema.
func buildNode(validation, nodeSchema *structural.Schema, isResourceRoot bool, dt *declType, vs *valueSchema, cfg *config, depth int) *node {
	if validation == nil || nodeSchema == nil || vs == nil || depth > maxSchemaDepth {
		return nil
	}
	// Most nodes have no rules of their own, and many none below: a node
	// is made only for rules, its own (compiled first) or below it.
	var n *node
	if len(validation.XValidations) > 0 {
		n = &node{schema: vs.s, vs: vs, dt: dt}
		n.compileOwn(validation, nodeSchema, cfg)
	}
	var c children

	var elem *declType
	if dt != nil {
		elem = dt.elem
	}
	if validation.Items != nil && nodeSchema.Items != nil {
		c.items = buildNode(validation.Items, nodeSchema.Items, nodeSchema.Items.XEmbeddedResource, elem, vs.items, cfg, depth+1)
	}
	for k, vp := range validation.Properties {
		np, ok := nodeSchema.Properties[k]
		if !ok || np == nil {
			continue
		}
		ft := fieldType(dt, k)
		if ft == nil {
			if _, ok := escapeProperty(k); !ok {
				// CEL cannot see the property: its own rules see its
				// value by its own type.
				ft = cfg.cache.declTypeAt(np, np.XEmbeddedResource, cfg.release)
			}
		}
		if ft == nil {
			continue
		}
		// A property's own rules see its value as its schema describes it,
		// even where the resource root replaces the schema (metadata).
		cvs := vs.props[k]
		if cvs == nil || (cvs.s != np && !np.XEmbeddedResource) {
			cvs = newValueSchema(np, false, cfg.release, 0)
		}
		if pn := buildNode(vp, np, np.XEmbeddedResource, ft, cvs, cfg, depth+1); pn != nil {
			if c.props == nil {
				c.props = map[string]*node{}
			}
			c.props[k] = pn
		}
	}
	if validation.AdditionalProperties != nil && validation.AdditionalProperties.Schema != nil &&
		nodeSchema.AdditionalProperties != nil && nodeSchema.AdditionalProperties.Schema != nil {
		ap := nodeSchema.AdditionalProperties.Schema
		c.additional = buildNode(validation.AdditionalProperties.Schema, ap, ap.XEmbeddedResource, elem, vs.additional, cfg, depth+1)
	}
	if validation.ValueValidation != nil {
		for i := range validation.ValueValidation.AllOf {
			if an := buildNode(nestedToSchema(&validation.ValueValidation.AllOf[i], 0), nodeSchema, isResourceRoot, dt, vs, cfg, depth+1); an != nil {
				c.allOf = append(c.allOf, an)
			}
		}
	}
	if n == nil {
		// A node without rules of its own compiles to no rule and no
		// error: it is made only for the rules below it.
		if c.items == nil && c.additional == nil && len(c.props) == 0 && len(c.allOf) == 0 {
			return nil
		}
		n = &node{schema: vs.s, vs: vs, dt: dt}
	}
	n.children = c
	n.propKeys = slices.Sorted(maps.Keys(c.props))
	return n
}

// children are the nodes below a node, as buildNode makes them.
type children struct {
	items, additional *node
	props             map[string]*node
	allOf             []*node
}

// compileOwn compiles the rules validation sets on n, whose schema is
// nodeSchema (now, or on first use with WithLazyCompile).
func (n *node) compileOwn(validation, nodeSchema *structural.Schema, cfg *config) {
	compilation := *nodeSchema
	compilation.XValidations = validation.XValidations
	if cfg.lazy {
		n.build = func() { n.setRules(compileRules(&compilation, compilation.XValidations, n.dt, cfg)) }
		return
	}
	n.setRules(compileRules(&compilation, validation.XValidations, n.dt, cfg))
}

// nestedToSchema turns a junctor's schema into a structural node so that
// its rules compile like any other node's.
func nestedToSchema(v *structural.NestedValueValidation, depth int) *structural.Schema {
	if v == nil || depth > maxSchemaDepth {
		return nil
	}
	vv := v.ValueValidation
	s := &structural.Schema{
		Generic:         v.ForbiddenGenerics,
		Extensions:      v.ForbiddenExtensions,
		ValueValidation: &vv,
		XValidations:    v.XValidations,
		Items:           nestedToSchema(v.Items, depth+1),
	}
	if len(v.Properties) > 0 {
		s.Properties = make(map[string]*structural.Schema, len(v.Properties))
		for k, p := range v.Properties {
			s.Properties[k] = nestedToSchema(p, depth+1)
		}
	}
	if v.AdditionalProperties != nil {
		s.AdditionalProperties = &structural.SchemaOrBool{Schema: nestedToSchema(v.AdditionalProperties, depth+1), Bool: true}
	}
	return s
}

// Errors returns the errors of the rules of c that do not compile (and of
// nodes whose rules cannot be compiled at all), at their place in the
// schema ("properties[spec].x-kubernetes-validations[0].rule", as CRD
// validation words the path below the schema). Validate reports them
// too, on every value of the nodes, as the API server does; Errors tells
// them at compile time. With WithLazyCompile, it compiles every node. It
// is nil when every rule compiles.
func (c *Compiled) Errors() crdschema.ErrorList {
	if c == nil {
		return nil
	}
	return c.root.errors(nil, nil, 0)
}

func (n *node) errors(p *crdschema.Path, errs crdschema.ErrorList, depth int) crdschema.ErrorList {
	if n == nil || depth > maxSchemaDepth {
		return errs
	}
	n.ready()
	if n.compileErr != nil {
		errs = append(errs, crdschema.Invalid(p.Child("x-kubernetes-validations"), nil, fmt.Sprintf("rule compiler initialization error: %v", n.compileErr)))
	}
	for i, cr := range n.rules {
		rp := p.Child("x-kubernetes-validations").Index(i)
		if cr.rule.err != "" {
			errs = append(errs, crdschema.Invalid(rp.Child("rule"), cr.src.Rule, cr.rule.err))
		}
		if cr.message.err != "" {
			errs = append(errs, crdschema.Invalid(rp.Child("messageExpression"), cr.src.MessageExpression, cr.message.err))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(n.props)) {
		errs = n.props[k].errors(p.Child("properties").Key(k), errs, depth+1)
	}
	errs = n.items.errors(p.Child("items"), errs, depth+1)
	errs = n.additional.errors(p.Child("additionalProperties"), errs, depth+1)
	for i, a := range n.allOf {
		errs = a.errors(p.Child("allOf").Index(i), errs, depth+1)
	}
	return errs
}
