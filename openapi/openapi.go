package openapi

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/release"
	"github.com/go-openapi/spec"
)

// Options change what is published. The zero value publishes what the API
// server serves at /openapi/v2 and /openapi/v3.
type Options struct {
	// StripValueValidation publishes no value validations (format, bounds,
	// patterns, enum, required, junctors), like the API server's builder
	// option of the same name. Validation rules stay.
	StripValueValidation bool
	// StripNullable publishes no nullable, like the API server's builder
	// option of the same name.
	StripNullable bool
	// OmitSelectableFields leaves out x-kubernetes-selectable-fields, as the
	// API server's models for server-side apply do.
	OmitSelectableFields bool
	// KubernetesVersion publishes the documents as the API server of that
	// Kubernetes release does: its built-in definitions and parameters.
	// The zero value is the default, 1.37.
	KubernetesVersion crdschema.KubernetesVersion
}

// The definitions every document refers to.
const (
	objectMetaName    = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
	listMetaName      = "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta"
	statusName        = "io.k8s.apimachinery.pkg.apis.meta.v1.Status"
	deleteOptionsName = "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions"
	patchName         = "io.k8s.apimachinery.pkg.apis.meta.v1.Patch"
	scaleName         = "io.k8s.api.autoscaling.v1.Scale"
)

const (
	v2RefPrefix = "#/definitions/"
	v3RefPrefix = "#/components/schemas/"
	docTitle    = "Kubernetes CRD Swagger"
	docVersion  = "v0.1.0"
)

// resource is what the documents need to know about a CRD version.
type resource struct {
	group, version, kind, listKind, plural string
	namespaced                             bool
	status, scale                          bool
	preserveUnknownFields                  bool
	selectableFields                       []string
	schema                                 *crdschema.JSONSchemaProps
	release                                release.Minor       // the Kubernetes release publishing
	refs                                   map[string]spec.Ref // see v3Ref
}

// newResource returns what the documents need to know about a version of
// crd, published with opts, and the converter of its schemas for an
// OpenAPI v2 document, or with v2 false a v3 one.
func newResource(crd *crdschema.CustomResourceDefinition, version string, opts Options, v2 bool) (*resource, *converter, error) {
	if crd == nil {
		return nil, nil, fmt.Errorf("openapi: nil CustomResourceDefinition")
	}
	v := crd.Version(version)
	if v == nil {
		return nil, nil, fmt.Errorf("openapi: CustomResourceDefinition %q has no version %q", crd.Name, version)
	}
	r := &resource{
		group:                 crd.Spec.Group,
		version:               version,
		kind:                  crd.Spec.Names.Kind,
		listKind:              crd.Spec.Names.ListKind,
		plural:                crd.Spec.Names.Plural,
		namespaced:            crd.Spec.Scope == crdschema.NamespaceScoped,
		preserveUnknownFields: crd.Spec.PreserveUnknownFields,
		release:               release.Of(opts.KubernetesVersion),
	}
	if r.listKind == "" {
		r.listKind = r.kind + "List"
	}
	if v.Schema != nil {
		r.schema = v.Schema.OpenAPIV3Schema
	}
	if sr := v.Subresources; sr != nil {
		r.status = sr.Status != nil
		r.scale = sr.Scale != nil
	}
	for _, f := range v.SelectableFields {
		r.selectableFields = append(r.selectableFields, strings.TrimPrefix(f.JSONPath, "."))
	}
	c := &converter{v2: v2, stripValueValidation: opts.StripValueValidation, stripNullable: opts.StripNullable,
		refPrefix: v3RefPrefix, noExternalDocs: r.release < 36}
	if v2 {
		c.refPrefix = v2RefPrefix
	}
	return r, c, nil
}

// modelName is the definition name of a kind: the group's labels reversed,
// then the version and the kind (example.com, v1, Widget gives
// com.example.v1.Widget).
func modelName(group, version, kind string) string {
	parts := strings.Split(group, ".")
	slices.Reverse(parts)
	return strings.Join(parts, ".") + "." + version + "." + kind
}

// addExtensions adds the extensions of the kind or list kind named kind
// to its schema out.
func (r *resource) addExtensions(out *spec.Schema, kind string, opts Options) {
	out.AddExtension(extGroupVersionKind, []any{map[string]any{"group": r.group, "version": r.version, "kind": kind}})
	if !opts.OmitSelectableFields && len(r.selectableFields) > 0 {
		fields := make([]any, len(r.selectableFields))
		for i, f := range r.selectableFields {
			fields[i] = map[string]any{"fieldPath": f}
		}
		out.AddExtension(extSelectableFields, fields)
	}
}

// kindSchema is the published schema of the kind.
func (r *resource) kindSchema(c *converter, opts Options) spec.Schema {
	var out spec.Schema
	s := structuralSchema(r.schema)
	switch {
	case s == nil, c.v2 && (s.XPreserveUnknownFields || r.preserveUnknownFields):
		// Without a (structural) schema, or in v2 when unknown fields are
		// kept at the root, the kind is a bare object: properties would
		// make clients reject the fields they do not list.
		out.Type = spec.StringOrArray{"object"}
	default:
		out = c.schema(s)
		out.SetProperty("metadata", c.ref(objectMetaName, objectMetaDescription))
		out.SetProperty("apiVersion", stringSchema(typeMetaAPIVersionDescription))
		out.SetProperty("kind", stringSchema(typeMetaKindDescription))
		if s.XEmbeddedResource && !(c.v2 && s.XPreserveUnknownFields) {
			c.addEmbeddedFields(&out)
		}
	}
	r.addExtensions(&out, r.kind, opts)
	return out
}

// listSchema is the published schema of the list kind.
func (r *resource) listSchema(c *converter, opts Options) spec.Schema {
	items := spec.Schema{SchemaProps: spec.SchemaProps{
		Description: "List of " + r.plural + ". More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md",
		Type:        spec.StringOrArray{"array"},
		Items: &spec.SchemaOrArray{Schema: &spec.Schema{SchemaProps: spec.SchemaProps{
			Ref: spec.MustCreateRef(c.refPrefix + modelName(r.group, r.version, r.kind)),
		}}},
	}}
	out := spec.Schema{SchemaProps: spec.SchemaProps{
		Description: r.listKind + " is a list of " + r.kind,
		Type:        spec.StringOrArray{"object"},
		Required:    []string{"items"},
		Properties: spec.SchemaProperties{
			"items":      items,
			"metadata":   c.ref(listMetaName, listMetaDescription),
			"apiVersion": stringSchema(typeMetaAPIVersionDescription),
			"kind":       stringSchema(typeMetaKindDescription),
		},
	}}
	r.addExtensions(&out, r.listKind, opts)
	return out
}

// builtinDefinitions returns new copies of the v3 schemas of the built-in
// definitions that the document of r refers to, directly or not, by name.
func (r *resource) builtinDefinitions() map[string]*spec.Schema {
	b := r.builtins()
	defs := map[string]*spec.Schema{}
	var visit func(name string)
	visit = func(name string) {
		if defs[name] != nil {
			return
		}
		s, _ := b.v3(name)
		defs[name] = &s
		visitRefs(s, visit)
	}
	for _, n := range r.builtinRoots() {
		visit(n)
	}
	return defs
}

// visitRefs calls f with the name of every definition that s refers to.
// (s is a value: its copies stay on the stack.)
func visitRefs(s spec.Schema, f func(name string)) {
	if u := s.Ref.GetURL(); u != nil && u.Fragment != "" {
		f(strings.TrimPrefix(u.Fragment, strings.TrimPrefix(v3RefPrefix, "#")))
	}
	for _, p := range s.Properties {
		visitRefs(p, f)
	}
	for _, a := range s.AllOf {
		visitRefs(a, f)
	}
	if s.Items != nil && s.Items.Schema != nil {
		visitRefs(*s.Items.Schema, f)
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		visitRefs(*s.AdditionalProperties.Schema, f)
	}
}

// builtinRoots are the built-in definitions the document of r refers to.
func (r *resource) builtinRoots() []string {
	roots := []string{objectMetaName, listMetaName, statusName, deleteOptionsName, patchName}
	if r.scale {
		roots = append(roots, scaleName)
	}
	return roots
}

// V2 returns the OpenAPI v2 document that the API server merges into
// /openapi/v2 for the given version of crd, with defaults removed as the
// server removes them. crd is not modified.
//
// A version without a schema, or whose schema is not structural, is
// published as a bare object, as the API server does.
func V2(crd *crdschema.CustomResourceDefinition, version string, opts Options) (*spec.Swagger, error) {
	r, c, err := newResource(crd, version, opts, true)
	if err != nil {
		return nil, err
	}
	defs := spec.Definitions{
		modelName(r.group, r.version, r.kind):     r.kindSchema(c, opts),
		modelName(r.group, r.version, r.listKind): r.listSchema(c, opts),
	}
	for n, s := range r.builtinDefinitions() {
		v2Schema(s)
		defs[n] = *s
	}
	doc := &spec.Swagger{SwaggerProps: spec.SwaggerProps{
		Swagger:     "2.0",
		Info:        &spec.Info{InfoProps: spec.InfoProps{Title: docTitle, Version: docVersion}},
		Paths:       &spec.Paths{Paths: r.v2Paths()},
		Definitions: defs,
	}}
	shareParameters(doc)
	return doc, nil
}

// V3 returns the OpenAPI v3 document that the API server serves at
// /openapi/v3/apis/<group>/<version> for the given version of crd alone.
// crd is not modified.
//
// A version without a schema, or whose schema is not structural, is
// published as a bare object, as the API server does.
func V3(crd *crdschema.CustomResourceDefinition, version string, opts Options) (*Document, error) {
	r, c, err := newResource(crd, version, opts, false)
	if err != nil {
		return nil, err
	}
	kind, list := r.kindSchema(c, opts), r.listSchema(c, opts)
	schemas := map[string]*spec.Schema{
		modelName(r.group, r.version, r.kind):     &kind,
		modelName(r.group, r.version, r.listKind): &list,
	}
	maps.Copy(schemas, r.builtinDefinitions())
	return &Document{
		OpenAPI:    "3.0.0",
		Info:       &spec.Info{InfoProps: spec.InfoProps{Title: docTitle, Version: docVersion}},
		Paths:      r.v3Paths(),
		Components: Components{Schemas: schemas},
	}, nil
}
