package jsonvalue

import "encoding/json"

// Copy returns a copy of the JSON value v that shares no map or list with
// it. Scalars are returned as they are. The copy is the same value in
// every respect, typed nils included: a nil map[string]any or []any stays
// nil (it encodes as null, an empty one as {} or []), and a
// json.RawMessage is copied.
func Copy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		return CopyMap(v)
	case []any:
		if v == nil {
			return v
		}
		c := make([]any, len(v))
		for i, e := range v {
			c[i] = Copy(e)
		}
		return c
	case json.RawMessage:
		if v == nil {
			return v
		}
		return append(json.RawMessage{}, v...)
	}
	return v
}

// CopyMap is Copy for an object.
func CopyMap(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	c := make(map[string]any, len(m))
	for k, e := range m {
		c[k] = Copy(e)
	}
	return c
}
