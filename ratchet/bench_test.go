package ratchet_test

import (
	"github.com/crdschema/crdschema/ratchet"
	"os"
	"strings"
	"testing"

	"github.com/crdschema/crdschema/manifest"
	"github.com/crdschema/crdschema/structural"
	"github.com/crdschema/crdschema/validation"
)

// httpRoute returns the Gateway API HTTPRoute v1 schema and a stored route
// with 8 rules (testdata, see testdata/README.md).
func httpRoute(tb testing.TB) (*structural.Schema, map[string]any) {
	tb.Helper()
	raw, err := os.ReadFile("testdata/httproute-v1.schema.json")
	if err != nil {
		tb.Fatal(err)
	}
	s := mustSchema(tb, string(raw))
	data, err := os.ReadFile("testdata/httproute.json")
	if err != nil {
		tb.Fatal(err)
	}
	obj, err := manifest.UnmarshalObject(data)
	if err != nil {
		tb.Fatal(err)
	}
	return s, obj
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

// TestHTTPRoute ratchets the schema validation of a real route: a change
// that leaves a stored invalid hostname alone is accepted, with the
// hostname's error as a warning; changing the hostname is refused.
func TestHTTPRoute(t *testing.T) {
	s, old := httpRoute(t)
	v, err := validation.New(s)
	if err != nil {
		t.Fatal(err)
	}
	if errs := v.Validate(nil, old); len(errs) != 0 {
		t.Fatalf("the stored route is invalid: %v", errs)
	}
	bad := deepCopy(old).(map[string]any)
	nested(bad, "spec").(map[string]any)["hostnames"] = []any{"Shop.Example.com"}
	changed := deepCopy(bad).(map[string]any)
	nested(changed, "spec", "rules", 3, "backendRefs", 1).(map[string]any)["weight"] = int64(5)
	r := v.ValidateUpdate(nil, changed, ratchet.Correlate(changed, bad, s))
	errs, warnings := r.Errors, r.Warnings
	if len(errs) != 0 || len(warnings) != 1 {
		t.Errorf("hostname untouched: errors %v, warnings %v", errs, warnings)
	}
	renamed := deepCopy(bad).(map[string]any)
	nested(renamed, "spec").(map[string]any)["hostnames"] = []any{"Shop2.Example.com"}
	errs = v.ValidateUpdate(nil, renamed, ratchet.Correlate(renamed, bad, s)).Errors
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "spec.hostnames[0]") {
		t.Errorf("hostname changed: errors %v", errs)
	}
}

// BenchmarkUnchanged measures the comparison of a whole HTTPRoute with its
// unchanged copy, the worst case of ratcheting's equality.
func BenchmarkUnchanged(b *testing.B) {
	s, old := httpRoute(b)
	newObj := deepCopy(old).(map[string]any)
	b.ReportAllocs()
	for b.Loop() {
		if !ratchet.Correlate(newObj["spec"], old["spec"], s.Properties["spec"]).Unchanged() {
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
		if !ratchet.Correlate(newList, oldList, s).Unchanged() {
			b.Fatal("changed")
		}
	}
}
