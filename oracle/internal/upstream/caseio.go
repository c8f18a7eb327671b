package upstream

// Reading conformance case files.
//
// A case file is YAML (see ../conformance/README.md for its shape). The
// embedded CRDs and objects are handed to the upstream code as JSON request
// bodies, exactly as a client would send them. To keep number literals
// intact (1.0 stays a float, 10000000000000000001 keeps its digits), the YAML
// is converted to JSON node by node instead of going through a generic
// map[string]interface{}.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// Case is one parsed conformance case. CRDs and objects are kept as JSON
// bytes: they are decoded later by upstream's own decoders.
type Case struct {
	Path        string
	Description string
	CRD         []byte
	OldCRD      []byte // nil unless the CRD step is an update
	Version     string // "" means: the storage version
	OpenAPI     bool
	Requests    []Request
}

// Request is one create or update request against the custom resource.
type Request struct {
	Operation   string // "create" or "update"
	Subresource string // "" (main resource) or "status"
	Object      []byte // the request body
	OldObject   []byte // update only: the object as it is stored
}

// CaseError marks a malformed case file. The oracle stops on it.
type CaseError struct {
	path string
	msg  string
}

func (e *CaseError) Error() string { return e.path + ": " + e.msg }

func ReadCase(path string) (*Case, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	fail := func(format string, args ...interface{}) (*Case, error) {
		return nil, &CaseError{path: path, msg: fmt.Sprintf(format, args...)}
	}

	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return fail("cannot parse YAML: %v", err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return fail("expected exactly one YAML document")
	}
	root := resolveAlias(doc.Content[0])
	fields, err := mappingFields(root, "the case", "description", "crd", "oldCRD", "version", "openapi", "requests")
	if err != nil {
		return fail("%v", err)
	}

	c := &Case{Path: path}

	// description: required, one line.
	if n := fields["description"]; n == nil {
		return fail("description is required")
	} else if c.Description, err = scalarString(n, "description"); err != nil {
		return fail("%v", err)
	} else if strings.TrimSpace(c.Description) == "" || strings.Contains(strings.TrimSpace(c.Description), "\n") {
		return fail("description must be one non-empty line")
	}

	// crd: required mapping; oldCRD: optional mapping.
	if n := fields["crd"]; n == nil {
		return fail("crd is required")
	} else if c.CRD, err = objectJSON(n, "crd"); err != nil {
		return fail("%v", err)
	}
	if n := fields["oldCRD"]; n != nil {
		if c.OldCRD, err = objectJSON(n, "oldCRD"); err != nil {
			return fail("%v", err)
		}
	}

	if n := fields["version"]; n != nil {
		if c.Version, err = scalarString(n, "version"); err != nil {
			return fail("%v", err)
		}
	}
	if n := fields["openapi"]; n != nil {
		if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" {
			return fail("openapi must be true or false")
		}
		c.OpenAPI = n.Value == "true"
	}

	if n := fields["requests"]; n != nil {
		n = resolveAlias(n)
		if n.Kind != yaml.SequenceNode {
			return fail("requests must be a list")
		}
		for i, rn := range n.Content {
			what := fmt.Sprintf("requests[%d]", i)
			r, err := readRequest(resolveAlias(rn), what)
			if err != nil {
				return fail("%v", err)
			}
			c.Requests = append(c.Requests, r)
		}
	}
	return c, nil
}

func readRequest(n *yaml.Node, what string) (Request, error) {
	var r Request
	fields, err := mappingFields(n, what, "operation", "subresource", "object", "oldObject")
	if err != nil {
		return r, err
	}
	if fields["operation"] == nil {
		return r, fmt.Errorf("%s.operation is required", what)
	}
	if r.Operation, err = scalarString(fields["operation"], what+".operation"); err != nil {
		return r, err
	}
	if r.Operation != "create" && r.Operation != "update" {
		return r, fmt.Errorf("%s.operation must be create or update, not %q", what, r.Operation)
	}
	if sn := fields["subresource"]; sn != nil {
		if r.Subresource, err = scalarString(sn, what+".subresource"); err != nil {
			return r, err
		}
		if r.Subresource != "" && r.Subresource != "status" {
			return r, fmt.Errorf("%s.subresource must be \"\" or status, not %q", what, r.Subresource)
		}
	}
	if fields["object"] == nil {
		return r, fmt.Errorf("%s.object is required", what)
	}
	if r.Object, err = objectJSON(fields["object"], what+".object"); err != nil {
		return r, err
	}
	switch {
	case r.Operation == "update" && fields["oldObject"] == nil:
		return r, fmt.Errorf("%s.oldObject is required for an update", what)
	case r.Operation == "create" && fields["oldObject"] != nil:
		return r, fmt.Errorf("%s.oldObject is only allowed for an update", what)
	case r.Operation == "create" && r.Subresource == "status":
		return r, fmt.Errorf("%s: the status subresource only accepts updates", what)
	}
	if on := fields["oldObject"]; on != nil {
		if r.OldObject, err = objectJSON(on, what+".oldObject"); err != nil {
			return r, err
		}
	}
	return r, nil
}

func resolveAlias(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// mappingFields checks that n is a mapping with only the allowed keys, each at
// most once, and returns the value nodes by key.
func mappingFields(n *yaml.Node, what string, allowed ...string) (map[string]*yaml.Node, error) {
	if n.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s must be a mapping", what)
	}
	ok := map[string]bool{}
	for _, a := range allowed {
		ok[a] = true
	}
	out := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := resolveAlias(n.Content[i])
		if k.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("%s: keys must be scalars (line %d)", what, k.Line)
		}
		if !ok[k.Value] {
			return nil, fmt.Errorf("%s: unknown key %q (line %d); allowed: %s", what, k.Value, k.Line, strings.Join(allowed, ", "))
		}
		if _, dup := out[k.Value]; dup {
			return nil, fmt.Errorf("%s: duplicate key %q (line %d)", what, k.Value, k.Line)
		}
		out[k.Value] = resolveAlias(n.Content[i+1])
	}
	return out, nil
}

func scalarString(n *yaml.Node, what string) (string, error) {
	if n.Kind != yaml.ScalarNode {
		return "", fmt.Errorf("%s must be a scalar", what)
	}
	return n.Value, nil
}

// objectJSON converts a YAML mapping into compact JSON.
func objectJSON(n *yaml.Node, what string) ([]byte, error) {
	if n.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s must be a mapping", what)
	}
	var buf bytes.Buffer
	if err := writeJSON(&buf, n, what); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

var (
	jsonIntRE    = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)
	jsonNumberRE = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)
)

// writeJSON writes the YAML node n as JSON. Mapping keys keep their document
// order; scalars keep their literal spelling where it is valid JSON.
func writeJSON(buf *bytes.Buffer, n *yaml.Node, path string) error {
	n = resolveAlias(n)
	switch n.Kind {
	case yaml.MappingNode:
		buf.WriteByte('{')
		seen := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := resolveAlias(n.Content[i])
			if k.Kind != yaml.ScalarNode {
				return fmt.Errorf("%s: mapping keys must be scalars (line %d)", path, k.Line)
			}
			if k.Value == "<<" && k.Tag == "!!merge" {
				return fmt.Errorf("%s: YAML merge keys are not supported (line %d)", path, k.Line)
			}
			if seen[k.Value] {
				return fmt.Errorf("%s: duplicate key %q (line %d)", path, k.Value, k.Line)
			}
			seen[k.Value] = true
			if i > 0 {
				buf.WriteByte(',')
			}
			writeJSONString(buf, k.Value)
			buf.WriteByte(':')
			if err := writeJSON(buf, n.Content[i+1], path+"."+k.Value); err != nil {
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
			if err := writeJSON(buf, item, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case yaml.ScalarNode:
		return writeScalar(buf, n, path)
	default:
		return fmt.Errorf("%s: unsupported YAML node (line %d)", path, n.Line)
	}
	return nil
}

func writeScalar(buf *bytes.Buffer, n *yaml.Node, path string) error {
	switch n.ShortTag() {
	case "!!null":
		buf.WriteString("null")
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
		buf.WriteString(strconv.FormatBool(b))
	case "!!int":
		if jsonIntRE.MatchString(n.Value) {
			buf.WriteString(n.Value)
			return nil
		}
		// other YAML spellings (0x1F, 0o17, +5): normalise through Go
		var i int64
		if err := n.Decode(&i); err != nil {
			return fmt.Errorf("%s: integer %q: %v", path, n.Value, err)
		}
		buf.WriteString(strconv.FormatInt(i, 10))
	case "!!float":
		if jsonNumberRE.MatchString(n.Value) {
			buf.WriteString(n.Value)
			return nil
		}
		var f float64
		if err := n.Decode(&f); err != nil {
			return fmt.Errorf("%s: number %q: %v", path, n.Value, err)
		}
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return fmt.Errorf("%s: %q has no JSON representation", path, n.Value)
		}
		b, _ := json.Marshal(f)
		buf.Write(b)
	default:
		// strings, and everything YAML would turn into something else that JSON
		// cannot express (timestamps, binary): the literal text as a string
		writeJSONString(buf, n.Value)
	}
	return nil
}

func writeJSONString(buf *bytes.Buffer, s string) {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	// Encode appends a newline
	buf.Truncate(buf.Len() - 1)
}
