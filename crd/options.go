package crd

import (
	"reflect"
	"slices"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/defaulting"
	"github.com/crdschema/crdschema/structural"
)

// validationOptions are the switches of CRD validation. A create sets them
// all to the strict value; an update relaxes those that the stored CRD
// already violated, so that a CRD accepted by an older API server can still
// be updated.
type validationOptions struct {
	// allowDefaults permits default in schemas; disallowDefaultsReason
	// words why not.
	allowDefaults          bool
	disallowDefaultsReason string
	// requireRecognizedConversionReviewVersion requires v1 or v1beta1 among
	// the conversion review versions.
	requireRecognizedConversionReviewVersion bool
	// requireImmutableNames forbids changing the scope and kind.
	requireImmutableNames bool
	// requireOpenAPISchema requires a schema in every version.
	requireOpenAPISchema bool
	// requireValidPropertyType requires types to be OpenAPI v3 types.
	requireValidPropertyType bool
	// requireStructuralSchema requires every schema to be structural.
	requireStructuralSchema bool
	// requirePrunedDefaults requires defaults to survive pruning.
	requirePrunedDefaults bool
	// requireAtomicSetType requires the items of a set list to be atomic.
	requireAtomicSetType bool
	// requireMapListKeysMapSetValidation requires map-list keys to be
	// required or defaulted and not nullable, and set and map list items
	// not to be nullable.
	requireMapListKeysMapSetValidation bool
	// preexisting holds the schemas of the stored CRD (update only): their
	// CEL expressions compile in the environment for stored expressions.
	preexisting []*crdschema.JSONSchemaProps
	// unchangedSchemas are the versions whose schema an update leaves as
	// it was; their per-expression cost limits are not enforced.
	unchangedSchemas map[string]bool
	// suppressPerExpressionCost is set while validating the schema of an
	// unchanged version.
	suppressPerExpressionCost bool
	// allowInvalidCABundle accepts a conversion webhook caBundle that is
	// not valid PEM.
	allowInvalidCABundle bool
	// allowTooManySelectableFields lists the versions ("" for the top
	// level) that may keep more than maxSelectableFields selectable fields.
	allowTooManySelectableFields map[string]bool
}

// createOptions are the options of a CRD create.
func createOptions() validationOptions {
	return validationOptions{
		allowDefaults:                            true,
		requireRecognizedConversionReviewVersion: true,
		requireOpenAPISchema:                     true,
		requireValidPropertyType:                 true,
		requireStructuralSchema:                  true,
		requirePrunedDefaults:                    true,
		requireAtomicSetType:                     true,
		requireMapListKeysMapSetValidation:       true,
		// the CRD is not established yet
		allowInvalidCABundle: true,
	}
}

// updateOptions are the options of an update of old to in.
func updateOptions(in, old *internalCRD) validationOptions {
	os := &old.spec
	return validationOptions{
		allowDefaults:                            true,
		requireRecognizedConversionReviewVersion: os.conversion == nil || hasAcceptedReviewVersionOrNone(os.conversion.conversionReviewVersions),
		requireImmutableNames:                    old.status.established,
		requireOpenAPISchema:                     allVersionsHaveSchema(os),
		requireValidPropertyType:                 !os.schemas(hasInvalidType),
		requireStructuralSchema:                  !os.schemas(isNonStructural),
		requirePrunedDefaults:                    !os.schemas(hasUnprunedDefaults),
		requireAtomicSetType:                     !os.schemas(hasNonAtomicSetType),
		requireMapListKeysMapSetValidation:       !os.schemas(hasInvalidMapListKeysMapSet),
		preexisting:                              findPreexistingExpressions(os),
		unchangedSchemas:                         findUnchangedSchemas(&in.spec, os),
		allowInvalidCABundle:                     allowInvalidCABundle(old),
		allowTooManySelectableFields:             findTooManySelectableFieldsAllowed(&in.spec, os),
	}
}

// forVersion returns o for the schema of the named version: cost limits
// per expression are not enforced on a schema an update leaves unchanged.
func (o validationOptions) forVersion(name string) validationOptions {
	if o.unchangedSchemas[name] {
		o.suppressPerExpressionCost = true
	}
	return o
}

func allVersionsHaveSchema(s *internalSpec) bool {
	return s.validation != nil && s.validation.OpenAPIV3Schema != nil ||
		!slices.ContainsFunc(s.versions, func(v internalVersion) bool { return v.schema == nil || v.schema.OpenAPIV3Schema == nil })
}

func hasInvalidType(s *crdschema.JSONSchemaProps) bool {
	return schemaHas(s, func(s crdschema.JSONSchemaProps) bool {
		return s.Type != "" && !openAPIV3Types[s.Type]
	})
}

// isNonStructural reports whether s is not a structural schema.
func isNonStructural(s *crdschema.JSONSchemaProps) bool {
	ss, err := structural.New(s)
	if err != nil {
		return true
	}
	return len(structural.Validate(nil, ss, structural.Options{})) > 0
}

// hasUnprunedDefaults reports whether a structural s has a default that
// pruning would change.
func hasUnprunedDefaults(s *crdschema.JSONSchemaProps) bool {
	if !schemaHas(s, hasDefault) {
		return false
	}
	ss, err := structural.New(s)
	if err != nil || len(structural.Validate(nil, ss, structural.Options{})) > 0 {
		return false
	}
	pruned, err := defaulting.PruneDefaults(ss)
	return err == nil && !reflect.DeepEqual(ss, pruned)
}

func hasDefault(s crdschema.JSONSchemaProps) bool { return s.Default != nil }

func hasNonAtomicSetType(s *crdschema.JSONSchemaProps) bool {
	return schemaHas(s, func(s crdschema.JSONSchemaProps) bool {
		if s.XListType == nil || *s.XListType != "set" || s.Items == nil || s.Items.Schema == nil {
			return false
		}
		is := s.Items.Schema
		switch is.Type {
		case "array":
			return is.XListType != nil && *is.XListType != "atomic"
		case "object":
			return is.XMapType == nil || *is.XMapType != "atomic"
		}
		return false
	})
}

// hasInvalidMapListKeysMapSet reports whether a set or map list of s has
// nullable items, or a map list a key property that is nullable or neither
// required nor defaulted.
func hasInvalidMapListKeysMapSet(s *crdschema.JSONSchemaProps) bool {
	return schemaHas(s, func(s crdschema.JSONSchemaProps) bool {
		if s.Items == nil || s.Items.Schema == nil || s.XListType == nil {
			return false
		}
		lt := *s.XListType
		if lt != "set" && lt != "map" {
			return false
		}
		is := s.Items.Schema
		if is.Nullable {
			return true
		}
		if lt != "map" {
			return false
		}
		for _, k := range s.XListMapKeys {
			p, ok := is.Properties[k]
			if !ok {
				continue
			}
			if (!slices.Contains(is.Required, k) && p.Default == nil) || p.Nullable {
				return true
			}
		}
		return false
	})
}

// openAPIV3Types are the types a schema may use.
var openAPIV3Types = map[string]bool{
	"array": true, "boolean": true, "integer": true, "number": true, "object": true, "string": true,
}

// findPreexistingExpressions returns the schemas of the stored CRD, whose
// expressions compile in the environment of stored expressions.
func findPreexistingExpressions(s *internalSpec) []*crdschema.JSONSchemaProps {
	var schemas []*crdschema.JSONSchemaProps
	s.schemas(func(root *crdschema.JSONSchemaProps) bool {
		schemas = append(schemas, root)
		return false
	})
	return schemas
}

// schemaOf returns the schema of the named version as the API server
// looks it up for updates: the top-level one (possibly nil) when no version
// has its own, else the first version of that name's; ok is false when the
// version does not exist.
func (s *internalSpec) schemaOf(name string) (v *crdschema.CustomResourceValidation, ok bool) {
	if !hasPerVersionSchema(s.versions) {
		return s.validation, true
	}
	if s.validation != nil {
		return nil, false
	}
	for _, v := range s.versions {
		if v.name == name {
			return v.schema, true
		}
	}
	return nil, false
}

func findUnchangedSchemas(s, old *internalSpec) map[string]bool {
	out := map[string]bool{}
	for _, v := range s.versions {
		ns, ok := s.schemaOf(v.name)
		os, oldOK := old.schemaOf(v.name)
		if ok && oldOK && equalValidation(ns, os) {
			out[v.name] = true
		}
	}
	return out
}

// allowInvalidCABundle: an invalid caBundle may stay invalid, and any
// caBundle is accepted before the CRD is established.
func allowInvalidCABundle(old *internalCRD) bool {
	if !old.status.established {
		return true
	}
	c := old.spec.conversion
	if c == nil || c.clientConfig == nil || len(c.clientConfig.CABundle) == 0 {
		return false
	}
	return validateCABundle(nil, c.clientConfig.CABundle) != nil
}

func findTooManySelectableFieldsAllowed(s, old *internalSpec) map[string]bool {
	out := map[string]bool{}
	if len(old.selectableFields) > maxSelectableFields && slices.Equal(s.selectableFields, old.selectableFields) {
		out[""] = true
	}
	for _, v := range s.versions {
		var ov *internalVersion // the last old version of that name
		for i := range old.versions {
			if old.versions[i].name == v.name {
				ov = &old.versions[i]
			}
		}
		if ov != nil && len(ov.selectableFields) > maxSelectableFields && slices.Equal(v.selectableFields, ov.selectableFields) {
			out[v.name] = true
		}
	}
	return out
}
