package openapi

import (
	"encoding/json"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

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

// appendValueCases are values of every kind appendValue writes itself,
// and some it leaves to encoding/json.
var appendValueCases = []any{
	nil, "", "a\"<>&\u2028\x01\xff\b\f", true, false, int64(-3), 7,
	0.0, math.Copysign(0, -1), 1.5, -2.25e-7, 1e-6, 9.99e-7, 1e20, 1e21, 123456789.125, 5e-324, math.MaxFloat64,
	[]any{}, []any(nil), []string{"b", "a"}, []string(nil),
	map[string]any{}, map[string]any(nil), map[string]any{"b": []any{1.0, map[string]any{"<": nil}}, "a": "x", "\xff": int64(1)},
	json.Number("12"), []int{1}, struct{ A int }{1}, spec.StringOrArray{"a", "b"},
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

// TestAppendPathsMatchesEncodingJSON checks that the paths of every golden
// document are written as encoding/json writes them, byte for byte, and
// that the path types have the fields appendPaths writes.
func TestAppendPathsMatchesEncodingJSON(t *testing.T) {
	for typ, fields := range map[reflect.Type]int{
		reflect.TypeFor[PathItem](): 6, reflect.TypeFor[Operation](): 8, reflect.TypeFor[Parameter](): 5,
		reflect.TypeFor[RequestBody](): 3, reflect.TypeFor[Response](): 2, reflect.TypeFor[MediaType](): 1,
		reflect.TypeFor[GroupVersionKind](): 3, reflect.TypeFor[Document](): 4,
	} {
		if typ.NumField() != fields {
			t.Errorf("%s has %d fields, appendPaths writes %d: update it", typ, typ.NumField(), fields)
		}
	}
	files, _ := filepath.Glob("testdata/cases/*.json.gz")
	if len(files) == 0 {
		t.Fatal("no golden cases")
	}
	odd := map[string]*PathItem{"/x": nil, "/y": {Parameters: []*Parameter{nil, {Name: "n", In: "query", Required: true, Schema: &spec.Schema{}}},
		Get: &Operation{Tags: []string{"a"}, RequestBody: &RequestBody{Content: map[string]*MediaType{"a": nil, "b": {}}}, Responses: map[string]*Response{"200": nil}}}}
	for _, paths := range append([]map[string]*PathItem{nil, {}, odd}, goldenPaths(t, files)...) {
		want, err := json.Marshal(paths)
		if err != nil {
			t.Fatal(err)
		}
		got, err := appendPaths(nil, paths)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("appendPaths:\n got %s\nwant %s", got, want)
		}
	}
}

func goldenPaths(t *testing.T, files []string) []map[string]*PathItem {
	var out []map[string]*PathItem
	for _, f := range files {
		_, crd, version := loadCase(t, f)
		doc, err := V3(crd, version, Options{})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, doc.Paths)
	}
	return out
}

// TestSafe8 checks the 8-byte test of appendString against the byte table:
// every byte value at every position of an otherwise safe word, and words
// of two unsafe bytes.
func TestSafe8(t *testing.T) {
	safeByte := func(c byte) bool { return c < utf8.RuneSelf && jsonSafe[c] }
	for c := range 256 {
		for pos := range 8 {
			w := []byte("abcdefgh")
			w[pos] = byte(c)
			if got, want := safe8(load8(string(w), 0)), safeByte(byte(c)); got != want {
				t.Errorf("safe8(%q) = %v, want %v", w, got, want)
			}
			for c2 := range 256 {
				w2 := slices.Clone(w)
				w2[(pos+3)%8] = byte(c2)
				if got, want := safe8(load8(string(w2), 0)), safeByte(byte(c)) && safeByte(byte(c2)); got != want {
					t.Fatalf("safe8(%q) = %v, want %v", w2, got, want)
				}
			}
		}
	}
}

// FuzzAppendString checks appendString against encoding/json on any
// string, invalid UTF-8 included.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain ASCII text, longer than eight bytes", "a\"<\n", "tab\there & <there>", "\x00\x1f\x7f", "a\xff\xfeb", "é ü \u2028 \u2029 ☃", strings.Repeat("x", 17) + "\\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendString([]byte("x"), s); string(got) != "x"+string(want) {
			t.Errorf("%q:\n got %s\nwant x%s", s, got, want)
		}
	})
}
