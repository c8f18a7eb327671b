package structural

import (
	"errors"
	"iter"
	"slices"
	"sort"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/slab"
)

// The conversion errors, with the API server's texts.
var (
	errItemsArray          = errors.New("OpenAPIV3Schema 'items' must be a schema, but is an array")
	errID                  = errors.New("OpenAPIV3Schema 'id' is not supported")
	errSchemaURL           = errors.New("OpenAPIV3Schema 'schema' is not supported")
	errRef                 = errors.New("OpenAPIV3Schema '$ref' is not supported")
	errPatternProperties   = errors.New("OpenAPIV3Schema 'patternProperties' is not supported")
	errDependencies        = errors.New("OpenAPIV3Schema 'dependencies' is not supported")
	errAdditionalItems     = errors.New("OpenAPIV3Schema 'additionalItems' is not supported")
	errDefinitions         = errors.New("OpenAPIV3Schema 'definitions' is not supported")
	errPreserveUnknownFals = errors.New("internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined")
)

// New converts an OpenAPI v3 schema into its structural form. A nil schema
// gives a nil Schema and no error.
//
// New fails, with the API server's error text, when the schema uses a
// keyword that has no structural form: items given as a list, id, $schema,
// $ref, patternProperties, dependencies, additionalItems, definitions, or
// x-kubernetes-preserve-unknown-fields: false. It does not check the
// structural rules; that is Validate's job.
//
// The result is a deep copy: it shares nothing mutable with p, and p is not
// modified. An explicit null default or example is treated as absent, as
// the API server decodes it.
func New(p *crdschema.JSONSchemaProps) (*Schema, error) {
	c := new(converter)
	s, err := c.schema(p)
	if err != nil {
		// Properties were visited in map order; the error reported is
		// the first in the order of property names.
		_, err = (&converter{sorted: true}).schema(p)
	}
	return s, err
}

// A converter converts schemas for New. Unless sorted is set, it visits
// properties in map order, and an error it returns may not be the first.
type converter struct {
	sorted bool
	// The nodes are allocated a slab at a time: a schema has up to
	// thousands.
	schemas slab.Allocator[Schema]
	values  slab.Allocator[ValueValidation]
	ints    slab.Allocator[int64]
	floats  slab.Allocator[float64]
	strings slab.Allocator[string]
}

// copyPtr is a copy of *p taken from a, or nil for a nil p.
func copyPtr[T any](a *slab.Allocator[T], p *T) *T {
	if p == nil {
		return nil
	}
	c := a.New()
	*c = *p
	return c
}

func (c *converter) schema(p *crdschema.JSONSchemaProps) (*Schema, error) {
	if p == nil {
		return nil, nil
	}
	if err := checkSupported(p); err != nil {
		return nil, err
	}
	vv, err := c.valueValidation(p)
	if err != nil {
		return nil, err
	}
	x, err := c.newExtensions(p)
	if err != nil {
		return nil, err
	}
	s := c.schemas.New()
	*s = Schema{
		Generic:      newGeneric(p),
		Extensions:   x,
		XValidations: copyRules(p.XValidations),
	}
	if !vv.isZero() {
		s.ValueValidation = c.values.New()
		*s.ValueValidation = vv
	}
	if p.Items != nil {
		if len(p.Items.JSONSchemas) > 0 {
			return nil, errItemsArray
		}
		if s.Items, err = c.schema(p.Items.Schema); err != nil {
			return nil, err
		}
	}
	if len(p.Properties) > 0 {
		s.Properties = make(map[string]*Schema, len(p.Properties))
		for k, prop := range eachProperty(p.Properties, c.sorted) {
			if s.Properties[k], err = c.schema(prop); err != nil {
				return nil, err
			}
		}
	}
	if ap := p.AdditionalProperties; ap != nil {
		as, err := c.schema(ap.Schema)
		if err != nil {
			return nil, err
		}
		s.AdditionalProperties = &SchemaOrBool{Schema: as, Bool: ap.Schema != nil || ap.Allows}
	}
	return s, nil
}

// checkSupported reports the first keyword of p that cannot be converted.
func checkSupported(p *crdschema.JSONSchemaProps) error {
	switch {
	case p.ID != "":
		return errID
	case p.Schema != "":
		return errSchemaURL
	case p.Ref != nil && *p.Ref != "":
		return errRef
	case len(p.PatternProperties) > 0:
		return errPatternProperties
	case len(p.Dependencies) > 0:
		return errDependencies
	case p.AdditionalItems != nil:
		return errAdditionalItems
	case len(p.Definitions) > 0:
		return errDefinitions
	}
	return nil
}

func newGeneric(p *crdschema.JSONSchemaProps) Generic {
	return Generic{
		Description:  p.Description,
		Type:         p.Type,
		Title:        p.Title,
		Nullable:     p.Nullable,
		Default:      copyJSON(p.Default),
		Example:      copyJSON(p.Example),
		ExternalDocs: clonePtr(p.ExternalDocs),
	}
}

func (c *converter) newExtensions(p *crdschema.JSONSchemaProps) (Extensions, error) {
	x := Extensions{
		XEmbeddedResource: p.XEmbeddedResource,
		XIntOrString:      p.XIntOrString,
		XListMapKeys:      slices.Clone(p.XListMapKeys),
		XListType:         copyPtr(&c.strings, p.XListType),
		XMapType:          copyPtr(&c.strings, p.XMapType),
	}
	if p.XPreserveUnknownFields != nil {
		if !*p.XPreserveUnknownFields {
			return Extensions{}, errPreserveUnknownFals
		}
		x.XPreserveUnknownFields = true
	}
	return x, nil
}

// valueValidation converts the validating keywords of p, junctors
// included, in the API server's order: not, allOf, anyOf, oneOf.
func (c *converter) valueValidation(p *crdschema.JSONSchemaProps) (ValueValidation, error) {
	not, err := c.nested(p.Not)
	if err != nil {
		return ValueValidation{}, err
	}
	v := ValueValidation{
		Format:           p.Format,
		Maximum:          copyPtr(&c.floats, p.Maximum),
		ExclusiveMaximum: p.ExclusiveMaximum,
		Minimum:          copyPtr(&c.floats, p.Minimum),
		ExclusiveMinimum: p.ExclusiveMinimum,
		MaxLength:        copyPtr(&c.ints, p.MaxLength),
		MinLength:        copyPtr(&c.ints, p.MinLength),
		Pattern:          p.Pattern,
		MaxItems:         copyPtr(&c.ints, p.MaxItems),
		MinItems:         copyPtr(&c.ints, p.MinItems),
		UniqueItems:      p.UniqueItems,
		MultipleOf:       copyPtr(&c.floats, p.MultipleOf),
		MaxProperties:    copyPtr(&c.ints, p.MaxProperties),
		MinProperties:    copyPtr(&c.ints, p.MinProperties),
		Required:         slices.Clone(p.Required),
		Not:              not,
	}
	if len(p.Enum) > 0 {
		v.Enum = make([]crdschema.JSON, len(p.Enum))
		for i, e := range p.Enum {
			v.Enum[i] = crdschema.JSON{Value: jsonvalue.Copy(e.Value)}
		}
	}
	if v.AllOf, err = c.nestedList(p.AllOf); err != nil {
		return ValueValidation{}, err
	}
	if v.AnyOf, err = c.nestedList(p.AnyOf); err != nil {
		return ValueValidation{}, err
	}
	if v.OneOf, err = c.nestedList(p.OneOf); err != nil {
		return ValueValidation{}, err
	}
	return v, nil
}

func (c *converter) nestedList(ps []crdschema.JSONSchemaProps) ([]NestedValueValidation, error) {
	if len(ps) == 0 {
		return nil, nil
	}
	out := make([]NestedValueValidation, len(ps))
	for i := range ps {
		n, err := c.nested(&ps[i])
		if err != nil {
			return nil, err
		}
		out[i] = *n
	}
	return out, nil
}

// nested converts a schema found under a junctor. Its shaping keywords
// are kept in the Forbidden fields.
func (c *converter) nested(p *crdschema.JSONSchemaProps) (*NestedValueValidation, error) {
	if p == nil {
		return nil, nil
	}
	if err := checkSupported(p); err != nil {
		return nil, err
	}
	vv, err := c.valueValidation(p)
	if err != nil {
		return nil, err
	}
	x, err := c.newExtensions(p)
	if err != nil {
		return nil, err
	}
	n := &NestedValueValidation{
		ValueValidation:     vv,
		XValidations:        copyRules(p.XValidations),
		ForbiddenGenerics:   newGeneric(p),
		ForbiddenExtensions: x,
	}
	if p.Items != nil {
		if len(p.Items.JSONSchemas) > 0 {
			return nil, errItemsArray
		}
		if n.Items, err = c.nested(p.Items.Schema); err != nil {
			return nil, err
		}
	}
	if p.Properties != nil {
		n.Properties = make(map[string]*NestedValueValidation, len(p.Properties))
		for k, prop := range eachProperty(p.Properties, c.sorted) {
			if n.Properties[k], err = c.nested(prop); err != nil {
				return nil, err
			}
		}
	}
	if ap := p.AdditionalProperties; ap != nil {
		if ap.Schema != nil {
			if n.AdditionalProperties, err = c.nested(ap.Schema); err != nil {
				return nil, err
			}
		} else if ap.Allows {
			n.AdditionalProperties = &NestedValueValidation{}
		}
	}
	return n, nil
}

// eachProperty yields the properties of a schema, each as a pointer to a
// copy of it (map values cannot be addressed; one copy serves them all, so
// a pointer is good until the next one), in map order or, when sorted, by
// name.
func eachProperty(props map[string]crdschema.JSONSchemaProps, sorted bool) iter.Seq2[string, *crdschema.JSONSchemaProps] {
	return func(yield func(string, *crdschema.JSONSchemaProps) bool) {
		var prop crdschema.JSONSchemaProps
		if !sorted {
			for k, v := range props {
				if prop = v; !yield(k, &prop) {
					return
				}
			}
			return
		}
		for _, k := range sortedKeys(props) {
			if prop = props[k]; !yield(k, &prop) {
				return
			}
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// copyJSON copies a default or example; an explicit null becomes absent,
// as the API server decodes "default: null".
func copyJSON(j *crdschema.JSON) *crdschema.JSON {
	if j == nil || j.Value == nil {
		return nil
	}
	return &crdschema.JSON{Value: jsonvalue.Copy(j.Value)}
}

func copyRules(r []crdschema.ValidationRule) []crdschema.ValidationRule {
	if r == nil {
		return nil
	}
	out := make([]crdschema.ValidationRule, len(r))
	for i, x := range r {
		out[i] = x
		out[i].Reason = clonePtr(x.Reason)
		out[i].OptionalOldSelf = clonePtr(x.OptionalOldSelf)
	}
	return out
}

// clonePtr is a new copy of *p, or nil for a nil p.
func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	c := *p
	return &c
}
