// Package testserver is an in-process Kubernetes API server for tests: it
// starts in milliseconds, serves HTTPS on the loopback interface, keeps its
// objects in memory, and serves the kinds of the CRDs it is given (and the
// CRDs created while it runs) exactly as kube-apiserver serves them: every
// write of a custom resource goes through crdschema's pipeline (pruning,
// defaulting, OpenAPI and CEL validation, ratcheting) at a chosen
// Kubernetes release.
//
// The HTTP API machinery is kube-apiserver's own: the request handlers of
// k8s.io/apiserver (decoding, content negotiation, patches, server-side
// apply, dryRun, fieldValidation, watch streams, tables) and its generic
// registry store (finalizers, deletion, preconditions), over a storage of
// this package in memory.
//
//	srv, err := testserver.Start(testserver.WithCRDFiles("config/crd"))
//	if err != nil { ... }
//	defer srv.Close()
//	cfg := srv.RESTConfig() // for client-go, controller-runtime, ...
package testserver
