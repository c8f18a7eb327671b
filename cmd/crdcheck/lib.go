package main

import (
	"context"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/crd"
)

// The command's calls into the library that its API changes may touch are
// kept here.

// kubernetesVersion is the release whose API server the verdicts are
// those of (-kubernetes-version with one release); "" is the default.
var kubernetesVersion crdschema.KubernetesVersion

// validateCRD is the API server's verdict on creating def. The CEL
// compilations of the validation go to cache, for newResource.
func validateCRD(def *crdschema.CustomResourceDefinition, cache *celrules.Cache) crdschema.ErrorList {
	return crd.Validate(context.Background(), def, crd.WithKubernetesVersion(kubernetesVersion), crd.WithCache(cache))
}

// newResource prepares one version of def. Its CEL rules are compiled
// as objects reach them: rules no object reaches are never compiled (the
// CRD's validation compiles each rule anyway, to estimate its cost), and
// the first object does not wait for the others. What the CRD's
// validation compiled (parsed expressions, environments) is taken from
// cache rather than compiled again. def has been validated (validateCRD).
func newResource(def *crdschema.CustomResourceDefinition, version string, cache *celrules.Cache) (*crd.Resource, error) {
	return crd.New(def, version, crd.WithoutValidation(), crd.WithKubernetesVersion(kubernetesVersion), crd.WithLazyCompile(), crd.WithCache(cache))
}
