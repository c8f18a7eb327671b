package prune_test

import (
	"fmt"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/prune"
	"github.com/crdschema/crdschema/structural"
)

func ExamplePrune() {
	schema, _ := structural.New(&crdschema.JSONSchemaProps{
		Type: "object",
		Properties: map[string]crdschema.JSONSchemaProps{
			"items": {Type: "array", Items: &crdschema.JSONSchemaPropsOrArray{Schema: &crdschema.JSONSchemaProps{
				Type:       "object",
				Properties: map[string]crdschema.JSONSchemaProps{"name": {Type: "string"}},
			}}},
		},
	})
	obj := map[string]any{
		"items": []any{map[string]any{"name": "a", "foo": int64(1)}},
		"bar":   true,
	}
	fmt.Println(prune.Prune(obj, schema, false))
	fmt.Println(obj)
	// Output:
	// [bar items[0].foo]
	// map[items:[map[name:a]]]
}
