package openapi

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/go-openapi/spec"
)

// plainJSON marshals a document the slow way, through go-openapi's own
// marshalling of every schema.
func plainJSON(t testing.TB, d *Document) any {
	t.Helper()
	type plain Document // no MarshalJSON method
	return asJSON(t, plain(*d))
}

// TestMarshalMatchesGoOpenAPI checks that Document.MarshalJSON gives the
// same JSON value as go-openapi's marshalling, on every golden case.
func TestMarshalMatchesGoOpenAPI(t *testing.T) {
	files, _ := filepath.Glob("testdata/cases/*.json.gz")
	for _, f := range files {
		_, crd, version := loadCase(t, f)
		for _, opts := range []Options{{}, {StripValueValidation: true, StripNullable: true}} {
			doc, err := V3(crd, version, opts)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(asJSON(t, doc), plainJSON(t, doc)) {
				t.Errorf("%s: Document.MarshalJSON differs from go-openapi's marshalling", f)
			}
		}
	}
}

func TestMarshalUnusualSchemas(t *testing.T) {
	two, max := 2.5, int64(3)
	schemas := []spec.Schema{
		{SchemaProps: spec.SchemaProps{ID: "x", Type: spec.StringOrArray{"string", "null"}}},
		{SchemaProps: spec.SchemaProps{Type: spec.StringOrArray{"array"}, Items: &spec.SchemaOrArray{Schemas: []spec.Schema{{}}}}},
		{SchemaProps: spec.SchemaProps{Description: "<a & \"b\"> \u2028 \x01 \xff", MultipleOf: &two, MaxItems: &max,
			AdditionalProperties: &spec.SchemaOrBool{Allows: false}, Not: &spec.Schema{}},
			VendorExtensible:   spec.VendorExtensible{Extensions: spec.Extensions{"x-a": []any{1, "b"}, "X-B": true, "ignored": 1}},
			SwaggerSchemaProps: spec.SwaggerSchemaProps{Example: map[string]any{"k": nil}, ExternalDocs: &spec.ExternalDocumentation{URL: "u"}}},
		{SchemaProps: spec.SchemaProps{Ref: spec.MustCreateRef("#/components/schemas/a~1b"), Default: []any{}}},
	}
	for i := range schemas {
		got, err := appendSchema(nil, &schemas[i])
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(&schemas[i])
		if err != nil {
			t.Fatal(err)
		}
		var g, w any
		if err := json.Unmarshal(got, &g); err != nil {
			t.Fatalf("schema %d: invalid JSON %s: %v", i, got, err)
		}
		_ = json.Unmarshal(want, &w)
		if !reflect.DeepEqual(g, w) {
			t.Errorf("schema %d:\n got %s\nwant %s", i, got, want)
		}
	}
	if got := string(appendString(nil, "a\"<\n")); !strings.HasPrefix(got, `"a\"\u003c\n"`) {
		t.Errorf("appendString = %s", got)
	}
}
