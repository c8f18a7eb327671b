package builtin_test

import (
	"fmt"
	"github.com/crdschema/crdschema/manifest"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/builtin"
)

func Example() {
	v, err := crdschema.ParseKubernetesVersion("1.34") // an error where the release is given
	if err != nil {
		panic(err)
	}
	api, err := builtin.New(builtin.WithKubernetesVersion(v))
	if err != nil {
		panic(err)
	}
	obj, _ := manifest.UnmarshalObject([]byte(`
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: "3"
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx}]}
`))
	r, err := api.Create(obj)
	if err != nil {
		panic(err) // a kind the release does not serve
	}
	fmt.Println(r.Err())

	k, _ := api.Lookup("apps/v1", "Deployment")
	s, _ := api.Schema(k)
	fmt.Println(k.Resource, k.Namespaced, s.Properties["spec"].Properties["replicas"].Format)
	// Output:
	// Deployment in version "v1" cannot be handled as a Deployment: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32
	// deployments true int32
}

// A request body as written: a key given twice is a warning, or with
// WithStrictFieldValidation a refusal, as the API server's strict decoding.
func ExampleAPI_CreateJSON() {
	api, err := builtin.New(builtin.WithStrictFieldValidation())
	if err != nil {
		panic(err)
	}
	r, err := api.CreateJSON([]byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","name":"b"}}`))
	if err != nil {
		panic(err) // not JSON, or a kind the release does not serve
	}
	fmt.Println(r.DuplicateFields)
	fmt.Println(r.Err())
	// Output:
	// [metadata.name]
	// ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "metadata.name"
}
