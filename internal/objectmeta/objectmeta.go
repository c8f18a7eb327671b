package objectmeta

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/crdschema/crdschema"
	v1 "github.com/crdschema/crdschema/internal/apis/meta/v1"
	kjson "sigs.k8s.io/json"
)

// MetaOptions configure GetObjectMeta.
type MetaOptions struct {
	// DropMalformedFields drops the metadata fields whose values do not
	// decode (a number where a string belongs, ...) instead of failing.
	// The API server does this when it reads objects from storage.
	DropMalformedFields bool
	// ReturnUnknownFieldPaths makes GetObjectMeta return the paths of the
	// metadata fields that ObjectMeta does not know, which it drops.
	ReturnUnknownFieldPaths bool
	// ParentPath is the path of the object holding the metadata; nil for
	// the root of a resource. Unknown field paths start with it
	// ("spec.template.metadata.foo").
	ParentPath *crdschema.Path
}

// GetObjectMeta decodes obj["metadata"] as the API server decodes object
// metadata into its ObjectMeta type: fields it does not know are dropped
// (and, with opts.ReturnUnknownFieldPaths, their paths returned, such as
// "metadata.clusterName" or "metadata.ownerReferences[0].bogus"), and a
// value of the wrong type is an error with the API server's text, for
// example
//
//	json: cannot unmarshal number into Go struct field ObjectMeta.name of type string
//
// With opts.DropMalformedFields, fields that do not decode are dropped
// instead, and only metadata that is not an object (nor null) is an error
// ("invalid metadata: expected object, got string").
//
// GetObjectMeta returns nil and no error when obj has no metadata. It does
// not modify obj.
func GetObjectMeta(obj map[string]any, opts MetaOptions) (*crdschema.ObjectMeta, []string, error) {
	m, found, unknown, err := getMeta(obj, opts)
	if err != nil || !found {
		return nil, unknown, err
	}
	om, err := m.public() // nil on error
	return om, unknown, err
}

// meta is decoded metadata: the ObjectMeta fields, with the managed
// fields' fieldsV1 kept as JSON values rather than raw bytes.
type meta struct {
	om crdschema.ObjectMeta
	// fields[i] is the fieldsV1 value of om.ManagedFields[i] (nil when it
	// has none); om.ManagedFields[i].FieldsV1 is left empty.
	fields []any
}

// getMeta decodes obj["metadata"]; found is false when obj has none (and
// when the metadata cannot be encoded, or is not an object with
// DropMalformedFields, as the API server reports it).
func getMeta(obj map[string]any, opts MetaOptions) (m *meta, found bool, unknown []string, err error) {
	md, ok := obj["metadata"]
	if !ok {
		return nil, false, nil, nil
	}
	if m, unknown, ok := decodeFast(md, opts); ok {
		return m, true, unknown, nil
	}
	return decodeExact(md, opts)
}

// decodeExact decodes metadata the way the API server does, by encoding
// it to JSON and decoding it into an ObjectMeta. It is exact, and slow.
func decodeExact(md any, opts MetaOptions) (*meta, bool, []string, error) {
	data, err := json.Marshal(md)
	if err != nil {
		return nil, false, nil, err
	}
	var om v1.ObjectMeta
	var unknown []string
	if opts.ReturnUnknownFieldPaths {
		var strictErrs []error
		if strictErrs, err = kjson.UnmarshalStrict(data, &om); err == nil {
			unknown = appendStrictPaths(unknown, strictErrs, opts.ParentPath)
		}
	} else {
		err = kjson.UnmarshalCaseSensitivePreserveInts(data, &om)
	}
	if err != nil {
		if !opts.DropMalformedFields {
			return nil, true, nil, err
		}
		mm, ok := md.(map[string]any)
		if !ok {
			return nil, false, nil, fmt.Errorf("invalid metadata: expected object, got %T", md)
		}
		// Decode field by field into an empty ObjectMeta, keeping the
		// fields that decode. Upstream goes in map order; sorted keys are
		// one of its possible orders.
		om = v1.ObjectMeta{}
		for _, k := range slices.Sorted(maps.Keys(mm)) {
			one, err := json.Marshal(map[string]any{k: mm[k]})
			if err != nil {
				continue
			}
			var test v1.ObjectMeta
			if kjson.UnmarshalCaseSensitivePreserveInts(one, &test) != nil {
				continue
			}
			if opts.ReturnUnknownFieldPaths {
				strictErrs, _ := kjson.UnmarshalStrict(one, &om)
				unknown = appendStrictPaths(unknown, strictErrs, opts.ParentPath)
			} else {
				_ = kjson.UnmarshalCaseSensitivePreserveInts(one, &om)
			}
		}
	}
	m, err := fromV1(&om)
	if err != nil {
		return nil, false, nil, err
	}
	return m, true, unknown, nil
}

// appendStrictPaths appends the paths of the strict decoding errors errs
// (unknown or duplicate fields) below parent's metadata.
func appendStrictPaths(dst []string, errs []error, parent *crdschema.Path) []string {
	if len(errs) == 0 {
		return dst
	}
	prefix := parent.Child("metadata").String()
	for _, e := range errs {
		if fe, ok := e.(interface{ FieldPath() string }); ok {
			dst = append(dst, prefix+"."+fe.FieldPath())
		}
	}
	return dst
}

// fromV1 converts the exact decoder's result.
func fromV1(o *v1.ObjectMeta) (*meta, error) {
	m := &meta{om: crdschema.ObjectMeta{
		Name:                       o.Name,
		GenerateName:               o.GenerateName,
		Namespace:                  o.Namespace,
		SelfLink:                   o.SelfLink,
		UID:                        string(o.UID),
		ResourceVersion:            o.ResourceVersion,
		Generation:                 o.Generation,
		CreationTimestamp:          crdschema.Time{Time: o.CreationTimestamp.Time},
		DeletionGracePeriodSeconds: o.DeletionGracePeriodSeconds,
		Labels:                     o.Labels,
		Annotations:                o.Annotations,
		Finalizers:                 o.Finalizers,
	}}
	if o.DeletionTimestamp != nil {
		m.om.DeletionTimestamp = &crdschema.Time{Time: o.DeletionTimestamp.Time}
	}
	if o.OwnerReferences != nil {
		m.om.OwnerReferences = make([]crdschema.OwnerReference, len(o.OwnerReferences))
		for i, r := range o.OwnerReferences {
			m.om.OwnerReferences[i] = crdschema.OwnerReference{
				APIVersion:         r.APIVersion,
				Kind:               r.Kind,
				Name:               r.Name,
				UID:                string(r.UID),
				Controller:         r.Controller,
				BlockOwnerDeletion: r.BlockOwnerDeletion,
			}
		}
	}
	if o.ManagedFields != nil {
		m.om.ManagedFields = make([]crdschema.ManagedFieldsEntry, len(o.ManagedFields))
		m.fields = make([]any, len(o.ManagedFields))
		for i, e := range o.ManagedFields {
			me := crdschema.ManagedFieldsEntry{
				Manager:     e.Manager,
				Operation:   string(e.Operation),
				APIVersion:  e.APIVersion,
				FieldsType:  e.FieldsType,
				Subresource: e.Subresource,
			}
			if e.Time != nil {
				me.Time = &crdschema.Time{Time: e.Time.Time}
			}
			if e.FieldsV1 != nil {
				v, err := rawToValue(e.FieldsV1.Raw)
				if err != nil {
					return nil, err
				}
				m.fields[i] = v
			}
			m.om.ManagedFields[i] = me
		}
	}
	return m, nil
}

// fieldsNull stands for a fieldsV1 whose JSON is null: the key is written
// with a null value.
type fieldsNull struct{}

// rawToValue converts the raw JSON of a fieldsV1 into the value the API
// server writes back: objects, lists, strings, booleans, int64 when the
// number is an integer that fits and float64 otherwise.
func rawToValue(raw []byte) (any, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	if string(raw) == "null" {
		return fieldsNull{}, nil
	}
	var v any
	if err := kjson.UnmarshalCaseSensitivePreserveInts(raw, &v); err != nil {
		return nil, fmt.Errorf("error decoding fieldsV1 from json: %v", err)
	}
	return v, nil
}

// public returns m as a crdschema.ObjectMeta, with fieldsV1 as raw JSON.
func (m *meta) public() (*crdschema.ObjectMeta, error) {
	om := m.om
	if len(m.fields) > 0 {
		om.ManagedFields = append([]crdschema.ManagedFieldsEntry(nil), m.om.ManagedFields...)
		for i, f := range m.fields {
			switch f.(type) {
			case nil:
				continue
			case fieldsNull:
				om.ManagedFields[i].FieldsV1 = json.RawMessage("null")
				continue
			}
			raw, err := json.Marshal(f)
			if err != nil {
				return nil, err
			}
			om.ManagedFields[i].FieldsV1 = raw
		}
	}
	return &om, nil
}

// SetObjectMeta writes meta into obj["metadata"] as the API server writes
// decoded metadata back into an object: only ObjectMeta's fields, empty
// ones omitted (a zero creationTimestamp too), times in RFC 3339 in UTC
// with second precision, integers as int64. A nil meta removes the
// metadata. The only error is a managed-fields entry whose FieldsV1 is not
// valid JSON.
func SetObjectMeta(obj map[string]any, meta *crdschema.ObjectMeta) error {
	if meta == nil {
		delete(obj, "metadata")
		return nil
	}
	var fields []any
	if len(meta.ManagedFields) > 0 {
		fields = make([]any, len(meta.ManagedFields))
		for i, e := range meta.ManagedFields {
			v, err := rawToValue(e.FieldsV1)
			if err != nil {
				return err
			}
			fields[i] = v
		}
	}
	obj["metadata"] = metaToMap(meta, fields)
	return nil
}

// metaToMap renders metadata as an unstructured map; fields holds the
// fieldsV1 values of the managed-fields entries.
func metaToMap(om *crdschema.ObjectMeta, fields []any) map[string]any {
	out := make(map[string]any, 8)
	putString(out, "name", om.Name)
	putString(out, "generateName", om.GenerateName)
	putString(out, "namespace", om.Namespace)
	putString(out, "selfLink", om.SelfLink)
	putString(out, "uid", om.UID)
	putString(out, "resourceVersion", om.ResourceVersion)
	if om.Generation != 0 {
		out["generation"] = om.Generation
	}
	if !om.CreationTimestamp.IsZero() {
		out["creationTimestamp"] = formatTime(om.CreationTimestamp.Time)
	}
	if om.DeletionTimestamp != nil {
		out["deletionTimestamp"] = timeValue(om.DeletionTimestamp.Time)
	}
	if om.DeletionGracePeriodSeconds != nil {
		out["deletionGracePeriodSeconds"] = *om.DeletionGracePeriodSeconds
	}
	putStringMap(out, "labels", om.Labels)
	putStringMap(out, "annotations", om.Annotations)
	if len(om.OwnerReferences) > 0 {
		refs := make([]any, len(om.OwnerReferences))
		for i, r := range om.OwnerReferences {
			rm := map[string]any{"apiVersion": r.APIVersion, "kind": r.Kind, "name": r.Name, "uid": r.UID}
			if r.Controller != nil {
				rm["controller"] = *r.Controller
			}
			if r.BlockOwnerDeletion != nil {
				rm["blockOwnerDeletion"] = *r.BlockOwnerDeletion
			}
			refs[i] = rm
		}
		out["ownerReferences"] = refs
	}
	if len(om.Finalizers) > 0 {
		fs := make([]any, len(om.Finalizers))
		for i, f := range om.Finalizers {
			fs[i] = f
		}
		out["finalizers"] = fs
	}
	if len(om.ManagedFields) > 0 {
		mfs := make([]any, len(om.ManagedFields))
		for i, e := range om.ManagedFields {
			em := make(map[string]any, 6)
			putString(em, "manager", e.Manager)
			putString(em, "operation", e.Operation)
			putString(em, "apiVersion", e.APIVersion)
			if e.Time != nil {
				em["time"] = timeValue(e.Time.Time)
			}
			putString(em, "fieldsType", e.FieldsType)
			if i < len(fields) {
				switch f := fields[i].(type) {
				case nil:
				case fieldsNull:
					em["fieldsV1"] = nil
				default:
					em["fieldsV1"] = f
				}
			}
			putString(em, "subresource", e.Subresource)
			mfs[i] = em
		}
		out["managedFields"] = mfs
	}
	return out
}

func putString(m map[string]any, k, v string) {
	if v != "" {
		m[k] = v
	}
}

func putStringMap(m map[string]any, k string, v map[string]string) {
	if len(v) == 0 {
		return
	}
	c := make(map[string]any, len(v))
	for kk, vv := range v {
		c[kk] = vv
	}
	m[k] = c
}

// timeValue renders a timestamp field that is set: null for the zero
// time, as the API server writes it.
func timeValue(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return formatTime(t)
}

func formatTime(t time.Time) string {
	var buf [len(time.RFC3339) + 8]byte
	return string(t.UTC().AppendFormat(buf[:0], time.RFC3339))
}
