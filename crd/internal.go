package crd

import (
	"slices"

	"github.com/crdschema/crdschema"
)

// The API server validates a CRD in its internal form, not in the v1 form a
// user writes. The conversion from v1 hoists every per-version field that is
// identical in all versions (schema, subresources, printer columns,
// selectable fields) to a single top-level field, so that error paths read
// spec.validation.openAPIV3Schema, spec.subresources,
// spec.additionalPrinterColumns[i] and spec.selectableFields[i] whenever the
// versions agree (always for a single version). The types below are that
// internal form, holding pointers into the (defaulted) input: they are
// never modified.

type internalCRD struct {
	meta   *crdschema.ObjectMeta
	spec   internalSpec
	status internalStatus
}

type internalSpec struct {
	group                    string
	version                  string // the name of versions[0]
	names                    crdschema.CustomResourceDefinitionNames
	scope                    crdschema.ResourceScope
	validation               *crdschema.CustomResourceValidation
	subresources             *crdschema.CustomResourceSubresources
	versions                 []internalVersion
	additionalPrinterColumns []crdschema.CustomResourceColumnDefinition
	selectableFields         []crdschema.SelectableField
	conversion               *internalConversion
	preserveUnknownFields    bool
	// hasDefaults tells whether a schema has a default (other than null).
	hasDefaults bool
}

type internalVersion struct {
	name                     string
	served                   bool
	storage                  bool
	deprecated               bool
	deprecationWarning       *string
	schema                   *crdschema.CustomResourceValidation
	subresources             *crdschema.CustomResourceSubresources
	additionalPrinterColumns []crdschema.CustomResourceColumnDefinition
	selectableFields         []crdschema.SelectableField
}

// internalConversion flattens spec.conversion.webhook into the conversion.
type internalConversion struct {
	strategy                 crdschema.ConversionStrategyType
	clientConfig             *crdschema.WebhookClientConfig
	conversionReviewVersions []string
}

type internalStatus struct {
	acceptedNames  crdschema.CustomResourceDefinitionNames
	storedVersions []string
	established    bool
}

// toInternal converts a defaulted v1 CRD into the internal form. Schemas
// with an explicit null default or example are replaced by copies without
// them: the API server's decoder drops such nulls. conv, if not nil,
// looks for them once per schema (crd.New builds the internal form for
// serving and for validation).
func toInternal(def *crdschema.CustomResourceDefinition, conv *structurals) *internalCRD {
	in := &internalCRD{meta: &def.ObjectMeta}
	s := &in.spec
	d := &def.Spec
	s.group = d.Group
	s.names = d.Names
	s.scope = d.Scope
	s.preserveUnknownFields = d.PreserveUnknownFields
	if c := d.Conversion; c != nil {
		ic := &internalConversion{strategy: c.Strategy}
		if c.Webhook != nil {
			ic.conversionReviewVersions = c.Webhook.ConversionReviewVersions
			ic.clientConfig = c.Webhook.ClientConfig
		}
		s.conversion = ic
	}
	in.status.acceptedNames = def.Status.AcceptedNames
	in.status.storedVersions = def.Status.StoredVersions
	for _, c := range def.Status.Conditions {
		if c.Type == crdschema.Established {
			in.status.established = c.Status == crdschema.ConditionTrue
		}
	}

	if len(d.Versions) == 0 {
		return in
	}
	s.versions = make([]internalVersion, len(d.Versions))
	for i := range d.Versions {
		v := &d.Versions[i]
		schema, defaults := conv.withoutNulls(v.Schema)
		s.hasDefaults = s.hasDefaults || defaults
		s.versions[i] = internalVersion{
			name:                     v.Name,
			served:                   v.Served,
			storage:                  v.Storage,
			deprecated:               v.Deprecated,
			deprecationWarning:       v.DeprecationWarning,
			schema:                   schema,
			subresources:             v.Subresources,
			additionalPrinterColumns: v.AdditionalPrinterColumns,
			selectableFields:         v.SelectableFields,
		}
	}
	s.version = s.versions[0].name

	hoist(s.versions, &s.validation, func(v *internalVersion) **crdschema.CustomResourceValidation { return &v.schema }, equalValidation)
	hoist(s.versions, &s.subresources, func(v *internalVersion) **crdschema.CustomResourceSubresources { return &v.subresources }, equalSubresources)
	hoist(s.versions, &s.additionalPrinterColumns, func(v *internalVersion) *[]crdschema.CustomResourceColumnDefinition {
		return &v.additionalPrinterColumns
	}, slices.Equal)
	hoist(s.versions, &s.selectableFields, func(v *internalVersion) *[]crdschema.SelectableField { return &v.selectableFields }, slices.Equal)
	return in
}

// hoist moves a field of the versions to the spec's top level (top) when
// all versions have it equal, and unsets it in the versions.
func hoist[T any](vs []internalVersion, top *T, field func(*internalVersion) *T, equal func(a, b T) bool) {
	for i := 1; i < len(vs); i++ {
		if !equal(*field(&vs[i]), *field(&vs[0])) {
			return
		}
	}
	*top = *field(&vs[0])
	for i := range vs {
		*field(&vs[i]) = *new(T)
	}
}

// schemaForVersion returns the schema that applies to the named version and
// the path under which errors in it are reported, or nils when the version
// does not exist or has no schema.
func (s *internalSpec) schemaForVersion(name string) (*crdschema.CustomResourceValidation, *crdschema.Path) {
	if s.validation != nil {
		for _, v := range s.versions {
			if v.name == name {
				return s.validation, crdschema.NewPath("spec", "validation")
			}
		}
		return nil, nil
	}
	for i, v := range s.versions {
		if v.name == name {
			return v.schema, crdschema.NewPath("spec", "versions").Index(i).Child("schema")
		}
	}
	return nil, nil
}

// subresourcesForVersion returns the subresources that apply to the named
// version.
func (s *internalSpec) subresourcesForVersion(name string) *crdschema.CustomResourceSubresources {
	if !hasPerVersionSubresources(s.versions) {
		return s.subresources
	}
	for _, v := range s.versions {
		if v.name == name {
			return v.subresources
		}
	}
	return nil
}

// schemas calls fn for every schema of the spec, top-level first.
func (s *internalSpec) schemas(fn func(*crdschema.JSONSchemaProps) bool) bool {
	has := func(v *crdschema.CustomResourceValidation) bool {
		return v != nil && v.OpenAPIV3Schema != nil && fn(v.OpenAPIV3Schema)
	}
	return has(s.validation) || slices.ContainsFunc(s.versions, func(v internalVersion) bool { return has(v.schema) })
}

func hasPerVersionSchema(vs []internalVersion) bool {
	return slices.ContainsFunc(vs, func(v internalVersion) bool { return v.schema != nil })
}

func hasPerVersionSubresources(vs []internalVersion) bool {
	return slices.ContainsFunc(vs, func(v internalVersion) bool { return v.subresources != nil })
}

func hasStatusEnabled(s *crdschema.CustomResourceSubresources) bool {
	return s != nil && s.Status != nil
}

func (s *internalSpec) hasAnyStatusEnabled() bool {
	return hasStatusEnabled(s.subresources) ||
		slices.ContainsFunc(s.versions, func(v internalVersion) bool { return hasStatusEnabled(v.subresources) })
}
