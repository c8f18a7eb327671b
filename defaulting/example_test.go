package defaulting_test

import (
	"fmt"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/defaulting"
	"github.com/crdschema/crdschema/prune"
	"github.com/crdschema/crdschema/structural"
)

func Example() {
	schema, _ := structural.New(&crdschema.JSONSchemaProps{
		Type: "object",
		Properties: map[string]crdschema.JSONSchemaProps{
			"spec": {
				Type: "object",
				Properties: map[string]crdschema.JSONSchemaProps{
					"cronSpec": {Type: "string", Default: &crdschema.JSON{Value: "5 0 * * *"}},
					"image":    {Type: "string"},
					"replicas": {Type: "integer", Default: &crdschema.JSON{Value: int64(1)}},
					"suspend":  {Type: "boolean"},
				},
			},
		},
	})
	// Prepare the schema once, as the API server does when it serves a CRD.
	served, err := defaulting.PruneDefaults(schema)
	if err != nil {
		fmt.Println(err)
		return
	}

	obj := map[string]any{"spec": map[string]any{"image": "my-image", "replicas": nil, "suspend": nil}}
	prune.PruneNulls(obj, served)   // suspend: null is dropped
	defaulting.Default(obj, served) // replicas: null gets its default
	fmt.Println(obj["spec"])
	// Output:
	// map[cronSpec:5 0 * * * image:my-image replicas:1]
}
