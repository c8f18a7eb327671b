package costs_test

import (
	"context"
	"fmt"
	"os"

	"github.com/crdschema/crdschema/costs"
	"github.com/crdschema/crdschema/manifest"
)

// A rule runs a regular expression on every string of a list that has no
// maxItems and whose strings have no maxLength.
func ExampleExplain() {
	data, err := os.ReadFile("../examples/costs/mailinglist.yaml")
	if err != nil {
		panic(err)
	}
	def, _, err := manifest.UnmarshalCRD(data)
	if err != nil {
		panic(err)
	}
	r, err := costs.Explain(context.Background(), def)
	if err != nil {
		panic(err)
	}
	rule := r.Rules[0]
	fmt.Printf("%s\n  cost %d x cardinality %d\n", rule.Field, rule.Cost, rule.Cardinality)
	for _, u := range rule.Unbounded {
		fmt.Printf("  unbounded: %s (%s)\n", u.FieldPath, u.Keyword)
	}
	for _, f := range r.Fewest {
		fmt.Printf("fix: %s %s %d (%s)\n", f.FieldPath, f.Keyword, f.Value, f.Marker())
	}
	// Output:
	// spec.validation.openAPIV3Schema.properties[spec].properties[addresses].x-kubernetes-validations[0].rule
	//   cost 2308977878627 x cardinality 1
	//   unbounded: spec.addresses (maxItems)
	//   unbounded: spec.addresses[*] (maxLength)
	// fix: spec.addresses maxItems 1024 (+kubebuilder:validation:MaxItems=1024)
	// fix: spec.addresses[*] maxLength 1024 (+kubebuilder:validation:items:MaxLength=1024)
}
