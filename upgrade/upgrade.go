package upgrade

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/internal/crdoptions"
	"github.com/crdschema/crdschema/internal/jsonvalue"
)

// Verdict is what a CRD update does to one stored object.
type Verdict string

// The verdicts, from the best to the worst; an object gets the worst that
// applies.
const (
	Valid         Verdict = "valid"
	Ratcheted     Verdict = "ratcheted"
	ChangedOnRead Verdict = "changedOnRead"
	Blocked       Verdict = "blocked"
	Unreadable    Verdict = "unreadable"
)

// Report is the outcome of Check for one CRD.
type Report struct {
	// Name is the CRD's name.
	Name string
	// Errors are the API server's reasons to refuse the new CRD as an
	// update of the stored one; the update is accepted when there are none.
	Errors crdschema.ErrorList
	// Hazards are the stored-version hazards of the update.
	Hazards []Hazard
	// SchemaChanges are the changes of the schemas of the stored versions
	// that can affect stored objects, whether or not any object is given.
	SchemaChanges []SchemaChange
	// Objects holds one verdict per object given, in their order.
	Objects []Object
}

// Object is the verdict on one stored object.
type Object struct {
	APIVersion, Kind, Namespace, Name string
	// Verdict is the worst verdict that applies.
	Verdict Verdict
	// Errors are the object's validation errors under the new CRD, without
	// ratcheting: what a create of the same object would report (and, with
	// a status subresource, an update of its status).
	Errors crdschema.ErrorList
	// Blocking are the errors of the updates that fail although they leave
	// the object's invalid fields alone, each with the update it blocks.
	Blocking []Blocking
	// Changes are the fields the new CRD prunes, defaults or changes when
	// the API server reads the object.
	Changes []Change
	// Problem says why the object is Unreadable, or could not be checked.
	Problem string
}

// Blocking is an error of an update that should pass.
type Blocking struct {
	// Update is "no-op update", "metadata-only update" or "status update".
	Update string
	Error  *crdschema.Error
}

// ChangeKind is what reading an object does to one field.
type ChangeKind string

// The changes on read.
const (
	Pruned    ChangeKind = "pruned"    // the field is dropped
	Defaulted ChangeKind = "defaulted" // the field appears with a default
	Modified  ChangeKind = "modified"  // the value differs (coerced, or a different default)
)

// Change is one field that reads differently under the new CRD.
type Change struct {
	Kind ChangeKind
	// Path is the field's path, as in field errors: spec.rules[0].name.
	Path string
	// Old and New are the values read under the old and the new CRD (nil
	// when absent).
	Old, New any
}

func (c Change) String() string {
	switch c.Kind {
	case Pruned:
		return fmt.Sprintf("%s: pruned (was %s)", c.Path, jsonvalue.Format(c.Old))
	case Defaulted:
		return fmt.Sprintf("%s: defaulted to %s", c.Path, jsonvalue.Format(c.New))
	}
	return fmt.Sprintf("%s: %s becomes %s", c.Path, jsonvalue.Format(c.Old), jsonvalue.Format(c.New))
}

// Hazard is a stored-version problem of an update.
type Hazard struct {
	// Version is the version concerned.
	Version string
	// Message says what happens to the objects.
	Message string
}

// Check reports what replacing the stored CRD old by def does, and the
// verdict on each of objects, stored objects of old (as kubectl get -o
// yaml shows them; Lists must be unpacked by the caller). ctx bounds the
// evaluation of CEL rules (in the CRD's defaults and in the objects). The error is for objects that are not objects
// of the CRD (another group or kind); their verdict is Unreadable with the
// reason, and the others are still checked.
//
// Neither def, old nor objects are modified. Options: crd.WithKubernetesVersion
// checks the upgrade as the API server of that release would run it (the
// default is 1.37), its validation of the CRD update and of the stored
// objects' updates; crd.WithCache shares compiled rules. Others are ignored.
func Check(ctx context.Context, def, old *crdschema.CustomResourceDefinition, objects []map[string]any, opts ...crd.Option) (*Report, error) {
	if def == nil || old == nil {
		return nil, errors.New("upgrade: both the new and the stored CRD are needed")
	}
	set := crdoptions.Apply(opts)
	kv := func(s *crdoptions.Settings) { s.Version, s.Cache = set.Version, set.Cache }
	r := &Report{Name: def.Name, Errors: crd.ValidateUpdate(ctx, def, old, kv)}
	r.Hazards = hazards(def, old)
	r.SchemaChanges = schemaChanges(def, old)

	c := &checker{ctx: ctx, def: def, old: old, kv: kv,
		newRes: map[string]resource{}, oldRes: map[string]resource{}}
	var errs []error
	for i, obj := range objects {
		o, err := c.object(obj)
		if err != nil {
			errs = append(errs, fmt.Errorf("object %d: %w", i+1, err))
		}
		r.Objects = append(r.Objects, o)
	}
	return r, errors.Join(errs...)
}

type resource struct {
	res *crd.Resource
	err error
}

type checker struct {
	ctx            context.Context
	def, old       *crdschema.CustomResourceDefinition
	newRes, oldRes map[string]resource
	kv             crd.Option // the release
}

func (c *checker) resource(def *crdschema.CustomResourceDefinition, cache map[string]resource, version string) (*crd.Resource, error) {
	r, ok := cache[version]
	if !ok {
		// The update is validated (Report.Errors); a stored CRD need not
		// pass again.
		r.res, r.err = crd.New(def, version, crd.WithoutValidation(), c.kv)
		cache[version] = r
	}
	return r.res, r.err
}

// object computes the verdict on one stored object.
func (c *checker) object(obj map[string]any) (Object, error) {
	o := Object{Verdict: Unreadable}
	o.APIVersion, _ = obj["apiVersion"].(string)
	o.Kind, _ = obj["kind"].(string)
	meta, _ := obj["metadata"].(map[string]any)
	o.Namespace, _ = meta["namespace"].(string)
	o.Name, _ = meta["name"].(string)
	// What storage gives every object it holds: a resourceVersion (which
	// updates must carry) and, for a namespaced kind, a namespace: an
	// object given without one (a manifest rather than kubectl get output)
	// is read as stored in the namespace kubectl would create it in,
	// "default", not as one whose namespace an update would change.
	rv, _ := meta["resourceVersion"].(string)
	addNamespace := o.Namespace == "" && c.def.Spec.Scope == "Namespaced"
	if rv == "" || addNamespace {
		m := without(meta)
		if rv == "" {
			m["resourceVersion"] = "1"
		}
		if addNamespace {
			m["namespace"] = "default"
			o.Namespace = "default"
		}
		obj = without(obj)
		obj["metadata"] = m
	}
	group, version := splitAPIVersion(o.APIVersion)
	if group != c.def.Spec.Group || o.Kind != c.def.Spec.Names.Kind {
		o.Problem = fmt.Sprintf("%s %s is not an object of CRD %s", o.APIVersion, o.Kind, c.def.Name)
		return o, errors.New(o.Problem)
	}

	// the version the new CRD's API server reads it in
	readVersion := version
	if v := c.def.Version(version); v == nil || !v.Served {
		storage := storageVersion(c.def)
		switch {
		case v == nil && c.old.Version(version) == nil:
			o.Problem = fmt.Sprintf("version %s is neither in the new nor in the stored CRD", version)
			return o, nil
		case v == nil:
			o.Problem = fmt.Sprintf("version %s, the object's, is no longer in the CRD: the API server cannot read it", version)
			return o, nil
		case conversionStrategy(c.def) != "None":
			o.Problem = fmt.Sprintf("version %s is not served and reading it in %s needs the conversion webhook", version, storage)
			return o, nil
		}
		readVersion = storage
	}
	newRes, err := c.resource(c.def, c.newRes, readVersion)
	if err != nil {
		o.Problem = fmt.Sprintf("the new CRD's version %s cannot be served: %v", readVersion, err)
		return o, nil
	}
	read, err := newRes.ReadStored(obj)
	if err != nil {
		o.Problem = "the new CRD cannot read it: " + err.Error()
		return o, nil
	}
	// what the stored CRD reads, for the changes
	before := obj
	if oldRes, err := c.resource(c.old, c.oldRes, version); err == nil {
		if b, err := oldRes.ReadStored(obj); err == nil {
			before = b
		}
	}
	o.Changes = diff(before, read, "")

	// validation without ratcheting: against an old object that has
	// nothing but the metadata, everything else is new
	served := c.def.Version(readVersion)
	subresource := served != nil && served.Subresources != nil && served.Subresources.Status != nil
	res, err := newRes.Update(c.ctx, read, only(read, "apiVersion", "kind", "metadata"))
	if res.Object == nil {
		o.Problem = "the update is refused before validation: " + err.Error()
		return o, nil
	}
	o.Errors = append(o.Errors, res.Errors...)
	if _, hasStatus := read["status"]; subresource && hasStatus {
		if res, _ := newRes.UpdateStatus(c.ctx, read, without(read, "status")); res.Object != nil {
			o.Errors = appendNew(o.Errors, res.Errors)
		}
	}

	// the updates that should pass
	type update struct {
		name string
		run  func() (*crd.Result, error)
	}
	updates := []update{
		{"no-op update", func() (*crd.Result, error) { return newRes.Update(c.ctx, read, read) }},
		{"metadata-only update", func() (*crd.Result, error) { return newRes.Update(c.ctx, withLabel(read), read) }},
	}
	if subresource {
		updates = append(updates, update{"status update", func() (*crd.Result, error) { return newRes.UpdateStatus(c.ctx, read, read) }})
	}
	if len(o.Errors) > 0 {
		for _, u := range updates {
			res, err := u.run()
			if err != nil && len(res.Errors) == 0 {
				o.Blocking = append(o.Blocking, Blocking{u.name, crdschema.InternalError(nil, err)})
				continue
			}
			for _, e := range res.Errors {
				o.Blocking = append(o.Blocking, Blocking{u.name, e})
			}
		}
	}

	switch {
	case len(o.Blocking) > 0:
		o.Verdict = Blocked
	case len(o.Changes) > 0:
		o.Verdict = ChangedOnRead
	case len(o.Errors) > 0:
		o.Verdict = Ratcheted
	default:
		o.Verdict = Valid
	}
	return o, nil
}

// labelKey is the label a metadata-only update sets.
const labelKey = "upgrade.crdschema.io/check"

// withLabel returns obj with one more label.
func withLabel(obj map[string]any) map[string]any {
	meta, _ := obj["metadata"].(map[string]any)
	labels, _ := meta["labels"].(map[string]any)
	l := make(map[string]any, len(labels)+1)
	maps.Copy(l, labels)
	l[labelKey] = "1"
	m := without(meta)
	m["labels"] = l
	out := without(obj)
	out["metadata"] = m
	return out
}

// without returns a shallow copy of obj without the keys.
func without(obj map[string]any, keys ...string) map[string]any {
	out := make(map[string]any, len(obj))
	maps.Copy(out, obj)
	for _, k := range keys {
		delete(out, k)
	}
	return out
}

// only returns a shallow copy of obj with only the keys.
func only(obj map[string]any, keys ...string) map[string]any {
	out := make(map[string]any, len(keys))
	for _, k := range keys {
		if v, ok := obj[k]; ok {
			out[k] = v
		}
	}
	return out
}

// appendNew appends the errors of more whose text list lacks.
func appendNew(list, more crdschema.ErrorList) crdschema.ErrorList {
	for _, e := range more {
		if !slices.ContainsFunc(list, func(l *crdschema.Error) bool { return l.Error() == e.Error() }) {
			list = append(list, e)
		}
	}
	return list
}

// diff lists the fields that differ between before and after, in path
// order.
func diff(before, after any, path string) []Change {
	bm, bok := before.(map[string]any)
	am, aok := after.(map[string]any)
	if bok && aok {
		both := make(map[string]any, len(bm)+len(am))
		maps.Copy(both, bm)
		maps.Copy(both, am)
		var out []Change
		for _, k := range slices.Sorted(maps.Keys(both)) {
			p := join(path, k)
			b, inB := bm[k]
			a, inA := am[k]
			switch {
			case !inA:
				out = append(out, Change{Pruned, p, b, nil})
			case !inB:
				out = append(out, Change{Defaulted, p, nil, a})
			default:
				out = append(out, diff(b, a, p)...)
			}
		}
		return out
	}
	bl, bok := before.([]any)
	al, aok := after.([]any)
	if bok && aok && len(bl) == len(al) {
		var out []Change
		for i := range bl {
			out = append(out, diff(bl[i], al[i], fmt.Sprintf("%s[%d]", path, i))...)
		}
		return out
	}
	if jsonvalue.Equal(before, after) {
		return nil
	}
	return []Change{{Modified, path, before, after}}
}

func splitAPIVersion(apiVersion string) (group, version string) {
	if i := strings.LastIndexByte(apiVersion, '/'); i >= 0 {
		return apiVersion[:i], apiVersion[i+1:]
	}
	return "", apiVersion
}

func storageVersion(def *crdschema.CustomResourceDefinition) string {
	for _, v := range def.Spec.Versions {
		if v.Storage {
			return v.Name
		}
	}
	return ""
}

func conversionStrategy(def *crdschema.CustomResourceDefinition) string {
	if def.Spec.Conversion == nil || def.Spec.Conversion.Strategy == "" {
		return "None"
	}
	return string(def.Spec.Conversion.Strategy)
}
