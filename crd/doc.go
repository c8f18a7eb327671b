// Package crd answers, in-process, the question the Kubernetes API server
// answers when a CustomResourceDefinition is applied: would it be accepted?
//
// Validate checks a CRD as it would be created, ValidateUpdate as it would
// replace a stored one. Both report the API server's own field errors, with
// the same type, field path and detail text (those of
// k8s.io/apiextensions-apiserver v0.37.2), so that a test can match what
// kubectl apply would print: the CRD's name and metadata, group, names,
// scope, versions, deprecation warnings, schemas (the structural rules of
// package structural, the CRD schema restrictions, and defaults, which
// must be pruned and valid against their schema), the status and
// scale subresources, additional printer columns, selectable fields,
// conversion webhooks, stored versions, the API approval annotation of
// Kubernetes-owned groups, and the update rules (immutable group, names
// and scope; checks relaxed where the stored CRD already violated them).
//
// Like the API server, validation works on the CRD's internal form: when
// all versions share the same schema (always for a single version), errors
// in it are reported under spec.validation.openAPIV3Schema rather than
// spec.versions[i].schema.openAPIV3Schema, and likewise
// spec.subresources, spec.additionalPrinterColumns[i] and
// spec.selectableFields[i]. VersionSchema returns a version's schema with
// the path its errors use; Defaulted returns the CRD with the API server's
// defaults applied.
//
// Inputs are never modified. The package keeps no global state and is safe
// for concurrent use.
package crd
