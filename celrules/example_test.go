package celrules_test

import (
	"context"
	"fmt"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/structural"
)

func Example() {
	// The schema of a CronTab: spec.replicas must not exceed spec.maxReplicas.
	schema := &crdschema.JSONSchemaProps{
		Type: "object",
		Properties: map[string]crdschema.JSONSchemaProps{
			"spec": {
				Type: "object",
				Properties: map[string]crdschema.JSONSchemaProps{
					"replicas":    {Type: "integer"},
					"maxReplicas": {Type: "integer"},
				},
				XValidations: []crdschema.ValidationRule{{
					Rule:              "self.replicas <= self.maxReplicas",
					MessageExpression: "'replicas must be at most ' + string(self.maxReplicas)",
				}},
			},
		},
	}
	s, err := structural.New(schema)
	if err != nil {
		panic(err)
	}

	// What compiling the rules at CRD validation gives: each rule's cost
	// figures. As in the Kubernetes documentation's example, string(int)
	// in the messageExpression is priced at its worst case, far above
	// celrules.StaticCostLimit, so the API server refuses this CRD
	// (crd.Validate says so).
	tree, err := celrules.Check(s, crdschema.NewPath("spec", "validation", "openAPIV3Schema"))
	if err != nil {
		panic(err)
	}
	for _, n := range tree.Children {
		for _, r := range n.Rules {
			fmt.Printf("%s: rule cost %d x %d, messageExpression cost %d (over the limit: %v)\n",
				n.Path, r.Cost, r.Cardinality, r.MessageCost, r.MessageCost > celrules.StaticCostLimit)
		}
	}

	// Compile once, validate many objects.
	rules, err := celrules.Compile(s, true)
	if err != nil {
		panic(err)
	}
	obj := map[string]any{
		"apiVersion": "stable.example.com/v1",
		"kind":       "CronTab",
		"spec":       map[string]any{"replicas": int64(5), "maxReplicas": int64(3)},
	}
	verrs := rules.Validate(context.Background(), nil, obj, nil).Errors
	fmt.Println(verrs.ToAggregate())
	// Output:
	// spec.validation.openAPIV3Schema.properties[spec]: rule cost 5 x 1, messageExpression cost 1844674407370955267 (over the limit: true)
	// spec: Invalid value: replicas must be at most 3
}

func ExampleCache() {
	// Two versions of a CRD with the same rules: with one Cache for the
	// whole CRD, each expression is parsed once.
	version := func(maxLength int64) *structural.Schema {
		s, err := structural.New(&crdschema.JSONSchemaProps{
			Type: "object",
			Properties: map[string]crdschema.JSONSchemaProps{
				"name": {
					Type:         "string",
					MaxLength:    &maxLength,
					XValidations: []crdschema.ValidationRule{{Rule: "self.startsWith('app-')"}},
				},
			},
		})
		if err != nil {
			panic(err)
		}
		return s
	}
	var cache celrules.Cache
	for i, s := range []*structural.Schema{version(63), version(253)} {
		path := crdschema.NewPath("spec", "versions").Index(i).Child("schema", "openAPIV3Schema")
		tree, err := celrules.Check(s, path, celrules.WithCache(&cache))
		if err != nil {
			panic(err)
		}
		r := tree.Children[0].Rules[0]
		fmt.Println(r.Rule.Rule, "compiled:", r.Compiled, "cost", r.Cost)
	}
	// Output:
	// self.startsWith('app-') compiled: true cost 2
	// self.startsWith('app-') compiled: true cost 2
}
