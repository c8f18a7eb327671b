package celrules_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/defaulting"
	"github.com/crdschema/crdschema/prune"
	"github.com/crdschema/crdschema/structural"
	"github.com/crdschema/crdschema/validation"
)

// Example_composition composes the packages on a bare schema, as the API
// server handles the value of a field: the served defaults
// (defaulting.PruneDefaults: the default 13.0 is served as the integer 13),
// pruning, null dropping, defaulting, OpenAPI validation and the CEL rules,
// which run only when the schema validation found nothing that blocks them.
// Package crd composes the same steps for whole objects, with the request's
// metadata, preparation and ratcheting.
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
	s, err := structural.New(&props)
	if err != nil {
		panic(err)
	}
	if errs := structural.Validate(nil, s, structural.ValidateOptions{}); len(errs) > 0 {
		panic(errs.ToAggregate())
	}
	served, err := defaulting.PruneDefaults(s)
	if err != nil {
		panic(err)
	}
	validator, err := validation.New(served)
	if err != nil {
		panic(err)
	}
	rules, err := celrules.Compile(served, false)
	if err != nil {
		panic(err)
	}
	if errs := rules.Errors(); len(errs) > 0 {
		panic(errs.ToAggregate()) // a rule that does not compile
	}

	obj := map[string]any{"image": "nginx:latest", "colour": "blue", "maxReplicas": nil}
	unknown := prune.Prune(obj, served, false)
	prune.PruneNulls(obj, served)
	defaulting.Default(obj, served)
	fmt.Printf("unknown %v, replicas %v (%T), maxReplicas %v\n", unknown, obj["replicas"], obj["replicas"], obj["maxReplicas"])

	errs := validator.Validate(nil, obj)
	blocked := false
	for _, e := range errs {
		switch e.Type { // the errors after which the API server runs no rule
		case crdschema.ErrorTypeNotSupported, crdschema.ErrorTypeRequired, crdschema.ErrorTypeTooLong,
			crdschema.ErrorTypeTooMany, crdschema.ErrorTypeTypeInvalid:
			blocked = true
		}
	}
	if !blocked {
		rerrs := rules.Validate(context.Background(), nil, obj, nil).Errors
		errs = append(errs, rerrs...)
	}
	fmt.Println(errs.ToAggregate())
	// Output:
	// unknown [colour], replicas 13 (int64), maxReplicas 20
	// image: Too long: may not be more than 5 bytes
}
