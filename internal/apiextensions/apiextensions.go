// Package apiextensions renders schemas and rules as the API server prints
// them as the bad value of a field error: its internal Go types
// (k8s.io/apiextensions-apiserver/pkg/apis/apiextensions), without JSON
// names, and with the same type names for the Go syntax Kubernetes 1.33
// printed them in.
package apiextensions

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
func Rule(r crdschema.ValidationRule) ValidationRule {
	g := ValidationRule{
		Rule:              r.Rule,
		Message:           r.Message,
		MessageExpression: r.MessageExpression,
		FieldPath:         r.FieldPath,
		OptionalOldSelf:   r.OptionalOldSelf,
	}
	if r.Reason != nil {
		s := FieldValueErrorReason(*r.Reason)
		g.Reason = &s
	}
	return g
}

// The types below mirror the API server's internal schema types, field for
// field and in the same order, without JSON names.

type JSONSchemaProps struct {
	ID                     string
	Schema                 string
	Ref                    *string
	Description            string
	Type                   string
	Nullable               bool
	Format                 string
	Title                  string
	Default                *JSON
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
	Enum                   []JSON
	MaxProperties          *int64
	MinProperties          *int64
	Required               []string
	Items                  *JSONSchemaPropsOrArray
	AllOf                  []JSONSchemaProps
	OneOf                  []JSONSchemaProps
	AnyOf                  []JSONSchemaProps
	Not                    *JSONSchemaProps
	Properties             map[string]JSONSchemaProps
	AdditionalProperties   *JSONSchemaPropsOrBool
	PatternProperties      map[string]JSONSchemaProps
	Dependencies           JSONSchemaDependencies
	AdditionalItems        *JSONSchemaPropsOrBool
	Definitions            JSONSchemaDefinitions
	ExternalDocs           *ExternalDocumentation
	Example                *JSON
	XPreserveUnknownFields *bool
	XEmbeddedResource      bool
	XIntOrString           bool
	XListMapKeys           []string
	XListType              *string
	XMapType               *string
	XValidations           ValidationRules
}

// JSONSchemaDependencies, JSONSchemaDefinitions and ValidationRules are
// named as the API server names them, which Go syntax shows.
type (
	JSONSchemaDependencies map[string]JSONSchemaPropsOrStringArray
	JSONSchemaDefinitions  map[string]JSONSchemaProps
	ValidationRules        []ValidationRule
)

type JSONSchemaPropsOrArray struct {
	Schema      *JSONSchemaProps
	JSONSchemas []JSONSchemaProps
}

type JSONSchemaPropsOrBool struct {
	Allows bool
	Schema *JSONSchemaProps
}

type JSONSchemaPropsOrStringArray struct {
	Schema   *JSONSchemaProps
	Property []string
}

type ExternalDocumentation struct {
	Description string
	URL         string
}

type ValidationRule struct {
	Rule              string
	Message           string
	MessageExpression string
	Reason            *FieldValueErrorReason
	FieldPath         string
	OptionalOldSelf   *bool
}

// JSON is the API server's type of a default, an example or an enum value.
type JSON any

// FieldValueErrorReason is the API server's type of a rule's reason.
type FieldValueErrorReason string

// goJSON is a default or example as the API server holds it: a JSON null
// is absent.
func goJSON(j *crdschema.JSON) *JSON {
	if j == nil || j.Value == nil {
		return nil
	}
	v := JSON(j.Value)
	return &v
}

func goPropsPtr(p *crdschema.JSONSchemaProps) *JSONSchemaProps {
	if p == nil {
		return nil
	}
	v := toGoNames(p)
	return &v
}

func goPropsList(l []crdschema.JSONSchemaProps) []JSONSchemaProps {
	return convert(l, func(p crdschema.JSONSchemaProps) JSONSchemaProps { return toGoNames(&p) })
}

// convert returns f of each element of l; nil for nil.
func convert[T, U any](l []T, f func(T) U) []U {
	if l == nil {
		return nil
	}
	out := make([]U, len(l))
	for i, x := range l {
		out[i] = f(x)
	}
	return out
}

func goPropsMap(m map[string]crdschema.JSONSchemaProps) map[string]JSONSchemaProps {
	if m == nil {
		return nil
	}
	out := make(map[string]JSONSchemaProps, len(m))
	for k, v := range m {
		out[k] = toGoNames(&v)
	}
	return out
}

func goOrBool(b *crdschema.JSONSchemaPropsOrBool) *JSONSchemaPropsOrBool {
	if b == nil {
		return nil
	}
	return &JSONSchemaPropsOrBool{Allows: b.Allows, Schema: goPropsPtr(b.Schema)}
}

func toGoNames(p *crdschema.JSONSchemaProps) JSONSchemaProps {
	g := JSONSchemaProps{
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
		Definitions:            JSONSchemaDefinitions(goPropsMap(p.Definitions)),
		Example:                goJSON(p.Example),
		XPreserveUnknownFields: p.XPreserveUnknownFields,
		XEmbeddedResource:      p.XEmbeddedResource,
		XIntOrString:           p.XIntOrString,
		XListMapKeys:           p.XListMapKeys,
		XListType:              p.XListType,
		XMapType:               p.XMapType,
	}
	g.Enum = convert(p.Enum, func(e crdschema.JSON) JSON { return e.Value })
	if p.Items != nil {
		g.Items = &JSONSchemaPropsOrArray{Schema: goPropsPtr(p.Items.Schema), JSONSchemas: goPropsList(p.Items.JSONSchemas)}
	}
	if p.Dependencies != nil {
		g.Dependencies = make(JSONSchemaDependencies, len(p.Dependencies))
		for k, d := range p.Dependencies {
			g.Dependencies[k] = JSONSchemaPropsOrStringArray{Schema: goPropsPtr(d.Schema), Property: d.Property}
		}
	}
	if p.ExternalDocs != nil {
		g.ExternalDocs = &ExternalDocumentation{Description: p.ExternalDocs.Description, URL: p.ExternalDocs.URL}
	}
	g.XValidations = convert(p.XValidations, Rule)
	return g
}

// Items renders the items of p (a list of schemas) as the API server
// prints them.
func Items(p *crdschema.JSONSchemaPropsOrArray) any {
	return &JSONSchemaPropsOrArray{Schema: goPropsPtr(p.Schema), JSONSchemas: goPropsList(p.JSONSchemas)}
}

// Versions renders the versions l of a CRD as the API server prints them
// as the bad value of a field error (`spec.versions: Invalid value:
// [{"Name":"v1","Served":true,...}]`).
func Versions(l []crdschema.CustomResourceDefinitionVersion) any {
	return convert(l, func(v crdschema.CustomResourceDefinitionVersion) CustomResourceDefinitionVersion {
		g := CustomResourceDefinitionVersion{
			Name:               v.Name,
			Served:             v.Served,
			Storage:            v.Storage,
			Deprecated:         v.Deprecated,
			DeprecationWarning: v.DeprecationWarning,
		}
		if v.Schema != nil {
			g.Schema = &CustomResourceValidation{OpenAPIV3Schema: goPropsPtr(v.Schema.OpenAPIV3Schema)}
		}
		if s := v.Subresources; s != nil {
			g.Subresources = &CustomResourceSubresources{}
			if s.Status != nil {
				g.Subresources.Status = &CustomResourceSubresourceStatus{}
			}
			if s.Scale != nil {
				scale := CustomResourceSubresourceScale(*s.Scale)
				g.Subresources.Scale = &scale
			}
		}
		g.AdditionalPrinterColumns = convert(v.AdditionalPrinterColumns, func(c crdschema.CustomResourceColumnDefinition) CustomResourceColumnDefinition {
			return CustomResourceColumnDefinition(c)
		})
		g.SelectableFields = convert(v.SelectableFields, func(f crdschema.SelectableField) SelectableField { return SelectableField(f) })
		return g
	})
}

type CustomResourceDefinitionVersion struct {
	Name                     string
	Served                   bool
	Storage                  bool
	Deprecated               bool
	DeprecationWarning       *string
	Schema                   *CustomResourceValidation
	Subresources             *CustomResourceSubresources
	AdditionalPrinterColumns []CustomResourceColumnDefinition
	SelectableFields         []SelectableField
}

type CustomResourceValidation struct {
	OpenAPIV3Schema *JSONSchemaProps
}

type CustomResourceSubresources struct {
	Status *CustomResourceSubresourceStatus
	Scale  *CustomResourceSubresourceScale
}

type CustomResourceSubresourceStatus struct{}

type CustomResourceSubresourceScale struct {
	SpecReplicasPath   string
	StatusReplicasPath string
	LabelSelectorPath  *string
}

type CustomResourceColumnDefinition struct {
	Name        string
	Type        string
	Format      string
	Description string
	Priority    int32
	JSONPath    string
}

type SelectableField struct {
	JSONPath string
}
