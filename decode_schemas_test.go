package crdschema

import (
	"reflect"
	"testing"
)

// decodeSchemasReference is decodeSchemas with only the struct decoder.
func decodeSchemasReference(j []byte) []any { return decodeSchemasStrict(j) }

func checkDecodeSchemas(t *testing.T, data []byte) {
	t.Helper()
	got, want := decodeSchemas(data), decodeSchemasReference(data)
	if (got == nil) != (want == nil) {
		t.Errorf("decodeSchemas(%q) = %#v, want %#v", data, got, want)
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("decodeSchemas(%q) = %#v, want %#v", data, got, want)
	}
}

func TestDecodeSchemasLikeStruct(t *testing.T) {
	for _, in := range []string{
		`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"type":"object"}}},{"schema":null},{},null,{"schema":{"openAPIV3Schema":1.5}}]}}`,
		`{"spec":{"versions":[]}}`,
		`{"spec":{"versions":null}}`,
		`{"spec":null}`,
		`{"kind":"CustomResourceDefinition"}`,
		`null`,
		`{}`,
		`[]`,
		`"spec"`,
		`{"spec":[]}`,
		`{"spec":{"versions":{}}}`,
		`{"spec":{"versions":[1]}}`,
		`{"spec":{"versions":[{"schema":[]}]}}`,
		`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"a":1,"a":2}}}]}}`,
		`{"Spec":{"versions":[{"schema":{"openAPIV3Schema":{}}}]}}`,
		`{"spec":{"Versions":[{"schema":{"openAPIV3Schema":{}}}]}}`,
		// A repeated key merges into the struct instead of replacing.
		`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"type":"object"}}}]},"spec":{"group":"g"}}`,
		`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"type":"object"}},"schema":{}}]}}`,
		`{"spec":{"versions":[{"schema":{"openAPIV3Schema":1}}],"versions":[{}]}}`,
		`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{}}}]`,
		`{"spec":{"versions":[{"schema":{"openAPIV3Schema":1e400}}]}}`,
	} {
		checkDecodeSchemas(t, []byte(in))
	}
}

// FuzzDecodeSchemas checks on random bytes that the schemas decodeSchemas
// picks out of the generic form agree with the struct decoder.
func FuzzDecodeSchemas(f *testing.F) {
	f.Add([]byte(`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"type":"object","x":1.5}}},{"schema":null}]},"spec":{"a":1}}`))
	f.Add([]byte(`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"type":"object","x":-0.0}}}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkDecodeSchemas(t, data)
	})
}
