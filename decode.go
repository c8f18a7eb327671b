package crdschema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	yaml "go.yaml.in/yaml/v3"
	kjson "sigs.k8s.io/json"
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
	if v, _, ok := decodeJSONFast(data); ok {
		return v, nil
	}
	var v any
	if err := kjson.UnmarshalCaseSensitivePreserveInts(data, &v); err != nil {
		return nil, err
	}
	return v, nil
}

// UnmarshalObject decodes one object (a custom resource, a patch body, ...)
// from JSON or YAML into the map form the rest of this module works on,
// with the number model of DecodeJSON. YAML number literals keep their
// spelling: 1.0 stays a float, 1 an integer.
func UnmarshalObject(data []byte) (map[string]any, error) {
	j, err := toJSON(data)
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
	docs, err := SplitDocuments(data)
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
	j, err := toJSON(data)
	if err != nil {
		return nil, nil, err
	}
	return crdFromJSON(j)
}

// ReadCRDs decodes every CustomResourceDefinition of a YAML stream (or a
// single JSON document). Documents of other kinds are skipped, so that a
// whole manifest can be passed; unknown fields are dropped.
func ReadCRDs(data []byte) ([]*CustomResourceDefinition, error) {
	docs, err := SplitDocuments(data)
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

// GroupVersion is the API group and version of CustomResourceDefinition.
const GroupVersion = "apiextensions.k8s.io/v1"

func crdFromJSON(j []byte) (*CustomResourceDefinition, []string, error) {
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
	var shadow crdShadow
	strictErrs, err := kjson.UnmarshalStrict(rest, &shadow, kjson.DisallowUnknownFields)
	if err != nil {
		return nil, nil, fmt.Errorf("decoding CustomResourceDefinition: %w", err)
	}
	crd := &shadow.CustomResourceDefinition
	if crd.APIVersion != "" && crd.APIVersion != GroupVersion {
		return nil, nil, fmt.Errorf("decoding CustomResourceDefinition: apiVersion %q is not supported, only %s", crd.APIVersion, GroupVersion)
	}
	if crd.Kind != "" && crd.Kind != "CustomResourceDefinition" {
		return nil, nil, fmt.Errorf("decoding CustomResourceDefinition: kind is %q", crd.Kind)
	}
	var unknown []string
	for _, e := range strictErrs {
		var fe interface{ FieldPath() string }
		if errors.As(e, &fe) && strings.HasPrefix(e.Error(), "unknown field") {
			unknown = append(unknown, fe.FieldPath())
		}
	}
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
		if s, ok := sm["openAPIV3Schema"].(map[string]any); ok {
			out[i] = s
			sm["openAPIV3Schema"] = map[string]any{}
		}
	}
	if hasFloat(root, 0) {
		return nil, false
	}
	return out, true
}

// hasFloat reports whether v holds a float64.
func hasFloat(v any, depth int) bool {
	if depth > maxYAMLDepth {
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
	if root, dup, ok := decodeJSONFast(j); ok && !dup {
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

// crdShadow is CustomResourceDefinition for the strict decoder, with the
// versions' openAPIV3Schema skipped. Its fields shadow the embedded ones of
// the same JSON names, so that everything else decodes (and reports
// unknown fields) exactly as the real type.
type crdShadow struct {
	CustomResourceDefinition
	Spec specShadow `json:"spec"`
}

type specShadow struct {
	CustomResourceDefinitionSpec
	Versions []versionShadow `json:"versions"`
}

type versionShadow struct {
	CustomResourceDefinitionVersion
	Schema *validationShadow `json:"schema,omitempty"`
}

type validationShadow struct {
	OpenAPIV3Schema skippedJSON `json:"openAPIV3Schema,omitempty"`
}

// skippedJSON records that a value was present without decoding it.
type skippedJSON struct{ set bool }

func (s *skippedJSON) UnmarshalJSON(data []byte) error {
	s.set = string(data) != "null"
	return nil
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

// SplitDocuments splits a YAML stream into its documents and returns each
// as JSON (see YAMLToJSON). Empty documents are dropped. JSON input is one
// document.
func SplitDocuments(data []byte) ([][]byte, error) {
	if isJSON(data) {
		// Fix (hostile-input tests): input that looks like JSON but is
		// not valid JSON was returned as a document without an error.
		if err := checkJSON(data); err != nil {
			return nil, err
		}
		return [][]byte{bytes.TrimSpace(data)}, nil
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var out [][]byte
	for i := 1; ; i++ {
		var n yaml.Node
		err := dec.Decode(&n)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		if len(n.Content) == 0 || (n.Content[0].Kind == yaml.ScalarNode && n.Content[0].ShortTag() == "!!null") {
			continue
		}
		var buf bytes.Buffer
		w := nodeWriter{buf: &buf, budget: nodeBudget(len(data))}
		if err := w.write(&n, 0); err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		out = append(out, buf.Bytes())
	}
}

func isJSON(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n")
	return len(t) > 0 && (t[0] == '{' || t[0] == '[')
}

// checkJSON returns the syntax error of data, which isJSON took for JSON,
// or nil when it is valid JSON. Like kubectl, which decodes such input as
// JSON, it does not fall back to YAML (flow style such as {a: 1}).
func checkJSON(data []byte) error {
	if json.Valid(data) {
		return nil
	}
	var raw json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	return errors.New("invalid JSON")
}

// toJSON is YAMLToJSON for callers that decode the result: JSON input is
// passed on unchecked, as the decoder reports its syntax errors anyway.
func toJSON(data []byte) ([]byte, error) {
	if isJSON(data) {
		return data, nil
	}
	return YAMLToJSON(data)
}

// YAMLToJSON converts one YAML document to JSON. Number literals keep their
// spelling where it is valid JSON, so that 1.0 stays a float and large
// integers keep their digits; timestamps and other YAML-only scalars become
// strings. Input that is already JSON is returned unchanged.
func YAMLToJSON(data []byte) ([]byte, error) {
	if isJSON(data) {
		// Fix (hostile-input tests): see SplitDocuments.
		if err := checkJSON(data); err != nil {
			return nil, err
		}
		return data, nil
	}
	var n yaml.Node
	if err := yaml.Unmarshal(data, &n); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	w := nodeWriter{buf: &buf, budget: nodeBudget(len(data))}
	if err := w.write(&n, 0); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// maxYAMLDepth bounds the nesting of YAML input, so that hostile input
// (deep nesting, alias bombs) fails with an error instead of exhausting
// the stack.
const maxYAMLDepth = 10000

// nodeBudget bounds the number of nodes a YAML input of n bytes may expand
// to through aliases: without aliases a document has fewer nodes than bytes.
func nodeBudget(n int) int { return 1<<20 + 100*n }

// nodeWriter writes YAML nodes as JSON.
type nodeWriter struct {
	buf    *bytes.Buffer
	budget int // nodes left to write
}

var (
	jsonIntLiteral    = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)
	jsonNumberLiteral = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)
)

func (w *nodeWriter) write(n *yaml.Node, depth int) error {
	buf := w.buf
	if depth > maxYAMLDepth {
		return fmt.Errorf("line %d: nested more than %d levels deep", n.Line, maxYAMLDepth)
	}
	if w.budget--; w.budget < 0 {
		return errors.New("document expands to too many values through aliases")
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			buf.WriteString("null")
			return nil
		}
		return w.write(n.Content[0], depth+1)
	case yaml.AliasNode:
		return w.write(n.Alias, depth+1)
	case yaml.MappingNode:
		buf.WriteByte('{')
		seen := make(map[string]bool, len(n.Content)/2)
		first := true
		var merge func(m *yaml.Node) error
		writePair := func(k, v *yaml.Node) error {
			for k.Kind == yaml.AliasNode {
				k = k.Alias
			}
			if k.Kind != yaml.ScalarNode {
				return fmt.Errorf("line %d: mapping keys must be scalars", k.Line)
			}
			if seen[k.Value] {
				return fmt.Errorf("line %d: key %q already set in map", k.Line, k.Value)
			}
			seen[k.Value] = true
			if !first {
				buf.WriteByte(',')
			}
			first = false
			writeJSONString(buf, k.Value)
			buf.WriteByte(':')
			return w.write(v, depth+1)
		}
		merge = func(m *yaml.Node) error {
			for m.Kind == yaml.AliasNode {
				m = m.Alias
			}
			if m.Kind != yaml.MappingNode {
				return fmt.Errorf("line %d: merge value must be a mapping", m.Line)
			}
			for i := 0; i+1 < len(m.Content); i += 2 {
				if err := writePair(m.Content[i], m.Content[i+1]); err != nil {
					return err
				}
			}
			return nil
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
				if err := merge(n.Content[i+1]); err != nil {
					return err
				}
				continue
			}
			if err := writePair(k, n.Content[i+1]); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	case yaml.SequenceNode:
		buf.WriteByte('[')
		for i, item := range n.Content {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := w.write(item, depth+1); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case yaml.ScalarNode:
		return writeScalarJSON(buf, n)
	default:
		return fmt.Errorf("line %d: unsupported YAML node", n.Line)
	}
	return nil
}

func writeScalarJSON(buf *bytes.Buffer, n *yaml.Node) error {
	switch n.ShortTag() {
	case "!!null":
		buf.WriteString("null")
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return fmt.Errorf("line %d: %v", n.Line, err)
		}
		buf.WriteString(strconv.FormatBool(b))
	case "!!int":
		if jsonIntLiteral.MatchString(n.Value) {
			buf.WriteString(n.Value)
			return nil
		}
		var i int64
		if err := n.Decode(&i); err != nil {
			var u uint64
			if err2 := n.Decode(&u); err2 != nil {
				return fmt.Errorf("line %d: integer %q: %v", n.Line, n.Value, err)
			}
			buf.WriteString(strconv.FormatUint(u, 10))
			return nil
		}
		buf.WriteString(strconv.FormatInt(i, 10))
	case "!!float":
		if jsonNumberLiteral.MatchString(n.Value) {
			buf.WriteString(n.Value)
			return nil
		}
		var f float64
		if err := n.Decode(&f); err != nil {
			return fmt.Errorf("line %d: number %q: %v", n.Line, n.Value, err)
		}
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return fmt.Errorf("line %d: %q has no JSON representation", n.Line, n.Value)
		}
		b, _ := json.Marshal(f)
		buf.Write(b)
	default:
		writeJSONString(buf, n.Value)
	}
	return nil
}

func writeJSONString(buf *bytes.Buffer, s string) {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)           // a string always encodes
	buf.Truncate(buf.Len() - 1) // Encode appends a newline
}
