package casefile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	yaml "go.yaml.in/yaml/v3"
)

// A Case is a conformance case as its requests are sent: the CRD (and the
// old CRD of a CRD update), the version the requests go to, and each
// request's bodies as JSON, with the golden decoded (numbers as
// json.Number).
type Case struct {
	CRD, OldCRD []byte
	Version     string
	Requests    []Request
	Golden      map[string]any
}

// A Request is one request of a case.
type Request struct {
	Operation, Subresource string
	Object, OldObject      []byte
}

// Read reads the case at path and its golden at goldenPath.
func Read(path, goldenPath string) (*Case, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, errors.New("expected one YAML document")
	}
	fields := mapping(doc.Content[0])
	c := &Case{}
	if c.CRD, err = ToJSON(fields["crd"]); err != nil {
		return nil, fmt.Errorf("crd: %w", err)
	}
	if n := fields["oldCRD"]; n != nil {
		if c.OldCRD, err = ToJSON(n); err != nil {
			return nil, err
		}
	}
	if n := fields["version"]; n != nil {
		c.Version = n.Value
	}
	if n := alias(fields["requests"]); n != nil {
		for _, rn := range n.Content {
			rf := mapping(rn)
			var r Request
			if op := rf["operation"]; op != nil {
				r.Operation = op.Value
			}
			if sr := rf["subresource"]; sr != nil {
				r.Subresource = sr.Value
			}
			if r.Object, err = ToJSON(rf["object"]); err != nil {
				return nil, err
			}
			if on := rf["oldObject"]; on != nil {
				if r.OldObject, err = ToJSON(on); err != nil {
					return nil, err
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
		return nil, err
	}
	return c, nil
}

// mapping returns the keys and values of a mapping node (none for another
// node).
func mapping(n *yaml.Node) map[string]*yaml.Node {
	n = alias(n)
	out := map[string]*yaml.Node{}
	if n == nil || n.Kind != yaml.MappingNode {
		return out
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		out[alias(n.Content[i]).Value] = alias(n.Content[i+1])
	}
	return out
}
