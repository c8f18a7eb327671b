package crd

import (
	"fmt"
	"maps"
	"reflect"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/prune"
	"github.com/crdschema/crdschema/structural"
)

// servedSchemas adds to schemas the structural schema of each version of
// d (defaulted) as the API server serves it: defaults after a round trip
// through JSON, pruned unless unknown fields are preserved. Versions with
// equal schemas (deeply, the usual case of a CRD serving one schema under
// several versions) share one. conv converts the schemas (and may share
// them with CRD validation, which is why they are not modified here);
// unpruned, when not nil, gets each version's schema as converted, before
// its defaults are pruned. The embedding nodes of the served schemas
// (prune.DecoderOptions.Embeds) come with them, unless unknown fields are
// preserved (nil then).
func servedSchemas(d *crdschema.CustomResourceDefinition, schemas, unpruned map[string]*structural.Schema, conv *structurals) (embeds map[*structural.Schema]bool, err error) {
	type built struct {
		props    *crdschema.JSONSchemaProps
		s        *structural.Schema
		unpruned *structural.Schema
	}
	var done []built
	schemaOf := versionSchemas(d, conv)
next:
	for _, v := range d.Spec.Versions {
		props := schemaOf(v.Name)
		if props == nil {
			continue
		}
		for _, b := range done {
			if b.props == props || reflect.DeepEqual(b.props, props) {
				schemas[v.Name] = b.s
				if unpruned != nil {
					unpruned[v.Name] = b.unpruned
				}
				continue next
			}
		}
		s, err := conv.of(props)
		if err != nil {
			return nil, fmt.Errorf("crd.New: version %s: %w", v.Name, err)
		}
		converted := s
		if unpruned != nil {
			unpruned[v.Name] = s
		}
		// The API server prunes defaults only when it prunes objects;
		// PruneDefaults serves them too.
		if d.Spec.PreserveUnknownFields {
			s = serveDefaults(s)
		} else {
			var e map[*structural.Schema]bool
			if s, e, err = prune.Defaults(s); err != nil {
				return nil, fmt.Errorf("crd.New: version %s: %w", v.Name, err)
			}
			if embeds == nil {
				embeds = e
			} else {
				maps.Copy(embeds, e)
			}
		}
		schemas[v.Name] = s
		done = append(done, built{props, s, converted})
	}
	return embeds, nil
}

// versionSchemas returns the function that gives the schema of a version
// of d, as VersionSchema does. The internal form VersionSchema works on
// (explicit null defaults and examples dropped, one schema for all versions
// when they are equal) is built once for all versions; a CRD of one version
// needs none of it, as structural.New drops explicit nulls too.
func versionSchemas(d *crdschema.CustomResourceDefinition, conv *structurals) func(version string) *crdschema.JSONSchemaProps {
	if len(d.Spec.Versions) == 1 {
		v := &d.Spec.Versions[0]
		return func(version string) *crdschema.JSONSchemaProps {
			if version != v.Name || v.Schema == nil {
				return nil
			}
			return v.Schema.OpenAPIV3Schema
		}
	}
	in := toInternal(d, conv)
	return func(version string) *crdschema.JSONSchemaProps {
		val, _ := in.spec.schemaForVersion(version)
		if val == nil {
			return nil
		}
		return val.OpenAPIV3Schema
	}
}

// The API server serves a CRD as it reads it back from storage, where it is
// kept as apiextensions.k8s.io/v1 JSON: a whole-number float in a default
// is written without a fraction there ("13"), and decoded again as an
// integer. Validation of the CRD itself sees the float as sent.

// serveDefaults returns s with the defaults of s and of the schemas below
// it replaced by their values after a round trip through JSON. Neither s
// nor the values are modified: the nodes on the way to a changed default
// are copied, the rest is shared.
func serveDefaults(s *structural.Schema) *structural.Schema {
	if s == nil {
		return nil
	}
	var c *structural.Schema
	own := func() *structural.Schema {
		if c == nil {
			cp := *s
			c = &cp
		}
		return c
	}
	if s.Default != nil && s.Default.Value != nil {
		if v, changed := jsonvalue.RoundTrip(s.Default.Value); changed {
			own().Default = &crdschema.JSON{Value: v}
		}
	}
	if items := serveDefaults(s.Items); items != s.Items {
		own().Items = items
	}
	var props map[string]*structural.Schema // a copy of s's, once changed
	for name, p := range s.Properties {
		if np := serveDefaults(p); np != p {
			if props == nil {
				props = maps.Clone(s.Properties)
				own().Properties = props
			}
			props[name] = np
		}
	}
	if s.AdditionalProperties != nil {
		if ap := serveDefaults(s.AdditionalProperties.Schema); ap != s.AdditionalProperties.Schema {
			a := *s.AdditionalProperties
			a.Schema = ap
			own().AdditionalProperties = &a
		}
	}
	if c == nil {
		return s
	}
	return c
}
