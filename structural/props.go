package structural

import (
	"slices"
	"strings"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/apiextensions"
	"github.com/crdschema/crdschema/internal/pathstack"
)

// ValidateProps reports every violation of the schema restrictions the API
// server applies to a CRD's openAPIV3Schema p at fldPath (for example
// spec.validation.openAPIV3Schema): unsupported keywords (id, $ref,
// definitions, dependencies, patternProperties, additionalItems, items as
// a list, type null, unknown types), defaults where they are not allowed
// (in top-level metadata, kind and apiVersion and inside
// additionalProperties below them), uniqueItems, additionalProperties
// together with properties, x-kubernetes-preserve-unknown-fields: false,
// the x-kubernetes-map-type, -list-type and -list-map-keys rules, and the
// hygiene of x-kubernetes-validations (rule, message, messageExpression,
// reason, fieldPath). p need not be structural.
//
// Errors come in the API server's order, except that sibling properties
// (and definitions and dependencies) are visited by name where the API
// server visits them in random order. p is not modified. Compiling the
// rules is package crd's business (with package celrules).
func ValidateProps(fldPath *crdschema.Path, p *crdschema.JSONSchemaProps, opts Options) crdschema.ErrorList {
	st := pathstack.New(fldPath) // paths are built for errors only
	defer st.Release()
	// Properties are walked in map order first: only errors need the
	// order of names, and most schemas have none.
	var w propsWalker
	for _, sorted := range [...]bool{false, true} {
		w = propsWalker{opts: opts, sorted: sorted}
		w.walk(p, &st, propsContext{allowDefaults: !opts.ForbidDefaults, defaultsReason: opts.ForbidDefaultsReason}, true)
		if len(w.errs) == 0 {
			break
		}
	}
	return w.errs
}

// propsContext is what a node inherits from its ancestors.
type propsContext struct {
	allowDefaults      bool
	defaultsReason     string
	insideResourceMeta bool
}

func (c propsContext) forbidDefaults(reason string) propsContext {
	c.allowDefaults = false
	c.defaultsReason = reason
	return c
}

type propsWalker struct {
	opts Options
	errs crdschema.ErrorList
	// sorted walks properties by name, the order of the errors.
	sorted bool
}

var openAPIV3Types = []string{"array", "boolean", "integer", "number", "object", "string"}

var reasons = []string{
	string(crdschema.ErrorTypeDuplicate),
	string(crdschema.ErrorTypeForbidden),
	string(crdschema.ErrorTypeInvalid),
	string(crdschema.ErrorTypeRequired),
}

// hasNewlines reports whether s holds a line break: what the API server's
// regular expression [\n\r]+ finds (a byte of a line break is never part
// of a longer UTF-8 sequence).
func hasNewlines(s string) bool { return strings.ContainsAny(s, "\n\r") }

// walk checks p and its subtree. It reports whether New would convert the
// subtree, which decides whether fieldPath is checked.
func (w *propsWalker) walk(p *crdschema.JSONSchemaProps, st *pathstack.Stack, ctx propsContext, isRoot bool) bool {
	if p == nil {
		return true
	}
	// The property being walked, copied out of its map: map values
	// cannot be addressed.
	var prop crdschema.JSONSchemaProps
	convertible := checkSupported(p) == nil &&
		(p.Items == nil || len(p.Items.JSONSchemas) == 0) &&
		(p.XPreserveUnknownFields == nil || *p.XPreserveUnknownFields)

	w.checkKeywords(p, st, ctx)
	if p.UniqueItems {
		w.errs = append(w.errs, crdschema.Forbidden(st.Path().Child("uniqueItems"), "uniqueItems cannot be set to true since the runtime complexity becomes quadratic"))
	}
	if ap := p.AdditionalProperties; ap != nil {
		if len(p.Properties) != 0 && (!ap.Allows || ap.Schema != nil) {
			w.errs = append(w.errs, crdschema.Forbidden(st.Path().Child("additionalProperties"), "additionalProperties and properties are mutual exclusive"))
		}
		sub := ctx
		if ctx.insideResourceMeta {
			sub = sub.forbidDefaults("inside additionalProperties applying to object metadata")
		}
		st.Child("additionalProperties")
		convertible = w.walk(ap.Schema, st, sub, false) && convertible
		st.Pop()
	}
	if len(p.Properties) != 0 {
		st.Child("properties")
		for k, prop := range eachProperty(p.Properties, w.sorted) {
			convertible = w.property(k, prop, st, ctx, isRoot || p.XEmbeddedResource, isRoot) && convertible
		}
		st.Pop()
	}
	if p.Not != nil {
		st.Child("not")
		convertible = w.walk(p.Not, st, ctx, false) && convertible
		st.Pop()
	}
	for _, j := range [...]struct {
		name string
		list []crdschema.JSONSchemaProps
	}{{"allOf", p.AllOf}, {"oneOf", p.OneOf}, {"anyOf", p.AnyOf}} {
		if len(j.list) == 0 {
			continue
		}
		st.Child(j.name)
		for i := range j.list {
			st.Index(i)
			convertible = w.walk(&j.list[i], st, ctx, false) && convertible
			st.Pop()
		}
		st.Pop()
	}
	if len(p.Definitions) != 0 {
		st.Child("definitions")
		for _, k := range sortedKeys(p.Definitions) {
			st.Key(k)
			prop = p.Definitions[k]
			w.walk(&prop, st, ctx, false)
			st.Pop()
		}
		st.Pop()
	}
	if p.Items != nil {
		st.Child("items")
		convertible = w.walk(p.Items.Schema, st, ctx, false) && convertible
		for i := range p.Items.JSONSchemas {
			s := &p.Items.JSONSchemas[i]
			st.Index(i)
			w.walk(s, st, ctx, false)
			st.Pop()
		}
		st.Pop()
	}
	if len(p.Dependencies) > 0 {
		st.Child("dependencies")
		for _, k := range sortedKeys(p.Dependencies) {
			st.Key(k)
			w.walk(p.Dependencies[k].Schema, st, ctx, false)
			st.Pop()
		}
		st.Pop()
	}

	w.checkExtensions(p, st)
	if !w.opts.AllowNullableListKeys {
		w.checkMapListKeys(p, st)
	}
	if len(p.XValidations) > 0 {
		w.checkRules(p, st.Path(), convertible)
	}
	return convertible
}

// checkKeywords reports the keywords a CRD schema may not use.
// property walks the property k, p, of an object: of a resource (the root
// when isRoot) when resource.
func (w *propsWalker) property(k string, p *crdschema.JSONSchemaProps, st *pathstack.Stack, ctx propsContext, resource, isRoot bool) bool {
	if resource && (k == "metadata" || k == "kind" || k == "apiVersion") {
		ctx.insideResourceMeta = true
		if isRoot {
			ctx = ctx.forbidDefaults("in top-level " + k)
		}
	}
	st.Key(k)
	defer st.Pop()
	return w.walk(p, st, ctx, false)
}

func (w *propsWalker) checkKeywords(p *crdschema.JSONSchemaProps, st *pathstack.Stack, ctx propsContext) {
	if !w.opts.AllowInvalidPropertyType && p.Type != "" && !slices.Contains(openAPIV3Types, p.Type) {
		w.errs = append(w.errs, crdschema.NotSupported(st.Path().Child("type"), p.Type, openAPIV3Types))
	}
	if p.Default != nil && p.Default.Value != nil && !ctx.allowDefaults {
		detail := "must not be set"
		if ctx.defaultsReason != "" {
			detail += " " + ctx.defaultsReason
		}
		w.errs = append(w.errs, crdschema.Forbidden(st.Path().Child("default"), detail))
	}
	if p.ID != "" {
		w.errs = append(w.errs, crdschema.Forbidden(st.Path().Child("id"), "id is not supported"))
	}
	if p.AdditionalItems != nil {
		w.errs = append(w.errs, crdschema.Forbidden(st.Path().Child("additionalItems"), "additionalItems is not supported"))
	}
	if len(p.PatternProperties) != 0 {
		w.errs = append(w.errs, crdschema.Forbidden(st.Path().Child("patternProperties"), "patternProperties is not supported"))
	}
	if len(p.Definitions) != 0 {
		w.errs = append(w.errs, crdschema.Forbidden(st.Path().Child("definitions"), "definitions is not supported"))
	}
	if p.Dependencies != nil {
		w.errs = append(w.errs, crdschema.Forbidden(st.Path().Child("dependencies"), "dependencies is not supported"))
	}
	if p.Ref != nil {
		w.errs = append(w.errs, crdschema.Forbidden(st.Path().Child("$ref"), "$ref is not supported"))
	}
	if p.Type == "null" {
		w.errs = append(w.errs, crdschema.Forbidden(st.Path().Child("type"), "type cannot be set to null, use nullable as an alternative"))
	}
	if p.Items != nil && len(p.Items.JSONSchemas) != 0 {
		w.errs = append(w.errs, crdschema.Forbidden(st.Path().Child("items"), "items must be a schema object and not an array"))
	}
	if ctx.insideResourceMeta && p.XEmbeddedResource {
		w.errs = append(w.errs, crdschema.Forbidden(st.Path().Child("x-kubernetes-embedded-resource"), "must not be used inside of resource meta"))
	}
}

// checkExtensions checks x-kubernetes-preserve-unknown-fields, -map-type,
// -list-type and -list-map-keys.
func (w *propsWalker) checkExtensions(p *crdschema.JSONSchemaProps, st *pathstack.Stack) {
	if p.XPreserveUnknownFields != nil && !*p.XPreserveUnknownFields {
		w.errs = append(w.errs, crdschema.Invalid(st.Path().Child("x-kubernetes-preserve-unknown-fields"), false, "must be true or undefined"))
	}
	if p.XMapType != nil && p.Type != "object" {
		w.errs = append(w.errs, typeError(st.Path(), p.Type, "must be object if x-kubernetes-map-type is specified"))
	}
	if p.XMapType != nil && *p.XMapType != "atomic" && *p.XMapType != "granular" {
		w.errs = append(w.errs, crdschema.NotSupported(st.Path().Child("x-kubernetes-map-type"), *p.XMapType, []string{"atomic", "granular"}))
	}

	if p.XListType != nil && p.Type != "array" {
		w.errs = append(w.errs, typeError(st.Path(), p.Type, "must be array if x-kubernetes-list-type is specified"))
	} else if !w.opts.AllowNonAtomicSetItems && p.XListType != nil && *p.XListType == "set" && p.Items != nil && p.Items.Schema != nil {
		const detail = "must be atomic as item of a list with x-kubernetes-list-type=set"
		is := p.Items.Schema
		switch is.Type {
		case "array":
			if is.XListType != nil && *is.XListType != "atomic" {
				// The value is the pointer, which prints as JSON.
				w.errs = append(w.errs, crdschema.Invalid(st.Path().Child("items", "x-kubernetes-list-type"), is.XListType, detail))
			}
		case "object":
			if is.XMapType == nil || *is.XMapType != "atomic" {
				// The API server reports the items' list type here.
				w.errs = append(w.errs, crdschema.Invalid(st.Path().Child("items", "x-kubernetes-map-type"), is.XListType, detail))
			}
		}
	}
	if p.XListType != nil && *p.XListType != "atomic" && *p.XListType != "set" && *p.XListType != "map" {
		w.errs = append(w.errs, crdschema.NotSupported(st.Path().Child("x-kubernetes-list-type"), *p.XListType, []string{"atomic", "set", "map"}))
	}

	if len(p.XListMapKeys) > 0 {
		const detail = "must be map if x-kubernetes-list-map-keys is non-empty"
		if p.XListType == nil {
			w.errs = append(w.errs, crdschema.Required(st.Path().Child("x-kubernetes-list-type"), detail))
		} else if *p.XListType != "map" {
			w.errs = append(w.errs, crdschema.Invalid(st.Path().Child("x-kubernetes-list-type"), *p.XListType, detail))
		}
	}
	if p.XListType == nil || *p.XListType != "map" {
		return
	}
	if len(p.XListMapKeys) == 0 {
		w.errs = append(w.errs, crdschema.Required(st.Path().Child("x-kubernetes-list-map-keys"), "must not be empty if x-kubernetes-list-type is map"))
	}
	if p.Items == nil {
		w.errs = append(w.errs, crdschema.Required(st.Path().Child("items"), "must have a schema if x-kubernetes-list-type is map"))
		return
	}
	is := p.Items.Schema
	if is == nil {
		w.errs = append(w.errs, crdschema.Invalid(st.Path().Child("items"), apiextensions.Items(&crdschema.JSONSchemaPropsOrArray{JSONSchemas: p.Items.JSONSchemas}), "must only have a single schema if x-kubernetes-list-type is map"))
		return
	}
	if is.Type != "object" {
		w.errs = append(w.errs, crdschema.Invalid(st.Path().Child("items", "type"), is.Type, "must be object if parent array's x-kubernetes-list-type is map"))
		return
	}
	seen := make(map[string]bool, len(p.XListMapKeys))
	for _, k := range p.XListMapKeys {
		if s, ok := is.Properties[k]; ok {
			if s.Type == "array" || s.Type == "object" {
				// The API server reports the items' type here.
				w.errs = append(w.errs, crdschema.Invalid(st.Path().Child("items", "properties").Key(k).Child("type"), is.Type, "must be a scalar type if parent array's x-kubernetes-list-type is map"))
			}
		} else {
			w.errs = append(w.errs, crdschema.Invalid(st.Path().Child("x-kubernetes-list-map-keys"), p.XListMapKeys, "entries must all be names of item properties"))
		}
		if seen[k] {
			w.errs = append(w.errs, crdschema.Invalid(st.Path().Child("x-kubernetes-list-map-keys"), p.XListMapKeys, "must not contain duplicate entries"))
		}
		seen[k] = true
	}
}

// checkMapListKeys checks that items of set and map lists are not
// nullable, and that map keys are not nullable and always present.
func (w *propsWalker) checkMapListKeys(p *crdschema.JSONSchemaProps, st *pathstack.Stack) {
	if p.Items == nil || p.Items.Schema == nil || p.XListType == nil {
		return
	}
	lt := *p.XListType
	if lt != "set" && lt != "map" {
		return
	}
	is := p.Items.Schema
	if is.Nullable {
		w.errs = append(w.errs, crdschema.Forbidden(st.Path().Child("items", "nullable"), "cannot be nullable when x-kubernetes-list-type is "+lt))
	}
	if lt != "map" {
		return
	}
	for _, k := range p.XListMapKeys {
		prop, ok := is.Properties[k]
		if !ok {
			continue
		}
		if !slices.Contains(is.Required, k) && (prop.Default == nil || prop.Default.Value == nil) {
			w.errs = append(w.errs, crdschema.Required(st.Path().Child("items", "properties").Key(k).Child("default"), "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"))
		}
		if prop.Nullable {
			w.errs = append(w.errs, crdschema.Forbidden(st.Path().Child("items", "properties").Key(k).Child("nullable"), "this property is in x-kubernetes-list-map-keys, so it cannot be nullable"))
		}
	}
}

// checkRules checks the x-kubernetes-validations of p without compiling
// them. convertible tells whether p converts with New; fieldPath is only
// checked then, as the API server does.
func (w *propsWalker) checkRules(p *crdschema.JSONSchemaProps, fldPath *crdschema.Path, convertible bool) {
	for i, r := range p.XValidations {
		path := fldPath.Child("x-kubernetes-validations").Index(i)
		rule := strings.TrimSpace(r.Rule)
		msg := strings.TrimSpace(r.Message)
		switch {
		case rule == "":
			w.errs = append(w.errs, crdschema.Required(path.Child("rule"), "rule is not specified"))
		case r.Message != "" && msg == "":
			w.errs = append(w.errs, crdschema.Invalid(path.Child("message"), r.Message, "must be non-empty if specified"))
		case hasNewlines(msg):
			w.errs = append(w.errs, crdschema.Invalid(path.Child("message"), r.Message, "must not contain line breaks"))
		case hasNewlines(rule) && msg == "":
			w.errs = append(w.errs, crdschema.Required(path.Child("message"), "message must be specified if rule contains line breaks"))
		}
		if r.MessageExpression != "" && strings.TrimSpace(r.MessageExpression) == "" {
			w.errs = append(w.errs, crdschema.Required(path.Child("messageExpression"), "messageExpression must be non-empty if specified"))
		}
		if r.Reason != nil && !slices.Contains(reasons, string(*r.Reason)) {
			w.errs = append(w.errs, crdschema.NotSupported(path.Child("reason"), apiextensions.FieldValueErrorReason(*r.Reason), reasons))
		}
		if r.FieldPath != "" && strings.TrimSpace(r.FieldPath) == "" {
			w.errs = append(w.errs, crdschema.Invalid(path.Child("fieldPath"), r.FieldPath, "must be non-empty if specified"))
		}
		if hasNewlines(r.FieldPath) {
			w.errs = append(w.errs, crdschema.Invalid(path.Child("fieldPath"), r.FieldPath, "must not contain line breaks"))
		}
		if r.FieldPath != "" && convertible {
			// The walk gets a copy: p may be on the caller's stack.
			root := *p
			if _, _, err := walkFieldPath[*crdschema.JSONSchemaProps](r.FieldPath, &root, propsNode{}, true); err != nil {
				w.errs = append(w.errs, crdschema.Invalid(path.Child("fieldPath"), r.FieldPath, "must be a valid path"))
			}
		}
	}
}
