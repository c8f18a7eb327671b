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
				XValidations: crdschema.ValidationRules{{
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

	// What CRD validation would say, and what each rule costs. As in the
	// Kubernetes documentation's example, string(int) in the
	// messageExpression is priced at its worst case, so the API server
	// refuses this CRD.
	errs, costs, err := celrules.CheckSchema(s, crdschema.NewPath("spec", "validation", "openAPIV3Schema"))
	if err != nil {
		panic(err)
	}
	for _, e := range errs {
		fmt.Println(e)
	}
	for _, c := range costs {
		fmt.Printf("%s: cost %d x %d\n", c.Field, c.Cost, c.Cardinality)
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
	verrs, _ := rules.Validate(context.Background(), nil, obj, nil, celrules.RuntimeBudget)
	fmt.Println(verrs.Error())
	// Output:
	// spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].messageExpression: Forbidden: estimated messageExpression cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)
	// spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].messageExpression: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema
	// spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)
	// spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: cost 5 x 1
	// spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].messageExpression: cost 1844674407370955267 x 1
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
					XValidations: crdschema.ValidationRules{{Rule: "self.startsWith('app-')"}},
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
		errs, costs, err := celrules.CheckSchema(s, path, celrules.UseCache(&cache))
		if err != nil {
			panic(err)
		}
		fmt.Println(len(errs), "errors; cost", costs[0].Cost)
	}
	// Output:
	// 0 errors; cost 2
	// 0 errors; cost 2
}
