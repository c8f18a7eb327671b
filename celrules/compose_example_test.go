package celrules_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/crd"
)

// Example_composition runs the CEL rules of a bare schema the way the API
// server runs them, through crd.NewPipeline: on the object decoded and
// defaulted with the defaults as served (the default 13.0 is served as the
// integer 13), after the OpenAPI validation, and only when that found
// nothing that blocks the rules. Compile and Compiled.Validate are the
// rules alone.
func Example_composition() {
	var props crdschema.JSONSchemaProps
	if err := json.Unmarshal([]byte(`{"type":"object",
		"properties":{
			"replicas":{"type":"integer","default":13.0},
			"maxReplicas":{"type":"integer","default":20},
			"image":{"type":"string","maxLength":5}},
		"x-kubernetes-validations":[{"rule":"self.replicas <= self.maxReplicas"}]}`), &props); err != nil {
		panic(err)
	}
	p, err := crd.NewPipeline(&props)
	if err != nil {
		panic(err) // not structural, or a rule that does not compile
	}
	ctx := context.Background()
	for _, body := range []map[string]any{
		{"image": "nginx:latest", "colour": "blue", "maxReplicas": nil},
		{"image": "nginx", "replicas": int64(30)},
	} {
		obj, unknown, err := p.Decode(body)
		if err != nil {
			panic(err)
		}
		p.Default(obj)
		fmt.Printf("unknown %v, replicas %v (%T): %v\n", unknown, obj["replicas"], obj["replicas"], p.Validate(ctx, obj).ToAggregate())
	}
	// Output:
	// unknown [colour], replicas 13 (int64): [image: Too long: may not be more than 5 bytes, <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation]
	// unknown [], replicas 30 (int64): <nil>: Invalid value: failed rule: self.replicas <= self.maxReplicas
}
