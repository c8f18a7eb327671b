package objectmeta

import (
	"time"
	"unicode/utf8"

	"github.com/crdschema/crdschema"
)

// decodeFast decodes well-formed metadata straight from its map, without
// the JSON round trip of decodeExact. It handles only what it can decode
// exactly as the API server does (known fields, values of the right
// types, valid UTF-8, no floats) and gives up, with ok false, on anything
// else: unknown fields, type errors and the odd cases are left to
// decodeExact, which reports them as the API server does.
func decodeFast(md any, opts MetaOptions) (m *meta, unknown []string, ok bool) {
	m = &meta{}
	if md == nil {
		return m, nil, true
	}
	mm, isMap := md.(map[string]any)
	if !isMap {
		return nil, nil, false
	}
	om := &m.om
	for k, v := range mm {
		var ok bool
		switch k {
		case "name":
			ok = fastString(v, &om.Name)
		case "generateName":
			ok = fastString(v, &om.GenerateName)
		case "namespace":
			ok = fastString(v, &om.Namespace)
		case "selfLink":
			ok = fastString(v, &om.SelfLink)
		case "uid":
			ok = fastString(v, &om.UID)
		case "resourceVersion":
			ok = fastString(v, &om.ResourceVersion)
		case "generation":
			switch v := v.(type) {
			case nil:
				ok = true
			case int64:
				om.Generation, ok = v, true
			}
		case "creationTimestamp":
			ok = fastTime(v, &om.CreationTimestamp)
		case "deletionTimestamp":
			if v != nil {
				om.DeletionTimestamp = new(crdschema.Time)
				ok = fastTime(v, om.DeletionTimestamp)
			} else {
				ok = true
			}
		case "deletionGracePeriodSeconds":
			switch v := v.(type) {
			case nil:
				ok = true
			case int64:
				om.DeletionGracePeriodSeconds, ok = &v, true
			}
		case "labels":
			om.Labels, ok = fastStringMap(v)
		case "annotations":
			om.Annotations, ok = fastStringMap(v)
		case "finalizers":
			om.Finalizers, ok = fastStringList(v)
		case "ownerReferences":
			om.OwnerReferences, ok = fastOwners(v)
		case "managedFields":
			om.ManagedFields, m.fields, ok = fastManaged(v)
		}
		if !ok {
			return nil, nil, false
		}
	}
	return m, nil, true
}

// fastString decodes a string field: a valid UTF-8 string, or null
// (which leaves the field empty).
func fastString(v any, dst *string) bool {
	switch v := v.(type) {
	case nil:
		return true
	case string:
		if !utf8.ValidString(v) {
			return false
		}
		*dst = v
		return true
	}
	return false
}

// fastTime decodes a timestamp: an RFC 3339 string, or null.
func fastTime(v any, dst *crdschema.Time) bool {
	switch v := v.(type) {
	case nil:
		return true
	case string:
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			return false
		}
		dst.Time = t
		return true
	}
	return false
}

func fastStringMap(v any) (map[string]string, bool) {
	switch v := v.(type) {
	case nil:
		return nil, true
	case map[string]any:
		if v == nil {
			return nil, true
		}
		out := make(map[string]string, len(v))
		for k, e := range v {
			if !utf8.ValidString(k) {
				return nil, false
			}
			var s string
			if !fastString(e, &s) {
				return nil, false
			}
			out[k] = s
		}
		return out, true
	}
	return nil, false
}

func fastStringList(v any) ([]string, bool) {
	switch v := v.(type) {
	case nil:
		return nil, true
	case []any:
		if v == nil {
			return nil, true
		}
		out := make([]string, len(v))
		for i, e := range v {
			if !fastString(e, &out[i]) {
				return nil, false
			}
		}
		return out, true
	}
	return nil, false
}

func fastBool(v any, dst **bool) bool {
	switch v := v.(type) {
	case nil:
		return true
	case bool:
		*dst = &v
		return true
	}
	return false
}

// fastObjects decodes a list of objects, or null, with field, which
// decodes the member k: f of the entry i into e; a null entry stays zero.
func fastObjects[T any](v any, field func(e *T, i int, k string, f any) bool) ([]T, bool) {
	switch v := v.(type) {
	case nil:
		return nil, true
	case []any:
		if v == nil {
			return nil, true
		}
		out := make([]T, len(v))
		for i, e := range v {
			if e == nil {
				continue
			}
			em, ok := e.(map[string]any)
			if !ok {
				return nil, false
			}
			for k, f := range em {
				if !field(&out[i], i, k, f) {
					return nil, false
				}
			}
		}
		return out, true
	}
	return nil, false
}

func fastOwners(v any) ([]crdschema.OwnerReference, bool) {
	return fastObjects(v, func(r *crdschema.OwnerReference, _ int, k string, f any) bool {
		switch k {
		case "apiVersion":
			return fastString(f, &r.APIVersion)
		case "kind":
			return fastString(f, &r.Kind)
		case "name":
			return fastString(f, &r.Name)
		case "uid":
			return fastString(f, &r.UID)
		case "controller":
			return fastBool(f, &r.Controller)
		case "blockOwnerDeletion":
			return fastBool(f, &r.BlockOwnerDeletion)
		}
		return false
	})
}

func fastManaged(v any) ([]crdschema.ManagedFieldsEntry, []any, bool) {
	var fields []any
	if l, ok := v.([]any); ok && l != nil {
		fields = make([]any, len(l))
	}
	out, ok := fastObjects(v, func(me *crdschema.ManagedFieldsEntry, i int, k string, f any) bool {
		switch k {
		case "manager":
			return fastString(f, &me.Manager)
		case "operation":
			return fastString(f, &me.Operation)
		case "apiVersion":
			return fastString(f, &me.APIVersion)
		case "fieldsType":
			return fastString(f, &me.FieldsType)
		case "subresource":
			return fastString(f, &me.Subresource)
		case "time":
			if f == nil {
				return true
			}
			me.Time = new(crdschema.Time)
			return fastTime(f, me.Time)
		case "fieldsV1":
			// Kept as it is: a value that survives the JSON round trip
			// unchanged is what the API server writes back.
			fields[i] = f
			return f == nil || stableJSON(f, 0)
		}
		return false
	})
	if !ok {
		return nil, nil, false
	}
	return out, fields, true
}

// maxStableDepth bounds the nesting stableJSON checks; deeper values take
// the exact path.
const maxStableDepth = 100

// stableJSON reports whether v comes back from encoding to JSON and
// decoding again (with integers as int64) as an equal value: no floats,
// no invalid UTF-8, no typed nils, only the JSON types.
func stableJSON(v any, depth int) bool {
	if depth > maxStableDepth {
		return false
	}
	switch v := v.(type) {
	case nil, bool, int64:
		return true
	case string:
		return utf8.ValidString(v)
	case map[string]any:
		if v == nil {
			return false
		}
		for k, e := range v {
			if !utf8.ValidString(k) || !stableJSON(e, depth+1) {
				return false
			}
		}
		return true
	case []any:
		if v == nil {
			return false
		}
		for _, e := range v {
			if !stableJSON(e, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}
