package manifest

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/jsonscan"
	"github.com/crdschema/crdschema/internal/yamljson"
	kjson "sigs.k8s.io/json"
)

// UnmarshalObject decodes one object (a custom resource, a request body,
// ...) from JSON or YAML, as the package documentation says. Input that
// holds several YAML documents is an error (see Decoder).
func UnmarshalObject(data []byte) (map[string]any, error) {
	j, err := oneDocument(data)
	if err != nil {
		return nil, err
	}
	return objectFromJSON(j)
}

// UnmarshalCRD decodes one apiextensions.k8s.io/v1
// CustomResourceDefinition from JSON or YAML, as the API server decodes a
// request body: into the types with sigs.k8s.io/json, whose errors it
// returns (the first wrongly typed value in the order of the JSON text;
// YAML becomes JSON with sorted keys, as kubectl sends it). Fields the
// types do not know are dropped; their paths (as the API server reports
// them, "spec.versions[0].schema.openAPIV3Schema.properties.spec.xml") are
// returned sorted, so that a caller can warn about them or refuse them. Like the API server, it does not look for them below items,
// additionalProperties, additionalItems and dependencies.
//
// A key repeated in a JSON object is decoded as the API server decodes
// it without strict field validation: the later value is decoded into
// the field again (a scalar or list replaced, an object's fields merged).
// The API server's strict field validation would refuse such a body
// (duplicate field); kubectl never sends one, since it decodes a file and
// encodes it again.
//
// A faster decoder (github.com/go-json-experiment/json, in one pass)
// answers first; on anything it reports, sigs.k8s.io/json decodes the
// body and its answer is returned, so the result is always
// sigs.k8s.io/json's. The strings of a result it decodes share one block
// of memory, which any of them keeps alive: to keep a few of them long
// after the rest, copy them (strings.Clone).
func UnmarshalCRD(data []byte) (*crdschema.CustomResourceDefinition, []string, error) {
	j, err := oneDocument(data)
	if err != nil {
		return nil, nil, err
	}
	return crdFromJSON(j)
}

// oneDocument returns the JSON text of the only document of data.
func oneDocument(data []byte) ([]byte, error) {
	if yamljson.IsJSON(data) {
		return data, nil
	}
	chunks := yamljson.SplitAll(data)
	switch len(chunks) {
	case 0:
		return nil, errors.New("no document")
	case 1:
	default:
		return nil, fmt.Errorf("%d YAML documents (lines %d and %d, ...), where one is expected", len(chunks), chunks[0].Line, chunks[1].Line)
	}
	return documentJSON(chunks[0])
}

// documentJSON converts the YAML document c to JSON. Its errors give
// lines of the whole text.
func documentJSON(c yamljson.Chunk) ([]byte, error) {
	j, err := yamljson.ToJSON(c.Data)
	if err != nil {
		return nil, errors.New(yamljson.AbsoluteLines(err.Error(), c.First))
	}
	return j, nil
}

// objectFromJSON decodes a JSON document that must be an object.
func objectFromJSON(j []byte) (map[string]any, error) {
	v, err := jsonscan.Decode(j)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, notObject(v)
	}
	return m, nil
}

// notObject is the error for a document that is not an object.
func notObject(v any) error {
	kind := "a number"
	switch v.(type) {
	case nil:
		kind = "null"
	case []any:
		kind = "a list"
	case string:
		kind = "a string"
	case bool:
		kind = "a boolean"
	}
	return fmt.Errorf("expected an object, got %s", kind)
}

// groupVersion is the API group and version of CustomResourceDefinition.
const groupVersion = "apiextensions.k8s.io/v1"

// crdFromJSON decodes a CustomResourceDefinition with the API server's
// decoder.
func crdFromJSON(j []byte) (*crdschema.CustomResourceDefinition, []string, error) {
	crd, strictErrs, err := decodeCRD(j)
	if err != nil {
		return nil, nil, fmt.Errorf("decoding CustomResourceDefinition: %w", err)
	}
	if crd.APIVersion != "" && crd.APIVersion != groupVersion {
		return nil, nil, fmt.Errorf("decoding CustomResourceDefinition: apiVersion %q is not supported, only %s", crd.APIVersion, groupVersion)
	}
	if crd.Kind != "" && crd.Kind != "CustomResourceDefinition" {
		return nil, nil, fmt.Errorf("decoding CustomResourceDefinition: kind is %q", crd.Kind)
	}
	var unknown []string
	for _, e := range strictErrs {
		var fe kjson.FieldError
		if errors.As(e, &fe) && strings.HasPrefix(e.Error(), "unknown field") {
			unknown = append(unknown, fe.FieldPath())
		}
	}
	sort.Strings(unknown)
	return crd, unknown, nil
}

// decodeCRD decodes j by the fast decode, or when that fails by
// sigs.k8s.io/json's strict decode, whose strict errors (unknown and
// repeated fields) it returns.
func decodeCRD(j []byte) (*crdschema.CustomResourceDefinition, []error, error) {
	if crd, err := fastCRD(j); err == nil {
		return crd, nil, nil
	}
	return referenceCRD(j)
}

// referenceCRD decodes j as the API server does, with sigs.k8s.io/json.
func referenceCRD(j []byte) (*crdschema.CustomResourceDefinition, []error, error) {
	crd := new(crdschema.CustomResourceDefinition)
	strictErrs, err := kjson.UnmarshalStrict(j, crd, kjson.DisallowUnknownFields)
	if err != nil {
		return nil, nil, err
	}
	return crd, strictErrs, nil
}
