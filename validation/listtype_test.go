package validation

import (
	"testing"

	"github.com/crdschema/crdschema/internal/objectcheck"
)

func TestValidateListSetsAndMaps(t *testing.T) {
	schema := specSchema(`{
		"set":{"type":"array","x-kubernetes-list-type":"set","items":{"x-kubernetes-int-or-string":true}},
		"oset":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"array","items":{"type":"number"}}},
		"m1":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
			"items":{"type":"object","properties":{"name":{"type":"string"},"inner":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}}}}},
		"m2":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["a","b"],
			"items":{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}}}},
		"byKey":{"type":"object","additionalProperties":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}}}
	}`)
	s := mustStructural(t, []byte(schema))
	tests := []struct {
		name string
		obj  string
		want []string
	}{
		{"set: second occurrences only, 1 and 1.0 differ", `{"spec":{"set":[1,"1",1,2,1,"1",1.0]}}`, []string{
			"spec.set[2]: Duplicate value: 1",
			`spec.set[5]: Duplicate value: "1"`,
		}},
		{"set of lists compared as JSON", `{"spec":{"oset":[[1,2],[1.0,2],[3]]}}`, []string{
			"spec.oset[1]: Duplicate value: [1,2]",
		}},
		{"map single key", `{"spec":{"m1":[{"name":"a"},{"name":"a"},{},null,{"name":"a"}]}}`, []string{
			`spec.m1[1]: Duplicate value: {"name":"a"}`,
			"spec.m1[3]: Duplicate value: {}",
		}},
		{"map non-object item", `{"spec":{"m1":[{"name":"a"},"x",{"name":"a"}]}}`, []string{
			`spec.m1[1]: Invalid value: "x": must be an object for an array of list-type map`,
		}},
		{"map several keys", `{"spec":{"m2":[{"a":"x","b":1},{"a":"x","b":1},{"a":"x"},{"a":"x"},{"b":1,"a":"y"}]}}`, []string{
			`spec.m2[1]: Duplicate value: {"a":"x","b":1}`,
			`spec.m2[3]: Duplicate value: {"a":"x"}`,
		}},
		{"nested in items and maps", `{"spec":{"m1":[{"name":"a","inner":["x","x"]}],"byKey":{"k":["y","y"]}}}`, []string{
			`spec.m1[0].inner[1]: Duplicate value: "x"`,
			`spec.byKey[k][1]: Duplicate value: "y"`,
		}},
		{"single items are fine", `{"spec":{"m1":[{"name":"a"}],"set":[1]}}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj := mustObject(t, tt.obj).(map[string]any)
			checkErrors(t, objectcheck.ListSetsAndMaps(nil, obj, s), tt.want)
		})
	}
}
