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
// # Serving a version
//
// New compiles one version of a CRD once, the way the API server prepares
// it when the CRD is established: the structural schemas of all versions
// with their defaults pruned, the request decoder, the schema validators
// (regular expressions and formats resolved), the CEL rules. The Resource
// it returns runs the API server's request pipeline on any number of
// objects, in the API server's order:
//
//  1. decoding: kind must be set; the root metadata is decoded (its unknown
//     fields reported), unknown fields are pruned and reported,
//     non-nullable nulls without a default dropped, embedded resources'
//     metadata coerced; then defaulting (the defaults the API server serves); the apiVersion must be the version's;
//  2. preparation: on create the system fields (uid, creationTimestamp,
//     generation 1, a name from generateName), the status dropped when the
//     status subresource is on; on update the stored object is read as
//     from storage, the resourceVersion must match, the status (main
//     resource) or everything but the status (status subresource) kept from
//     the stored object, the generation bumped when more than metadata
//     changed;
//  3. validation: apiVersion and kind, the root metadata, the OpenAPI
//     schema (package validation), the scale replicas, embedded resources'
//     metadata, list-type sets and maps, then the CEL rules (package
//     celrules) unless an earlier error blocks them; updates ratchet
//     (package ratchet): errors in parts of the object the update left
//     unchanged are dropped.
//
// Steps 1 and 3 are the schema's policy, a Pipeline (Resource.Pipeline);
// step 2, the scale checks and storage are the Resource's. NewPipeline
// compiles a Pipeline from a bare openAPIV3Schema (with WithKind for the
// group, version, kind and scope), for callers that store objects
// themselves or validate values of a schema: its Decode, Default, Validate,
// ValidateUpdate and ValidateStatusUpdate give the API server's answers.
//
// Create, Update, UpdateStatus and UpdateScale (and CreateOwned,
// UpdateOwned) always return a Result (the object as stored, with the
// resourceVersion storage gives it, the unknown fields, the warnings the
// API server would return, the field errors) and an error that is nil
// exactly when the request is accepted. A refusal is a *RequestError with
// the API server's reason and text: before validation (a body over 3 MiB,
// an undecodable body, a wrong apiVersion, a missing or stale
// resourceVersion; the Result's Object is then nil), by validation (reason
// Invalid, "... is invalid: ..."), or by storage (a new object carrying a
// resourceVersion, an object over 1.5 MiB; no reason: an internal error).
// A test asserts with
//
//	if _, err := res.Create(ctx, obj); err != nil { t.Fatal(err) }
//
// and the object Create stores is the stored object of a following
// Update, a changed copy of it its body. New refuses a CRD the API server
// would refuse (WithoutValidation serves it anyway).
//
// # Kubernetes releases
//
// By default the package answers as the API server of Kubernetes 1.37.
// WithKubernetesVersion(v), v from crdschema.ParseKubernetesVersion("1.34"),
// makes Validate, ValidateUpdate, RuleCosts
// and New answer as the API server of another release, 1.33 to 1.37: the
// CEL environment of its compatibility version for new expressions and of
// the release for stored ones, its cost estimates, format checks, OpenAPI
// documents (openapi.Options.KubernetesVersion) and error texts.
// CheckReleases validates a CRD at a range of releases and says, per
// release, accepted or refused, with the errors and why in terms a user
// acts on ("`isSemver` is not available before Kubernetes 1.34").
//
// # Sharing compilations
//
// Compiling CEL rules is most of the cost of Validate and New. Each call
// shares what it can within itself: every distinct expression is parsed
// once, and schema nodes with the same rules over equal types (the same
// structure repeated, the same schema in several versions) compile once.
// WithCache(c) extends that over calls that are given the same
// celrules.Cache: validating a set of related CRDs, validating a CRD and
// serving its versions, running test suites over variants of a CRD. The
// results are the same with and without it; the cache keeps what it is
// given as long as it is kept.
//
// Inputs are never modified. The package keeps no global state; Validate,
// ValidateUpdate and a Resource are safe for concurrent use.
package crd
