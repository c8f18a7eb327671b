package defaulting

import "encoding/json"

// DeepCopy returns a copy of the JSON value v that shares no map or list
// with it. Scalars are returned as they are.
func DeepCopy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		if v == nil {
			return v
		}
		c := make(map[string]any, len(v))
		for k, e := range v {
			c[k] = DeepCopy(e)
		}
		return c
	case []any:
		if v == nil {
			return v
		}
		c := make([]any, len(v))
		for i, e := range v {
			c[i] = DeepCopy(e)
		}
		return c
	case json.RawMessage:
		return append(json.RawMessage(nil), v...)
	}
	return v
}
