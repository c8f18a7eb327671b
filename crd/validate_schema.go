package crd

import (
	"fmt"
	"reflect"
	"slices"

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
	if c.sameAsValid(schema, statusEnabled, opts.suppressPerExpressionCost) {
		return nil
	}
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
		if ss, err := c.structurals.of(schema); err != nil {
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
	if len(errs) == 0 {
		c.valid = append(c.valid, validSchema{schema, statusEnabled, opts.suppressPerExpressionCost})
	}
	return errs
}

// validSchema is a schema validateSchema found no error in, with what
// else of its call decides the outcome (the other options are the same
// for every schema of a CRD).
type validSchema struct {
	schema                    *crdschema.JSONSchemaProps
	statusEnabled             bool
	suppressPerExpressionCost bool
}

// sameAsValid reports whether schema, validated with the same settings,
// equals (deeply) a schema of the CRD already found valid: a CRD often
// serves several versions with one schema where others differ (which
// keeps the internal form from hoisting it). Its errors would be those
// of the other schema at another path, so none. Its structural form is
// shared.
func (c *config) sameAsValid(schema *crdschema.JSONSchemaProps, statusEnabled, suppressCost bool) bool {
	if c.ctx.Err() != nil {
		return false // evaluating rules on defaults may have stopped
	}
	for _, v := range c.valid {
		if v.statusEnabled == statusEnabled && v.suppressPerExpressionCost == suppressCost &&
			equalSchema(v.schema, schema) && reflect.DeepEqual(v.schema, schema) {
			c.structurals.share(schema, v.schema)
			return true
		}
	}
	return false
}

// rootFieldsWithStatus are the keywords the root of a schema may use when
// the status subresource is enabled, named as the API server's message
// names them (Go field names), in its order.
var rootFieldsWithStatus = []string{"Description", "Type", "Format", "Title", "Maximum", "ExclusiveMaximum", "Minimum", "ExclusiveMinimum", "MaxLength", "MinLength", "Pattern", "MaxItems", "MinItems", "UniqueItems", "MultipleOf", "Required", "Items", "Properties", "ExternalDocs", "Example", "XPreserveUnknownFields", "XValidations"}

// rootKeywords are the indexes of JSONSchemaProps' fields in the order of
// the fields of the API server's internal type, which decides which error
// comes first.
var rootKeywords = func() []int {
	t := reflect.TypeFor[apiextensions.JSONSchemaProps]()
	out := make([]int, t.NumField())
	for i := range out {
		f, _ := reflect.TypeFor[crdschema.JSONSchemaProps]().FieldByName(t.Field(i).Name)
		out[i] = f.Index[0]
	}
	return out
}()

// validateStatusRoot restricts the root of a schema whose version has the
// status subresource, so that the status schema can be taken out as
// properties[status] without losing validation: the root must be an object
// and may only use rootFieldsWithStatus. Like the API server, it reports
// the first problem only.
func validateStatusRoot(s *crdschema.JSONSchemaProps, fldPath *crdschema.Path) *crdschema.Error {
	v := reflect.ValueOf(s).Elem()
	for _, i := range rootKeywords {
		if v.Field(i).IsZero() {
			continue
		}
		name := v.Type().Field(i).Name
		if name == "Type" {
			if s.Type != "object" {
				return crdschema.Invalid(fldPath.Child("openAPIV3Schema.type"), s.Type, `only "object" is allowed as the type at the root of the schema if the status subresource is enabled`)
			}
			continue
		}
		if !slices.Contains(rootFieldsWithStatus, name) {
			return crdschema.Invalid(fldPath.Child("openAPIV3Schema"), apiextensions.Schema(s), fmt.Sprintf("only %v fields are allowed at the root of the schema if the status subresource is enabled", rootFieldsWithStatus))
		}
	}
	return nil
}
