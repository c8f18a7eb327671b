package builtin

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/k8snames"
	"github.com/crdschema/crdschema/internal/metavalidation"
	"github.com/crdschema/crdschema/internal/release"
)

// The layers of checks, in the order the API server runs them (see the
// package documentation); Problem.Layer is one of them.
const (
	layerDecode      = "decode"
	layerSchema      = "schema"
	layerDeclarative = "declarative"
	layerMetadata    = "metadata"
)

// Problem is one validation error and the layer of checks that found it:
// "schema", "declarative" or "metadata" (see the package documentation).
type Problem struct {
	*crdschema.Error
	Layer string
}

// Result is the outcome of checking one object.
type Result struct {
	Kind Kind
	// DecodeError is the refusal of the body before validation (the API
	// server's 400 BadRequest), with the API server's text: a JSON type
	// or value the kind's Go types cannot hold, or, with
	// WithStrictFieldValidation, unknown and duplicate fields. Nil if the
	// body decodes; validation then does not run.
	DecodeError error
	// Errors are the validation errors found (the API server's 422
	// Invalid), in the order of the layers.
	Errors []Problem
	// UnknownFields are the paths of the fields the kind's Go types do
	// not have, sorted; DuplicateFields those a body (CreateJSON,
	// UpdateJSON) gives twice, in the body's order. Warnings by default,
	// refusals with WithStrictFieldValidation.
	UnknownFields, DuplicateFields []string
	// Warnings are the warnings the API server would send (unknown field
	// "spec.foo", duplicate field "spec.replicas"), and what server-side
	// apply would refuse (duplicate list-map keys), with their texts.
	Warnings []string

	name string
}

// Refused reports whether a check refused the object.
func (r *Result) Refused() bool { return r.DecodeError != nil || len(r.Errors) > 0 }

// Err returns the outcome as one error with the API server's text: nil
// when nothing was refused, the decoding error, or
// `Deployment.apps "web" is invalid: [...]`.
func (r *Result) Err() error {
	if r == nil {
		return nil
	}
	if r.DecodeError != nil {
		return r.DecodeError
	}
	if len(r.Errors) == 0 {
		return nil
	}
	list := make(crdschema.ErrorList, len(r.Errors))
	for i, p := range r.Errors {
		list[i] = p.Error
	}
	gk := r.Kind.Kind
	if r.Kind.Group != "" {
		gk += "." + r.Kind.Group
	}
	return &invalidError{GroupKind: gk, Name: r.name, Errors: list}
}

// invalidError is a refusal by validation, with the API server's text.
type invalidError struct {
	GroupKind string // Deployment.apps
	Name      string
	Errors    crdschema.ErrorList
}

func (e *invalidError) Error() string {
	return fmt.Sprintf("%s %q is invalid: %v", e.GroupKind, e.Name, e.Errors.ToAggregate())
}

// errNotServed is returned for an object whose apiVersion and kind the
// release does not serve (Lookup says which are).
var errNotServed = errors.New("kind not served by this release")

// Create checks an object as the API server reads and validates a create
// request (see the package documentation for what it covers). The object
// is not modified.
func (a *API) Create(obj map[string]any) (*Result, error) {
	return a.check(obj, nil, nil)
}

// Update checks obj as an update of the stored object old: as Create,
// and the metadata that may not change.
func (a *API) Update(obj, old map[string]any) (*Result, error) {
	if old == nil {
		old = map[string]any{}
	}
	return a.check(obj, old, nil)
}

// check checks obj, the decoded object, and body, the body as written
// (nil for a decoded object: the decoder then reads obj's keys sorted, as
// kubectl sends them).
func (a *API) check(obj, old map[string]any, body *bodyObject) (*Result, error) {
	apiVersion, _ := obj["apiVersion"].(string)
	kindName, _ := obj["kind"].(string)
	k, ok := a.Lookup(apiVersion, kindName)
	if !ok {
		return nil, fmt.Errorf("%w: %s %q, Kubernetes %s", errNotServed, "apiVersion "+apiVersion+" kind", kindName, a.release)
	}
	root := a.definition(k.Definition)
	if root == nil {
		return nil, fmt.Errorf("%w: no schema for %s", errNotServed, k.Definition)
	}
	r := &Result{Kind: k}
	r.name = nameOf(obj)

	// Decoding.
	var d decoder
	var in any = obj
	if body != nil {
		in = body
	}
	d.walk(in, root, nil, structName(root), "", "")
	if d.err != nil {
		r.DecodeError = a.decodeError(k, d.err)
		return r, nil
	}
	sort.Strings(d.unknown)
	r.UnknownFields, r.DuplicateFields = d.unknown, d.duplicates
	if len(d.strict) > 0 && a.strict {
		r.DecodeError = a.decodeError(k, errors.New("strict decoding error: "+strings.Join(d.strict, ", ")))
		return r, nil
	}
	r.Warnings = append(r.Warnings, d.strict...)

	// Metadata.
	r.Errors = append(r.Errors, a.checkMetadata(k, obj, old)...)

	// Schema (required fields and list-map keys) and declarative
	// validation, outside status (which the API server resets on create
	// and keeps on update) and metadata (checked above).
	s := schemaWalk{release: a.release, required: true, rules: a.rules, update: old != nil}
	s.walkObject(obj, old, root, nil, old != nil, true)
	for _, e := range s.errs {
		r.Errors = append(r.Errors, Problem{Error: e, Layer: layerSchema})
	}
	for _, e := range s.declErrs {
		r.Errors = append(r.Errors, Problem{Error: e, Layer: layerDeclarative})
	}
	r.Warnings = append(r.Warnings, s.warnings...)
	return r, nil
}

func (a *API) decodeError(k Kind, err error) error {
	return &decodeError{Kind: k.Kind, Version: k.Version, Err: err}
}

// decodeError is a refusal of the body before validation, with the API
// server's text: `Deployment in version "v1" cannot be handled as a
// Deployment: json: cannot unmarshal ...`.
type decodeError struct {
	Kind, Version string
	Err           error // the decoder's own error
}

func (e *decodeError) Error() string {
	return fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", e.Kind, e.Version, e.Kind, e.Err)
}

func (e *decodeError) Unwrap() error { return e.Err }

func nameOf(obj map[string]any) string {
	m, _ := obj["metadata"].(map[string]any)
	n, _ := m["name"].(string)
	return n
}

// generatedSuffix stands for the five random characters the API server
// appends to generateName (all of them valid in every name rule).
const generatedSuffix = "bcdfg"

func (a *API) checkMetadata(k Kind, obj, old map[string]any) []Problem {
	meta, err := metavalidation.DecodeObjectMeta(obj["metadata"])
	if err != nil {
		return nil // the decoding layer has reported it
	}
	// What the store does before validation: the namespace, a generated
	// name.
	storedNamespace(meta, k)
	if meta.Name == "" && generatesName[[2]string{k.Group, k.Kind}] {
		meta.Name = "generated"
	}
	if meta.Name == "" && meta.GenerateName != "" {
		meta.Name = k8snames.GeneratedName(meta.GenerateName, generatedSuffix)
	}
	path := crdschema.NewPath("metadata")
	var errs crdschema.ErrorList
	if old == nil {
		errs = metavalidation.ValidateObjectMeta(meta, k.Namespaced, nameRule(k), path)
	} else {
		oldMeta, err := metavalidation.DecodeObjectMeta(old["metadata"])
		if err != nil {
			oldMeta = &crdschema.ObjectMeta{}
		}
		storedNamespace(oldMeta, k)
		// What the store carries over from the stored object.
		if meta.ResourceVersion == "" {
			meta.ResourceVersion = oldMeta.ResourceVersion
			if meta.ResourceVersion == "" {
				meta.ResourceVersion, oldMeta.ResourceVersion = "1", "1"
			}
		}
		meta.UID = cmp.Or(meta.UID, oldMeta.UID)
		meta.Generation = oldMeta.Generation
		meta.CreationTimestamp = oldMeta.CreationTimestamp
		meta.DeletionTimestamp = cmp.Or(oldMeta.DeletionTimestamp, meta.DeletionTimestamp)
		meta.DeletionGracePeriodSeconds = cmp.Or(meta.DeletionGracePeriodSeconds, oldMeta.DeletionGracePeriodSeconds)
		errs = metavalidation.ValidateObjectMeta(meta, k.Namespaced, nameRule(k), path)
		errs = append(errs, metavalidation.ValidateObjectMetaUpdate(meta, oldMeta, path)...)
	}
	out := make([]Problem, len(errs))
	for i, e := range errs {
		out[i] = Problem{Error: e, Layer: layerMetadata}
	}
	return out
}

// storedNamespace sets the namespace the store gives an object of kind k:
// the request's (kubectl's "default" when the object names none) for a
// namespaced kind, none for a cluster-scoped one.
func storedNamespace(meta *crdschema.ObjectMeta, k Kind) {
	switch {
	case !k.Namespaced:
		meta.Namespace = ""
	case meta.Namespace == "":
		meta.Namespace = "default"
	}
}

// schemaWalk checks the required fields of the published schema, the
// keys of list-map lists and the declarative validation rules.
type schemaWalk struct {
	release  release.Minor
	required bool                         // check required fields (see requiredSince)
	update   bool                         // an update: old values are given
	rules    map[string]map[string][]rule // declarative validation, by definition and property
	errs     crdschema.ErrorList
	declErrs crdschema.ErrorList
	warnings []string
}

// requiredSince are the properties (by definition and name) where a
// required field of the published schema is no sure refusal before a
// release, as the comparison with the API server's code shows
// (builtin/oracle): the property itself, or any field in its value, is
// not checked for presence before that release.
var requiredSince = map[[2]string]release.Minor{
	// Defaulted to rbac.authorization.k8s.io (1.33 to 1.36; the schema
	// of 1.37 does not require it).
	{"io.k8s.api.rbac.v1.RoleRef", "apiGroup"}: 38,
	// The pod template of a StatefulSet was validated only in part
	// (labels, restart policy) in 1.33.
	{"io.k8s.api.apps.v1.StatefulSetSpec", "template"}: 34,
}

func (s *schemaWalk) walk(v, old any, hasOld bool, n *node, path *crdschema.Path) {
	if v == nil || n == nil || n.special != plain {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		om, _ := old.(map[string]any)
		if n.props == nil {
			if n.additional != nil {
				for _, k := range slices.Sorted(maps.Keys(x)) {
					ov, ok := om[k]
					s.walk(x[k], ov, ok, n.additional, path.Key(k))
				}
			}
			return
		}
		s.walkObject(x, om, n, path, hasOld && om != nil, false)
	case []any:
		if n.listType == "map" && len(n.listMapKeys) > 0 {
			s.listMapKeys(x, n, path)
		}
		ol, _ := old.([]any)
		for i, e := range x {
			var oe any
			if i < len(ol) {
				oe = ol[i]
			}
			s.walk(e, oe, hasOld && i < len(ol), n.items, path.Index(i))
		}
	}
}

// walkObject checks the properties of an object; at the root, status
// and metadata are left out.
func (s *schemaWalk) walkObject(x, old map[string]any, n *node, path *crdschema.Path, hasOld, root bool) {
	skip := func(name string) bool { return root && (name == "status" || name == "metadata") }
	exempt := func(name string) bool {
		since, ok := requiredSince[[2]string{n.ref, name}]
		return ok && s.release < since
	}
	for _, name := range n.required {
		if s.required && !skip(name) && !exempt(name) && x[name] == nil && scalar(n.props[name]) {
			s.errs = append(s.errs, crdschema.Required(path.Child(name), ""))
		}
	}
	rules := s.rules[n.ref]
	for _, k := range slices.Sorted(maps.Keys(x)) {
		if skip(k) {
			continue
		}
		ov, ok := old[k]
		ok = ok && hasOld
		if rs := rules[k]; len(rs) > 0 {
			s.declarative(rs, x[k], ov, ok, path.Child(k))
		}
		if p := n.props[k]; p != nil {
			required := s.required
			s.required = required && !exempt(k)
			s.walk(x[k], ov, ok, p, path.Child(k))
			s.required = required
		}
	}
}

// listMapKeys warns about items with the same keys: the API server
// accepts them on create and update, server-side apply does not.
func (s *schemaWalk) listMapKeys(l []any, n *node, path *crdschema.Path) {
	seen := map[string]bool{}
	for i, e := range l {
		m, ok := e.(map[string]any)
		if !ok {
			continue
		}
		key := make([]any, len(n.listMapKeys))
		for j, k := range n.listMapKeys {
			key[j] = m[k]
		}
		id := jsonvalue.Format(key)
		if seen[id] {
			s.warnings = append(s.warnings, fmt.Sprintf("%s: duplicate entries for key %s: server-side apply would refuse this object", path.Index(i), describeKey(n.listMapKeys, key)))
		}
		seen[id] = true
	}
}

func describeKey(names []string, values []any) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + "=" + jsonvalue.Format(values[i])
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// scalar reports whether a required field is one whose absence the API
// server refuses: a string, number or boolean. A missing struct, list or
// map decodes as its zero value, which defaulting or the hand-written
// validation may accept (a CSIDriver without spec, a LimitRange without
// limits), so it is not refused here.
func scalar(n *node) bool {
	if n == nil || n.special != plain {
		return false
	}
	switch n.typ {
	case "string", "integer", "number", "boolean":
		return true
	}
	return false
}
