package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	yaml "go.yaml.in/yaml/v3"

	"github.com/crdschema/crdschema/internal/casefile"
)

// testCase is one conformance case: its input documents as JSON request
// bodies, and the expected result.
type testCase struct {
	Area, Name  string
	Description string
	CRD         []byte
	OldCRD      []byte
	Version     string
	OpenAPI     bool
	Requests    []testRequest
	Golden      map[string]any
}

type testRequest struct {
	Operation   string
	Subresource string
	Object      []byte
	OldObject   []byte
}

func readCase(path, goldenPath string) (*testCase, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, fmt.Errorf("expected one YAML document")
	}
	fields, err := mapping(doc.Content[0])
	if err != nil {
		return nil, err
	}
	c := &testCase{}
	if n := fields["description"]; n != nil {
		c.Description = n.Value
	}
	if c.CRD, err = toJSON(fields["crd"]); err != nil {
		return nil, fmt.Errorf("crd: %w", err)
	}
	if n := fields["oldCRD"]; n != nil {
		if c.OldCRD, err = toJSON(n); err != nil {
			return nil, fmt.Errorf("oldCRD: %w", err)
		}
	}
	if n := fields["version"]; n != nil {
		c.Version = n.Value
	}
	if n := fields["openapi"]; n != nil {
		c.OpenAPI = n.Value == "true"
	}
	if n := alias(fields["requests"]); n != nil {
		for i, rn := range n.Content {
			rf, err := mapping(rn)
			if err != nil {
				return nil, fmt.Errorf("requests[%d]: %w", i, err)
			}
			var r testRequest
			if op := rf["operation"]; op != nil {
				r.Operation = op.Value
			}
			if sr := rf["subresource"]; sr != nil {
				r.Subresource = sr.Value
			}
			if r.Object, err = toJSON(rf["object"]); err != nil {
				return nil, fmt.Errorf("requests[%d].object: %w", i, err)
			}
			if on := rf["oldObject"]; on != nil {
				if r.OldObject, err = toJSON(on); err != nil {
					return nil, fmt.Errorf("requests[%d].oldObject: %w", i, err)
				}
			}
			c.Requests = append(c.Requests, r)
		}
	}
	g, err := os.ReadFile(goldenPath)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(g))
	dec.UseNumber()
	if err := dec.Decode(&c.Golden); err != nil {
		return nil, fmt.Errorf("%s: %w", goldenPath, err)
	}
	return c, nil
}

func alias(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

func mapping(n *yaml.Node) (map[string]*yaml.Node, error) {
	n = alias(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("expected a mapping")
	}
	out := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		out[alias(n.Content[i]).Value] = alias(n.Content[i+1])
	}
	return out, nil
}

// toJSON converts a YAML node to JSON the way the oracle sends it.
func toJSON(n *yaml.Node) ([]byte, error) { return casefile.ToJSON(n) }
