package builtin

import (
	"encoding/json"
	"fmt"
	"maps"

	"github.com/crdschema/crdschema"
)

// Schema returns the schema of a kind of this release as published,
// descriptions left out, with every reference inlined: a new value each
// call, which the caller may change. A definition that contains itself
// (the JSONSchemaProps of CustomResourceDefinition) is cut where it
// recurs, with x-kubernetes-preserve-unknown-fields. The second result is
// false if the release has no such kind.
func (a *API) Schema(k Kind) (*crdschema.JSONSchemaProps, bool) {
	if _, ok := a.Lookup(k.APIVersion(), k.Kind); !ok {
		return nil, false
	}
	a.mu.Lock()
	root := a.definitionLocked(k.Definition)
	var m map[string]any
	if root != nil {
		m = inlineRaw(root.raw, a, map[string]bool{k.Definition: true})
	}
	a.mu.Unlock()
	if root == nil {
		return nil, false
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil, false
	}
	var s crdschema.JSONSchemaProps
	if err := json.Unmarshal(b, &s); err != nil {
		panic(fmt.Sprintf("builtin: schema of %s: %v", k.Definition, err)) // generated data: a bug
	}
	return &s, true
}

// inlineRaw copies a raw schema with its references replaced by their
// definitions; open holds the definitions being inlined above. The caller
// holds a.mu.
func inlineRaw(raw map[string]any, a *API, open map[string]bool) map[string]any {
	out := make(map[string]any, len(raw))
	for k, v := range raw {
		switch k {
		case "$ref":
			continue
		case "properties":
			props := map[string]any{}
			for n, p := range v.(map[string]any) {
				props[n] = inlineValue(p, a, open)
			}
			out[k] = props
		case "items", "additionalProperties", "not":
			out[k] = inlineValue(v, a, open)
		case "allOf", "oneOf", "anyOf":
			l := asList(v)
			nl := make([]any, len(l))
			for i, e := range l {
				nl[i] = inlineValue(e, a, open)
			}
			out[k] = nl
		default:
			out[k] = v
		}
	}
	ref, _ := raw["$ref"].(string)
	if ref == "" {
		return out
	}
	if open[ref] {
		return map[string]any{"x-kubernetes-preserve-unknown-fields": true}
	}
	d := a.definitionLocked(ref)
	if d == nil {
		return out
	}
	open[ref] = true
	def := inlineRaw(d.raw, a, open)
	delete(open, ref)
	maps.Copy(def, out) // the referring schema's own keywords (default) win
	return def
}

func inlineValue(v any, a *API, open map[string]bool) any {
	if m, ok := v.(map[string]any); ok {
		return inlineRaw(m, a, open)
	}
	return v
}
