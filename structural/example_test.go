package structural_test

import (
	"encoding/json"
	"fmt"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/structural"
)

func Example() {
	var props crdschema.JSONSchemaProps
	err := json.Unmarshal([]byte(`{
		"type": "object",
		"properties": {
			"spec": {
				"type": "object",
				"properties": {"replicas": {"type": "integer"}},
				"anyOf": [{"properties": {"replicas": {"minimum": 1}}}, {"properties": {"paused": {"type": "boolean"}}}]
			}
		}
	}`), &props)
	if err != nil {
		panic(err)
	}
	path := crdschema.NewPath("spec", "validation", "openAPIV3Schema")

	s, err := structural.New(&props)
	if err != nil {
		panic(err)
	}
	for _, e := range structural.Validate(path, s, structural.Options{}) {
		fmt.Println(e)
	}
	for _, e := range structural.ValidateProps(path, &props, structural.Options{}) {
		fmt.Println(e)
	}
	// Output:
	// spec.validation.openAPIV3Schema.properties[spec].anyOf[1].properties[paused].type: Forbidden: must be empty to be structural
}

func ExampleSchema_FieldPath() {
	var props crdschema.JSONSchemaProps
	err := json.Unmarshal([]byte(`{
		"type": "object",
		"properties": {
			"metadata": {"type": "object"},
			"spec": {"type": "object", "properties": {"labels": {"type": "object", "additionalProperties": {"type": "string"}}}}
		}
	}`), &props)
	if err != nil {
		panic(err)
	}
	s, err := structural.New(&props)
	if err != nil {
		panic(err)
	}
	p, found, err := s.FieldPath(".spec.labels['app.kubernetes.io/name']", true)
	fmt.Println(p, found.Type, err)
	_, _, err = s.FieldPath(".spec.replicas", true)
	fmt.Println(err)
	// Output:
	// spec.labels[app.kubernetes.io/name] string <nil>
	// does not refer to a valid field
}
