// Package kubeapi gives crdschema's results the form the Kubernetes API
// machinery (k8s.io/apimachinery) uses, for the two modules that serve
// custom resources through it: fakeclient, a controller-runtime client,
// and testserver, an API server over HTTP. It is the API server's
// behaviour in one place: its status errors for a refused write
// (status.go), the resourceVersion of a create (create.go), and the type converter its
// field manager builds from a CRD's OpenAPI schemas (typeconv.go).
//
// It is a nested module of its own, so that the library module depends on
// no k8s.io module, and an internal one, so that it adds nothing to what
// users see. It requires the oldest k8s.io release the two modules
// support (fakeclient's); each of them builds it with its own.
package kubeapi
