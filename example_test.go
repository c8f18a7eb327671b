package crdschema_test

import (
	"fmt"

	"github.com/crdschema/crdschema"
)

func ExampleInvalid() {
	p := crdschema.NewPath("spec").Child("replicas")
	err := crdschema.Invalid(p, int64(-1), "must be greater than or equal to 0")
	fmt.Println(err)
	fmt.Println(crdschema.Required(crdschema.NewPath("spec", "image"), ""))
	fmt.Println(crdschema.NotSupported(p.Root().Child("scope"), "Global", []string{"Cluster", "Namespaced"}))
	// Output:
	// spec.replicas: Invalid value: -1: must be greater than or equal to 0
	// spec.image: Required value
	// spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"
}

func ExampleErrorList_ToAggregate() {
	check := func(replicas int64) error {
		var errs crdschema.ErrorList
		if replicas < 0 {
			errs = append(errs, crdschema.Invalid(crdschema.NewPath("spec", "replicas"), replicas, "must be greater than or equal to 0"))
		}
		if replicas > 10 {
			errs = append(errs, crdschema.Invalid(crdschema.NewPath("spec", "replicas"), replicas, "must be at most 10"),
				crdschema.Required(crdschema.NewPath("spec", "approval"), "more than 10 replicas need an approval"))
		}
		return errs.ToAggregate() // nil when errs is empty
	}
	fmt.Println(check(3))
	fmt.Println(check(-1))
	fmt.Println(check(11))
	// Output:
	// <nil>
	// spec.replicas: Invalid value: -1: must be greater than or equal to 0
	// [spec.replicas: Invalid value: 11: must be at most 10, spec.approval: Required value: more than 10 replicas need an approval]
}
