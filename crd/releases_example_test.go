package crd_test

import (
	"context"
	"fmt"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/manifest"
)

// Which releases accept a CRD whose rule uses isSemver, a CEL function new
// rules may use from Kubernetes 1.34 on?
func ExampleCheckReleases() {
	def, _, err := manifest.UnmarshalCRD([]byte(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: releases.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names:
    plural: releases
    kind: Release
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              version:
                type: string
                maxLength: 64
                x-kubernetes-validations:
                - rule: isSemver(self)
`))
	if err != nil {
		panic(err)
	}
	from, err := crdschema.ParseKubernetesVersion("1.33") // an error where the release is given
	if err != nil {
		panic(err)
	}
	results, err := crd.CheckReleases(context.Background(), def, nil, from, crdschema.KubernetesVersion{}) // to 1.37, the default
	if err != nil {
		panic(err)
	}
	for _, r := range results {
		if r.Accepted {
			fmt.Println(r.Version, "accepted")
			continue
		}
		fmt.Println(r.Version, "refused:")
		for _, why := range r.Reasons {
			fmt.Println("  " + why)
		}
	}
	// Output:
	// 1.33 refused:
	//   spec.validation.openAPIV3Schema.properties[spec].properties[version].x-kubernetes-validations[0].rule: `isSemver` is not available before Kubernetes 1.34
	// 1.34 accepted
	// 1.35 accepted
	// 1.36 accepted
	// 1.37 accepted
}
