package ratchet

import (
	"context"
	"os"
	"testing"
)

// httpRoute returns the compiled Gateway API HTTPRoute v1 schema and a
// stored route with 8 rules (testdata, see testdata/README.md).
func httpRoute(tb testing.TB) (compiledCase, map[string]any) {
	tb.Helper()
	raw, err := os.ReadFile("testdata/httproute-v1.schema.json")
	if err != nil {
		tb.Fatal(err)
	}
	c := compileSchema(tb, raw)
	data, err := os.ReadFile("testdata/httproute.json")
	if err != nil {
		tb.Fatal(err)
	}
	return c, decodeObject(tb, data)
}

// nested returns the value at path (keys and indexes) in v.
func nested(v any, path ...any) any {
	for _, p := range path {
		switch p := p.(type) {
		case string:
			v = v.(map[string]any)[p]
		case int:
			v = v.([]any)[p]
		}
	}
	return v
}

// withChange returns a deep copy of obj with one backendRef's weight
// changed.
func withChange(obj map[string]any, weight int64) map[string]any {
	n := deepCopy(obj).(map[string]any)
	nested(n, "spec", "rules", 3, "backendRefs", 1).(map[string]any)["weight"] = weight
	return n
}

func TestHTTPRoute(t *testing.T) {
	c, old := httpRoute(t)
	if errs := c.v.Validate(nil, old); len(errs) != 0 {
		t.Fatalf("the stored route is invalid: %v", errs)
	}
	errs, warnings := Validate(c.v, c.rules, c.schema, withChange(old, 5), old)
	if len(errs) != 0 || len(warnings) != 0 {
		t.Fatalf("valid update: errors %v, warnings %v", errs, warnings)
	}
	errs, _ = Validate(c.v, c.rules, c.schema, withChange(old, -1), old)
	checkTexts(t, "errors", errs, []string{"spec.rules[3].backendRefs[1].weight: Invalid value: -1: spec.rules[3].backendRefs[1].weight in body should be greater than or equal to 0"})

	// A hostname the schema forbids, stored before: untouched it is a
	// warning, changed it is an error.
	bad := deepCopy(old).(map[string]any)
	nested(bad, "spec").(map[string]any)["hostnames"] = []any{"Shop.Example.com"}
	errs, warnings = Validate(c.v, c.rules, c.schema, withChange(bad, 5), bad)
	if len(errs) != 0 || len(warnings) == 0 {
		t.Fatalf("unchanged invalid hostname: errors %v, warnings %v", errs, warnings)
	}
	bad2 := withChange(bad, 5)
	nested(bad2, "spec").(map[string]any)["hostnames"] = []any{"Shop2.Example.com"}
	errs, _ = Validate(c.v, c.rules, c.schema, bad2, bad)
	if len(errs) == 0 {
		t.Fatal("changed invalid hostname accepted")
	}
	for _, e := range errs {
		if e.Field != "spec.hostnames[0]" {
			t.Errorf("unexpected error %v", e)
		}
	}
}

// BenchmarkValidateUpdate measures the validation of an update of a
// HTTPRoute with 8 rules that changes one field: schema validation with
// ratcheting and the CEL rules, against the same without ratcheting.
func BenchmarkValidateUpdate(b *testing.B) {
	c, old := httpRoute(b)
	newObj := withChange(old, 5)
	b.Run("ratcheting", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			errs, _ := Validate(c.v, c.rules, c.schema, newObj, old)
			if len(errs) != 0 {
				b.Fatal(errs)
			}
		}
	})
	b.Run("schema-only", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			errs, _ := c.v.ValidateUpdate(nil, newObj, Correlate(newObj, old, c.schema))
			if len(errs) != 0 {
				b.Fatal(errs)
			}
		}
	})
	b.Run("schema-without-ratcheting", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if errs := c.v.Validate(nil, newObj); len(errs) != 0 {
				b.Fatal(errs)
			}
		}
	})
	b.Run("without-ratcheting", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			errs := c.v.Validate(nil, newObj)
			rerrs, _ := c.rules.Validate(context.Background(), nil, newObj, old, 10000000)
			if len(errs)+len(rerrs) != 0 {
				b.Fatal(errs, rerrs)
			}
		}
	})
}

// BenchmarkUnchanged measures the comparison of a whole HTTPRoute with its
// unchanged copy, the worst case of ratcheting's equality.
func BenchmarkUnchanged(b *testing.B) {
	c, old := httpRoute(b)
	newObj := deepCopy(old).(map[string]any)
	b.ReportAllocs()
	for b.Loop() {
		if !Correlate(newObj["spec"], old["spec"], c.schema.Properties["spec"]).Unchanged() {
			b.Fatal("changed")
		}
	}
}

// deepCopy copies an unstructured value.
func deepCopy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[k] = deepCopy(x)
		}
		return m
	case []any:
		l := make([]any, len(v))
		for i, x := range v {
			l[i] = deepCopy(x)
		}
		return l
	}
	return v
}

// BenchmarkUnchangedListMap measures the comparison of a list-type map of
// 1000 items, each an object, with its reversed copy: every item is found
// by key and compared field by field.
func BenchmarkUnchangedListMap(b *testing.B) {
	s := mustSchema(b, `{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name","port"],
		"items":{"type":"object","properties":{"name":{"type":"string"},"port":{"type":"integer"},
			"labels":{"type":"object","additionalProperties":{"type":"string"}}}}}`)
	var newList, oldList []any
	for i := range 1000 {
		newList = append(newList, map[string]any{"name": "item", "port": int64(i), "labels": map[string]any{"a": "x", "b": "y"}})
	}
	for i := len(newList) - 1; i >= 0; i-- {
		oldList = append(oldList, deepCopy(newList[i]))
	}
	b.ReportAllocs()
	for b.Loop() {
		if !Correlate(newList, oldList, s).Unchanged() {
			b.Fatal("changed")
		}
	}
}
