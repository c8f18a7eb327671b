package validation_test

import (
	"encoding/json"
	"fmt"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/manifest"
	"github.com/crdschema/crdschema/structural"
	"github.com/crdschema/crdschema/validation"
)

func Example() {
	var props crdschema.JSONSchemaProps
	_ = json.Unmarshal([]byte(`{
		"type": "object",
		"properties": {
			"spec": {
				"type": "object",
				"required": ["image"],
				"properties": {
					"image":    {"type": "string"},
					"replicas": {"type": "integer", "minimum": 1, "maximum": 10},
					"ports":    {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "integer"}}
				}
			}
		}
	}`), &props)
	schema, err := structural.New(&props)
	if err != nil {
		panic(err)
	}
	v, err := validation.New(schema)
	if err != nil {
		panic(err)
	}

	obj, _ := manifest.UnmarshalObject([]byte(`{"spec": {"replicas": 20, "ports": [80, 80]}}`))
	errs := v.Validate(nil, obj) // the keywords, then list sets and maps
	for _, e := range errs {
		fmt.Println(e)
	}
	// Output:
	// spec.replicas: Invalid value: 20: spec.replicas in body should be less than or equal to 10
	// spec.image: Required value
	// spec.ports[1]: Duplicate value: 80
}
