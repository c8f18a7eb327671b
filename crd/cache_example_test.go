package crd_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/manifest"
)

// Two CRDs with the same rule share its compilation through one cache
// where their types agree, and keep their own errors where they do not.
func ExampleWithCache() {
	widget := func(plural, kind, replicasType string) *crdschema.CustomResourceDefinition {
		def, _, err := manifest.UnmarshalCRD(fmt.Appendf(nil, `{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
			"metadata": {"name": "%[1]s.example.com"},
			"spec": {"group": "example.com", "scope": "Namespaced", "names": {"plural": %[1]q, "kind": %[2]q},
				"versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
					"type": "object", "properties": {"spec": {"type": "object",
						"properties": {"replicas": {"type": %[3]q}},
						"x-kubernetes-validations": [{"rule": "self.replicas <= 10"}]}}}}}]}}`, plural, kind, replicasType))
		if err != nil {
			panic(err)
		}
		return def
	}
	ctx := context.Background()
	cache := crd.WithCache(new(celrules.Cache)) // one for the whole run
	for _, def := range []*crdschema.CustomResourceDefinition{
		widget("widgets", "Widget", "integer"), widget("gadgets", "Gadget", "integer"), widget("gizmos", "Gizmo", "string"),
	} {
		errs := crd.Validate(ctx, def, cache)
		fmt.Println(def.Name, len(errs), "errors")
		for _, e := range errs {
			detail, _, _ := strings.Cut(e.Detail, "\n")
			fmt.Println(" ", e.Field, detail)
		}
		if len(errs) > 0 {
			continue
		}
		// New validates def again, from the cache, before serving it.
		if _, err := crd.New(def, "v1", cache); err != nil {
			panic(err)
		}
	}
	// Output:
	// widgets.example.com 0 errors
	// gadgets.example.com 0 errors
	// gizmos.example.com 1 errors
	//   spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule compilation failed: ERROR: <input>:1:15: found no matching overload for '_<=_' applied to '(string, int)'
}
