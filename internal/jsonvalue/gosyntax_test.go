package jsonvalue

import (
	"encoding/json"
	"fmt"
	"math"
	"testing"
)

// TestGoSyntax compares GoSyntax with fmt's %#v on JSON values of every
// kind, nested.
func TestGoSyntax(t *testing.T) {
	type named struct{ A string }
	values := []any{
		nil,
		"x", "a\"b\n\u00e9\x01", true, false,
		int64(0), int64(-42), int64(math.MaxInt64), int64(math.MinInt64),
		float64(0), math.Copysign(0, -1), 1.5, 1e21, 1e-7, 100000.0, 123456789.0, math.MaxFloat64, math.Inf(1), math.NaN(),
		map[string]any(nil), map[string]any{}, []any(nil), []any{},
		map[string]any{"labels": map[string]any{"a": "x", "b": int64(42)}},
		map[string]any{"b": nil, "a": []any{nil, int64(1), 2.5, "s", map[string]any{"z": false, "y": []any{}}}, "c": []any(nil), "": map[string]any(nil)},
		[]any{map[string]any{"k": "v"}, []any{[]any{true}}},
		[]string{"a"}, map[string]string{"a": "b"},
		map[string]any{"t": named{"x"}, "s": []string{"a", "b"}, "i": 3},
	}
	for _, v := range values {
		if got, want := GoSyntax(v), fmt.Sprintf("%#v", v); got != want {
			t.Errorf("GoSyntax(%#v) = %s, want %s", v, got, want)
		}
	}
}

// FuzzGoSyntax compares GoSyntax with fmt's %#v on decoded JSON documents.
func FuzzGoSyntax(f *testing.F) {
	f.Add(`{"labels":{"a":"x","b":42}}`)
	f.Add(`[1, 2.5, null, "s", {"a": [true, {}]}]`)
	f.Add(`"\u00e9\u0001"`)
	f.Fuzz(func(t *testing.T, doc string) {
		var v any
		if err := json.Unmarshal([]byte(doc), &v); err != nil {
			return
		}
		v = ints(v)
		if got, want := GoSyntax(v), fmt.Sprintf("%#v", v); got != want {
			t.Errorf("GoSyntax(%s) = %s, want %s", doc, got, want)
		}
	})
}

// ints turns the whole floats of v into int64s, as Kubernetes' decoder
// gives them.
func ints(v any) any {
	switch t := v.(type) {
	case float64:
		if t == math.Trunc(t) && math.Abs(t) < 1<<53 {
			return int64(t)
		}
	case map[string]any:
		for k, e := range t {
			t[k] = ints(e)
		}
	case []any:
		for i, e := range t {
			t[i] = ints(e)
		}
	}
	return v
}
