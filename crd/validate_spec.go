package crd

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/apiextensions"
	"github.com/crdschema/crdschema/internal/k8snames"
)

// validateSpec checks spec in the API server's order.
func validateSpec(spec *internalSpec, opts validationOptions, c *config, fldPath *crdschema.Path) crdschema.ErrorList {
	var errs crdschema.ErrorList

	if spec.group == "" {
		errs = append(errs, crdschema.Required(fldPath.Child("group"), ""))
	} else if msgs := k8snames.IsDNS1123Subdomain(spec.group); len(msgs) > 0 {
		errs = append(errs, crdschema.Invalid(fldPath.Child("group"), spec.group, strings.Join(msgs, ",")))
	} else if !strings.Contains(spec.group, ".") {
		errs = append(errs, crdschema.Invalid(fldPath.Child("group"), spec.group, "should be a domain with at least one dot"))
	}

	errs = append(errs, validateEnum(fldPath.Child("scope"), string(spec.scope), []string{string(crdschema.ClusterScoped), string(crdschema.NamespaceScoped)})...)

	// pruning needs structural schemas
	if !spec.preserveUnknownFields {
		opts.requireStructuralSchema = true
	}

	if spec.validation == nil || spec.validation.OpenAPIV3Schema == nil {
		for i, v := range spec.versions {
			if v.schema != nil && v.schema.OpenAPIV3Schema != nil {
				continue
			}
			p := fldPath.Child("versions").Index(i).Child("schema", "openAPIV3Schema")
			if opts.requireOpenAPISchema {
				errs = append(errs, crdschema.Required(p, ""))
			} else if !spec.preserveUnknownFields && v.served {
				errs = append(errs, crdschema.Required(p, "because otherwise all fields are pruned"))
			}
		}
	}
	if opts.allowDefaults && spec.hasDefaults {
		opts.requireStructuralSchema = true
		if spec.preserveUnknownFields {
			errs = append(errs, crdschema.Invalid(fldPath.Child("preserveUnknownFields"), true, "must be false in order to use defaults in the schema"))
		}
	}
	if !opts.requireStructuralSchema && spec.schemas(hasKubernetesExtensions) {
		opts.requireStructuralSchema = true
	}

	storageCount := 0
	seen := make(map[string]bool, len(spec.versions))
	unique := true
	for i := range spec.versions {
		v := &spec.versions[i]
		if v.storage {
			storageCount++
		}
		if seen[v.name] {
			unique = false
		}
		seen[v.name] = true
		vp := fldPath.Child("versions").Index(i)
		if msgs := k8snames.IsDNS1035Label(v.name); len(msgs) > 0 {
			errs = append(errs, crdschema.Invalid(vp.Child("name"), v.name, strings.Join(msgs, ",")))
		}
		statusEnabled := hasStatusEnabled(spec.subresourcesForVersion(v.name))
		errs = append(errs, validateVersion(v, vp, statusEnabled, opts, c)...)
	}

	// The checks that top-level and per-version fields exclude each other,
	// and that per-version fields are not all identical, cannot fail for
	// a v1 CRD: its conversion to the internal form hoists identical
	// values and leaves per-version values otherwise.

	if !unique {
		errs = append(errs, crdschema.Invalid(fldPath.Child("versions"), versionsValue(spec), "must contain unique version names"))
	}
	if storageCount != 1 {
		errs = append(errs, crdschema.Invalid(fldPath.Child("versions"), versionsValue(spec), "must have exactly one version marked as storage version"))
	}
	// spec.version is versions[0].name by construction, so it always
	// matches the first version; its name is checked a second time.
	if spec.version != "" {
		if msgs := k8snames.IsDNS1035Label(spec.version); len(msgs) > 0 {
			errs = append(errs, crdschema.Invalid(fldPath.Child("version"), spec.version, strings.Join(msgs, ",")))
		}
	}

	names := fldPath.Child("names")
	for _, n := range [...]struct{ field, value string }{
		{"plural", spec.names.Plural}, {"singular", spec.names.Singular}, {"kind", spec.names.Kind}, {"listKind", spec.names.ListKind},
	} {
		if n.value == "" {
			errs = append(errs, crdschema.Required(names.Child(n.field), ""))
		}
	}
	errs = append(errs, validateNames(&spec.names, names)...)

	errs = append(errs, validateSchema(spec.validation, spec.hasAnyStatusEnabled(), opts.forVersion(spec.version), c, fldPath.Child("validation"))...)
	errs = append(errs, validateSubresources(spec.subresources, fldPath.Child("subresources"))...)
	for i := range spec.additionalPrinterColumns {
		errs = append(errs, validateColumn(&spec.additionalPrinterColumns[i], fldPath.Child("additionalPrinterColumns").Index(i))...)
	}
	if len(spec.selectableFields) > 0 {
		if spec.validation == nil {
			errs = append(errs, crdschema.Invalid(fldPath.Child("selectableFields"), "", "may only be set when validations.schema is included"))
		} else {
			ss, err := c.structurals.of(spec.validation.OpenAPIV3Schema)
			if err != nil {
				// The API server's path, sic. It goes on with no
				// schema and crashes (an internal error); here the
				// fields are reported as not found instead.
				errs = append(errs, crdschema.Invalid(fldPath.Child("schema.openAPIV3Schema"), "", err.Error()))
			}
			errs = append(errs, validateSelectableFields(spec.selectableFields, ss, fldPath.Child("selectableFields"), opts, "")...)
		}
	}

	if spec.conversion != nil && spec.conversion.strategy != crdschema.NoneConverter && spec.preserveUnknownFields {
		errs = append(errs, crdschema.Invalid(fldPath.Child("conversion", "strategy"), string(spec.conversion.strategy), "must be None if spec.preserveUnknownFields is true"))
	}
	errs = append(errs, validateConversion(spec.conversion, opts, fldPath.Child("conversion"))...)
	return errs
}

// versionsValue is the bad value printed for errors on spec.versions.
func versionsValue(spec *internalSpec) any {
	var l []crdschema.CustomResourceDefinitionVersion
	if spec.versions != nil {
		l = make([]crdschema.CustomResourceDefinitionVersion, len(spec.versions))
	}
	for i, v := range spec.versions {
		l[i] = crdschema.CustomResourceDefinitionVersion{
			Name:                     v.name,
			Served:                   v.served,
			Storage:                  v.storage,
			Deprecated:               v.deprecated,
			DeprecationWarning:       v.deprecationWarning,
			Schema:                   v.schema,
			Subresources:             v.subresources,
			AdditionalPrinterColumns: v.additionalPrinterColumns,
			SelectableFields:         v.selectableFields,
		}
	}
	return apiextensions.Versions(l)
}

// validateVersion checks one version: its deprecation warning, schema,
// subresources, printer columns and selectable fields.
func validateVersion(v *internalVersion, fldPath *crdschema.Path, statusEnabled bool, opts validationOptions, c *config) crdschema.ErrorList {
	var errs crdschema.ErrorList
	for _, msg := range deprecationWarningProblems(v.deprecated, v.deprecationWarning) {
		// The API server shows the pointer: JSON, not a quoted Go string.
		errs = append(errs, crdschema.Invalid(fldPath.Child("deprecationWarning"), v.deprecationWarning, msg))
	}
	errs = append(errs, validateSchema(v.schema, statusEnabled, opts.forVersion(v.name), c, fldPath.Child("schema"))...)
	errs = append(errs, validateSubresources(v.subresources, fldPath.Child("subresources"))...)
	for i := range v.additionalPrinterColumns {
		errs = append(errs, validateColumn(&v.additionalPrinterColumns[i], fldPath.Child("additionalPrinterColumns").Index(i))...)
	}
	if len(v.selectableFields) > 0 {
		if v.schema == nil || v.schema.OpenAPIV3Schema == nil {
			errs = append(errs, crdschema.Invalid(fldPath.Child("selectableFields"), "", "may only be set when `version.schema.openAPIV3Schema` is not included"))
		} else {
			ss, err := c.structurals.of(v.schema.OpenAPIV3Schema)
			if err != nil {
				// The API server goes on with no schema and crashes
				// (the request fails with an internal error); here the
				// fields are reported as not found instead.
				errs = append(errs, crdschema.Invalid(fldPath.Child("schema.openAPIV3Schema"), "", err.Error()))
			}
			errs = append(errs, validateSelectableFields(v.selectableFields, ss, fldPath.Child("selectableFields"), opts, v.name)...)
		}
	}
	return errs
}

// maxDeprecationWarningLength is the longest deprecationWarning, in bytes.
const maxDeprecationWarningLength = 256

func deprecationWarningProblems(deprecated bool, warning *string) []string {
	if !deprecated && warning != nil {
		return []string{"can only be set for deprecated versions"}
	}
	if warning == nil {
		return nil
	}
	w := *warning
	var msgs []string
	if len(w) > maxDeprecationWarningLength {
		msgs = append(msgs, "must be <= 256 characters long")
	}
	if len(w) == 0 {
		msgs = append(msgs, "must not be an empty string")
	}
	for i, r := range w {
		if !unicode.IsPrint(r) {
			msgs = append(msgs, fmt.Sprintf("must only contain printable UTF-8 characters; non-printable character found at index %d", i))
			break
		}
		if unicode.IsControl(r) {
			msgs = append(msgs, fmt.Sprintf("must only contain printable UTF-8 characters; control character found at index %d", i))
			break
		}
	}
	if !utf8.ValidString(w) {
		msgs = append(msgs, "must only contain printable UTF-8 characters")
	}
	return msgs
}

// validateEnum requires value to be one of accepted.
func validateEnum(fldPath *crdschema.Path, value string, accepted []string) crdschema.ErrorList {
	if value == "" {
		return crdschema.ErrorList{crdschema.Required(fldPath, "")}
	}
	if slices.Contains(accepted, value) {
		return nil
	}
	return crdschema.ErrorList{crdschema.NotSupported(fldPath, value, accepted)}
}

func hasKubernetesExtensions(s *crdschema.JSONSchemaProps) bool {
	return schemaHas(s, func(s crdschema.JSONSchemaProps) bool {
		return s.XEmbeddedResource || s.XPreserveUnknownFields != nil || s.XIntOrString ||
			len(s.XListMapKeys) > 0 || s.XListType != nil || len(s.XValidations) > 0
	})
}

// validateSpecUpdate checks spec as an update of oldSpec.
func validateSpecUpdate(spec, oldSpec *internalSpec, opts validationOptions, c *config, fldPath *crdschema.Path) crdschema.ErrorList {
	errs := validateSpec(spec, opts, c, fldPath)
	if opts.requireImmutableNames {
		if spec.scope != oldSpec.scope {
			errs = append(errs, crdschema.Invalid(fldPath.Child("scope"), string(spec.scope), fieldImmutable))
		}
		if spec.names.Kind != oldSpec.names.Kind {
			errs = append(errs, crdschema.Invalid(fldPath.Child("names", "kind"), spec.names.Kind, fieldImmutable))
		}
	}
	if spec.group != oldSpec.group {
		errs = append(errs, crdschema.Invalid(fldPath.Child("group"), spec.group, fieldImmutable))
	}
	if spec.names.Plural != oldSpec.names.Plural {
		errs = append(errs, crdschema.Invalid(fldPath.Child("names", "plural"), spec.names.Plural, fieldImmutable))
	}
	return errs
}

const fieldImmutable = "field is immutable"

// validateStatus checks the accepted names of the status.
func validateStatus(status *internalStatus, fldPath *crdschema.Path) crdschema.ErrorList {
	return validateNames(&status.acceptedNames, fldPath.Child("acceptedNames"))
}

// validateStoredVersions requires the storage version among the stored
// versions, and every stored version among the versions.
func validateStoredVersions(stored []string, versions []internalVersion, fldPath *crdschema.Path) crdschema.ErrorList {
	if len(stored) == 0 {
		return crdschema.ErrorList{crdschema.Invalid(fldPath, stored, "must have at least one stored version")}
	}
	var errs crdschema.ErrorList
	index := make(map[string]int, len(stored))
	for i, v := range stored {
		index[v] = i
	}
	for _, v := range versions {
		_, ok := index[v.name]
		if v.storage && !ok {
			errs = append(errs, crdschema.Invalid(fldPath, stored, "must have the storage version "+v.name))
		}
		if ok {
			delete(index, v.name)
		}
	}
	// Upstream reports the leftovers in map order; report them in the
	// order of the list.
	for i, v := range stored {
		if j, ok := index[v]; ok && j == i {
			errs = append(errs, crdschema.Invalid(fldPath.Index(i), v, fmt.Sprintf("missing from spec.versions; %[1]s was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in %[1]s and removes %[1]s from status.storedVersions", v)))
		}
	}
	return errs
}
