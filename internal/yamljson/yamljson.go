// Package yamljson reads manifests as kubectl reads them: a stream is
// split into its documents where a line starts with "---" (split.go), and
// each YAML document becomes the JSON text that sigs.k8s.io/yaml's
// YAMLToJSON makes of it (YAML 1.1 scalars: yes, no, on and off are
// booleans, keys too; 1.0 is the number 1), which is what kubectl sends
// the API server.
package yamljson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"

	yaml "go.yaml.in/yaml/v2"
)

// IsJSON reports whether data looks like JSON: its first character after
// white space is '{' or '['. Such input is decoded as JSON, never as YAML.
func IsJSON(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n")
	return len(t) > 0 && (t[0] == '{' || t[0] == '[')
}

// ToJSON converts one YAML document to the JSON text that
// sigs.k8s.io/yaml.YAMLToJSON gives for it: the same library
// (go.yaml.in/yaml/v2) reads the YAML, and encoding/json writes the
// result, so keys come sorted and numbers as encoding/json writes a
// float64 or an int. Where YAMLToJSON's result depends on Go's map order
// (two keys of different YAML types that JSON spells alike, such as 1 and
// "1"), ToJSON gives an error instead. The empty document is "null".
//
// go.yaml.in/yaml/v2 bounds what aliases may expand to ("document
// contains excessive aliasing") and how deep a document may nest.
func ToJSON(doc []byte) ([]byte, error) {
	var v any
	if err := yaml.Unmarshal(doc, &v); err != nil {
		return nil, err
	}
	j, err := jsonable(v, 0)
	if err != nil {
		return nil, err
	}
	return json.Marshal(j)
}

// maxDepth bounds the nesting of what jsonable converts; the YAML parser
// refuses deeper documents first.
const maxDepth = 10000

// jsonable converts what go.yaml.in/yaml/v2 decodes into what
// encoding/json encodes as YAMLToJSON's result: mappings with string
// keys, the keys converted as sigs.k8s.io/yaml converts them.
func jsonable(v any, depth int) (any, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("nested more than %d levels deep", maxDepth)
	}
	switch t := v.(type) {
	case map[any]any:
		out := make(map[string]any, len(t))
		var from map[string]any // the key each string came from, where it was not a string
		for k, e := range t {
			s, err := keyString(k, e)
			if err != nil {
				return nil, err
			}
			if _, isString := k.(string); !isString {
				if from == nil {
					from = map[string]any{}
				}
				from[s] = k
			}
			if _, dup := out[s]; dup {
				return nil, fmt.Errorf("the keys %s and %s are both %q in JSON", keyText(from[s], s), keyText(k, s), s)
			}
			if out[s], err = jsonable(e, depth+1); err != nil {
				return nil, err
			}
		}
		return out, nil
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			var err error
			if out[i], err = jsonable(e, depth+1); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return v, nil
}

// keyText shows a key as YAML read it, for errors.
func keyText(k any, s string) string {
	switch k.(type) {
	case nil, string:
		return strconv.Quote(s) + " (a string)"
	}
	return fmt.Sprintf("%v (%T)", k, k)
}

// keyString is the JSON key that sigs.k8s.io/yaml makes of the mapping
// key k.
func keyString(k, v any) (string, error) {
	switch t := k.(type) {
	case string:
		return t, nil
	case int:
		return strconv.Itoa(t), nil
	case int64:
		return strconv.FormatInt(t, 10), nil
	case float64:
		s := strconv.FormatFloat(t, 'g', -1, 32)
		switch s {
		case "+Inf":
			s = ".inf"
		case "-Inf":
			s = "-.inf"
		case "NaN":
			s = ".nan"
		}
		return s, nil
	case bool:
		return strconv.FormatBool(t), nil
	}
	return "", fmt.Errorf("unsupported map key of type: %s, key: %+#v, value: %+#v", reflect.TypeOf(k), k, v)
}
