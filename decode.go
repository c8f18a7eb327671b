package crdschema

import (
	"encoding/json"
	"fmt"

	"github.com/crdschema/crdschema/internal/jsonscan"
	"github.com/crdschema/crdschema/internal/yamljson"
)

// DecodeJSON decodes JSON bytes the way the API server decodes request
// bodies: object keys are case-sensitive, integers that fit into int64
// become int64 and every other number float64 (so 1.0 is float64(1)).
// Errors are those of sigs.k8s.io/json.
//
// DecodeJSON copies data once; the keys and strings of the result share
// that copy (so any one of them keeps all of it in memory). data itself is
// neither modified nor retained and may be reused once DecodeJSON returns.
func DecodeJSON(data []byte) (any, error) {
	return jsonscan.Decode(data)
}

// UnmarshalObject decodes one object (a custom resource, a patch body, ...)
// from JSON or YAML into the map form the rest of this module works on,
// with the number model of DecodeJSON. YAML number literals keep their
// spelling: 1.0 stays a float, 1 an integer.
func UnmarshalObject(data []byte) (map[string]any, error) {
	j, err := yamljson.ForDecoding(data)
	if err != nil {
		return nil, err
	}
	return objectFromJSON(j)
}

func objectFromJSON(j []byte) (map[string]any, error) {
	v, err := DecodeJSON(j)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("expected an object, got %s", jsonKind(v))
	}
	return m, nil
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "a list"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case map[string]any:
		return "an object"
	}
	return "a number"
}

// ReadObjects decodes every document of a YAML stream (or a single JSON
// document) as an object. Empty documents are skipped.
func ReadObjects(data []byte) ([]map[string]any, error) {
	docs, err := yamljson.Split(data)
	if err != nil {
		return nil, err
	}
	out := make([]map[string]any, 0, len(docs))
	for i, d := range docs {
		m, err := objectFromJSON(d)
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", i+1, err)
		}
		out = append(out, m)
	}
	return out, nil
}

// UnmarshalCRD decodes one apiextensions.k8s.io/v1 CustomResourceDefinition
// from JSON or YAML, as the API server's strict decoder does. Fields the
// type does not know are dropped; their paths (as the API server reports
// them, "spec.versions[0].schema.openAPIV3Schema.properties.spec.xml") are
// returned sorted, so that a caller can warn about them or refuse them.
func UnmarshalCRD(data []byte) (*CustomResourceDefinition, []string, error) {
	j, err := yamljson.ForDecoding(data)
	if err != nil {
		return nil, nil, err
	}
	return crdFromJSON(j)
}

// ReadCRDs decodes every CustomResourceDefinition of a YAML stream (or a
// single JSON document). Documents of other kinds are skipped, so that a
// whole manifest can be passed; unknown fields are dropped.
func ReadCRDs(data []byte) ([]*CustomResourceDefinition, error) {
	docs, err := yamljson.Split(data)
	if err != nil {
		return nil, err
	}
	var out []*CustomResourceDefinition
	for i, d := range docs {
		var tm TypeMeta
		if err := json.Unmarshal(d, &tm); err != nil {
			return nil, fmt.Errorf("document %d: %w", i+1, err)
		}
		if tm.Kind != "CustomResourceDefinition" {
			continue
		}
		crd, _, err := crdFromJSON(d)
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", i+1, err)
		}
		out = append(out, crd)
	}
	return out, nil
}

// groupVersion is the API group and version of CustomResourceDefinition.
const groupVersion = "apiextensions.k8s.io/v1"

func crdFromJSON(j []byte) (*CustomResourceDefinition, []string, error) {
	if crd, unknown, ok := crdFromJSONFast(j); ok {
		return crd, unknown, nil
	}
	return crdFromJSONGeneric(j)
}
