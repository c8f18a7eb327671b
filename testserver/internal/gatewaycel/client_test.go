package main

import (
	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/testserver"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// newClient starts a test server with the CRD files of dir, answering as
// Kubernetes version, and builds a controller-runtime client from its
// *rest.Config, as the suite does from a kubeconfig; it names what it is
// for the suite's first line.
func newClient(scheme *runtime.Scheme, version crdschema.KubernetesVersion, dir string) (client.Client, func(), string, error) {
	srv, err := testserver.Start(testserver.WithKubernetesVersion(version), testserver.WithCRDFiles(dir))
	if err != nil {
		return nil, nil, "", err
	}
	cfg := srv.RESTConfig()
	cfg.WarningHandler = rest.NoWarnings{}
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		_ = srv.Close()
		return nil, nil, "", err
	}
	return c, func() { _ = srv.Close() }, "testserver over HTTPS", nil
}
