package openapi

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
)

// testCRD is a namespaced CRD of kind Widget (group example.com, version
// v1) whose spec property has the schema specJSON.
func testCRD(t testing.TB, specJSON string) *crdschema.CustomResourceDefinition {
	t.Helper()
	var spec crdschema.JSONSchemaProps
	if err := json.Unmarshal([]byte(specJSON), &spec); err != nil {
		t.Fatalf("bad test schema: %v", err)
	}
	return &crdschema.CustomResourceDefinition{
		Spec: crdschema.CustomResourceDefinitionSpec{
			Group: "example.com",
			Names: crdschema.CustomResourceDefinitionNames{Plural: "widgets", Singular: "widget", Kind: "Widget"},
			Scope: crdschema.NamespaceScoped,
			Versions: []crdschema.CustomResourceDefinitionVersion{{
				Name: "v1", Served: true, Storage: true,
				Schema: &crdschema.CustomResourceValidation{OpenAPIV3Schema: &crdschema.JSONSchemaProps{
					Type:       "object",
					Properties: map[string]crdschema.JSONSchemaProps{"spec": spec},
				}},
			}},
		},
	}
}

// publishedSpec returns the published schema of the spec property, as a
// JSON value, in v2 or v3.
func publishedSpec(t testing.TB, specJSON string, v2 bool, opts Options) any {
	t.Helper()
	crd := testCRD(t, specJSON)
	var kind any
	if v2 {
		doc, err := V2(crd, "v1", opts)
		if err != nil {
			t.Fatal(err)
		}
		kind = asJSON(t, doc.Definitions["com.example.v1.Widget"])
	} else {
		doc, err := V3(crd, "v1", opts)
		if err != nil {
			t.Fatal(err)
		}
		kind = asJSON(t, doc.Components.Schemas["com.example.v1.Widget"])
	}
	props, _ := kind.(map[string]any)["properties"].(map[string]any)
	return props["spec"]
}

func mustJSON(t testing.TB, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("bad expectation %s: %v", s, err)
	}
	return v
}

func checkPublished(t *testing.T, name, in string, v2 bool, opts Options, want string) {
	t.Helper()
	got := publishedSpec(t, in, v2, opts)
	if w := mustJSON(t, want); !reflect.DeepEqual(got, w) {
		g, _ := json.Marshal(got)
		t.Errorf("%s:\n got %s\nwant %s", name, g, want)
	}
}

// TestV2ConversionRules checks each rule of the lossy conversion to
// OpenAPI v2, one at a time.
func TestV2ConversionRules(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{{
		name: "allOf, anyOf, oneOf and not are dropped; value validations stay",
		in:   `{"type":"integer","minimum":1,"allOf":[{"maximum":5}],"anyOf":[{"minimum":2}],"oneOf":[{"multipleOf":2}],"not":{"enum":[3]}}`,
		want: `{"type":"integer","minimum":1}`,
	}, {
		name: "nullable drops type, nullable, items and properties",
		in:   `{"type":"object","nullable":true,"description":"d","properties":{"a":{"type":"string"}},"required":["a"]}`,
		want: `{"description":"d","required":["a"]}`,
	}, {
		name: "nullable array drops items and type",
		in:   `{"type":"array","nullable":true,"maxItems":2,"items":{"type":"string"}}`,
		want: `{"maxItems":2}`,
	}, {
		name: "preserve-unknown-fields drops properties, and type object",
		in:   `{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{"a":{"type":"string"}}}`,
		want: `{"x-kubernetes-preserve-unknown-fields":true}`,
	}, {
		name: "preserve-unknown-fields drops items, then the array loses its type",
		in:   `{"type":"array","x-kubernetes-preserve-unknown-fields":true,"items":{"type":"string"}}`,
		want: `{"x-kubernetes-preserve-unknown-fields":true}`,
	}, {
		name: "nullable properties leave required",
		in:   `{"type":"object","required":["a","b","c"],"properties":{"a":{"type":"string","nullable":true},"b":{"type":"string"},"c":{"type":"string","nullable":true}}}`,
		want: `{"type":"object","required":["b"],"properties":{"a":{},"b":{"type":"string"},"c":{}}}`,
	}, {
		name: "required becomes empty when every listed property is nullable",
		in:   `{"type":"object","required":["a"],"properties":{"a":{"type":"string","nullable":true}}}`,
		want: `{"type":"object","properties":{"a":{}}}`,
	}, {
		name: "nullable additionalProperties drop required",
		in:   `{"type":"object","required":["x"],"additionalProperties":{"type":"string","nullable":true}}`,
		want: `{"type":"object","additionalProperties":{}}`,
	}, {
		name: "int-or-string keeps only the extension",
		in:   `{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]}`,
		want: `{"x-kubernetes-int-or-string":true}`,
	}, {
		name: "defaults are removed at every level",
		in:   `{"type":"object","default":{},"properties":{"a":{"type":"string","default":"x"}},"additionalProperties":false}`,
		want: `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`,
	}, {
		name: "embedded resources preserving unknown fields get no apiVersion, kind or metadata",
		in:   `{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}`,
		want: `{"x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}`,
	}, {
		name: "other embedded resources get them, with a plain $ref",
		in:   `{"type":"object","x-kubernetes-embedded-resource":true,"nullable":true,"properties":{"a":{"type":"string"}}}`,
		want: `{"x-kubernetes-embedded-resource":true,"required":["kind","apiVersion"],"properties":{
			"apiVersion":{"type":"string","description":"` + embeddedAPIVersionDescription + `"},
			"kind":{"type":"string","description":"` + embeddedKindDescription + `"},
			"metadata":{"$ref":"#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta","description":"` + objectMetaDescription + `"}}}`,
	}, {
		name: "validation rules and value validations stay",
		in:   `{"type":"string","pattern":"^a","x-kubernetes-validations":[{"rule":"self != 'b'","message":"m","reason":"FieldValueForbidden"}]}`,
		want: `{"type":"string","pattern":"^a","x-kubernetes-validations":[{"rule":"self != 'b'","message":"m","reason":"FieldValueForbidden"}]}`,
	}}
	for _, tt := range tests {
		checkPublished(t, tt.name, tt.in, true, Options{}, tt.want)
	}
}

// TestV2RootPreservingUnknownFields checks that a root which preserves
// unknown fields is published in v2 as a bare object.
func TestV2RootPreservingUnknownFields(t *testing.T) {
	crd := testCRD(t, `{"type":"string"}`)
	crd.Spec.Versions[0].Schema.OpenAPIV3Schema.XPreserveUnknownFields = new(bool)
	*crd.Spec.Versions[0].Schema.OpenAPIV3Schema.XPreserveUnknownFields = true
	doc, err := V2(crd, "v1", Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := asJSON(t, doc.Definitions["com.example.v1.Widget"])
	want := mustJSON(t, `{"type":"object","x-kubernetes-group-version-kind":[{"group":"example.com","version":"v1","kind":"Widget"}]}`)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	v3, err := V3(crd, "v1", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if props := v3.Components.Schemas["com.example.v1.Widget"].Properties; len(props) != 4 {
		t.Errorf("v3 keeps the properties (spec, apiVersion, kind, metadata); got %d", len(props))
	}
}

// TestIntOrStringUnfolding checks how int-or-string nodes are published in
// v3: unfolded to anyOf [integer, string] unless a pattern is spelled out.
func TestIntOrStringUnfolding(t *testing.T) {
	const pair = `[{"type":"integer"},{"type":"string"}]`
	tests := []struct {
		name, in string
		v2       bool
		opts     Options
		want     string
	}{{
		name: "bare int-or-string gets the anyOf",
		in:   `{"x-kubernetes-int-or-string":true}`,
		want: `{"x-kubernetes-int-or-string":true,"anyOf":` + pair + `}`,
	}, {
		name: "other value validations are kept beside it",
		in:   `{"x-kubernetes-int-or-string":true,"pattern":"^[0-9]+%?$","nullable":true}`,
		want: `{"x-kubernetes-int-or-string":true,"pattern":"^[0-9]+%?$","nullable":true,"anyOf":` + pair + `}`,
	}, {
		name: "the anyOf pattern is not repeated",
		in:   `{"x-kubernetes-int-or-string":true,"anyOf":` + pair + `}`,
		want: `{"x-kubernetes-int-or-string":true,"anyOf":` + pair + `}`,
	}, {
		name: "the allOf pattern is not repeated",
		in:   `{"x-kubernetes-int-or-string":true,"allOf":[{"anyOf":` + pair + `},{"pattern":"^a"}]}`,
		want: `{"x-kubernetes-int-or-string":true,"allOf":[{"anyOf":` + pair + `},{"pattern":"^a"}]}`,
	}, {
		name: "an anyOf of its own moves the pair into a new first allOf member",
		in:   `{"x-kubernetes-int-or-string":true,"anyOf":[{"maximum":3},{"pattern":"^a"}],"allOf":[{"maxLength":2}]}`,
		want: `{"x-kubernetes-int-or-string":true,"anyOf":[{"maximum":3},{"pattern":"^a"}],"allOf":[{"anyOf":` + pair + `},{"maxLength":2}]}`,
	}, {
		name: "inside items and additionalProperties too",
		in:   `{"type":"object","additionalProperties":{"type":"array","items":{"x-kubernetes-int-or-string":true}}}`,
		want: `{"type":"object","additionalProperties":{"type":"array","items":{"x-kubernetes-int-or-string":true,"anyOf":` + pair + `}}}`,
	}, {
		name: "stripping value validations strips the unfolded anyOf",
		in:   `{"x-kubernetes-int-or-string":true,"maximum":3}`,
		opts: Options{StripValueValidation: true},
		want: `{"x-kubernetes-int-or-string":true}`,
	}, {
		name: "v2 publishes only the extension",
		in:   `{"x-kubernetes-int-or-string":true}`,
		v2:   true,
		want: `{"x-kubernetes-int-or-string":true}`,
	}}
	for _, tt := range tests {
		checkPublished(t, tt.name, tt.in, tt.v2, tt.opts, tt.want)
	}
}

// TestV3Details checks v3 publishing rules beside int-or-string.
func TestV3Details(t *testing.T) {
	tests := []struct {
		name, in string
		opts     Options
		want     string
	}{{
		name: "embedded resources get apiVersion, kind and an allOf-wrapped metadata $ref",
		in:   `{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true,"required":["kind"]}`,
		want: `{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true,"required":["kind","apiVersion"],"properties":{
			"apiVersion":{"type":"string","description":"` + embeddedAPIVersionDescription + `"},
			"kind":{"type":"string","description":"` + embeddedKindDescription + `"},
			"metadata":{"allOf":[{"$ref":"#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}],"description":"` + objectMetaDescription + `"}}}`,
	}, {
		name: "junctor members publish their keywords",
		in:   `{"type":"object","properties":{"a":{"type":"string"}},"anyOf":[{"required":["a"],"properties":{"a":{"maxLength":3}}}],"not":{"minProperties":9}}`,
		want: `{"type":"object","properties":{"a":{"type":"string"}},"anyOf":[{"required":["a"],"properties":{"a":{"maxLength":3}}}],"not":{"minProperties":9}}`,
	}, {
		name: "defaults, examples, titles and external docs are published",
		in:   `{"type":"string","default":"x","example":"y","title":"t","externalDocs":{"url":"https://e.x"},"format":"date","enum":["x","y"]}`,
		want: `{"type":"string","default":"x","example":"y","title":"t","externalDocs":{"url":"https://e.x"},"format":"date","enum":["x","y"]}`,
	}, {
		name: "StripNullable and StripValueValidation",
		in:   `{"type":"string","nullable":true,"maxLength":3,"x-kubernetes-validations":[{"rule":"true"}]}`,
		opts: Options{StripNullable: true, StripValueValidation: true},
		want: `{"type":"string","x-kubernetes-validations":[{"rule":"true"}]}`,
	}}
	for _, tt := range tests {
		checkPublished(t, tt.name, tt.in, false, tt.opts, tt.want)
	}
}

// TestNonStructuralSchemas checks that a schema the API server cannot
// publish gives a bare object kind, in both versions.
func TestNonStructuralSchemas(t *testing.T) {
	for _, in := range []string{
		`{"type":"foo"}`,                         // unknown type
		`{"type":"object","$ref":"#/x"}`,         // no structural form
		`{"properties":{"a":{"type":"string"}}}`, // no type: not structural
	} {
		crd := testCRD(t, in)
		v3, err := V3(crd, "v1", Options{})
		if err != nil {
			t.Fatal(err)
		}
		kind := v3.Components.Schemas["com.example.v1.Widget"]
		if len(kind.Properties) != 0 || !kind.Type.Contains("object") {
			t.Errorf("%s: want a bare object, got %s", in, short(kind))
		}
	}
}

func TestOperationIDAndTags(t *testing.T) {
	tests := []struct {
		op, path, id, tag string
	}{
		{"readNamespacedWidgetStatus", "/apis/example.com/v1/namespaces/{namespace}/widgets/{name}/status", "readExampleComV1NamespacedWidgetStatus", "exampleCom_v1"},
		{"deletecollectionWidget", "/apis/example.com/v1/widgets", "deleteExampleComV1CollectionWidget", "exampleCom_v1"},
		{"listWidgetForAllNamespaces", "/apis/stable.example.com/v1beta1/widgets", "listStableExampleComV1beta1WidgetForAllNamespaces", "stableExampleCom_v1beta1"},
		{"createS3Bucket", "/apis/s3.aws-x.io/v1/buckets", "createS3AwsXIoV1S3Bucket", "s3AwsXIo_v1"},
		{"patchThing", "/apis/apps.k8s.io/v2/things/{name}", "patchAppsV2Thing", "apps_v2"},
		{"replaceThing", "/apis/9lives.example/v1/things", "replaceLivesExampleV1Thing", "LivesExample_v1"}, // a leading digit is dropped and capitalizes the next letter,
	}
	for _, tt := range tests {
		id, tags := operationIDAndTags(tt.op, tt.path)
		if id != tt.id || len(tags) != 1 || tags[0] != tt.tag {
			t.Errorf("operationIDAndTags(%q, %q) = %q, %v; want %q, [%s]", tt.op, tt.path, id, tags, tt.id, tt.tag)
		}
	}
}

func TestDescriptions(t *testing.T) {
	r := &resource{kind: "Ingress"}
	tests := []struct{ sub, verb, want string }{
		{"", "create", "create an Ingress"},
		{"", "delete", "delete an Ingress"},
		{"", "deletecollection", "delete collection of Ingress"},
		{"status", "patch", "partially update status of the specified Ingress"},
		{"scale", "read", "read scale of the specified Ingress"},
		{"", "list", "list objects of kind Ingress"},
	}
	for _, tt := range tests {
		if got := r.describe(tt.sub, tt.verb); got != tt.want {
			t.Errorf("describe(%q, %q) = %q, want %q", tt.sub, tt.verb, got, tt.want)
		}
	}
	for noun, want := range map[string]string{"Widget": " a ", "Ingot": " an ", "Stats": " ", "Class": " a "} {
		if got := article(noun); got != want {
			t.Errorf("article(%q) = %q, want %q", noun, got, want)
		}
	}
}

// TestSharedParameterNames checks the content-hash names of shared v2
// parameters against the names the API server gives them.
func TestSharedParameterNames(t *testing.T) {
	doc, err := V2(testCRD(t, `{"type":"object"}`), "v1", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"pretty-tJGM1-ng", "body-2Y1dVQaQ", "body-78PwaGsr", "namespace-vgWSWtn3", "gracePeriodSeconds--K5HaBOS", "watch-XNNPZGbK"} {
		if _, ok := doc.Parameters[name]; !ok {
			t.Errorf("no shared parameter %s", name)
		}
	}
	for name, p := range doc.Parameters {
		if p.Name == "name" || p.Name == "dryRun" || p.Name == "fieldValidation" {
			t.Errorf("%s must not be shared", name)
		}
		if !strings.HasPrefix(name, p.Name+"-") {
			t.Errorf("shared parameter %s holds %s", name, p.Name)
		}
	}
}

func TestErrors(t *testing.T) {
	crd := testCRD(t, `{"type":"object"}`)
	if _, err := V2(crd, "v2", Options{}); err == nil || !strings.Contains(err.Error(), `no version "v2"`) {
		t.Errorf("V2 of a missing version: %v", err)
	}
	if _, err := V3(nil, "v1", Options{}); err == nil {
		t.Error("V3 of a nil CRD: no error")
	}
}
