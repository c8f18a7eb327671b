package ratchet

import "reflect"

// maxEqualDepth bounds the recursion of deepEqual; deeper values (or
// cyclic ones, which decoded objects never are) are left to reflect.
const maxEqualDepth = 1000

// deepEqual is reflect.DeepEqual for unstructured values, without
// reflection for the types decoding produces: values of different dynamic
// types differ (int64 1 is not float64 1), a nil map or list differs from
// an empty one, NaN differs from itself except where reflect.DeepEqual
// finds the very same map or list on both sides.
func deepEqual(a, b any, depth int) bool {
	if depth > maxEqualDepth {
		return reflect.DeepEqual(a, b)
	}
	switch a := a.(type) {
	case nil:
		return b == nil
	case string:
		b, ok := b.(string)
		return ok && a == b
	case int64:
		b, ok := b.(int64)
		return ok && a == b
	case float64:
		b, ok := b.(float64)
		return ok && a == b
	case bool:
		b, ok := b.(bool)
		return ok && a == b
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || (a == nil) != (b == nil) || len(a) != len(b) {
			return false
		}
		if len(a) == 0 || sameMap(a, b) {
			return true
		}
		for k, av := range a {
			bv, ok := b[k]
			if !ok || !deepEqual(av, bv, depth+1) {
				return false
			}
		}
		return true
	case []any:
		b, ok := b.([]any)
		if !ok || (a == nil) != (b == nil) || len(a) != len(b) {
			return false
		}
		if len(a) == 0 || &a[0] == &b[0] {
			return true
		}
		for i := range a {
			if !deepEqual(a[i], b[i], depth+1) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

// sameMap reports whether a and b are the same map.
func sameMap(a, b map[string]any) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}
