package main

import (
	"context"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/crd"
)

// The command's calls into the library that its API changes may touch are
// kept here.

// kubernetesVersion is the release whose API server the verdicts are
// those of (-kubernetes-version with one release); "" is the default.
var kubernetesVersion string

// validateCRD is the API server's verdict on creating def.
func validateCRD(def *crdschema.CustomResourceDefinition) crdschema.ErrorList {
	return crd.Validate(context.Background(), def, crd.WithKubernetesVersion(kubernetesVersion))
}

// newResource prepares one version of def. Its CEL rules are compiled
// as objects reach them: rules no object reaches are never compiled (the
// CRD's validation compiles each rule anyway, to estimate its cost), and
// the first object does not wait for the others.
func newResource(def *crdschema.CustomResourceDefinition, version string) (*crd.Resource, error) {
	return crd.New(def, version, crd.WithKubernetesVersion(kubernetesVersion), crd.WithLazyCompile())
}
