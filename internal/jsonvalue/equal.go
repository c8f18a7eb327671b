package jsonvalue

import "reflect"

// The API server compares JSON values in two ways, and the packages of
// this module follow it place by place:
//
//   - Equal is reflect.DeepEqual, which OpenAPI validation (enum,
//     uniqueItems) and ratcheting use: a nil map or list differs from an
//     empty one.
//   - SemanticEqual is apimachinery's equality.Semantic.DeepEqual, which
//     CEL's equality of unknown-typed values and the request pipeline's
//     "did anything change" checks use: a nil map or list equals an empty
//     one.
//
// Decoded JSON never holds a nil map or list (null is an untyped nil,
// which equals only null in both), so the two differ only on values built
// by hand. Both tell int64 1 from float64 1, and NaN equals nothing except
// where the very same map or list stands on both sides.

// maxDepth is how deeply Equal and SemanticEqual walk values themselves;
// deeper ones (or cyclic ones, which decoding never produces) are left to
// reflect.DeepEqual, which detects cycles.
const maxDepth = 10000

// Equal reports whether a and b are equal as reflect.DeepEqual says, with
// the types decoding produces compared without reflection.
func Equal(a, b any) bool { return equal(a, b, false, 0) }

// SemanticEqual is Equal with a nil map or list equal to an empty one.
func SemanticEqual(a, b any) bool { return equal(a, b, true, 0) }

func equal(a, b any, nilIsEmpty bool, depth int) bool {
	if depth > maxDepth {
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
		if !ok || len(a) != len(b) || (!nilIsEmpty && (a == nil) != (b == nil)) {
			return false
		}
		if len(a) == 0 || sameMap(a, b) {
			return true
		}
		for k, av := range a {
			bv, ok := b[k]
			if !ok || !equal(av, bv, nilIsEmpty, depth+1) {
				return false
			}
		}
		return true
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) || (!nilIsEmpty && (a == nil) != (b == nil)) {
			return false
		}
		if len(a) == 0 || &a[0] == &b[0] {
			return true
		}
		for i := range a {
			if !equal(a[i], b[i], nilIsEmpty, depth+1) {
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
