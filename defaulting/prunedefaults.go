package defaulting

import (
	"fmt"
	"sort"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/objectmeta"
	"github.com/crdschema/crdschema/internal/surround"
	"github.com/crdschema/crdschema/prune"
	"github.com/crdschema/crdschema/structural"
)

// PruneDefaults returns a copy of s whose defaults are cleaned as the API
// server cleans them when it starts serving a CRD version: each default
// is placed in its surrounding object (see Surrounding), the object's
// embedded metadata is coerced (invalid fields dropped) and its unknown
// fields are pruned against the whole schema, and what is left at the
// default's place becomes the default; a default pruned away entirely
// becomes no default. Defaults below additionalProperties are included
// (their surrounding object uses the key "*").
//
// s is not modified; the result shares the parts of s that PruneDefaults
// does not change. The only errors are the API server's: a default on the
// root that is not an object ("failed to prune default value: object root
// default value must be of object type"), and the failures of coercion
// and of taking a default back out of its surrounding object.
func PruneDefaults(s *structural.Schema) (*structural.Schema, error) {
	if s == nil {
		return nil, nil
	}
	p := defaultsPruner{root: s, embeds: objectmeta.EmbeddingNodes(s, true)}
	return p.prune(s, surround.Surrounding{})
}

type defaultsPruner struct {
	root *structural.Schema
	// embeds are the nodes of root at or above an embedded resource,
	// found once for every default.
	embeds map[*structural.Schema]bool
}

func (p *defaultsPruner) prune(s *structural.Schema, sur surround.Surrounding) (*structural.Schema, error) {
	if s == nil {
		return nil, nil
	}
	c := *s
	if s.HasDefault() {
		d, err := p.pruneDefault(s.Default.Value, sur)
		if err != nil {
			return nil, fmt.Errorf("failed to prune default value: %v", err)
		}
		c.Default = d
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		as, err := p.prune(s.AdditionalProperties.Schema, sur.Child("*"))
		if err != nil {
			return nil, err
		}
		c.AdditionalProperties = &structural.SchemaOrBool{Schema: as, Bool: s.AdditionalProperties.Bool}
	}
	if s.Items != nil {
		is, err := p.prune(s.Items, sur.Index())
		if err != nil {
			return nil, err
		}
		c.Items = is
	}
	if s.Properties != nil {
		keys := make([]string, 0, len(s.Properties))
		for k := range s.Properties {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		c.Properties = make(map[string]*structural.Schema, len(s.Properties))
		for _, k := range keys {
			ps, err := p.prune(s.Properties[k], sur.Child(k))
			if err != nil {
				return nil, err
			}
			c.Properties[k] = ps
		}
	}
	return &c, nil
}

// pruneDefault returns the cleaned default d placed at sur.
func (p *defaultsPruner) pruneDefault(d any, sur surround.Surrounding) (*crdschema.JSON, error) {
	obj, err := sur.Wrap(jsonvalue.Copy(d))
	if err != nil {
		return nil, err
	}
	// objectmeta.Coerce of obj with root as a resource root.
	if p.embeds[p.root] {
		c := objectmeta.NewCoercer(objectmeta.CoerceOptions{DropInvalidFields: true}, p.embeds)
		if ferr := c.Coerce(nil, obj, p.root, true); ferr != nil {
			return nil, ferr
		}
	}
	prune.Prune(obj, p.root, true)
	v, found, err := sur.Extract(obj)
	if err != nil {
		return nil, err
	}
	if !found || v == nil {
		return nil, nil
	}
	return &crdschema.JSON{Value: v}, nil
}
