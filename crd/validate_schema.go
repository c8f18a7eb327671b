package crd

import (
	"fmt"
	"reflect"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/apiextensions"
	"github.com/crdschema/crdschema/structural"
)

// validateSchema checks the schema of a version (or the top-level one) at
// fldPath (spec.validation or spec.versions[i].schema): the root
// restrictions of the status subresource, nullable root, the structural
// rules, defaults, the CRD schema restrictions and the CEL rules.
func validateSchema(v *crdschema.CustomResourceValidation, statusEnabled bool, opts validationOptions, c *config, fldPath *crdschema.Path) crdschema.ErrorList {
	if v == nil || v.OpenAPIV3Schema == nil {
		return nil
	}
	schema := v.OpenAPIV3Schema
	schemaPath := fldPath.Child("openAPIV3Schema")
	var errs crdschema.ErrorList

	if statusEnabled {
		if e := validateStatusRoot(schema, fldPath); e != nil {
			errs = append(errs, e)
		}
	}
	if schema.Nullable {
		errs = append(errs, crdschema.Forbidden(fldPath.Child("openAPIV3Schema.nullable"), "nullable cannot be true at the root"))
	}

	var rulesRoot *structural.Schema // the schema whose rules are checked, if any
	var newErrs crdschema.ErrorList  // reported only when nothing else fails
	if opts.requireStructuralSchema {
		if ss, err := structural.New(schema); err != nil {
			newErrs = crdschema.ErrorList{crdschema.Invalid(schemaPath, "", err.Error())}
		} else if e := structural.Validate(schemaPath, ss, structural.Options{}); len(e) > 0 {
			errs = append(errs, e...)
		} else if e, err := validateDefaults(c, schemaPath, ss, opts.requirePrunedDefaults); err != nil {
			errs = append(errs, crdschema.Invalid(schemaPath, "", err.Error()))
		} else if len(e) > 0 {
			errs = append(errs, e...)
		} else {
			rulesRoot = ss
		}
	}

	errs = append(errs, structural.ValidateProps(schemaPath, schema, structural.Options{
		ForbidDefaults:           !opts.allowDefaults,
		ForbidDefaultsReason:     opts.disallowDefaultsReason,
		AllowInvalidPropertyType: !opts.requireValidPropertyType,
		AllowNonAtomicSetItems:   !opts.requireAtomicSetType,
		AllowNullableListKeys:    !opts.requireMapListKeysMapSetValidation,
	})...)

	if len(errs) == 0 {
		errs = append(errs, newErrs...)
	}
	if rulesRoot != nil {
		errs = append(errs, validateRules(c, rulesRoot, schemaPath, &opts, errs)...)
	}
	// The API server finally builds a validator from a schema without
	// errors and reports "error building validator"; that can only fail
	// on a $ref, which is always reported above.
	return errs
}

// rootFieldsWithStatus are the keywords the root of a schema may use when
// the status subresource is enabled, named as the API server's message
// names them (Go field names), in its order.
var rootFieldsWithStatus = []string{"Description", "Type", "Format", "Title", "Maximum", "ExclusiveMaximum", "Minimum", "ExclusiveMinimum", "MaxLength", "MinLength", "Pattern", "MaxItems", "MinItems", "UniqueItems", "MultipleOf", "Required", "Items", "Properties", "ExternalDocs", "Example", "XPreserveUnknownFields", "XValidations"}

// rootKeyword is a keyword of a schema root, and whether s sets it.
type rootKeyword struct {
	name string
	set  func(s *crdschema.JSONSchemaProps) bool
}

// rootKeywords lists the keywords in the order of the API server's internal
// JSONSchemaProps fields, which decides which error comes first.
var rootKeywords = []rootKeyword{
	{"ID", func(s *crdschema.JSONSchemaProps) bool { return s.ID != "" }},
	{"Schema", func(s *crdschema.JSONSchemaProps) bool { return s.Schema != "" }},
	{"Ref", func(s *crdschema.JSONSchemaProps) bool { return s.Ref != nil }},
	{"Description", func(s *crdschema.JSONSchemaProps) bool { return s.Description != "" }},
	{"Type", func(s *crdschema.JSONSchemaProps) bool { return s.Type != "" }},
	{"Nullable", func(s *crdschema.JSONSchemaProps) bool { return s.Nullable }},
	{"Format", func(s *crdschema.JSONSchemaProps) bool { return s.Format != "" }},
	{"Title", func(s *crdschema.JSONSchemaProps) bool { return s.Title != "" }},
	{"Default", func(s *crdschema.JSONSchemaProps) bool { return s.Default != nil }},
	{"Maximum", func(s *crdschema.JSONSchemaProps) bool { return s.Maximum != nil }},
	{"ExclusiveMaximum", func(s *crdschema.JSONSchemaProps) bool { return s.ExclusiveMaximum }},
	{"Minimum", func(s *crdschema.JSONSchemaProps) bool { return s.Minimum != nil }},
	{"ExclusiveMinimum", func(s *crdschema.JSONSchemaProps) bool { return s.ExclusiveMinimum }},
	{"MaxLength", func(s *crdschema.JSONSchemaProps) bool { return s.MaxLength != nil }},
	{"MinLength", func(s *crdschema.JSONSchemaProps) bool { return s.MinLength != nil }},
	{"Pattern", func(s *crdschema.JSONSchemaProps) bool { return s.Pattern != "" }},
	{"MaxItems", func(s *crdschema.JSONSchemaProps) bool { return s.MaxItems != nil }},
	{"MinItems", func(s *crdschema.JSONSchemaProps) bool { return s.MinItems != nil }},
	{"UniqueItems", func(s *crdschema.JSONSchemaProps) bool { return s.UniqueItems }},
	{"MultipleOf", func(s *crdschema.JSONSchemaProps) bool { return s.MultipleOf != nil }},
	{"Enum", func(s *crdschema.JSONSchemaProps) bool { return s.Enum != nil }},
	{"MaxProperties", func(s *crdschema.JSONSchemaProps) bool { return s.MaxProperties != nil }},
	{"MinProperties", func(s *crdschema.JSONSchemaProps) bool { return s.MinProperties != nil }},
	{"Required", func(s *crdschema.JSONSchemaProps) bool { return s.Required != nil }},
	{"Items", func(s *crdschema.JSONSchemaProps) bool { return s.Items != nil }},
	{"AllOf", func(s *crdschema.JSONSchemaProps) bool { return s.AllOf != nil }},
	{"OneOf", func(s *crdschema.JSONSchemaProps) bool { return s.OneOf != nil }},
	{"AnyOf", func(s *crdschema.JSONSchemaProps) bool { return s.AnyOf != nil }},
	{"Not", func(s *crdschema.JSONSchemaProps) bool { return s.Not != nil }},
	{"Properties", func(s *crdschema.JSONSchemaProps) bool { return s.Properties != nil }},
	{"AdditionalProperties", func(s *crdschema.JSONSchemaProps) bool { return s.AdditionalProperties != nil }},
	{"PatternProperties", func(s *crdschema.JSONSchemaProps) bool { return s.PatternProperties != nil }},
	{"Dependencies", func(s *crdschema.JSONSchemaProps) bool { return s.Dependencies != nil }},
	{"AdditionalItems", func(s *crdschema.JSONSchemaProps) bool { return s.AdditionalItems != nil }},
	{"Definitions", func(s *crdschema.JSONSchemaProps) bool { return s.Definitions != nil }},
	{"ExternalDocs", func(s *crdschema.JSONSchemaProps) bool { return s.ExternalDocs != nil }},
	{"Example", func(s *crdschema.JSONSchemaProps) bool { return s.Example != nil }},
	{"XPreserveUnknownFields", func(s *crdschema.JSONSchemaProps) bool { return s.XPreserveUnknownFields != nil }},
	{"XEmbeddedResource", func(s *crdschema.JSONSchemaProps) bool { return s.XEmbeddedResource }},
	{"XIntOrString", func(s *crdschema.JSONSchemaProps) bool { return s.XIntOrString }},
	{"XListMapKeys", func(s *crdschema.JSONSchemaProps) bool { return s.XListMapKeys != nil }},
	{"XListType", func(s *crdschema.JSONSchemaProps) bool { return s.XListType != nil }},
	{"XMapType", func(s *crdschema.JSONSchemaProps) bool { return s.XMapType != nil }},
	{"XValidations", func(s *crdschema.JSONSchemaProps) bool { return s.XValidations != nil }},
}

// validateStatusRoot restricts the root of a schema whose version has the
// status subresource, so that the status schema can be taken out as
// properties[status] without losing validation: the root must be an object
// and may only use rootFieldsWithStatus. Like the API server, it reports
// the first problem only.
func validateStatusRoot(s *crdschema.JSONSchemaProps, fldPath *crdschema.Path) *crdschema.Error {
	for _, k := range rootKeywords {
		if !k.set(s) {
			continue
		}
		if k.name == "Type" {
			if s.Type != "object" {
				return crdschema.Invalid(fldPath.Child("openAPIV3Schema.type"), s.Type, `only "object" is allowed as the type at the root of the schema if the status subresource is enabled`)
			}
			continue
		}
		if !contains(rootFieldsWithStatus, k.name) {
			return crdschema.Invalid(fldPath.Child("openAPIV3Schema"), apiextensions.Schema(s), fmt.Sprintf("only %v fields are allowed at the root of the schema if the status subresource is enabled", rootFieldsWithStatus))
		}
	}
	return nil
}

// rootKeywordsCoverFields reports whether rootKeywords covers every field of
// JSONSchemaProps; it is used by the tests.
func rootKeywordsCoverFields() bool {
	return reflect.TypeOf(crdschema.JSONSchemaProps{}).NumField() == len(rootKeywords)
}
