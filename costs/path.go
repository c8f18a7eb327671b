package costs

import (
	"fmt"
	"maps"
	"strings"

	"github.com/crdschema/crdschema"
)

// step is one step of a schema path: a property, the items of a list or
// the values of a map.
type step struct {
	kind string // "properties", "items" or "additionalProperties"
	name string // the property
}

// schemaPath is a path in a CRD to a schema node, as CRD validation errors
// print it: "spec.validation.openAPIV3Schema.properties[spec].items" (one
// schema shared by all versions) or
// "spec.versions[1].schema.openAPIV3Schema...".
type schemaPath struct {
	version int // index in spec.versions, or -1 for the shared schema
	steps   []step
}

// parsePath parses a schema path; rest is what follows the node (such as
// ".x-kubernetes-validations[0].rule").
func parsePath(p string) (sp schemaPath, rest string, err error) {
	const shared = "spec.validation.openAPIV3Schema"
	switch {
	case strings.HasPrefix(p, shared):
		sp.version, rest = -1, p[len(shared):]
	case strings.HasPrefix(p, "spec.versions["):
		var i int
		if n, _ := fmt.Sscanf(p, "spec.versions[%d]", &i); n != 1 {
			return sp, "", fmt.Errorf("bad schema path %q", p)
		}
		j := strings.Index(p, "].schema.openAPIV3Schema")
		if j < 0 {
			return sp, "", fmt.Errorf("bad schema path %q", p)
		}
		sp.version, rest = i, p[j+len("].schema.openAPIV3Schema"):]
	default:
		return sp, "", fmt.Errorf("bad schema path %q", p)
	}
	for rest != "" {
		switch {
		case strings.HasPrefix(rest, ".properties["):
			name, after, ok := bracketed(rest[len(".properties"):])
			if !ok {
				return sp, "", fmt.Errorf("bad schema path %q", p)
			}
			sp.steps = append(sp.steps, step{"properties", name})
			rest = after
		case strings.HasPrefix(rest, ".items") && !strings.HasPrefix(rest, ".items["):
			sp.steps = append(sp.steps, step{kind: "items"})
			rest = rest[len(".items"):]
		case strings.HasPrefix(rest, ".additionalProperties"):
			sp.steps = append(sp.steps, step{kind: "additionalProperties"})
			rest = rest[len(".additionalProperties"):]
		default:
			return sp, rest, nil
		}
	}
	return sp, "", nil
}

// bracketed splits "[name]rest" into name and rest. A name may itself
// contain brackets: its end is the "]" followed by "." or the end.
func bracketed(s string) (name, rest string, ok bool) {
	if !strings.HasPrefix(s, "[") {
		return "", "", false
	}
	for j := 1; j < len(s); j++ {
		if s[j] == ']' && (j+1 == len(s) || s[j+1] == '.') {
			return s[1:j], s[j+1:], true
		}
	}
	return "", "", false
}

// String renders the path as CRD validation errors do.
func (sp schemaPath) String() string {
	var b strings.Builder
	if sp.version < 0 {
		b.WriteString("spec.validation.openAPIV3Schema")
	} else {
		fmt.Fprintf(&b, "spec.versions[%d].schema.openAPIV3Schema", sp.version)
	}
	for _, s := range sp.steps {
		if s.kind == "properties" {
			fmt.Fprintf(&b, ".properties[%s]", s.name)
		} else {
			b.WriteString("." + s.kind)
		}
	}
	return b.String()
}

// fieldPath renders the path as a path of the objects' fields, with [*]
// for the items of a list and the values of a map: "spec.hosts[*]".
func (sp schemaPath) fieldPath() string {
	var b strings.Builder
	for _, s := range sp.steps {
		if s.kind == "properties" {
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.name)
		} else {
			b.WriteString("[*]")
		}
	}
	if b.Len() == 0 {
		return "<root>"
	}
	return b.String()
}

// roots returns the root schemas the path refers to in def: every
// version's for the shared schema.
func (sp schemaPath) roots(def *crdschema.CustomResourceDefinition) []int {
	if sp.version >= 0 {
		return []int{sp.version}
	}
	var out []int
	for i, v := range def.Spec.Versions {
		if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
			out = append(out, i)
		}
	}
	return out
}

// node returns the schema node at the path in def (the first version's for
// the shared schema), or nil.
func (sp schemaPath) node(def *crdschema.CustomResourceDefinition) *crdschema.JSONSchemaProps {
	rs := sp.roots(def)
	if len(rs) == 0 || rs[0] >= len(def.Spec.Versions) {
		return nil
	}
	v := def.Spec.Versions[rs[0]]
	if v.Schema == nil {
		return nil
	}
	s := v.Schema.OpenAPIV3Schema
	for _, st := range sp.steps {
		if s == nil {
			return nil
		}
		s = st.child(s)
	}
	return s
}

// child returns the schema the step leads to from s, or nil.
func (st step) child(s *crdschema.JSONSchemaProps) *crdschema.JSONSchemaProps {
	switch {
	case st.kind == "properties":
		if p, ok := s.Properties[st.name]; ok {
			return &p
		}
	case st.kind == "items" && s.Items != nil:
		return s.Items.Schema
	case st.kind == "additionalProperties" && s.AdditionalProperties != nil:
		return s.AdditionalProperties.Schema
	}
	return nil
}

// withBound returns def with the keyword (maxItems, maxProperties or
// maxLength) of the node at sp set to value. def is not modified: the
// result shares with it everything off the path.
func withBound(def *crdschema.CustomResourceDefinition, sp schemaPath, keyword string, value int64) *crdschema.CustomResourceDefinition {
	return withSchemas(def, sp.roots(def), func(_ int, s *crdschema.JSONSchemaProps) *crdschema.JSONSchemaProps {
		return setBound(s, sp.steps, keyword, value)
	})
}

// withSchemas returns def with the root schema of each version i of
// versions replaced by f(i, schema). def is not modified.
func withSchemas(def *crdschema.CustomResourceDefinition, versions []int, f func(i int, s *crdschema.JSONSchemaProps) *crdschema.JSONSchemaProps) *crdschema.CustomResourceDefinition {
	d := *def
	d.Spec.Versions = append([]crdschema.CustomResourceDefinitionVersion(nil), def.Spec.Versions...)
	for _, i := range versions {
		v := &d.Spec.Versions[i]
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			continue
		}
		val := *v.Schema
		val.OpenAPIV3Schema = f(i, v.Schema.OpenAPIV3Schema)
		v.Schema = &val
	}
	return &d
}

// keepRules returns a copy of the schema node s at path, and of the
// properties, items and additionalProperties below it, in which each node
// has the rules keep returns for its path and rules. s is not modified.
func keepRules(s *crdschema.JSONSchemaProps, path []step, keep func(path []step, rules []crdschema.ValidationRule) []crdschema.ValidationRule) *crdschema.JSONSchemaProps {
	c := *s
	c.XValidations = keep(path, s.XValidations)
	below := func(st step, s *crdschema.JSONSchemaProps) *crdschema.JSONSchemaProps {
		return keepRules(s, append(path[:len(path):len(path)], st), keep)
	}
	if s.Properties != nil {
		c.Properties = make(map[string]crdschema.JSONSchemaProps, len(s.Properties))
		for k, p := range s.Properties {
			c.Properties[k] = *below(step{"properties", k}, &p)
		}
	}
	if s.Items != nil && s.Items.Schema != nil {
		it := *s.Items
		it.Schema = below(step{kind: "items"}, it.Schema)
		c.Items = &it
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		ap := *s.AdditionalProperties
		ap.Schema = below(step{kind: "additionalProperties"}, ap.Schema)
		c.AdditionalProperties = &ap
	}
	return &c
}

func setBound(s *crdschema.JSONSchemaProps, steps []step, keyword string, value int64) *crdschema.JSONSchemaProps {
	if s == nil {
		return nil
	}
	c := *s
	if len(steps) == 0 {
		if upper, _ := boundFields(&c, keyword); upper != nil {
			*upper = &value
		}
		return &c
	}
	next := steps[0].child(s)
	if next == nil {
		return &c
	}
	next = setBound(next, steps[1:], keyword, value)
	switch steps[0].kind {
	case "properties":
		c.Properties = maps.Clone(s.Properties)
		c.Properties[steps[0].name] = *next
	case "items":
		it := *s.Items
		it.Schema = next
		c.Items = &it
	case "additionalProperties":
		ap := *s.AdditionalProperties
		ap.Schema = next
		c.AdditionalProperties = &ap
	}
	return &c
}
