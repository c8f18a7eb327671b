package validation

import "fmt"

// deepEqual reports whether two decoded JSON values are equal in the sense
// of reflect.DeepEqual, which is what the API server uses: the same Go
// types (int64 1 and float64 1 differ), a nil list or map differs from an
// empty one, and NaN equals nothing.
func deepEqual(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case string:
		y, ok := b.(string)
		return ok && x == y
	case int64:
		y, ok := b.(int64)
		return ok && x == y
	case float64:
		y, ok := b.(float64)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) || (x == nil) != (y == nil) {
			return false
		}
		for i := range x {
			if !deepEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) || (x == nil) != (y == nil) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !deepEqual(xv, yv) {
				return false
			}
		}
		return true
	}
	return fmt.Sprintf("%#v", a) == fmt.Sprintf("%#v", b)
}

// enumMatches reports whether v is one of the enum values. Like the API
// server, it first converts v to the type of each enum value where Go
// allows the conversion: a float matches an integer value after
// truncation, and an integer matches a one-character string holding the
// character with that code.
func (n *node) enumMatches(v any) bool {
	for _, e := range n.enum {
		switch ev := e.(type) {
		case nil:
			continue
		case string:
			switch x := v.(type) {
			case string:
				if x == ev {
					return true
				}
			case int64:
				s := "\uFFFD"
				if int64(rune(x)) == x {
					s = string(rune(x))
				}
				if s == ev {
					return true
				}
			}
		case int64:
			switch x := v.(type) {
			case int64:
				if x == ev {
					return true
				}
			case float64:
				if int64(x) == ev {
					return true
				}
			}
		case float64:
			switch x := v.(type) {
			case int64:
				if float64(x) == ev {
					return true
				}
			case float64:
				if x == ev {
					return true
				}
			}
		default:
			if deepEqual(v, e) {
				return true
			}
		}
	}
	return false
}

func (n *node) enumFailure(st *state, v any) failure {
	path := st.path()
	return failure{code: codeEnum, path: path, value: v, enum: n,
		msg: path + " in body should be one of " + n.enumText}
}
