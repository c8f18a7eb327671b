package crd

import (
	"fmt"
	"github.com/crdschema/crdschema/internal/objectcheck"
	"testing"

	"github.com/crdschema/crdschema/structural"
)

var listTypeSchemas = []string{
	`{"type":"object","properties":{"spec":{"type":"object","properties":{"s":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}},"a":{"type":"array","items":{"type":"string"}},"o":{"type":"object","properties":{"m":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],"items":{"type":"object","properties":{"k":{"type":"string"},"l":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"integer"}}}}}}}}}}}`,
	`{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}}},"p":{"type":"object","properties":{"x":{"type":"array","x-kubernetes-list-type":"atomic","items":{"type":"string"}}},"additionalProperties":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}}}}}`,
	`{"type":"object","properties":{"x":{"type":"string"}}}`,
}

var listTypeObjects = []string{
	`{}`,
	`{"spec":{"s":["a","a","b"],"a":["x","x"],"o":{"m":[{"k":"1","l":[1,1]},{"k":"1"},{"l":[2]}]}}}`,
	`{"m":{"q":["z","z"],"r":[]},"p":{"x":["a","a"],"y":["b","b"]}}`,
	`{"spec":{"s":"notalist","o":{"m":[1,[2],null]}},"m":null}`,
}

func checkListTypesOnly(t *testing.T, s *structural.Schema, obj map[string]any) {
	t.Helper()
	want := fmt.Sprint(objectcheck.ListSetsAndMaps(nil, obj, s))
	got := "[]"
	if d := objectcheck.ListTypesOnly(s); d != nil {
		got = fmt.Sprint(objectcheck.ListSetsAndMaps(nil, obj, d))
	}
	if got != want {
		t.Fatalf("with the cut-down schema:\n%s\nwith the schema:\n%s", got, want)
	}
}

func TestListTypesOnly(t *testing.T) {
	for _, sj := range listTypeSchemas {
		for _, oj := range listTypeObjects {
			s, o, ok := parseDefaultsCase(t, []byte(sj), []byte(oj))
			if !ok {
				t.Fatalf("bad case %s %s", sj, oj)
			}
			checkListTypesOnly(t, s, o)
		}
	}
}

// FuzzListTypesOnly: the list-type checks with the schema cut down by
// listTypesOnly report what they report with the whole schema.
func FuzzListTypesOnly(f *testing.F) {
	for _, s := range listTypeSchemas {
		for _, o := range listTypeObjects {
			f.Add([]byte(s), []byte(o))
		}
	}
	f.Fuzz(func(t *testing.T, schema, obj []byte) {
		s, o, ok := parseDefaultsCase(t, schema, obj)
		if !ok {
			return
		}
		checkListTypesOnly(t, s, o)
	})
}
