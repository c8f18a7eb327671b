package jsonvalue

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func TestEqual(t *testing.T) {
	shared := map[string]any{"a": []any{int64(1)}}
	list := []any{"x"}
	nan := map[string]any{"n": math.NaN()}
	deep := any(int64(1))
	for i := 0; i < maxDepth+10; i++ {
		deep = []any{deep}
	}
	deep2 := any(int64(1))
	for i := 0; i < maxDepth+10; i++ {
		deep2 = []any{deep2}
	}
	tests := []struct {
		a, b         any
		equal, seman bool
	}{
		{nil, nil, true, true},
		{nil, map[string]any{}, false, false},
		{nil, []any{}, false, false},
		{int64(1), float64(1), false, false},
		{float64(0), math.Copysign(0, -1), true, true},
		{math.NaN(), math.NaN(), false, false},
		{nan, map[string]any{"n": math.NaN()}, false, false},
		{nan, nan, true, true},
		{map[string]any(nil), map[string]any{}, false, true},
		{[]any(nil), []any{}, false, true},
		{map[string]any{"a": []any(nil)}, map[string]any{"a": []any{}}, false, true},
		{map[string]any{}, map[string]any{}, true, true},
		{shared, shared, true, true},
		{list, list, true, true},
		{map[string]any{"a": nil}, map[string]any{"b": nil}, false, false},
		{map[string]any{"a": nil}, map[string]any{"a": nil, "b": nil}, false, false},
		{[]any{map[string]any{"a": int64(1)}}, []any{map[string]any{"a": int64(1)}}, true, true},
		{[]any{map[string]any{"a": int64(1)}}, []any{map[string]any{"a": int64(2)}}, false, false},
		{[]any{"a", "b"}, []any{"b", "a"}, false, false},
		{"a", "a", true, true},
		{true, false, false, false},
		{int(1), int(1), true, true},
		{int(1), int64(1), false, false},
		{"a", []byte("a"), false, false},
		{deep, deep2, true, true},
	}
	for i, tt := range tests {
		if got := Equal(tt.a, tt.b); got != tt.equal {
			t.Errorf("%d: Equal(%.80v, %.80v) = %v, want %v", i, tt.a, tt.b, got, tt.equal)
		}
		if got := Equal(tt.b, tt.a); got != tt.equal {
			t.Errorf("%d: Equal(%.80v, %.80v) = %v, want %v", i, tt.b, tt.a, got, tt.equal)
		}
		if got := SemanticEqual(tt.a, tt.b); got != tt.seman {
			t.Errorf("%d: SemanticEqual(%.80v, %.80v) = %v, want %v", i, tt.a, tt.b, got, tt.seman)
		}
		if got := SemanticEqual(tt.b, tt.a); got != tt.seman {
			t.Errorf("%d: SemanticEqual(%.80v, %.80v) = %v, want %v", i, tt.b, tt.a, got, tt.seman)
		}
	}
}

func TestCopy(t *testing.T) {
	in := map[string]any{
		"m":       map[string]any{"l": []any{int64(1), "s", map[string]any{"x": nil}}},
		"nilMap":  map[string]any(nil),
		"nilList": []any(nil),
		"empty":   []any{},
		"raw":     json.RawMessage(`{"a":1}`),
		"f":       1.5,
	}
	c := Copy(in).(map[string]any)
	if !Equal(c, in) {
		t.Fatalf("Copy = %v, want %v", c, in)
	}
	if m, ok := c["nilMap"].(map[string]any); !ok || m != nil {
		t.Errorf("nil map copied as %#v", c["nilMap"])
	}
	if l, ok := c["nilList"].([]any); !ok || l != nil {
		t.Errorf("nil list copied as %#v", c["nilList"])
	}
	if l, ok := c["empty"].([]any); !ok || l == nil {
		t.Errorf("empty list copied as %#v", c["empty"])
	}
	// The copy shares nothing: changing it leaves the original as it was.
	c["m"].(map[string]any)["l"].([]any)[2].(map[string]any)["x"] = "changed"
	c["m"].(map[string]any)["l"].([]any)[0] = "changed"
	c["raw"].(json.RawMessage)[0] = '['
	if in["m"].(map[string]any)["l"].([]any)[2].(map[string]any)["x"] != nil || in["m"].(map[string]any)["l"].([]any)[0] != int64(1) || string(in["raw"].(json.RawMessage)) != `{"a":1}` {
		t.Errorf("changing the copy changed the original: %v", in)
	}
	if CopyMap(nil) != nil {
		t.Error("CopyMap(nil) is not nil")
	}
	if Copy(nil) != nil || Copy("s") != "s" || Copy(int64(3)) != int64(3) {
		t.Error("scalars are not returned as they are")
	}
}

func TestFormat(t *testing.T) {
	for _, tt := range []struct {
		v    any
		want string
	}{
		{int64(3), "3"},
		{1.5, "1.5"},
		{1e21, "1e+21"},
		{true, "true"},
		{"a\"b", `"a\"b"`},
		{nil, "null"},
		{map[string]any{"z": int64(1), "a": "q"}, `{"a":"q","z":1}`},
		{[]any{"a", int64(1)}, `["a",1]`},
		{math.NaN(), "NaN"},
		{make(chan int), "(chan int)("},
	} {
		if got := Format(tt.v); !strings.HasPrefix(got, tt.want) {
			t.Errorf("Format(%#v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}
