package openapi

import (
	"reflect"
	"slices"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/structural"
	"github.com/go-openapi/spec"
)

// The descriptions the API server gives to the fields it adds.
const (
	objectMetaDescription         = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
	listMetaDescription           = "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"
	embeddedAPIVersionDescription = "apiVersion defines the versioned schema of this representation of an object. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources"
	embeddedKindDescription       = "kind is a string value representing the type of this object. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"
)

// The extensions a published schema carries.
const (
	extPreserveUnknownFields = "x-kubernetes-preserve-unknown-fields"
	extEmbeddedResource      = "x-kubernetes-embedded-resource"
	extIntOrString           = "x-kubernetes-int-or-string"
	extListMapKeys           = "x-kubernetes-list-map-keys"
	extListType              = "x-kubernetes-list-type"
	extMapType               = "x-kubernetes-map-type"
	extValidations           = "x-kubernetes-validations"
	extGroupVersionKind      = "x-kubernetes-group-version-kind"
	extSelectableFields      = "x-kubernetes-selectable-fields"
)

// openAPIV3Types are the types a schema may name.
var openAPIV3Types = [...]string{"string", "number", "integer", "boolean", "array", "object"}

// structuralSchema returns the structural form of the schema of a version,
// or nil when the API server would publish no schema for it: there is
// none, a type is unknown, or the schema is not structural.
func structuralSchema(p *crdschema.JSONSchemaProps) *structural.Schema {
	if p == nil {
		return nil
	}
	s, err := structural.New(p)
	if err != nil || s == nil || !validTypes(s, 0) {
		return nil
	}
	if len(structural.Validate(nil, s, structural.Options{})) > 0 {
		return nil
	}
	return s
}

// maxDepth bounds the depth of the schemas published: deeper schemas are
// treated as having an invalid type and published without a schema, so
// that the converter and the writer never recurse deeper.
const maxDepth = 10000

// validType reports whether t is empty or a type that OpenAPI v3 has.
func validType(t string) bool {
	return t == "" || slices.Contains(openAPIV3Types[:], t)
}

// validTypes reports whether every node of s, the nested value
// validations included, names a type that OpenAPI v3 has (or none), within
// maxDepth levels. The structural form keeps every node of the schema it
// was built from, with its type: this is the check of the whole schema.
func validTypes(s *structural.Schema, depth int) bool {
	if s == nil {
		return true
	}
	if depth > maxDepth || !validType(s.Type) {
		return false
	}
	d := depth + 1
	if !validTypes(s.Items, d) {
		return false
	}
	for _, p := range s.Properties {
		if !validTypes(p, d) {
			return false
		}
	}
	if ap := s.AdditionalProperties; ap != nil && !validTypes(ap.Schema, d) {
		return false
	}
	return s.ValueValidation == nil || validJunctorTypes(s.ValueValidation, d)
}

// validJunctorTypes is validTypes for the junctors of v, at depth.
func validJunctorTypes(v *structural.ValueValidation, depth int) bool {
	for _, list := range [...][]structural.NestedValueValidation{v.AllOf, v.AnyOf, v.OneOf} {
		for i := range list {
			if !validNestedTypes(&list[i], depth) {
				return false
			}
		}
	}
	return validNestedTypes(v.Not, depth)
}

// validNestedTypes is validTypes for a nested value validation.
func validNestedTypes(n *structural.NestedValueValidation, depth int) bool {
	if n == nil {
		return true
	}
	if depth > maxDepth || !validType(n.ForbiddenGenerics.Type) {
		return false
	}
	d := depth + 1
	if !validNestedTypes(n.Items, d) || !validNestedTypes(n.AdditionalProperties, d) {
		return false
	}
	for _, p := range n.Properties {
		if !validNestedTypes(p, d) {
			return false
		}
	}
	return validJunctorTypes(&n.ValueValidation, d)
}

// converter turns a structural schema into the schema the API server
// publishes, in one pass: int-or-string unfolding, the optional stripping
// of value validations and nullable, the v2 conversion and the v2 pruning
// of defaults, and the properties of embedded resources.
//
// The published schema takes over the values of the structural schema
// (bounds, lists, defaults, enums, examples, rules) instead of copying
// them: the structural schema must be the converter's own, built from the
// CRD for this one conversion (structural.New copies everything it takes
// from the CRD) and not used afterwards.
type converter struct {
	v2                   bool
	stripValueValidation bool
	stripNullable        bool
	refPrefix            string
	// noExternalDocs leaves externalDocs and example out, as releases
	// before 1.36 do.
	noExternalDocs bool
}

// nullable reports whether s counts as nullable after stripping.
func (c *converter) nullable(s *structural.Schema) bool {
	return s != nil && s.Nullable && !c.stripNullable
}

// schema publishes the node s.
func (c *converter) schema(s *structural.Schema) spec.Schema {
	var out spec.Schema
	typ := s.Type
	nullable := c.nullable(s)
	items, properties := s.Items, s.Properties
	var vv *structural.ValueValidation
	if !c.stripValueValidation {
		vv = s.ValueValidation
	}
	required := []string(nil)
	if vv != nil {
		required = vv.Required
	}
	if c.v2 {
		if nullable {
			typ, nullable = "", false
			items, properties = nil, nil
		}
		if s.XPreserveUnknownFields {
			items, properties = nil, nil
		}
		if items == nil && typ == "array" {
			typ = ""
		}
		if s.XPreserveUnknownFields && typ == "object" {
			typ = ""
		}
		// The API server filters the parent's required list only where
		// it has value validations to filter.
		if vv != nil {
			for name, p := range properties {
				if c.nullable(p) {
					required = slices.DeleteFunc(required, func(r string) bool { return r == name })
				}
			}
			if ap := s.AdditionalProperties; ap != nil && c.nullable(ap.Schema) {
				required = nil
			}
		}
	}

	if items != nil {
		is := c.schema(items)
		out.Items = &spec.SchemaOrArray{Schema: &is}
	}
	if len(properties) > 0 {
		out.Properties = make(spec.SchemaProperties, len(properties))
		for k, p := range properties {
			out.Properties[k] = c.schema(p)
		}
	}
	if ap := s.AdditionalProperties; ap != nil {
		out.AdditionalProperties = &spec.SchemaOrBool{Allows: ap.Bool}
		if ap.Schema != nil {
			as := c.schema(ap.Schema)
			out.AdditionalProperties.Schema = &as
		}
	}

	c.generic(&out, &s.Generic, typ, nullable, !c.v2)

	c.extensions(&out, &s.Extensions)
	if len(s.XValidations) > 0 {
		// The rules marshal with their fields in the API server's order.
		out.AddExtension(extValidations, s.XValidations)
	}

	if vv != nil {
		c.valueValidation(&out, vv, !c.v2)
		if len(required) > 0 {
			out.Required = required
		}
	}
	if s.XIntOrString && !c.stripValueValidation && !c.v2 {
		unfoldIntOrString(&out)
	}
	if s.XEmbeddedResource && !(c.v2 && s.XPreserveUnknownFields) {
		c.addEmbeddedFields(&out)
	}
	return out
}

// extensions publishes the x-kubernetes extensions that shape an object.
func (c *converter) extensions(out *spec.Schema, x *structural.Extensions) {
	if x.XPreserveUnknownFields {
		out.AddExtension(extPreserveUnknownFields, true)
	}
	if x.XEmbeddedResource {
		out.AddExtension(extEmbeddedResource, true)
	}
	if x.XIntOrString {
		out.AddExtension(extIntOrString, true)
	}
	if len(x.XListMapKeys) > 0 {
		out.AddExtension(extListMapKeys, x.XListMapKeys)
	}
	if x.XListType != nil {
		out.AddExtension(extListType, *x.XListType)
	}
	if x.XMapType != nil {
		out.AddExtension(extMapType, *x.XMapType)
	}
}

// valueValidation publishes the validating keywords of v, and its
// junctors when junctors is set. Required is left to the caller.
func (c *converter) valueValidation(out *spec.Schema, v *structural.ValueValidation, junctors bool) {
	out.Format = v.Format
	out.Maximum = v.Maximum
	out.ExclusiveMaximum = v.ExclusiveMaximum
	out.Minimum = v.Minimum
	out.ExclusiveMinimum = v.ExclusiveMinimum
	out.MaxLength = v.MaxLength
	out.MinLength = v.MinLength
	out.Pattern = v.Pattern
	out.MaxItems = v.MaxItems
	out.MinItems = v.MinItems
	out.UniqueItems = v.UniqueItems
	out.MultipleOf = v.MultipleOf
	if len(v.Enum) > 0 {
		out.Enum = make([]any, len(v.Enum))
		for i := range v.Enum {
			out.Enum[i] = v.Enum[i].Value
		}
	}
	out.MaxProperties = v.MaxProperties
	out.MinProperties = v.MinProperties
	if !junctors {
		return
	}
	out.AllOf = c.nestedList(v.AllOf)
	out.AnyOf = c.nestedList(v.AnyOf)
	out.OneOf = c.nestedList(v.OneOf)
	if v.Not != nil {
		n := c.nested(v.Not)
		out.Not = &n
	}
}

func (c *converter) nestedList(list []structural.NestedValueValidation) []spec.Schema {
	if len(list) == 0 {
		return nil
	}
	out := make([]spec.Schema, len(list))
	for i := range list {
		out[i] = c.nested(&list[i])
	}
	return out
}

// nested publishes a schema found under a junctor. Like the API server, it
// publishes whatever shaping keywords the schema sets, but not its
// additionalProperties.
func (c *converter) nested(n *structural.NestedValueValidation) spec.Schema {
	var out spec.Schema
	c.valueValidation(&out, &n.ValueValidation, true)
	out.Required = n.Required
	if len(n.XValidations) > 0 {
		out.AddExtension(extValidations, n.XValidations)
	}
	if n.Items != nil {
		is := c.nested(n.Items)
		out.Items = &spec.SchemaOrArray{Schema: &is}
	}
	if len(n.Properties) > 0 {
		out.Properties = make(spec.SchemaProperties, len(n.Properties))
		for k, p := range n.Properties {
			out.Properties[k] = c.nested(p)
		}
	}
	g := &n.ForbiddenGenerics
	c.generic(&out, g, g.Type, g.Nullable, true)
	c.extensions(&out, &n.ForbiddenExtensions)
	return out
}

// generic publishes the generic keywords of g, with the type typ and
// nullable as given, and the default when withDefault is set.
func (c *converter) generic(out *spec.Schema, g *structural.Generic, typ string, nullable, withDefault bool) {
	if typ != "" {
		out.Type = spec.StringOrArray{typ}
	}
	out.Nullable = nullable
	out.Description = g.Description
	out.Title = g.Title
	if withDefault {
		out.Default = jsonValue(g.Default)
	}
	if !c.noExternalDocs {
		if d := g.ExternalDocs; d != nil {
			out.ExternalDocs = &spec.ExternalDocumentation{Description: d.Description, URL: d.URL}
		}
		out.Example = jsonValue(g.Example)
	}
}

// unfoldIntOrString adds anyOf: [{type: integer}, {type: string}] to the
// published int-or-string node out, as the API server does before
// publishing, unless the schema already spells out one of the two
// int-or-string patterns: that anyOf, or an allOf whose first member is
// that anyOf. When the node has an anyOf of its own, the pair goes into a
// new first member of allOf. (The published junctors are the structural
// schema's: where those set a type, they are one of the patterns, or the
// schema would not be structural.)
func unfoldIntOrString(out *spec.Schema) {
	pair := []spec.Schema{
		{SchemaProps: spec.SchemaProps{Type: spec.StringOrArray{"integer"}}},
		{SchemaProps: spec.SchemaProps{Type: spec.StringOrArray{"string"}}},
	}
	switch {
	case reflect.DeepEqual(out.AnyOf, pair), len(out.AllOf) > 0 && reflect.DeepEqual(out.AllOf[0].AnyOf, pair):
	case len(out.AnyOf) == 0:
		out.AnyOf = pair
	default:
		out.AllOf = append([]spec.Schema{{SchemaProps: spec.SchemaProps{AnyOf: pair}}}, out.AllOf...)
	}
}

// addEmbeddedFields adds apiVersion, kind and metadata to an embedded
// resource, and requires kind and apiVersion.
func (c *converter) addEmbeddedFields(out *spec.Schema) {
	out.SetProperty("apiVersion", stringSchema(embeddedAPIVersionDescription))
	out.SetProperty("kind", stringSchema(embeddedKindDescription))
	out.SetProperty("metadata", c.ref(objectMetaName, objectMetaDescription))
	out.Required = slices.Clip(out.Required) // appends do not write into the structural schema's list
	for _, f := range []string{"kind", "apiVersion"} {
		if !slices.Contains(out.Required, f) {
			out.Required = append(out.Required, f)
		}
	}
}

// ref is a reference to the definition name with a description: in v2 a
// $ref beside the description, in v3 an allOf holding the $ref, as the API
// server writes a $ref that has siblings.
func (c *converter) ref(name, description string) spec.Schema {
	r := spec.Schema{SchemaProps: spec.SchemaProps{Ref: spec.MustCreateRef(c.refPrefix + name)}}
	if c.v2 {
		r.Description = description
		return r
	}
	return spec.Schema{SchemaProps: spec.SchemaProps{Description: description, AllOf: []spec.Schema{r}}}
}

func stringSchema(description string) spec.Schema {
	return spec.Schema{SchemaProps: spec.SchemaProps{Description: description, Type: spec.StringOrArray{"string"}}}
}

// jsonValue is the value of j; nil when j is absent or null.
func jsonValue(j *crdschema.JSON) any {
	if j == nil {
		return nil
	}
	return j.Value
}
