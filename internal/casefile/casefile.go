// Package casefile reads the YAML of conformance cases as the oracle
// reads them (conformance/testdata/README.md): the conformance suite, the
// fake client's run of the same cases and crd's own cases share it, so
// that all send the bodies the oracle sent.
//
// It is test harness, not a reader of user input: it reads YAML 1.2 and
// keeps number literals as written (1.0 stays a float), so that a case can
// state a float body, which kubectl could not send. Manifests that users
// feed in are read by package manifest, as sigs.k8s.io/yaml reads them.
package casefile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"

	yaml "go.yaml.in/yaml/v3"
)

// ToJSON converts a YAML node of a conformance case to JSON the way the
// oracle sends it: number literals keep their spelling, so 1.0 stays a
// float. A nil node is an error ("missing").
func ToJSON(n *yaml.Node) ([]byte, error) {
	if n == nil {
		return nil, fmt.Errorf("missing")
	}
	var buf bytes.Buffer
	if err := writeJSON(&buf, n); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

var (
	intLiteral    = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)
	numberLiteral = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)
)

func writeJSON(buf *bytes.Buffer, n *yaml.Node) error {
	n = alias(n)
	switch n.Kind {
	case yaml.MappingNode:
		buf.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				buf.WriteByte(',')
			}
			writeString(buf, alias(n.Content[i]).Value)
			buf.WriteByte(':')
			if err := writeJSON(buf, n.Content[i+1]); err != nil {
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
			if err := writeJSON(buf, item); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			buf.WriteString("null")
		case "!!bool":
			var b bool
			if err := n.Decode(&b); err != nil {
				return err
			}
			buf.WriteString(strconv.FormatBool(b))
		case "!!int":
			if intLiteral.MatchString(n.Value) {
				buf.WriteString(n.Value)
				return nil
			}
			var i int64
			if err := n.Decode(&i); err != nil {
				return err
			}
			buf.WriteString(strconv.FormatInt(i, 10))
		case "!!float":
			if numberLiteral.MatchString(n.Value) {
				buf.WriteString(n.Value)
				return nil
			}
			var f float64
			if err := n.Decode(&f); err != nil {
				return err
			}
			if math.IsInf(f, 0) || math.IsNaN(f) {
				return fmt.Errorf("%q has no JSON representation", n.Value)
			}
			b, _ := json.Marshal(f)
			buf.Write(b)
		default:
			writeString(buf, n.Value)
		}
	default:
		return fmt.Errorf("unsupported YAML node at line %d", n.Line)
	}
	return nil
}

func writeString(buf *bytes.Buffer, s string) {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	buf.Truncate(buf.Len() - 1)
}

// alias follows YAML aliases to the node they name.
func alias(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}
