package objectmeta

import (
	"sort"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/structural"
)

// CoerceOptions configure Coerce.
type CoerceOptions struct {
	// DropInvalidFields drops an embedded resource's apiVersion or kind
	// that is not a string, and metadata fields that do not decode,
	// instead of failing.
	DropInvalidFields bool
	// ReturnUnknownFieldPaths makes Coerce return the paths of the unknown
	// metadata fields it drops.
	ReturnUnknownFieldPaths bool
}

// Coerce checks and cleans the apiVersion, kind and metadata of every
// embedded resource (x-kubernetes-embedded-resource) in v, in place,
// as the API server does while decoding: apiVersion and kind must be
// strings, and metadata is decoded and written back as ObjectMeta (see
// GetObjectMeta and SetObjectMeta), which drops unknown metadata fields.
// v is an object or a value of any JSON type, such as a default value;
// with isResourceRoot its root counts as an embedded resource too.
// fldPath is the path of v, used in errors and unknown field paths.
//
// Coerce stops at the first problem and returns it as a field error, such
// as
//
//	spec.template.kind: Invalid value: 1: must be a string
//
// It also returns the paths of the unknown metadata fields it dropped
// (with opts.ReturnUnknownFieldPaths), sorted.
func Coerce(fldPath *crdschema.Path, v any, s *structural.Schema, isResourceRoot bool, opts CoerceOptions) (*crdschema.Error, []string) {
	c := Coercer{opts: opts, embeds: EmbeddingNodes(s, isResourceRoot)}
	if isResourceRoot && s == nil {
		s = &emptySchema
	}
	if !c.embeds[s] {
		return nil, nil
	}
	err := c.Coerce(fldPath, v, s, isResourceRoot || s.XEmbeddedResource)
	sort.Strings(c.unknown)
	return err, c.unknown
}

// EmbeddingNodes returns the schema nodes at or above which an embedded
// resource can occur: only those need to be visited by Coerce. A nil
// schema at a resource root is represented by &emptySchema.
func EmbeddingNodes(s *structural.Schema, isResourceRoot bool) map[*structural.Schema]bool {
	set := map[*structural.Schema]bool{}
	if s == nil {
		if isResourceRoot {
			set[&emptySchema] = true
		}
		return set
	}
	var visit func(s *structural.Schema, embedded bool) bool
	visit = func(s *structural.Schema, embedded bool) bool {
		if s == nil {
			return false
		}
		// Every node below is visited (and added), whatever is found first.
		found := visit(s.Items, false) || embedded || s.XEmbeddedResource
		if s.AdditionalProperties != nil {
			found = visit(s.AdditionalProperties.Schema, false) || found
		}
		for _, ps := range s.Properties {
			found = visit(ps, false) || found
		}
		if found {
			set[s] = true
		}
		return found
	}
	visit(s, isResourceRoot)
	return set
}

// A Coercer coerces the embedded resources of objects of one schema,
// collecting the unknown metadata fields it drops.
type Coercer struct {
	opts    CoerceOptions
	embeds  map[*structural.Schema]bool
	unknown []string
}

// NewCoercer returns a Coercer for the schema whose embedding nodes are
// embeds (see EmbeddingNodes).
func NewCoercer(opts CoerceOptions, embeds map[*structural.Schema]bool) *Coercer {
	return &Coercer{opts: opts, embeds: embeds}
}

// Unknown returns the paths of the unknown fields dropped so far.
func (c *Coercer) Unknown() []string { return c.unknown }

// Coerce coerces x, at pth, with schema s.
func (c *Coercer) Coerce(pth *crdschema.Path, x any, s *structural.Schema, embedded bool) *crdschema.Error {
	switch x := x.(type) {
	case map[string]any:
		var as *structural.Schema
		if s.AdditionalProperties != nil && c.embeds[s.AdditionalProperties.Schema] {
			as = s.AdditionalProperties.Schema
		}
		keys := c.keys(x, s, as)
		// The API server walks into the old values of apiVersion, kind
		// and metadata, from before they were dropped or replaced.
		var old [3]any
		if embedded {
			old = [3]any{x["apiVersion"], x["kind"], x["metadata"]}
			if err := c.coerceTypeMeta(pth, x, "apiVersion"); err != nil {
				return err
			}
			if err := c.coerceTypeMeta(pth, x, "kind"); err != nil {
				return err
			}
			if err := c.coerceMeta(pth, x); err != nil {
				return err
			}
		}
		for _, k := range keys {
			v := x[k]
			if embedded {
				switch k {
				case "apiVersion":
					v = old[0]
				case "kind":
					v = old[1]
				case "metadata":
					v = old[2]
				}
			}
			if ps, ok := s.Properties[k]; ok {
				if c.embeds[ps] {
					if err := c.Coerce(pth.Child(k), v, ps, ps.XEmbeddedResource); err != nil {
						return err
					}
				}
			} else if as != nil {
				if err := c.Coerce(pth.Key(k), v, as, as.XEmbeddedResource); err != nil {
					return err
				}
			}
		}
	case []any:
		is := s.Items
		if !c.embeds[is] {
			return nil
		}
		for i, v := range x {
			if err := c.Coerce(pth.Index(i), v, is, is.XEmbeddedResource); err != nil {
				return err
			}
		}
	}
	return nil
}

// keys returns, sorted, the keys of x whose values may hold embedded
// resources, so that the first error found does not depend on map order.
func (c *Coercer) keys(x map[string]any, s, as *structural.Schema) []string {
	var keys []string
	if as != nil {
		keys = make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
	} else {
		for k, ps := range s.Properties {
			if _, ok := x[k]; ok && c.embeds[ps] {
				keys = append(keys, k)
			}
		}
	}
	sort.Strings(keys)
	return keys
}

// coerceTypeMeta checks that x[k] (apiVersion or kind) is a string.
func (c *Coercer) coerceTypeMeta(pth *crdschema.Path, x map[string]any, k string) *crdschema.Error {
	v, ok := x[k]
	if !ok {
		return nil
	}
	if _, ok := v.(string); ok {
		return nil
	}
	if c.opts.DropInvalidFields {
		delete(x, k)
		return nil
	}
	return crdschema.Invalid(pth.Child(k), v, "must be a string")
}

// coerceMeta decodes x["metadata"] and writes it back.
func (c *Coercer) coerceMeta(pth *crdschema.Path, x map[string]any) *crdschema.Error {
	v, ok := x["metadata"]
	if !ok {
		return nil
	}
	m, found, unknown, err := getMeta(x, MetaOptions{
		DropMalformedFields:     c.opts.DropInvalidFields,
		ReturnUnknownFieldPaths: c.opts.ReturnUnknownFieldPaths,
		ParentPath:              pth,
	})
	c.unknown = append(c.unknown, unknown...)
	if err != nil {
		if c.opts.DropInvalidFields {
			return nil // left as it is
		}
		return crdschema.Invalid(pth.Child("metadata"), v, err.Error())
	}
	if found {
		x["metadata"] = metaToMap(&m.om, m.fields)
	}
	return nil
}

// emptySchema stands for a nil schema at a resource root, which keeps
// apiVersion, kind and metadata.
var emptySchema structural.Schema
