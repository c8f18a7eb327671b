// Package objectcheck holds the checks of an object that the API server
// runs besides OpenAPI schema validation: the apiVersion, kind and
// metadata of embedded resources, and the uniqueness rules of
// x-kubernetes-list-type set and map lists. Package validation's Validator
// runs them after its OpenAPI checks; package crd runs them apart from it,
// to report them in the API server's order (the scale subresource's errors
// come between the OpenAPI errors and these).
package objectcheck
