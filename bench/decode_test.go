package bench

// The decoding of CRDs and request bodies, run through upstream's own
// decoders on the same bytes: the API server's JSON and YAML serializers
// (k8s.io/apimachinery), without and with strict field validation.

import (
	encjson "encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/crdschema/crdschema/manifest"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver"
	"k8s.io/apiextensions-apiserver/pkg/crdserverscheme"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
)

// upstreamDecodeCRD decodes body as the API server's serializer does (YAML
// when yaml is set), with strict field validation when strict is set.
func upstreamDecodeCRD(body []byte, yaml, strict bool) (*apiextensionsv1.CustomResourceDefinition, error) {
	s := json.NewSerializerWithOptions(json.DefaultMetaFactory, apiserver.Scheme, apiserver.Scheme, json.SerializerOptions{Yaml: yaml, Strict: strict})
	into := &apiextensionsv1.CustomResourceDefinition{}
	_, _, err := s.Decode(body, nil, into)
	return into, err
}

// upstreamDecodeObject decodes a custom resource body as the API server
// does (into unstructured content).
func upstreamDecodeObject(body []byte, strict bool) (map[string]any, error) {
	s := json.NewSerializerWithOptions(json.DefaultMetaFactory, unstructuredCreator{}, crdserverscheme.NewUnstructuredObjectTyper(), json.SerializerOptions{Strict: strict})
	into := &unstructured.Unstructured{}
	_, _, err := s.Decode(body, nil, into)
	return into.Object, err
}

// asJSON is v encoded and decoded again into the generic form, for
// comparing values of the two sides' types.
func asJSON(t *testing.T, v any) any {
	t.Helper()
	b, err := encjson.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := encjson.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

const crdHead = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"as.b.c"},`

// TestDuplicateKeysLikeUpstream: a key repeated in a CRD or a request
// body decodes as the API server's decoder decodes it without strict
// field validation (a CRD: the later value decoded into the field again,
// objects merged; a custom resource: the last value), and strict field
// validation refuses it as a duplicate field.
func TestDuplicateKeysLikeUpstream(t *testing.T) {
	for _, body := range []string{
		crdHead + `"spec":{"group":"x.c","group":"b.c","scope":"Cluster","names":{"plural":"as","kind":"A"},"names":{"kind":"B"},` +
			`"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","type":"string",` +
			`"properties":{"a":{"type":"string","maxLength":3},"a":{"minLength":1}},"required":["a"],"required":["b"]}}}]}}`,
		crdHead + `"spec":{"versions":[{"name":"v1"}],"versions":[{"served":true}]}}`,
		crdHead + `"metadata":{"labels":{"a":"1"}},"metadata":{"labels":{"b":"2"}}}`,
	} {
		want, err := upstreamDecodeCRD([]byte(body), false, false)
		if err != nil {
			t.Fatalf("upstream: %v\n%s", err, body)
		}
		got, _, err := manifest.UnmarshalCRD([]byte(body))
		if err != nil {
			t.Fatalf("UnmarshalCRD: %v\n%s", err, body)
		}
		a, b := asJSON(t, got), asJSON(t, want)
		// the zero creation time: null in crdschema's JSON, left out in upstream's
		delete(a.(map[string]any)["metadata"].(map[string]any), "creationTimestamp")
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s\ncrdschema: %v\nupstream:  %v", body, a, b)
		}
		if _, err := upstreamDecodeCRD([]byte(body), false, true); !runtime.IsStrictDecodingError(err) || !strings.Contains(err.Error(), "duplicate field") {
			t.Errorf("%s: upstream strict decoding: %v, want a duplicate field error", body, err)
		}
	}
	// YAML: sigs.k8s.io/yaml keeps the last value, as kubectl sends it.
	yamlBody := "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: as.b.c\n  name: bs.b.c\nspec:\n  group: b.c\n  group: c.c\n"
	want, err := upstreamDecodeCRD([]byte(yamlBody), true, false)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := manifest.UnmarshalCRD([]byte(yamlBody))
	if err != nil || got.Name != want.Name || got.Spec.Group != want.Spec.Group || got.Name != "bs.b.c" {
		t.Errorf("YAML: %v %q %q, upstream %q %q", err, got.Name, got.Spec.Group, want.Name, want.Spec.Group)
	}
	// A custom resource: the last value.
	obj := `{"apiVersion":"b.c/v1","kind":"A","metadata":{"name":"a"},"spec":{"x":1,"y":{"a":1}},"spec":{"y":{"b":2}}}`
	wantObj, err := upstreamDecodeObject([]byte(obj), false)
	if err != nil {
		t.Fatal(err)
	}
	gotObj, err := manifest.UnmarshalObject([]byte(obj))
	if err != nil || !reflect.DeepEqual(asJSON(t, gotObj), asJSON(t, wantObj)) {
		t.Errorf("object: %v %v, upstream %v", gotObj, err, wantObj)
	}
	if _, err := upstreamDecodeObject([]byte(obj), true); !runtime.IsStrictDecodingError(err) || !strings.Contains(err.Error(), `duplicate field "spec"`) {
		t.Errorf("object, upstream strict decoding: %v, want a duplicate field error", err)
	}
}

// TestDecodeErrorsLikeUpstream: a CRD with several wrongly typed values
// gives the error of upstream's decoder, the first such value in the
// order of the text, every time (Go type names aside: crdschema's
// package for upstream's v1).
func TestDecodeErrorsLikeUpstream(t *testing.T) {
	schema := func(s string) string {
		return crdHead + `"spec":{"group":"b.c","scope":"Cluster","names":{"plural":"as","kind":"A"},` +
			`"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":` + s + `}}]}}`
	}
	for _, body := range []string{
		schema(`{"type":"object","properties":{"z":{"maxLength":"x"},"a":{"type":5},"m":{"required":[1]}}}`),
		schema(`{"type":"object","properties":{"a":{"type":5},"z":{"maxLength":"x"}}}`),
		schema(`{"type":"object","properties":{"a":{"minimum":"1"},"b":{"x-kubernetes-validations":[{"rule":1}]},"c":{"enum":{}}}}`),
		schema(`{"type":"object","items":{"type":1},"properties":{"a":{"maxItems":1.5}}}`),
		schema(`{"type":"object","additionalProperties":"yes","properties":{"a":{"type":1}}}`),
		schema(`{"type":"object","properties":{"a":{"type":1}},"additionalProperties":{"type":2}}`),
		schema(`{"type":true,"nullable":"no","maxLength":"x"}`),
		schema(`"abc"`),
		crdHead + `"spec":{"group":1,"scope":2,"versions":{}}}`,
		crdHead + `"spec":{"versions":[{"name":1,"served":"yes","additionalPrinterColumns":[{"priority":1.5}]}]}}`,
	} {
		_, werr := upstreamDecodeCRD([]byte(body), false, false)
		if werr == nil {
			t.Fatalf("upstream decodes %s", body)
		}
		want := strings.NewReplacer("v1.", "crdschema.", "crdschema.ValidationRules", "[]crdschema.ValidationRule").Replace(werr.Error())
		first := ""
		for i := 0; i < 100; i++ {
			_, _, err := manifest.UnmarshalCRD([]byte(body))
			if err == nil {
				t.Fatalf("UnmarshalCRD decodes %s", body)
			}
			if i == 0 {
				first = err.Error()
				if !strings.HasSuffix(first, want) {
					t.Errorf("%s\ncrdschema: %s\nupstream:  %s", body, first, werr)
				}
			} else if err.Error() != first {
				t.Fatalf("%s: error %q, then %q", body, first, err)
			}
		}
	}
}
