package crd

import (
	"fmt"
	"maps"
	"reflect"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/prune"
	"github.com/crdschema/crdschema/structural"
)

// servedSchemas returns the structural schema of each version of d
// (defaulted) as the API server serves it, by version: defaults after a
// round trip through JSON, pruned unless unknown fields are preserved.
// Versions with equal schemas (deeply, the usual case of a CRD serving one
// schema under several versions) share one. conv converts the schemas
// (and may share them with CRD validation, which is why they are not
// modified here); unpruned are each version's schema as converted, before
// its defaults are pruned. The embedding nodes of the served schemas
// (prune.DecoderOptions.Embeds) come with them.
func servedSchemas(d *crdschema.CustomResourceDefinition, conv *structurals) (schemas, unpruned map[string]*structural.Schema, embeds map[*structural.Schema]bool, err error) {
	type built struct {
		props    *crdschema.JSONSchemaProps
		s        *structural.Schema
		unpruned *structural.Schema
	}
	var done []built
	schemas, unpruned = map[string]*structural.Schema{}, map[string]*structural.Schema{}
	schemaOf := versionSchemas(d, conv)
next:
	for _, v := range d.Spec.Versions {
		props := schemaOf(v.Name)
		if props == nil {
			continue
		}
		for _, b := range done {
			if b.props == props || reflect.DeepEqual(b.props, props) {
				schemas[v.Name], unpruned[v.Name] = b.s, b.unpruned
				continue next
			}
		}
		s, err := conv.of(props)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("crd.New: version %s: %w", v.Name, err)
		}
		unpruned[v.Name] = s
		// The API server prunes defaults only when it prunes objects;
		// it serves them as read back from storage.
		var e map[*structural.Schema]bool
		if s, e, err = prune.Defaults(s, d.Spec.PreserveUnknownFields); err != nil {
			return nil, nil, nil, fmt.Errorf("crd.New: version %s: %w", v.Name, err)
		}
		if embeds == nil {
			embeds = e
		} else {
			maps.Copy(embeds, e)
		}
		schemas[v.Name] = s
		done = append(done, built{props, s, unpruned[v.Name]})
	}
	return schemas, unpruned, embeds, nil
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
