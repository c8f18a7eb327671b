package manifest

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/crdschema/crdschema/internal/jsonscan"
	"github.com/crdschema/crdschema/internal/yamljson"
	kjson "sigs.k8s.io/json"
	sigsyaml "sigs.k8s.io/yaml"
)

func TestDecodeNumbers(t *testing.T) {
	v, err := jsonscan.Decode([]byte(`{"a":1,"b":1.0,"c":-9223372036854775808,"d":9223372036854775808,"e":1e3,"f":0.5,"g":[2]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"a": int64(1), "b": float64(1), "c": int64(-9223372036854775808),
		"d": float64(9223372036854775808), "e": float64(1000), "f": 0.5, "g": []any{int64(2)},
	}
	if !reflect.DeepEqual(v, want) {
		t.Errorf("got %#v\nwant %#v", v, want)
	}
}

func TestUnmarshalObjectYAML(t *testing.T) {
	obj, err := UnmarshalObject([]byte(`
a: 1
b: 1.0
c: 0x10
d: 1e3
e: "1"
f: 2001-12-14
g: ~
h: yes
i: true
big: 123456789012345678901234567890
<<: {merged: 1}
`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"a": int64(1), "b": int64(1), "c": int64(16), "d": int64(1000), "e": "1",
		"f": "2001-12-14", "g": nil, "h": true, "i": true,
		"big": float64(123456789012345678901234567890), "merged": int64(1),
	}
	if !reflect.DeepEqual(obj, want) {
		t.Errorf("got %#v\nwant %#v", obj, want)
	}
}

func TestUnmarshalObjectErrors(t *testing.T) {
	for _, in := range []string{`[1]`, `"x"`, `a: [`, `{"a":`, `a: .inf`, "a: 1\n---\nb: 2\n", "", "# nothing\n"} {
		if _, err := UnmarshalObject([]byte(in)); err == nil {
			t.Errorf("UnmarshalObject(%q): no error", in)
		}
	}
}

func TestDecoderMultiDoc(t *testing.T) {
	objs, err := readObjects([]byte("a: 1\n---\n---\n# only a comment\n---\nb: [x]\n...\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) != 2 || objs[0]["a"] != int64(1) || !reflect.DeepEqual(objs[1]["b"], []any{"x"}) {
		t.Errorf("got %#v", objs)
	}
	if _, err := readObjects([]byte("a: 1\n---\n- x\n")); err == nil || !strings.Contains(err.Error(), "document 2") {
		t.Errorf("error does not name the document: %v", err)
	}
}

func TestUnmarshalCRDUnknownFields(t *testing.T) {
	_, unknown, err := UnmarshalCRD([]byte(`{
  "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
  "metadata": {"name": "a.b.c", "bogus": 1},
  "spec": {"group": "b.c", "extra": true, "names": {"plural": "a", "kind": "A"}, "scope": "Cluster",
    "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
      "type": "object", "discriminator": "x",
      "properties": {"spec": {"type": "object", "xml": {},
        "items": {"bogusInItems": 1},
        "additionalProperties": {"bogusInAP": 1},
        "allOf": [{"readOnly": true}],
        "x-kubernetes-validations": [{"rule": "true", "severity": "x"}],
        "externalDocs": {"url": "u", "foo": 1}}}}}}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"metadata.bogus",
		"spec.extra",
		"spec.versions[0].schema.openAPIV3Schema.discriminator",
		"spec.versions[0].schema.openAPIV3Schema.properties.spec.allOf[0].readOnly",
		"spec.versions[0].schema.openAPIV3Schema.properties.spec.externalDocs.foo",
		"spec.versions[0].schema.openAPIV3Schema.properties.spec.x-kubernetes-validations[0].severity",
		"spec.versions[0].schema.openAPIV3Schema.properties.spec.xml",
	}
	if !reflect.DeepEqual(unknown, want) {
		t.Errorf("unknown fields\n got %q\nwant %q", unknown, want)
	}
}

func TestUnmarshalCRDErrors(t *testing.T) {
	for in, want := range map[string]string{
		`{"apiVersion":"apiextensions.k8s.io/v1beta1","kind":"CustomResourceDefinition"}`: "not supported",
		`{"apiVersion":"v1","kind":"ConfigMap"}`:                                          "not supported",
		`{"kind":"Pod"}`:                                                                  `kind is "Pod"`,
		`{"spec":{"versions":{}}}`:                                                        "cannot unmarshal",
		`spec: [`:                                                                         "yaml",
	} {
		_, _, err := UnmarshalCRD([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("UnmarshalCRD(%s): err = %v, want it to contain %q", in, err, want)
		}
	}
}

func TestDecoderCRDs(t *testing.T) {
	crds, err := readCRDs([]byte("apiVersion: v1\nkind: Namespace\nmetadata: {name: x}\n---\n" + crontabYAML))
	if err != nil {
		t.Fatal(err)
	}
	if len(crds) != 1 || crds[0].Name != "crontabs.stable.example.com" {
		t.Errorf("got %d CRDs", len(crds))
	}
}

func FuzzUnmarshalCRD(f *testing.F) {
	f.Add([]byte(crontabYAML))
	f.Add([]byte(`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"properties":{"a":{"default":null}}}}}]}}`))
	f.Add([]byte("a: &a [*a]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		crd, _, err := UnmarshalCRD(data)
		if err == nil && crd == nil {
			t.Fatal("nil CRD without error")
		}
	})
}

// FuzzUnmarshalObject: JSON decodes as the API server's decoder
// (sigs.k8s.io/json) decodes a request body, YAML as sigs.k8s.io/yaml
// reads it, then the same.
func FuzzUnmarshalObject(f *testing.F) {
	f.Add([]byte("a: 1\nb: [1.0, x, {c: null}]"))
	f.Add([]byte(`{"a":1e400}`))
	f.Add([]byte(`{"a":1,"a":{"b":2},"c":[1.0,-0,1e2]}`))
	f.Add([]byte("on: yes\nn: [0x1F, 1.0, 1e3, ~]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		obj, err := UnmarshalObject(data)
		if err == nil && obj == nil {
			t.Fatal("nil object without error")
		}
		j := data
		if !yamljson.IsJSON(data) {
			if len(yamljson.SplitAll(data)) != 1 {
				return
			}
			var yerr error
			if j, yerr = sigsyaml.YAMLToJSON(data); yerr != nil {
				if err == nil {
					t.Fatalf("sigs.k8s.io/yaml refuses what UnmarshalObject reads (%v): %q", yerr, data)
				}
				return
			}
		}
		var want map[string]any
		werr := kjson.UnmarshalCaseSensitivePreserveInts(j, &want)
		if werr != nil || want == nil {
			if err == nil {
				t.Fatalf("sigs.k8s.io/json refuses what UnmarshalObject reads (%v): %q", werr, data)
			}
			return
		}
		if err != nil {
			if strings.Contains(err.Error(), "are both") {
				return // keys that sigs.k8s.io/yaml merges in Go's map order
			}
			t.Fatalf("UnmarshalObject: %v, sigs.k8s.io/json decodes %q", err, j)
		}
		if !reflect.DeepEqual(obj, want) {
			t.Fatalf("UnmarshalObject\n%#v\nsigs.k8s.io/json\n%#v\ninput %q", obj, want, data)
		}
	})
}

// The schemas are decoded from the generic form and the rest goes through
// the strict decoder; a float where the CRD wants an integer must still be
// refused, as the API server's decoder does.
func TestUnmarshalCRDIntegerFields(t *testing.T) {
	base := `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"as.b.c"},
"spec":{"group":"b.c","scope":"Cluster","names":{"plural":"as","kind":"A"},"versions":[{"name":"v1","served":true,"storage":true,
"schema":{"openAPIV3Schema":{"type":"object","properties":{"n":{"type":"integer","maximum":1.5}}}},
"additionalPrinterColumns":[{"name":"N","type":"integer","jsonPath":".n","priority":%s}]}]}}`
	crd, _, err := UnmarshalCRD([]byte(fmt.Sprintf(base, "1")))
	if err != nil {
		t.Fatal(err)
	}
	if got := crd.Spec.Versions[0].AdditionalPrinterColumns[0].Priority; got != 1 {
		t.Errorf("priority = %d", got)
	}
	if m := crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["n"].Maximum; m == nil || *m != 1.5 {
		t.Errorf("maximum = %v", m)
	}
	if _, _, err := UnmarshalCRD([]byte(fmt.Sprintf(base, "1.0"))); err == nil || !strings.Contains(err.Error(), "priority") {
		t.Errorf("priority 1.0: err = %v, want a decoding error naming priority", err)
	}
}

// TestUnmarshalCRDSchemaNotObject checks that an openAPIV3Schema that is
// not an object (nor null) is a decoding error, as the API server's
// decoder reports it, whatever its JSON type.
func TestUnmarshalCRDSchemaNotObject(t *testing.T) {
	for v, kind := range map[string]string{`"abc"`: "string", `true`: "bool", `[1]`: "array", `3`: "number", `1.5`: "number"} {
		doc := `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"as.b"},` +
			`"spec":{"group":"b","names":{"plural":"as","kind":"A"},"scope":"Namespaced",` +
			`"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":` + v + `}}]}}`
		_, _, err := UnmarshalCRD([]byte(doc))
		want := "json: cannot unmarshal " + kind + " into Go struct field CustomResourceValidation.spec.versions.schema.openAPIV3Schema of type crdschema.JSONSchemaProps"
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("openAPIV3Schema %s: error %v, want one containing %q", v, err, want)
		}
	}
}
