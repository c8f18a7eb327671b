package structural

import "github.com/crdschema/crdschema"

// validateCompleteness reports every property or items that a junctor
// validates but that the structural part of s does not specify, so that
// every value validation applies to a value of known shape.
func validateCompleteness(errs crdschema.ErrorList, s *Schema, fldPath *crdschema.Path, opts Options) crdschema.ErrorList {
	if s == nil {
		return errs
	}
	return completeValueValidation(errs, s.ValueValidation, s, fldPath, fldPath, opts)
}

func missing(sPath, vPath *crdschema.Path) *crdschema.Error {
	return crdschema.Required(sPath, "because it is defined in "+vPath.String())
}

func completeValueValidation(errs crdschema.ErrorList, v *ValueValidation, s *Schema, sPath, vPath *crdschema.Path, opts Options) crdschema.ErrorList {
	if v == nil {
		return errs
	}
	if s == nil {
		return append(errs, missing(sPath, vPath))
	}
	errs = completeNested(errs, v.Not, s, sPath, vPath.Child("not"), opts)
	for i := range v.AllOf {
		errs = completeNested(errs, &v.AllOf[i], s, sPath, vPath.Child("allOf").Index(i), opts)
	}
	for i := range v.AnyOf {
		errs = completeNested(errs, &v.AnyOf[i], s, sPath, vPath.Child("anyOf").Index(i), opts)
	}
	for i := range v.OneOf {
		errs = completeNested(errs, &v.OneOf[i], s, sPath, vPath.Child("oneOf").Index(i), opts)
	}
	return errs
}

func completeNested(errs crdschema.ErrorList, v *NestedValueValidation, s *Schema, sPath, vPath *crdschema.Path, opts Options) crdschema.ErrorList {
	if v == nil {
		return errs
	}
	if s == nil {
		return append(errs, missing(sPath, vPath))
	}
	errs = completeValueValidation(errs, &v.ValueValidation, s, sPath, vPath, opts)
	errs = completeNested(errs, v.Items, s.Items, sPath.Child("items"), vPath.Child("items"), opts)

	var additional *Schema
	if s.AdditionalProperties != nil {
		additional = s.AdditionalProperties.Schema
	}
	for _, k := range sortedKeys(v.Properties) {
		vFld := v.Properties[k]
		sFld, ok := s.Properties[k]
		switch {
		case ok:
			if sFld == nil {
				sFld = &Schema{}
			}
			errs = completeNested(errs, vFld, sFld, sPath.Child("properties").Key(k), vPath.Child("properties").Key(k), opts)
		case additional != nil && opts.AllowValidationPropertiesWithAdditionalProperties:
			errs = completeNested(errs, vFld, additional, sPath.Child("additionalProperties"), vPath.Child("properties").Key(k), opts)
		default:
			errs = append(errs, missing(sPath.Child("properties").Key(k), vPath.Child("properties").Key(k)))
		}
	}
	if v.AdditionalProperties != nil && opts.AllowNestedAdditionalProperties {
		errs = completeNested(errs, v.AdditionalProperties, additional, sPath.Child("additionalProperties"), vPath.Child("additionalProperties"), opts)
	}
	return errs
}
