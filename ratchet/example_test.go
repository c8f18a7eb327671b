package ratchet_test

import (
	"context"
	"fmt"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/ratchet"
	"github.com/crdschema/crdschema/structural"
	"github.com/crdschema/crdschema/validation"
)

func Example() {
	// The schema of a CronTab, tightened after objects were stored: the
	// image may now have at most 10 bytes, and the schedule must not be
	// "* * * * *".
	maxLen := int64(10)
	s, err := structural.New(&crdschema.JSONSchemaProps{
		Type: "object",
		Properties: map[string]crdschema.JSONSchemaProps{
			"spec": {
				Type: "object",
				Properties: map[string]crdschema.JSONSchemaProps{
					"image":    {Type: "string", MaxLength: &maxLen},
					"schedule": {Type: "string", XValidations: []crdschema.ValidationRule{{Rule: "self != '* * * * *'", Message: "runs too often"}}},
					"replicas": {Type: "integer"},
				},
			},
		},
	})
	if err != nil {
		panic(err)
	}
	v, err := validation.New(s)
	if err != nil {
		panic(err)
	}
	rules, err := celrules.Compile(s, true)
	if err != nil {
		panic(err)
	}

	stored := map[string]any{"spec": map[string]any{
		"image": "registry.example.com/cron", "schedule": "* * * * *", "replicas": int64(1)}}

	// validate runs the schema and the rules on an update, with ratcheting,
	// as package crd does inside Resource.Update.
	validate := func(obj map[string]any) (errs, warnings crdschema.ErrorList) {
		c := ratchet.Correlate(obj, stored, s)
		r := v.ValidateUpdate(nil, obj, c)
		cel := rules.Validate(context.Background(), nil, obj, stored, celrules.WithRatcheting(c))
		return append(r.Errors, cel.Errors...), append(r.Warnings, cel.Warnings...)
	}

	// Scaling leaves the invalid image and schedule as they are: accepted,
	// with warnings.
	scaled := map[string]any{"spec": map[string]any{
		"image": "registry.example.com/cron", "schedule": "* * * * *", "replicas": int64(2)}}
	errs, warnings := validate(scaled)
	fmt.Println("scale:", len(errs), "errors,", len(warnings), "warnings")

	// Changing the image to another invalid one is refused.
	retagged := map[string]any{"spec": map[string]any{
		"image": "registry.example.com/cron:v2", "schedule": "* * * * *", "replicas": int64(1)}}
	errs, _ = validate(retagged)
	for _, e := range errs {
		fmt.Println("retag:", e)
	}

	// The correlation on its own.
	c := ratchet.Correlate(scaled, stored, s)
	spec := c.Key("spec")
	fmt.Println(spec.Unchanged(), spec.Key("image").Unchanged(), spec.Key("replicas").Unchanged())
	// Output:
	// scale: 0 errors, 2 warnings
	// retag: spec.image: Too long: may not be more than 10 bytes
	// false true false
}
