package main

import (
	"strings"

	"github.com/crdschema/crdschema"
)

// boundFor names the keyword that bounds the schema node at path (a path
// of crd.RuleCost.Unbounded, such as
// "spec.validation.openAPIV3Schema.properties[spec].properties[names].items"):
// maxItems for a list, maxProperties for a map, maxLength for a string.
// schema is the version's root schema, at the path's first
// "openAPIV3Schema".
func boundFor(schema *crdschema.JSONSchemaProps, path string) string {
	const generic = "maxItems/maxProperties/maxLength"
	i := strings.Index(path, "openAPIV3Schema")
	if schema == nil || i < 0 {
		return generic
	}
	s := schema
	rest := path[i+len("openAPIV3Schema"):]
	for rest != "" && s != nil {
		switch {
		case strings.HasPrefix(rest, ".properties["):
			name, after, ok := bracketed(rest[len(".properties"):])
			if !ok {
				return generic
			}
			p, found := s.Properties[name]
			if !found {
				return generic
			}
			s, rest = &p, after
		case strings.HasPrefix(rest, ".items"):
			if s.Items == nil {
				return generic
			}
			s, rest = s.Items.Schema, rest[len(".items"):]
		case strings.HasPrefix(rest, ".additionalProperties"):
			if s.AdditionalProperties == nil {
				return generic
			}
			s, rest = s.AdditionalProperties.Schema, rest[len(".additionalProperties"):]
		default:
			return generic
		}
	}
	if s == nil {
		return generic
	}
	switch {
	case s.Type == "array":
		return "maxItems"
	case s.Type == "object":
		return "maxProperties"
	case s.Type == "string", s.XIntOrString:
		return "maxLength"
	}
	return generic
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
