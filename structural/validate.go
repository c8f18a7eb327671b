package structural

import (
	"regexp/syntax"
	"sort"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/pathstack"
)

// Options relax the checks of a schema: Validate's structural rules
// (the Allow...Nested... fields and AllowValidationPropertiesWith...) and
// ValidateProps' restrictions of a CRD's schema (the others). The zero
// value is what the API server enforces when a CRD is created; on update
// it relaxes the restrictions that the stored CRD already violated
// ("ratcheting"), which package crd works out.
type Options struct {
	// AllowNestedAdditionalProperties allows additionalProperties inside
	// allOf, anyOf, oneOf and not (Validate).
	AllowNestedAdditionalProperties bool
	// AllowNestedXValidations allows x-kubernetes-validations inside allOf
	// (never inside anyOf, oneOf or not) (Validate).
	AllowNestedXValidations bool
	// AllowValidationPropertiesWithAdditionalProperties allows a junctor to
	// validate a property that the structural part only specifies through
	// an additionalProperties schema (Validate).
	AllowValidationPropertiesWithAdditionalProperties bool

	// ForbidDefaults reports every default as "must not be set", followed
	// by ForbidDefaultsReason when that is not empty (ValidateProps).
	ForbidDefaults       bool
	ForbidDefaultsReason string
	// AllowInvalidPropertyType accepts a type other than array, boolean,
	// integer, number, object and string (ValidateProps).
	AllowInvalidPropertyType bool
	// AllowNonAtomicSetItems accepts items of an x-kubernetes-list-type:
	// set list that are not atomic (ValidateProps).
	AllowNonAtomicSetItems bool
	// AllowNullableListKeys accepts nullable items of set and map lists,
	// and map keys that are nullable or neither required nor defaulted
	// (ValidateProps).
	AllowNullableListKeys bool
}

// validateConfig is what one Validate call passes down: the options, and
// the patterns parsed so far with their errors (schemas repeat patterns a
// lot).
type validateConfig struct {
	Options
	patterns map[string]error
}

// level is where a node sits in its schema: it decides some texts.
type level int

const (
	rootLevel level = iota
	itemLevel
	fieldLevel
)

// Validate reports every violation of the structural rules in s, with the
// API server's paths (below fldPath) and texts, sorted by their Error()
// text as the API server sorts them:
//
//   - every node specifies a type, except int-or-string and
//     preserve-unknown-fields nodes; arrays specify items; the root is an
//     object without additionalProperties;
//   - allOf, anyOf, oneOf and not only validate: no type, default, title,
//     description, nullable, additionalProperties or x-kubernetes
//     extensions inside them, except the two int-or-string patterns;
//   - whatever a junctor validates (properties, items) is also specified
//     outside of it;
//   - metadata at the root only restricts name and generateName; embedded
//     resources are objects with properties or preserved fields; kind and
//     apiVersion are strings;
//   - every pattern is a valid regular expression.
//
// A nil s has no errors.
func Validate(fldPath *crdschema.Path, s *Schema, opts Options) crdschema.ErrorList {
	o := validateConfig{Options: opts, patterns: map[string]error{}}
	errs := crdschema.ErrorList{}
	// The walk keeps its location as a stack and builds paths for
	// errors only.
	st := pathstack.New(fldPath)
	defer st.Release()
	errs = validateInvariants(errs, s, rootLevel, &st, o)
	errs = validateCompleteness(errs, s, fldPath, o.Options)
	sortErrors(errs)
	return errs
}

// sortErrors sorts errs by their text, rendering each text once.
func sortErrors(errs crdschema.ErrorList) {
	if len(errs) < 2 {
		return
	}
	type keyed struct {
		key string
		err *crdschema.Error
	}
	ks := make([]keyed, len(errs))
	for i, e := range errs {
		ks[i] = keyed{e.Error(), e}
	}
	sort.SliceStable(ks, func(i, j int) bool { return ks[i].key < ks[j].key })
	for i := range ks {
		errs[i] = ks[i].err
	}
}

func validateInvariants(errs crdschema.ErrorList, s *Schema, lvl level, st *pathstack.Stack, opts validateConfig) crdschema.ErrorList {
	if s == nil {
		return errs
	}
	if s.Type == "array" && s.Items == nil {
		errs = append(errs, crdschema.Required(st.Path().Child("items"), "must be specified"))
	}
	if s.Items != nil {
		st.Child("items")
		errs = validateInvariants(errs, s.Items, itemLevel, st, opts)
		st.Pop()
	}
	if len(s.Properties) > 0 {
		st.Child("properties")
		// In map order: the errors are sorted at the end, and no two
		// nodes report the same text.
		for k, ps := range s.Properties {
			st.Key(k)
			errs = validateInvariants(errs, ps, fieldLevel, st, opts)
			st.Pop()
		}
		st.Pop()
	}
	if s.AdditionalProperties != nil {
		if lvl == rootLevel {
			errs = append(errs, crdschema.Forbidden(st.Path().Child("additionalProperties"), "must not be used at the root"))
		}
		st.Child("additionalProperties")
		errs = validateInvariants(errs, s.AdditionalProperties.Schema, fieldLevel, st, opts)
		st.Pop()
	}

	if s.XIntOrString && s.XPreserveUnknownFields {
		errs = append(errs, crdschema.Invalid(st.Path().Child("x-kubernetes-preserve-unknown-fields"), true, "must be false if x-kubernetes-int-or-string is true"))
	}
	if s.XIntOrString && s.XEmbeddedResource {
		errs = append(errs, crdschema.Invalid(st.Path().Child("x-kubernetes-embedded-resource"), true, "must be false if x-kubernetes-int-or-string is true"))
	}

	errs = validateValueValidation(errs, s.ValueValidation, s.hasIntOrStringAnyOf(), s.hasIntOrStringAllOf(), lvl, st, opts)

	checkMetadata := lvl == rootLevel || s.XEmbeddedResource
	if s.XEmbeddedResource && s.Type != "object" {
		errs = append(errs, typeError(st.Path(), s.Type, "must be object if x-kubernetes-embedded-resource is true"))
	} else if s.Type == "" && !s.XIntOrString && !s.XPreserveUnknownFields {
		switch lvl {
		case rootLevel:
			errs = append(errs, crdschema.Required(st.Path().Child("type"), "must not be empty at the root"))
		case itemLevel:
			errs = append(errs, crdschema.Required(st.Path().Child("type"), "must not be empty for specified array items"))
		case fieldLevel:
			errs = append(errs, crdschema.Required(st.Path().Child("type"), "must not be empty for specified object fields"))
		}
	}
	if s.XEmbeddedResource && s.AdditionalProperties != nil {
		errs = append(errs, crdschema.Forbidden(st.Path().Child("additionalProperties"), "must not be used if x-kubernetes-embedded-resource is set"))
	}
	if lvl == rootLevel && s.Type != "" && s.Type != "object" {
		errs = append(errs, crdschema.Invalid(st.Path().Child("type"), s.Type, "must be object at the root"))
	}

	if checkMetadata {
		for _, name := range [...]string{"kind", "apiVersion"} {
			if p, ok := s.Properties[name]; ok {
				typ := ""
				if p != nil {
					typ = p.Type
				}
				if typ != "string" {
					errs = append(errs, crdschema.Invalid(st.Path().Child("properties").Key(name).Child("type"), typ, "must be string"))
				}
			}
		}
	}
	if m, ok := s.Properties["metadata"]; ok {
		st.Child("properties")
		st.Key("metadata")
		errs = validateMetadata(errs, m, checkMetadata, lvl, st)
		st.Pop()
		st.Pop()
	}
	if s.XEmbeddedResource && !s.XPreserveUnknownFields && len(s.Properties) == 0 {
		errs = append(errs, crdschema.Required(st.Path().Child("properties"), "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"))
	}
	return errs
}

// typeError reports that the type of the node at path, typ, is not the
// one detail names: Required when there is none, Invalid otherwise.
func typeError(path *crdschema.Path, typ, detail string) *crdschema.Error {
	if typ == "" {
		return crdschema.Required(path.Child("type"), detail)
	}
	return crdschema.Invalid(path.Child("type"), typ, detail)
}

// validateMetadata checks the schema of a metadata property. At the root,
// it may only restrict name and generateName (its type and default are
// checked elsewhere).
func validateMetadata(errs crdschema.ErrorList, m *Schema, checkMetadata bool, lvl level, st *pathstack.Stack) crdschema.ErrorList {
	if m == nil {
		m = &Schema{}
	}
	if checkMetadata && m.Type != "object" {
		errs = append(errs, crdschema.Invalid(st.Path().Child("type"), m.Type, "must be object"))
	}
	if lvl != rootLevel {
		return errs
	}
	props := len(m.Properties)
	_, name := m.Properties["name"]
	_, generateName := m.Properties["generateName"]
	onlyNames := (name && generateName && props == 2) || ((name || generateName) && props == 1)
	g := m.Generic
	g.Type = ""
	g.Default = nil
	restricted := !g.isZero() || !m.Extensions.isZero() || m.XValidations != nil ||
		m.Items != nil || m.AdditionalProperties != nil ||
		(m.ValueValidation != nil && !m.ValueValidation.isZero()) ||
		(m.Properties != nil && !onlyNames)
	if restricted {
		errs = append(errs, crdschema.Forbidden(st.Path(), "must not specify anything other than name and generateName, but metadata is implicitly specified"))
	}
	return errs
}

// validateValueValidation checks the junctors of v and its pattern.
func validateValueValidation(errs crdschema.ErrorList, v *ValueValidation, skipAnyOf, skipFirstAllOfAnyOf bool, lvl level, st *pathstack.Stack, opts validateConfig) crdschema.ErrorList {
	if v == nil {
		return errs
	}
	// Rules are only ever allowed inside allOf.
	noCEL := opts
	noCEL.AllowNestedXValidations = false
	if !skipAnyOf {
		errs = validateNestedList(errs, v.AnyOf, "anyOf", false, lvl, st, noCEL)
	}
	errs = validateNestedList(errs, v.AllOf, "allOf", skipFirstAllOfAnyOf, lvl, st, opts)
	errs = validateNestedList(errs, v.OneOf, "oneOf", false, lvl, st, noCEL)
	if v.Not != nil {
		st.Child("not")
		errs = validateNested(errs, v.Not, false, lvl, st, noCEL)
		st.Pop()
	}
	if v.Pattern != "" {
		// Parsing is all of regexp.Compile that can fail, and gives the
		// same errors at a fraction of the cost.
		err, seen := opts.patterns[v.Pattern]
		if !seen {
			_, err = syntax.Parse(v.Pattern, syntax.Perl)
			opts.patterns[v.Pattern] = err
		}
		if err != nil {
			errs = append(errs, crdschema.Invalid(st.Path().Child("pattern"), v.Pattern, "must be a valid regular expression, but isn't: "+err.Error()))
		}
	}
	return errs
}

// validateNested reports the shaping keywords used under a junctor.
func validateNested(errs crdschema.ErrorList, v *NestedValueValidation, skipAnyOf bool, lvl level, st *pathstack.Stack, opts validateConfig) crdschema.ErrorList {
	if v == nil {
		return errs
	}
	errs = validateValueValidation(errs, &v.ValueValidation, skipAnyOf, false, lvl, st, opts)
	if v.Items != nil {
		st.Child("items")
		errs = validateNested(errs, v.Items, false, lvl, st, opts)
		st.Pop()
	}
	if len(v.Properties) > 0 {
		st.Child("properties")
		for k, ps := range v.Properties {
			st.Key(k)
			errs = validateNested(errs, ps, false, fieldLevel, st, opts)
			st.Pop()
		}
		st.Pop()
	}

	const (
		mustBeEmpty     = "must be empty to be structural"
		mustBeUndefined = "must be undefined to be structural"
		mustBeFalse     = "must be false to be structural"
	)
	g, x := &v.ForbiddenGenerics, &v.ForbiddenExtensions
	if g.Type != "" {
		errs = append(errs, crdschema.Forbidden(st.Path().Child("type"), mustBeEmpty))
	}
	if v.AdditionalProperties != nil && !opts.AllowNestedAdditionalProperties {
		errs = append(errs, crdschema.Forbidden(st.Path().Child("additionalProperties"), mustBeUndefined))
	} else {
		st.Child("additionalProperties")
		errs = validateNested(errs, v.AdditionalProperties, false, lvl, st, opts)
		st.Pop()
	}
	for _, k := range [...]struct {
		set             bool
		keyword, detail string
	}{
		{g.Default != nil, "default", mustBeUndefined},
		{g.Title != "", "title", mustBeEmpty},
		{g.Description != "", "description", mustBeEmpty},
		{g.Nullable, "nullable", mustBeFalse},
		{x.XPreserveUnknownFields, "x-kubernetes-preserve-unknown-fields", mustBeFalse},
		{x.XEmbeddedResource, "x-kubernetes-embedded-resource", mustBeFalse},
		{x.XIntOrString, "x-kubernetes-int-or-string", mustBeFalse},
		{len(x.XListMapKeys) > 0, "x-kubernetes-list-map-keys", mustBeEmpty},
		{x.XListType != nil, "x-kubernetes-list-type", mustBeUndefined},
		{x.XMapType != nil, "x-kubernetes-map-type", mustBeUndefined},
	} {
		if k.set {
			errs = append(errs, crdschema.Forbidden(st.Path().Child(k.keyword), k.detail))
		}
	}
	if len(v.XValidations) > 0 && !opts.AllowNestedXValidations {
		errs = append(errs, crdschema.Forbidden(st.Path().Child("x-kubernetes-validations"), mustBeEmpty))
	}
	if _, ok := v.Properties["metadata"]; ok {
		errs = append(errs, crdschema.Forbidden(st.Path().Child("properties").Key("metadata"), "must not be specified in a nested context"))
	}
	return errs
}

// validateNestedList checks the schemas of the junctor named name; with
// skipFirstAnyOf, the anyOf of the first is skipped.
func validateNestedList(errs crdschema.ErrorList, list []NestedValueValidation, name string, skipFirstAnyOf bool, lvl level, st *pathstack.Stack, opts validateConfig) crdschema.ErrorList {
	if len(list) == 0 {
		return errs
	}
	st.Child(name)
	for i := range list {
		st.Index(i)
		errs = validateNested(errs, &list[i], skipFirstAnyOf && i == 0, lvl, st, opts)
		st.Pop()
	}
	st.Pop()
	return errs
}
