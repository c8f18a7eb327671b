// Package surround places a value inside the object that surrounds it, as
// the API server does when it checks a default of a CRD in context.
package surround

import "errors"

// Surrounding describes where a value sits inside an object, so that a
// default can be checked in context: Wrap builds the object around a
// value (a default at spec.ports[*].protocol becomes
// {"spec": {"ports": [{"protocol": default}]}}), and Extract takes the
// value back out after the object was pruned or coerced. It is the API
// server's "surrounding object" of a default.
//
// The zero Surrounding is the root: the value is the object itself. A
// Surrounding is immutable; Child and Index return new ones.
type Surrounding struct {
	steps    []step
	typeMeta bool
	apiVer   string
	kind     string
}

// step is one level between the root and the value: a key of an object,
// or the single element of a list.
type step struct {
	key   string
	index bool
}

// WithTypeMeta returns a Surrounding whose root object gets apiVersion
// and kind (each only when the root does not have it already).
func (s Surrounding) WithTypeMeta(apiVersion, kind string) Surrounding {
	s.typeMeta, s.apiVer, s.kind = true, apiVersion, kind
	return s
}

// Child returns the Surrounding of the value of field k of an object
// sitting at s.
func (s Surrounding) Child(k string) Surrounding {
	return s.with(step{key: k})
}

// Index returns the Surrounding of an element of a list sitting at s:
// the value becomes the list's only element.
func (s Surrounding) Index() Surrounding {
	return s.with(step{index: true})
}

func (s Surrounding) with(st step) Surrounding {
	steps := make([]step, len(s.steps)+1)
	copy(steps, s.steps)
	steps[len(s.steps)] = st
	s.steps = steps
	return s
}

// errRootNotObject is returned by Wrap when the root itself would not be
// an object.
var errRootNotObject = errors.New("object root default value must be of object type")

// Wrap returns the object around x. x itself is placed in it, not a
// copy. The root must be an object: a value that is not an object at the
// root is an error ("object root default value must be of object type").
func (s Surrounding) Wrap(x any) (map[string]any, error) {
	v := x
	for i := len(s.steps) - 1; i >= 0; i-- {
		if s.steps[i].index {
			v = []any{v}
		} else {
			v = map[string]any{s.steps[i].key: v}
		}
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, errRootNotObject
	}
	if s.typeMeta {
		if obj == nil {
			obj = map[string]any{}
		}
		if _, ok := obj["kind"]; !ok {
			obj["kind"] = s.kind
		}
		if _, ok := obj["apiVersion"]; !ok {
			obj["apiVersion"] = s.apiVer
		}
	}
	return obj, nil
}

// Extract returns the value at s inside obj (as Wrap placed it, possibly
// changed since). found is false when the path no longer exists (the
// value was pruned). A level of the wrong type is an error naming the
// path the way the API server does (".spec must be of object type",
// "[] must be of array type").
func (s Surrounding) Extract(obj map[string]any) (x any, found bool, err error) {
	var v any = obj
	for i, st := range s.steps {
		var msg string
		if st.index {
			l, ok := v.([]any)
			if !ok {
				msg = "[] must be of array type"
			} else if len(l) == 0 {
				return nil, false, nil
			} else {
				v = l[0]
				continue
			}
		} else {
			m, ok := v.(map[string]any)
			if !ok {
				msg = "." + st.key + " must be of object type"
			} else if e, ok := m[st.key]; !ok {
				return nil, false, nil
			} else {
				v = e
				continue
			}
		}
		// The API server wraps the error once per remaining level,
		// innermost level first.
		for _, later := range s.steps[i+1:] {
			if later.index {
				msg = "[]" + msg
			} else {
				msg = "." + later.key + msg
			}
		}
		return nil, false, errors.New(msg)
	}
	return v, true, nil
}
