package crd

import (
	"slices"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/jsonvalue"
)

// schemaFieldCount is the number of fields of crdschema.JSONSchemaProps
// that equalSchema compares; a test fails when the type gains a field.
const schemaFieldCount = 44

// equalValidation is the API server's semantic equality for schemas,
// written out because comparing the schemas of the versions is the hot
// part of hoisting and of finding unchanged schemas on update.
func equalValidation(a, b *crdschema.CustomResourceValidation) bool {
	if a == nil || b == nil {
		return a == b
	}
	return equalSchema(a.OpenAPIV3Schema, b.OpenAPIV3Schema)
}

func equalSchema(a, b *crdschema.JSONSchemaProps) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a == b {
		return true
	}
	return a.ID == b.ID && a.Schema == b.Schema && equalPtr(a.Ref, b.Ref) &&
		a.Description == b.Description && a.Type == b.Type && a.Format == b.Format && a.Title == b.Title &&
		equalJSONPtr(a.Default, b.Default) &&
		equalPtr(a.Maximum, b.Maximum) && a.ExclusiveMaximum == b.ExclusiveMaximum &&
		equalPtr(a.Minimum, b.Minimum) && a.ExclusiveMinimum == b.ExclusiveMinimum &&
		equalPtr(a.MaxLength, b.MaxLength) && equalPtr(a.MinLength, b.MinLength) && a.Pattern == b.Pattern &&
		equalPtr(a.MaxItems, b.MaxItems) && equalPtr(a.MinItems, b.MinItems) && a.UniqueItems == b.UniqueItems &&
		equalPtr(a.MultipleOf, b.MultipleOf) && equalJSONList(a.Enum, b.Enum) &&
		equalPtr(a.MaxProperties, b.MaxProperties) && equalPtr(a.MinProperties, b.MinProperties) &&
		slices.Equal(a.Required, b.Required) && equalItems(a.Items, b.Items) &&
		equalSchemaList(a.AllOf, b.AllOf) && equalSchemaList(a.OneOf, b.OneOf) && equalSchemaList(a.AnyOf, b.AnyOf) &&
		equalSchema(a.Not, b.Not) && equalSchemaMap(a.Properties, b.Properties) &&
		equalOrBool(a.AdditionalProperties, b.AdditionalProperties) && equalSchemaMap(a.PatternProperties, b.PatternProperties) &&
		equalDependencies(a.Dependencies, b.Dependencies) && equalOrBool(a.AdditionalItems, b.AdditionalItems) &&
		equalSchemaMap(a.Definitions, b.Definitions) && equalPtr(a.ExternalDocs, b.ExternalDocs) &&
		equalJSONPtr(a.Example, b.Example) && a.Nullable == b.Nullable &&
		equalPtr(a.XPreserveUnknownFields, b.XPreserveUnknownFields) && a.XEmbeddedResource == b.XEmbeddedResource &&
		a.XIntOrString == b.XIntOrString && slices.Equal(a.XListMapKeys, b.XListMapKeys) &&
		equalPtr(a.XListType, b.XListType) && equalPtr(a.XMapType, b.XMapType) &&
		equalRules(a.XValidations, b.XValidations)
}

// equalSubresources is the API server's semantic equality for
// subresources. (Printer columns and selectable fields, lists of
// comparable structs, compare with slices.Equal.)
func equalSubresources(a, b *crdschema.CustomResourceSubresources) bool {
	if a == nil || b == nil || (a.Status == nil) != (b.Status == nil) {
		return a == b
	}
	x, y := a.Scale, b.Scale
	if x == nil || y == nil {
		return x == y
	}
	return x.SpecReplicasPath == y.SpecReplicasPath && x.StatusReplicasPath == y.StatusReplicasPath && equalPtr(x.LabelSelectorPath, y.LabelSelectorPath)
}

func equalPtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func equalJSONPtr(a, b *crdschema.JSON) bool {
	if a == nil || b == nil {
		return a == b
	}
	return jsonvalue.SemanticEqual(a.Value, b.Value)
}

func equalJSONList(a, b []crdschema.JSON) bool {
	return slices.EqualFunc(a, b, func(x, y crdschema.JSON) bool { return jsonvalue.SemanticEqual(x.Value, y.Value) })
}

func equalItems(a, b *crdschema.JSONSchemaPropsOrArray) bool {
	if a == nil || b == nil {
		return a == b
	}
	return equalSchema(a.Schema, b.Schema) && equalSchemaList(a.JSONSchemas, b.JSONSchemas)
}

func equalOrBool(a, b *crdschema.JSONSchemaPropsOrBool) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Allows == b.Allows && equalSchema(a.Schema, b.Schema)
}

func equalSchemaList(a, b []crdschema.JSONSchemaProps) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !equalSchema(&a[i], &b[i]) {
			return false
		}
	}
	return true
}

func equalSchemaMap(a, b map[string]crdschema.JSONSchemaProps) bool {
	if len(a) != len(b) {
		return false
	}
	for k, as := range a {
		bs, ok := b[k]
		if !ok || !equalSchema(&as, &bs) {
			return false
		}
	}
	return true
}

func equalDependencies(a, b map[string]crdschema.JSONSchemaPropsOrStringArray) bool {
	if len(a) != len(b) {
		return false
	}
	for k, ad := range a {
		bd, ok := b[k]
		if !ok || !equalSchema(ad.Schema, bd.Schema) || !slices.Equal(ad.Property, bd.Property) {
			return false
		}
	}
	return true
}

func equalRules(a, b []crdschema.ValidationRule) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := &a[i], &b[i]
		if x.Rule != y.Rule || x.Message != y.Message || x.MessageExpression != y.MessageExpression ||
			!equalPtr(x.Reason, y.Reason) || x.FieldPath != y.FieldPath || !equalPtr(x.OptionalOldSelf, y.OptionalOldSelf) {
			return false
		}
	}
	return true
}
