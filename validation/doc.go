// Package validation validates custom resources against the OpenAPI v3
// schema of their CustomResourceDefinition exactly as the Kubernetes API
// server does: the same accepted and rejected values, and the same field
// errors, paths and texts.
//
// A Validator is compiled once from a structural schema into a tree of
// nodes, with patterns compiled and formats resolved (unsupported formats
// are cleared, as the API server does for its compatibility version), and
// then validates any number of objects, concurrently if wanted, allocating
// next to nothing for a valid object. It reproduces the API server's
// validator in detail: the order of the keywords, the message templates,
// failed anyOf, oneOf, allOf and not keywords and number-format range
// failures reported without a field ("<nil>"), the failing anyOf or oneOf
// branch chosen by how well it matched, repeated messages reported once,
// int-or-string, nullable, float-safe multipleOf, lengths counted in
// runes, and every string format the API server recognises.
//
// Besides the schema keywords, a Validator checks what the API server checks
// with them on every request: the apiVersion, kind and metadata of embedded
// resources and the uniqueness rules of x-kubernetes-list-type set and map
// lists, so that one Validate call reports everything schema validation
// reports, in the API server's order. The metadata of the resource itself
// is checked by package crd (Pipeline and Resource).
//
// ValidateUpdate validates an update with ratcheting: given a Correlation
// of the new object with the old one, failures in unchanged parts become
// warnings (its Result has both, as package celrules' Result has for the
// CEL rules); list set and map errors are reported only when the old object
// had none.
//
// Where the API server's error order follows Go map iteration, this
// package reports errors in a deterministic (sorted) order instead.
package validation
