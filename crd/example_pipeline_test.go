package crd_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/crd"
)

// ExampleNewPipeline runs the API server's handling of an object on a bare
// schema: decoding (unknown fields pruned, nulls dropped), the defaults as
// served (13.0 is served as the integer 13), and validation (OpenAPI, then
// the CEL rules, which do not run here because an error blocks them).
func ExampleNewPipeline() {
	var schema crdschema.JSONSchemaProps
	if err := json.Unmarshal([]byte(`{"type":"object",
		"properties":{"spec":{"type":"object",
			"properties":{
				"replicas":{"type":"integer","default":13.0},
				"maxReplicas":{"type":"integer","default":20},
				"image":{"type":"string","maxLength":5}},
			"x-kubernetes-validations":[{"rule":"self.replicas <= self.maxReplicas"}]}}}`), &schema); err != nil {
		panic(err)
	}
	p, err := crd.NewPipeline(&schema, crd.WithKind("example.com", "v1", "App", crdschema.NamespaceScoped))
	if err != nil {
		panic(err) // not structural, or a rule that does not compile
	}

	body := map[string]any{"apiVersion": "example.com/v1", "kind": "App",
		"metadata": map[string]any{"name": "a", "namespace": "default"},
		"spec":     map[string]any{"image": "nginx:latest", "colour": "blue", "maxReplicas": nil}}
	obj, unknown, err := p.Decode(body) // a copy; body is not modified
	if err != nil {
		panic(err) // the API server would refuse the body
	}
	p.Default(obj)
	spec := obj["spec"].(map[string]any)
	fmt.Printf("unknown %v, replicas %v (%T), maxReplicas %v\n", unknown, spec["replicas"], spec["replicas"], spec["maxReplicas"])

	ctx := context.Background()
	fmt.Println(p.Validate(ctx, obj).ToAggregate())

	spec["image"] = "nginx"
	spec["replicas"] = int64(30)
	fmt.Println(p.Validate(ctx, obj).ToAggregate())
	// Output:
	// unknown [spec.colour], replicas 13 (int64), maxReplicas 20
	// [spec.image: Too long: may not be more than 5 bytes, <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation]
	// spec: Invalid value: failed rule: self.replicas <= self.maxReplicas
}
