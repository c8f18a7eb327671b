package builtin

import (
	"encoding/json"
	"strings"
)

// A node is a schema of the published documents as the checks read it:
// references resolved to shared nodes (the graph may have cycles), and the
// definitions whose Go types decode in their own way marked by kind.
type node struct {
	special     special
	typ         string // "object", "array", "string", "integer", "number", "boolean" or ""
	format      string
	goType      string // the Go type, as the decoder names it (v1.DeploymentSpec)
	props       map[string]*node
	additional  *node // the values of a map
	items       *node
	required    []string
	listType    string
	listMapKeys []string
	preserve    bool // x-kubernetes-preserve-unknown-fields
	raw         map[string]any
	ref         string // the definition this node is, or "" for an inline schema
}

// special marks the definitions the Go decoder reads with their own
// UnmarshalJSON (or as anything at all).
type special int

const (
	plain       special = iota
	anyValue            // runtime.RawExtension, FieldsV1, apiextensions JSON: any JSON value
	quantity            // resource.Quantity: a string or number that parses as a quantity
	intOrString         // intstr.IntOrString: an int32 or a string
	timeValue           // metav1.Time: an RFC 3339 time
	microTime           // metav1.MicroTime: an RFC 3339 time with microseconds
)

var specials = map[string]special{
	"io.k8s.apimachinery.pkg.runtime.RawExtension":                                          anyValue,
	"io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1":                                         anyValue,
	"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON":                         anyValue,
	"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray":       anyValue,
	"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool":        anyValue,
	"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray": anyValue,
	"io.k8s.apimachinery.pkg.api.resource.Quantity":                                         quantity,
	"io.k8s.apimachinery.pkg.util.intstr.IntOrString":                                       intOrString,
	"io.k8s.apimachinery.pkg.apis.meta.v1.Time":                                             timeValue,
	"io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime":                                        microTime,
}

// definition returns the node of a definition, building it (and what it
// refers to) on first use; nil if the release has no such definition.
func (a *API) definition(name string) *node {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.definitionLocked(name)
}

func (a *API) definitionLocked(name string) *node {
	if n, ok := a.nodes[name]; ok {
		return n
	}
	i, ok := a.defs[name]
	if !ok || i < 0 || i >= len(a.raw) {
		return nil
	}
	var raw map[string]any
	if err := json.Unmarshal(a.raw[i], &raw); err != nil {
		return nil
	}
	n := &node{ref: name, goType: goTypeName(name), special: specials[name]}
	a.nodes[name] = n // before filling it: a definition may refer to itself
	a.fill(n, raw)
	return n
}

// goTypeName is the Go type of a definition as Go's JSON decoder names it
// in errors: the package's name and the type (io.k8s.api.apps.v1.DeploymentSpec
// is v1.DeploymentSpec).
func goTypeName(def string) string {
	parts := strings.Split(def, ".")
	if len(parts) < 2 {
		return def
	}
	return parts[len(parts)-2] + "." + parts[len(parts)-1]
}

func (a *API) inline(raw map[string]any) *node {
	if ref, ok := raw["$ref"].(string); ok {
		if d := a.definitionLocked(ref); d != nil {
			return d
		}
		return &node{special: anyValue} // a dangling reference: check nothing
	}
	n := &node{}
	a.fill(n, raw)
	return n
}

func (a *API) fill(n *node, raw map[string]any) {
	n.raw = raw
	n.typ, _ = raw["type"].(string)
	n.format, _ = raw["format"].(string)
	if props, ok := raw["properties"].(map[string]any); ok {
		n.props = make(map[string]*node, len(props))
		for name, p := range props {
			if pm, ok := p.(map[string]any); ok {
				n.props[name] = a.inline(pm)
			}
		}
	}
	if ap, ok := raw["additionalProperties"].(map[string]any); ok {
		n.additional = a.inline(ap)
	}
	if it, ok := raw["items"].(map[string]any); ok {
		n.items = a.inline(it)
	}
	for _, r := range asList(raw["required"]) {
		if s, ok := r.(string); ok {
			n.required = append(n.required, s)
		}
	}
	n.listType, _ = raw["x-kubernetes-list-type"].(string)
	for _, k := range asList(raw["x-kubernetes-list-map-keys"]) {
		if s, ok := k.(string); ok {
			n.listMapKeys = append(n.listMapKeys, s)
		}
	}
	n.preserve, _ = raw["x-kubernetes-preserve-unknown-fields"].(bool)
	if n.special == plain && n.typ == "" && n.props == nil && n.items == nil && n.additional == nil {
		n.special = anyValue // no structure published: nothing to check
	}
	if n.special == plain && n.typ == "object" && n.props == nil && n.additional == nil {
		n.special = anyValue // an object of unpublished structure
	}
}

func asList(v any) []any { l, _ := v.([]any); return l }
