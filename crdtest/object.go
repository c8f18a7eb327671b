package crdtest

import (
	"encoding/json"
	"fmt"
	"math"

	"sigs.k8s.io/yaml"
)

// decodeObject reads a YAML object of a test case as the suites' runner
// does (k8s.io/apimachinery's yaml.Unmarshal into an unstructured object):
// YAML 1.1, converted to JSON, numbers that are integers in JSON as int64
// (so a YAML 1.0 becomes 1), others as float64. Empty text gives an empty
// object.
func decodeObject(text string) (map[string]any, error) {
	var m map[string]any
	if err := yaml.Unmarshal([]byte(text), &m, func(d *json.Decoder) *json.Decoder {
		d.UseNumber()
		return d
	}); err != nil {
		return nil, err
	}
	if m == nil {
		m = map[string]any{}
	}
	v, err := convertNumbers(m, 0)
	if err != nil {
		return nil, err
	}
	return v.(map[string]any), nil
}

// maxDepth bounds the nesting of test objects.
const maxDepth = 10000

func convertNumbers(v any, depth int) (any, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("exceeded max depth of %d", maxDepth)
	}
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			c, err := convertNumbers(e, depth+1)
			if err != nil {
				return nil, err
			}
			t[k] = c
		}
	case []any:
		for i, e := range t {
			c, err := convertNumbers(e, depth+1)
			if err != nil {
				return nil, err
			}
			t[i] = c
		}
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i, nil
		}
		f, err := t.Float64()
		if err != nil || math.IsInf(f, 0) {
			return nil, fmt.Errorf("bad number %s", t)
		}
		return f, nil
	}
	return v, nil
}

// metadata returns the metadata of obj, adding an empty one if missing.
func metadata(obj map[string]any) map[string]any {
	m, ok := obj["metadata"].(map[string]any)
	if !ok {
		m = map[string]any{}
		obj["metadata"] = m
	}
	return m
}

// metaString returns a string field of obj's metadata.
func metaString(obj map[string]any, field string) string {
	m, _ := obj["metadata"].(map[string]any)
	s, _ := m[field].(string)
	return s
}

// setMeta sets a string field of obj's metadata, removing it when empty,
// as unstructured.Unstructured's setters do.
func setMeta(obj map[string]any, field, value string) {
	if value == "" {
		if m, ok := obj["metadata"].(map[string]any); ok {
			delete(m, field)
		}
		return
	}
	metadata(obj)[field] = value
}
