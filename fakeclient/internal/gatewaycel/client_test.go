package main

import (
	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/fakeclient"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// newClient is the fake client with the CRD files of dir, answering as
// Kubernetes version; it names what it is for the suite's first line.
func newClient(scheme *runtime.Scheme, version crdschema.KubernetesVersion, dir string) (client.Client, func(), string, error) {
	c, err := fakeclient.NewClientBuilder().
		WithScheme(scheme).
		WithKubernetesVersion(version).
		WithCRDFiles(dir).
		Build()
	return c, func() {}, "fakeclient", err
}
