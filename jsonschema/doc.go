// Package jsonschema converts the schema of a CustomResourceDefinition
// version into a JSON Schema (draft-07) for editors (yaml-language-server)
// and other validators (kubeconform), faithful to what the Kubernetes API
// server accepts wherever JSON Schema can say it:
//
//   - nullable: null is allowed; and null is allowed for every optional
//     property, because the API server drops such a null instead of
//     refusing it;
//   - x-kubernetes-int-or-string: an integer or a string;
//   - x-kubernetes-preserve-unknown-fields and unknown fields in general:
//     allowed (the API server prunes unknown fields, it does not refuse
//     them; WithStrict forbids them where they would be pruned);
//   - metadata, at the root and in an x-kubernetes-embedded-resource, is
//     ObjectMeta (with the CRD's restrictions of name and generateName),
//     whatever the schema says, as the API server decodes it; apiVersion
//     and kind of an embedded resource are strings;
//   - defaults: a property with a default is not required, since the API
//     server applies the default before it validates;
//   - x-kubernetes-list-type set: uniqueItems; map: the keys are listed in
//     the description (JSON Schema cannot say that key tuples are unique);
//   - OpenAPI's boolean exclusiveMinimum and exclusiveMaximum become
//     draft-07's numbers;
//   - formats: the API server's format checks differ from JSON Schema's
//     (its uri, date-time, ... accept more), so a format is named in the
//     description and not asserted;
//   - CEL rules (x-kubernetes-validations) are carried in the description,
//     not checked.
//
// Everything else (types, properties, required, items, additionalProperties,
// enum, pattern, lengths, sizes, bounds, multipleOf, allOf, anyOf, oneOf,
// not) carries over as it is.
package jsonschema
