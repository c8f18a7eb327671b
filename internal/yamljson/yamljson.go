// Package yamljson converts YAML documents and streams to JSON as the
// decoders of this module read them: number literals keep their spelling,
// YAML-only scalars become strings, and hostile input (deep nesting, alias
// bombs, JSON look-alikes that are not JSON) fails with an error.
package yamljson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"

	yaml "go.yaml.in/yaml/v3"
)

// Split splits a YAML stream into its documents and returns each as JSON
// (see ToJSON). Empty documents are dropped. JSON input is one document.
func Split(data []byte) ([][]byte, error) {
	if IsJSON(data) {
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

// IsJSON reports whether data looks like JSON: its first character after
// white space is '{' or '['. Such input is decoded as JSON, never as YAML.
func IsJSON(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n")
	return len(t) > 0 && (t[0] == '{' || t[0] == '[')
}

// checkJSON returns the syntax error of data, which IsJSON took for JSON,
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

// ForDecoding is ToJSON for callers that decode the result: JSON input is
// passed on unchecked, as the decoder reports its syntax errors anyway.
func ForDecoding(data []byte) ([]byte, error) {
	if IsJSON(data) {
		return data, nil
	}
	return ToJSON(data)
}

// ToJSON converts one YAML document to JSON. Number literals keep their
// spelling where it is valid JSON, so that 1.0 stays a float and large
// integers keep their digits; timestamps and other YAML-only scalars become
// strings. Input that is already JSON is returned unchanged.
func ToJSON(data []byte) ([]byte, error) {
	if IsJSON(data) {
		// Fix (hostile-input tests): see Split.
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

// maxDepth bounds the nesting of YAML input, so that hostile input
// (deep nesting, alias bombs) fails with an error instead of exhausting
// the stack.
const maxDepth = 10000

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
	if depth > maxDepth {
		return fmt.Errorf("line %d: nested more than %d levels deep", n.Line, maxDepth)
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
