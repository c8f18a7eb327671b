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
//     create; but where a release defaults the field or does not
//     validate it, see below); duplicate keys of
//     list-map lists, a warning only (the API server accepts them on create
//     and update; server-side apply does not).
//   - "declarative": the declarative validation tags of the release's
//     k8s.io/api source (+k8s:minimum, +k8s:maximum, +k8s:maxItems,
//     +k8s:maxLength, +k8s:format for names and label keys, +k8s:enum,
//     +k8s:immutable on updates) that the release makes authoritative
//     (without a stability level, or +k8s:beta; not +k8s:alpha, nor those
//     behind a feature gate), with the texts of
//     k8s.io/apimachinery/pkg/api/validate; on updates, values that did
//     not change are not checked (declarative validation ratchets).
//   - "metadata": ObjectMeta (labels, annotations, owner references,
//     finalizers, ...) and the kind's name rule (DNS subdomain, DNS label,
//     RFC 1035 label or path segment), as the API server checks them, and
//     on updates the immutable metadata.
//
// Create and Update take a decoded object (package manifest), whose keys
// they read sorted, as kubectl sends an object it has decoded from a file.
// CreateJSON and UpdateJSON take a request body as written: they also
// find keys given twice (duplicate fields, warnings or under
// WithStrictFieldValidation refusals, as the API server's strict
// decoding), read numbers as written, and report the first decoding error
// in the body's order, as the API server does.
//
// What the API server does beyond these is not reproduced: the
// hand-written validation of k8s.io/kubernetes/pkg/apis/<group>/validation
// (for example a Deployment's selector matching its template's labels),
// defaulting, and admission. A check here refuses only what the API server
// refuses too: where a rule cannot be told apart from the API server's
// defaults or hand-written exceptions, it is left out (the module's
// builtin/oracle test measures this against the API server's own code of
// each release 1.33 to 1.37: a binding's roleRef.apiGroup, which the
// schema of 1.33 to 1.36 requires, is defaulted, and 1.33 validates only
// part of a StatefulSet's pod template, so neither is checked for
// required fields there).
//
// The kinds and schemas come from the k8s.io/kubernetes module of each
// release (api/openapi-spec/v3), turned into kinds.json.gz by
// tools/builtingen (descriptions dropped, each distinct definition stored
// once, compressed) and embedded.
package builtin

//go:generate go -C ../tools run ./builtingen -o ../builtin/kinds.json.gz 1.33=v1.33.13 1.34=v1.34.4 1.35=v1.35.4 1.36=v1.36.3 1.37=v1.37.2
