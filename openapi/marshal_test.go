package openapi

import (
	"encoding/json"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/go-openapi/spec"
)

// plainJSON marshals a document the slow way, through go-openapi's own
// marshalling of every schema.
func plainJSON(t testing.TB, d *Document) []byte {
	t.Helper()
	type plain Document // no MarshalJSON method
	b, err := json.Marshal(plain(*d))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestMarshalMatchesGoOpenAPI checks that Document.MarshalJSON writes the
// bytes of go-openapi's marshalling, on every golden case.
func TestMarshalMatchesGoOpenAPI(t *testing.T) {
	files, _ := filepath.Glob("testdata/cases/*.json.gz")
	if len(files) == 0 {
		t.Fatal("no golden cases")
	}
	for _, f := range files {
		_, crd, version := loadCase(t, f)
		for _, opts := range []Options{{}, {StripValueValidation: true, StripNullable: true}} {
			doc, err := V3(crd, version, opts)
			if err != nil {
				t.Fatal(err)
			}
			got, err := doc.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			if want := plainJSON(t, doc); string(got) != string(want) {
				t.Errorf("%s: Document.MarshalJSON differs from go-openapi's marshalling:\n got %.300s\nwant %.300s", f, got, want)
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
	if got := string(jsonvalue.AppendString(nil, "a\"<\n")); !strings.HasPrefix(got, `"a\"\u003c\n"`) {
		t.Errorf("AppendString = %s", got)
	}
}

// appendValueCases are values of every kind appendValue writes itself,
// and some it leaves to encoding/json.
var appendValueCases = []any{
	nil, "", "a\"<>&\u2028\x01\xff\b\f", true, false, int64(-3), 7,
	0.0, math.Copysign(0, -1), 1.5, -2.25e-7, 1e-6, 9.99e-7, 1e20, 1e21, 123456789.125, 5e-324, math.MaxFloat64,
	[]any{}, []any(nil), []string{"b", "a"}, []string(nil),
	map[string]any{}, map[string]any(nil), map[string]any{"b": []any{1.0, map[string]any{"<": nil}}, "a": "x", "\xff": int64(1)},
	json.Number("12"), []int{1}, struct{ A int }{1}, spec.StringOrArray{"a", "b"},
	[]crdschema.ValidationRule(nil), []crdschema.ValidationRule{},
	[]crdschema.ValidationRule{{Rule: "self < 3"}, {Rule: "a<b", Message: "m&", MessageExpression: "'x'", Reason: ptrTo(crdschema.ErrorTypeForbidden), FieldPath: ".a", OptionalOldSelf: ptrTo(false)}},
}

// TestAppendValueMatchesEncodingJSON checks that appendValue writes the
// bytes encoding/json writes, errors included.
func TestAppendValueMatchesEncodingJSON(t *testing.T) {
	values := append([]any{math.NaN(), math.Inf(1), []any{math.Inf(-1)}}, appendValueCases...)
	for _, v := range values {
		want, wantErr := json.Marshal(v)
		got, err := appendValue([]byte("x"), v)
		if (err != nil) != (wantErr != nil) {
			t.Errorf("%#v: error %v, encoding/json: %v", v, err, wantErr)
			continue
		}
		if err == nil && string(got) != "x"+string(want) {
			t.Errorf("%#v:\n got %s\nwant x%s", v, got, want)
		}
	}
}

// FuzzAppendValue checks appendValue against encoding/json on decoded
// JSON documents (the defaults, enums and examples of a CRD).
func FuzzAppendValue(f *testing.F) {
	for _, v := range appendValueCases {
		if j, err := json.Marshal(v); err == nil {
			f.Add(j)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v any
		if json.Unmarshal(data, &v) != nil {
			return
		}
		want, wantErr := json.Marshal(v)
		got, err := appendValue(nil, v)
		if (err != nil) != (wantErr != nil) || string(got) != string(want) {
			t.Errorf("%s:\n got %s (%v)\nwant %s (%v)", data, got, err, want, wantErr)
		}
	})
}

func ptrTo[T any](v T) *T { return &v }
