package crdschema

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/crdschema/crdschema/internal/jsonscan"
	kjson "sigs.k8s.io/json"
)

// crdFromJSONGeneric is crdFromJSON by way of the generic form of the
// whole document. It is the reference that the one-pass decoding of
// crdFromJSONFast is tested against, and what decodes every document that
// one gives up on: all errors and every unusual document.
func crdFromJSONGeneric(j []byte) (*CustomResourceDefinition, []string, error) {
	// The document is decoded once into its generic form. The version
	// schemas are taken from there (which also gives their unknown
	// fields); the rest, small, goes through the strict decoder, which
	// reports the unknown fields of everything else exactly as the API
	// server's does.
	rest, schemas := j, []any(nil)
	if root, err := DecodeJSON(j); err == nil {
		if s, ok := takeSchemas(root); ok {
			if b, err := json.Marshal(root); err == nil {
				rest, schemas = b, s
			}
		}
	}
	shadow, unknown, err := decodeStrict(rest)
	if err != nil {
		return nil, nil, err
	}
	crd := &shadow.CustomResourceDefinition
	crd.Spec = shadow.Spec.CustomResourceDefinitionSpec
	crd.Spec.Versions = nil
	if shadow.Spec.Versions != nil {
		crd.Spec.Versions = make([]CustomResourceDefinitionVersion, len(shadow.Spec.Versions))
	}
	if schemas == nil {
		for _, v := range shadow.Spec.Versions {
			if v.Schema != nil && v.Schema.OpenAPIV3Schema.set {
				schemas = decodeSchemas(j)
				break
			}
		}
	}
	for i, sv := range shadow.Spec.Versions {
		v := sv.CustomResourceDefinitionVersion
		if sv.Schema != nil {
			v.Schema = &CustomResourceValidation{}
			var raw any
			if i < len(schemas) {
				raw = schemas[i]
			}
			if raw != nil {
				v.Schema.OpenAPIV3Schema = new(JSONSchemaProps)
				if err := schemaFromValue(v.Schema.OpenAPIV3Schema, raw); err != nil {
					return nil, nil, fmt.Errorf("decoding CustomResourceDefinition: spec.versions[%d].schema.openAPIV3Schema: %w", i, err)
				}
				p := "spec.versions[" + strconv.Itoa(i) + "].schema.openAPIV3Schema"
				unknown = schemaUnknownFields(raw, p, unknown)
			}
		}
		crd.Spec.Versions[i] = v
	}
	sort.Strings(unknown)
	return crd, unknown, nil
}

// takeSchemas replaces the openAPIV3Schema objects of the versions of the
// generic CRD document root by empty objects and returns them by version
// index. It reports false when the rest of the document holds a
// non-integral-looking number it cannot pass on faithfully (JSON
// re-encoding writes 1.0 as 1, which an integer field would then accept),
// or when the document does not have the expected shape.
func takeSchemas(root any) ([]any, bool) {
	m, ok := root.(map[string]any)
	if !ok {
		return nil, false
	}
	spec, ok := m["spec"].(map[string]any)
	if !ok {
		return nil, !hasFloat(root, 0)
	}
	versions, ok := spec["versions"].([]any)
	if !ok {
		return nil, !hasFloat(root, 0)
	}
	out := make([]any, len(versions))
	for i, v := range versions {
		vm, ok := v.(map[string]any)
		if !ok {
			continue
		}
		sm, ok := vm["schema"].(map[string]any)
		if !ok {
			continue
		}
		switch s := sm["openAPIV3Schema"].(type) {
		case map[string]any:
			out[i] = s
			sm["openAPIV3Schema"] = map[string]any{}
		case nil:
		default:
			// Not an object: decoding it into the schema type is the
			// error the API server's decoder reports (the rest of the
			// document skips it).
			out[i] = s
		}
	}
	if hasFloat(root, 0) {
		return nil, false
	}
	return out, true
}

// hasFloat reports whether v holds a float64.
func hasFloat(v any, depth int) bool {
	if depth > jsonscan.MaxNesting {
		return true
	}
	switch t := v.(type) {
	case float64:
		return true
	case map[string]any:
		for _, e := range t {
			if hasFloat(e, depth+1) {
				return true
			}
		}
	case []any:
		for _, e := range t {
			if hasFloat(e, depth+1) {
				return true
			}
		}
	}
	return false
}

// decodeSchemas returns the generic form of the openAPIV3Schema of every
// version of the CRD document j, by version index.
func decodeSchemas(j []byte) []any {
	// The generic form serves unless a repeated key (which the struct
	// below would merge, not replace) or a type error needs the struct.
	if root, dup, ok := jsonscan.Scan(j); ok && !dup {
		if out, ok := versionSchemas(root); ok {
			return out
		}
	}
	return decodeSchemasStrict(j)
}

// decodeSchemasStrict is decodeSchemas through the struct decoder, which
// merges the values of a repeated key.
func decodeSchemasStrict(j []byte) []any {
	var raw struct {
		Spec struct {
			Versions []struct {
				Schema struct {
					OpenAPIV3Schema any `json:"openAPIV3Schema"`
				} `json:"schema"`
			} `json:"versions"`
		} `json:"spec"`
	}
	if err := kjson.UnmarshalCaseSensitivePreserveInts(j, &raw); err != nil {
		return nil
	}
	out := make([]any, len(raw.Spec.Versions))
	for i, v := range raw.Spec.Versions {
		out[i] = v.Schema.OpenAPIV3Schema
	}
	return out
}

// versionSchemas does for the generic CRD document root what decodeSchemas
// does with its struct: missing and null stand for empty. It reports false
// where decoding into the struct gives a type error.
func versionSchemas(root any) ([]any, bool) {
	var versions []any
	switch r := root.(type) {
	case nil:
	case map[string]any:
		switch spec := r["spec"].(type) {
		case nil:
		case map[string]any:
			switch vs := spec["versions"].(type) {
			case nil:
			case []any:
				versions = vs
			default:
				return nil, false
			}
		default:
			return nil, false
		}
	default:
		return nil, false
	}
	out := make([]any, len(versions))
	for i, v := range versions {
		switch vm := v.(type) {
		case nil:
		case map[string]any:
			switch sm := vm["schema"].(type) {
			case nil:
			case map[string]any:
				out[i] = sm["openAPIV3Schema"]
			default:
				return nil, false
			}
		default:
			return nil, false
		}
	}
	return out, true
}

var (
	schemaKeysOnce sync.Once
	schemaKeys     map[string]bool
	ruleKeys       map[string]bool
	docsKeys       map[string]bool
)

func jsonNames(t reflect.Type) map[string]bool {
	m := make(map[string]bool, t.NumField())
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		m[name] = true
	}
	return m
}

// schemaUnknownFields appends the paths of the fields of the schema v that
// JSONSchemaProps does not define. Like the API server, it does not look
// below items, additionalProperties, additionalItems and dependencies,
// whose values decode through their own (lenient) decoders.
func schemaUnknownFields(v any, path string, out []string) []string {
	schemaKeysOnce.Do(func() {
		schemaKeys = jsonNames(reflect.TypeOf(JSONSchemaProps{}))
		ruleKeys = jsonNames(reflect.TypeOf(ValidationRule{}))
		docsKeys = jsonNames(reflect.TypeOf(ExternalDocumentation{}))
	})
	m, ok := v.(map[string]any)
	if !ok {
		return out
	}
	// The caller sorts the paths; here they are only collected, and a
	// child's path is built only when it is needed.
	for k, val := range m {
		if !schemaKeys[k] {
			out = append(out, path+"."+k)
			continue
		}
		switch k {
		case "properties", "patternProperties", "definitions":
			if mm, ok := val.(map[string]any); ok {
				p := path + "." + k
				for n, sub := range mm {
					if sm, ok := sub.(map[string]any); ok && len(sm) > 0 {
						out = schemaUnknownFields(sm, p+"."+n, out)
					}
				}
			}
		case "allOf", "anyOf", "oneOf":
			if l, ok := val.([]any); ok {
				for i, sub := range l {
					out = schemaUnknownFields(sub, path+"."+k+"["+strconv.Itoa(i)+"]", out)
				}
			}
		case "not":
			out = schemaUnknownFields(val, path+"."+k, out)
		case "externalDocs":
			out = structUnknownFields(val, path+"."+k, docsKeys, out)
		case "x-kubernetes-validations":
			if l, ok := val.([]any); ok {
				for i, r := range l {
					out = structUnknownFields(r, path+"."+k+"["+strconv.Itoa(i)+"]", ruleKeys, out)
				}
			}
		}
	}
	return out
}

func structUnknownFields(v any, path string, known map[string]bool, out []string) []string {
	m, ok := v.(map[string]any)
	if !ok {
		return out
	}
	start := len(out)
	for k := range m {
		if !known[k] {
			out = append(out, path+"."+k)
		}
	}
	sort.Strings(out[start:])
	return out
}
