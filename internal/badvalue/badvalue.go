// Package badvalue renders schemas and rules as the API server prints them
// as the bad value of a field error: its internal Go types, without JSON
// names.
package badvalue

import "github.com/crdschema/crdschema"

// Schema returns the value the API server prints for the schema p
// when p is the bad value of a field error: its internal schema type, which
// has no JSON names, so that the error reads
// `Invalid value: {"ID":"","Schema":"","Ref":null,"Description":"",...}`.
// Use it as crdschema.Error.BadValue to reproduce such texts byte for
// byte. A nil p gives nil.
func Schema(p *crdschema.JSONSchemaProps) any {
	if p == nil {
		return nil
	}
	v := toGoNames(p)
	return &v
}

// Rule returns the value the API server prints for the rule r when
// r is the bad value of a field error (as CEL compilation errors do):
// `{"Rule":"...","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}`.
func Rule(r crdschema.ValidationRule) any {
	return goRule(r)
}

// The types below mirror the API server's internal schema types, field for
// field and in the same order, without JSON names.

type goNamedProps struct {
	ID                     string
	Schema                 string
	Ref                    *string
	Description            string
	Type                   string
	Nullable               bool
	Format                 string
	Title                  string
	Default                *any
	Maximum                *float64
	ExclusiveMaximum       bool
	Minimum                *float64
	ExclusiveMinimum       bool
	MaxLength              *int64
	MinLength              *int64
	Pattern                string
	MaxItems               *int64
	MinItems               *int64
	UniqueItems            bool
	MultipleOf             *float64
	Enum                   []any
	MaxProperties          *int64
	MinProperties          *int64
	Required               []string
	Items                  *goNamedOrArray
	AllOf                  []goNamedProps
	OneOf                  []goNamedProps
	AnyOf                  []goNamedProps
	Not                    *goNamedProps
	Properties             map[string]goNamedProps
	AdditionalProperties   *goNamedOrBool
	PatternProperties      map[string]goNamedProps
	Dependencies           map[string]goNamedOrStringArray
	AdditionalItems        *goNamedOrBool
	Definitions            map[string]goNamedProps
	ExternalDocs           *goNamedDocs
	Example                *any
	XPreserveUnknownFields *bool
	XEmbeddedResource      bool
	XIntOrString           bool
	XListMapKeys           []string
	XListType              *string
	XMapType               *string
	XValidations           []goNamedRule
}

type goNamedOrArray struct {
	Schema      *goNamedProps
	JSONSchemas []goNamedProps
}

type goNamedOrBool struct {
	Allows bool
	Schema *goNamedProps
}

type goNamedOrStringArray struct {
	Schema   *goNamedProps
	Property []string
}

type goNamedDocs struct {
	Description string
	URL         string
}

type goNamedRule struct {
	Rule              string
	Message           string
	MessageExpression string
	Reason            *string
	FieldPath         string
	OptionalOldSelf   *bool
}

func goRule(r crdschema.ValidationRule) goNamedRule {
	g := goNamedRule{
		Rule:              r.Rule,
		Message:           r.Message,
		MessageExpression: r.MessageExpression,
		FieldPath:         r.FieldPath,
		OptionalOldSelf:   r.OptionalOldSelf,
	}
	if r.Reason != nil {
		s := string(*r.Reason)
		g.Reason = &s
	}
	return g
}

// goJSON is a default or example as the API server holds it: a JSON null
// is absent.
func goJSON(j *crdschema.JSON) *any {
	if j == nil || j.Value == nil {
		return nil
	}
	v := j.Value
	return &v
}

func goPropsPtr(p *crdschema.JSONSchemaProps) *goNamedProps {
	if p == nil {
		return nil
	}
	v := toGoNames(p)
	return &v
}

func goPropsList(l []crdschema.JSONSchemaProps) []goNamedProps {
	if l == nil {
		return nil
	}
	out := make([]goNamedProps, len(l))
	for i := range l {
		out[i] = toGoNames(&l[i])
	}
	return out
}

func goPropsMap(m map[string]crdschema.JSONSchemaProps) map[string]goNamedProps {
	if m == nil {
		return nil
	}
	out := make(map[string]goNamedProps, len(m))
	for k, v := range m {
		out[k] = toGoNames(&v)
	}
	return out
}

func goOrBool(b *crdschema.JSONSchemaPropsOrBool) *goNamedOrBool {
	if b == nil {
		return nil
	}
	return &goNamedOrBool{Allows: b.Allows, Schema: goPropsPtr(b.Schema)}
}

func toGoNames(p *crdschema.JSONSchemaProps) goNamedProps {
	g := goNamedProps{
		ID:                     p.ID,
		Schema:                 string(p.Schema),
		Ref:                    p.Ref,
		Description:            p.Description,
		Type:                   p.Type,
		Nullable:               p.Nullable,
		Format:                 p.Format,
		Title:                  p.Title,
		Default:                goJSON(p.Default),
		Maximum:                p.Maximum,
		ExclusiveMaximum:       p.ExclusiveMaximum,
		Minimum:                p.Minimum,
		ExclusiveMinimum:       p.ExclusiveMinimum,
		MaxLength:              p.MaxLength,
		MinLength:              p.MinLength,
		Pattern:                p.Pattern,
		MaxItems:               p.MaxItems,
		MinItems:               p.MinItems,
		UniqueItems:            p.UniqueItems,
		MultipleOf:             p.MultipleOf,
		MaxProperties:          p.MaxProperties,
		MinProperties:          p.MinProperties,
		Required:               p.Required,
		AllOf:                  goPropsList(p.AllOf),
		OneOf:                  goPropsList(p.OneOf),
		AnyOf:                  goPropsList(p.AnyOf),
		Not:                    goPropsPtr(p.Not),
		Properties:             goPropsMap(p.Properties),
		AdditionalProperties:   goOrBool(p.AdditionalProperties),
		PatternProperties:      goPropsMap(p.PatternProperties),
		AdditionalItems:        goOrBool(p.AdditionalItems),
		Definitions:            goPropsMap(p.Definitions),
		Example:                goJSON(p.Example),
		XPreserveUnknownFields: p.XPreserveUnknownFields,
		XEmbeddedResource:      p.XEmbeddedResource,
		XIntOrString:           p.XIntOrString,
		XListMapKeys:           p.XListMapKeys,
		XListType:              p.XListType,
		XMapType:               p.XMapType,
	}
	if p.Enum != nil {
		g.Enum = make([]any, len(p.Enum))
		for i, e := range p.Enum {
			g.Enum[i] = e.Value
		}
	}
	if p.Items != nil {
		g.Items = &goNamedOrArray{Schema: goPropsPtr(p.Items.Schema), JSONSchemas: goPropsList(p.Items.JSONSchemas)}
	}
	if p.Dependencies != nil {
		g.Dependencies = make(map[string]goNamedOrStringArray, len(p.Dependencies))
		for k, d := range p.Dependencies {
			g.Dependencies[k] = goNamedOrStringArray{Schema: goPropsPtr(d.Schema), Property: d.Property}
		}
	}
	if p.ExternalDocs != nil {
		g.ExternalDocs = &goNamedDocs{Description: p.ExternalDocs.Description, URL: p.ExternalDocs.URL}
	}
	if p.XValidations != nil {
		g.XValidations = make([]goNamedRule, len(p.XValidations))
		for i, r := range p.XValidations {
			g.XValidations[i] = goRule(r)
		}
	}
	return g
}

// Items renders the items of p (a list of schemas) as the API server
// prints them.
func Items(p *crdschema.JSONSchemaPropsOrArray) any {
	return &goNamedOrArray{Schema: goPropsPtr(p.Schema), JSONSchemas: goPropsList(p.JSONSchemas)}
}
