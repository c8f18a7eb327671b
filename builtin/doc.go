// Package builtin gives the kinds the Kubernetes API server serves itself
// (Deployment, Service, ConfigMap, ...) for each release 1.33 to 1.37, with
// their schemas as published by the release's OpenAPI v3 documents, and
// checks objects of those kinds the way the API server reads them.
//
// New returns the API of one release (WithKubernetesVersion, 1.37 by
// default). Its Kinds and Lookup give the kinds (group, version, kind,
// resource, scope, list kind); Schema gives a kind's schema as a
// crdschema.JSONSchemaProps with every reference inlined, for jsonschema
// export, editors and crd's pipeline.
//
// Create and Update check an object and say which layer of checks found
// each problem (Problem.Layer):
//
//   - "decode": decoding into the kind's Go types, as the API server's
//     JSON decoder does: JSON types, integer ranges (int32, int64),
//     quantities, int-or-strings, times and base64 bytes, each refusing
//     with the decoder's text; unknown fields are warnings, or errors with
//     WithStrictFieldValidation (kubectl apply --validate=strict). A
//     decoding refusal is Result.DecodeError; the other layers give
//     Result.Errors.
//   - "schema": the required strings, numbers and booleans of the
//     published schema (outside status, which the API server resets on
//     create; from 1.37 only, see below); duplicate keys of
//     list-map lists, a warning only (the API server accepts them on create
//     and update; server-side apply does not).
//   - "metadata": ObjectMeta (labels, annotations, owner references,
//     finalizers, ...) and the kind's name rule (DNS subdomain, DNS label,
//     RFC 1035 label or path segment), as the API server checks them, and
//     on updates the immutable metadata.
//
// What the API server does beyond these is not reproduced: the
// hand-written validation of k8s.io/kubernetes/pkg/apis/<group>/validation
// (for example a Deployment's selector matching its template's labels),
// defaulting, and admission. A check here refuses only what the API server
// refuses too: where a rule cannot be told apart from the API server's
// defaults or hand-written exceptions, it is left out (the module's
// builtin/oracle test measures this against the API server's own code, at
// 1.37 and 1.33: at 1.33 the API server defaults a binding's
// roleRef.apiGroup and leaves a StatefulSet's pod template unvalidated,
// so required fields are checked from 1.37 on only).
//
// The kinds and schemas come from the k8s.io/kubernetes module of each
// release (api/openapi-spec/v3), turned into kinds.json.gz by
// internal/gen (descriptions dropped, each distinct definition stored
// once, compressed) and embedded.
package builtin

//go:generate go run ./internal/gen -o kinds.json.gz 1.33=v1.33.13 1.34=v1.34.4 1.35=v1.35.4 1.36=v1.36.3 1.37=v1.37.2
