package crd_test

import (
	"context"
	"fmt"
	"time"

	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/manifest"
)

// A server that decodes each request body for the one request hands it
// over with CreateOwned, which saves Create's copy of it.
func ExampleResource_CreateOwned() {
	def, _, err := manifest.UnmarshalCRD([]byte(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names:
    plural: crontabs
    kind: CronTab
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
              replicas:
                type: integer
                default: 1
`))
	if err != nil {
		panic(err)
	}
	res, err := crd.New(def, "v1",
		crd.WithUID(func() string { return "uid-1" }),
		crd.WithClock(func() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) }))
	if err != nil {
		panic(err)
	}
	body := []byte(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"a"},"spec":{"image":"x"}}`)
	obj, err := manifest.UnmarshalObject(body) // decoded for this request alone
	if err != nil {
		panic(err)
	}
	r, err := res.CreateOwned(context.Background(), obj)
	if r.Object == nil {
		panic(err)
	}
	fmt.Println(r.Object["spec"], r.UnknownFields)
	// Output: map[replicas:1] [spec.image]
}
