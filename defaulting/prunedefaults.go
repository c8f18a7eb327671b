package defaulting

import (
	"fmt"
	"maps"
	"sort"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/objectmeta"
	"github.com/crdschema/crdschema/internal/surround"
	"github.com/crdschema/crdschema/prune"
	"github.com/crdschema/crdschema/structural"
)

// PruneDefaults returns a copy of s whose defaults are those the API
// server serves: as read back from storage (a whole-number float becomes
// an integer: default 13.0 is served as 13), then cleaned as the API
// server cleans them when it starts serving a CRD version: each default
// is placed in its surrounding object (see Surrounding), the object's
// embedded metadata is coerced (invalid fields dropped) and its unknown
// fields are pruned against the whole schema, and what is left at the
// default's place becomes the default; a default pruned away entirely
// becomes no default. Defaults below additionalProperties are included
// (their surrounding object uses the key "*").
//
// s is not modified; the result shares the parts of s that hold no
// default (all of s, returned as it is, when s has none). The only errors
// are the API server's: a default on the root that is not an object
// ("failed to prune default value: object root default value must be of
// object type"), and the failures of coercion and of taking a default
// back out of its surrounding object.
func PruneDefaults(s *structural.Schema) (*structural.Schema, error) {
	p := defaultsPruner{root: s, withDefaults: map[*structural.Schema]bool{}}
	if !p.markDefaults(s) {
		return s, nil
	}
	p.embeds = objectmeta.EmbeddingNodes(s, true)
	return p.prune(s, surround.Surrounding{})
}

type defaultsPruner struct {
	root *structural.Schema
	// embeds are the nodes of root at or above an embedded resource,
	// found once for every default.
	embeds map[*structural.Schema]bool
	// withDefaults are the nodes of root that have a default or a node
	// with a default below them: only those are copied.
	withDefaults map[*structural.Schema]bool
}

// markDefaults adds s to withDefaults when s or a node below it has a
// default, and reports whether it did.
func (p *defaultsPruner) markDefaults(s *structural.Schema) bool {
	if s == nil {
		return false
	}
	// Every node below is visited (and marked), whatever is found first.
	found := p.markDefaults(s.Items) || s.HasDefault()
	for _, ps := range s.Properties {
		found = p.markDefaults(ps) || found
	}
	if s.AdditionalProperties != nil {
		found = p.markDefaults(s.AdditionalProperties.Schema) || found
	}
	if found {
		p.withDefaults[s] = true
	}
	return found
}

// prune returns s with the defaults at and below it cleaned: s itself
// when it holds none, a copy of s otherwise.
func (p *defaultsPruner) prune(s *structural.Schema, sur surround.Surrounding) (*structural.Schema, error) {
	if s == nil || !p.withDefaults[s] {
		return s, nil
	}
	c := *s
	if s.HasDefault() {
		// served as read back from storage, then pruned
		v, _ := jsonvalue.RoundTrip(s.Default.Value)
		d, err := p.pruneDefault(v, sur)
		if err != nil {
			return nil, fmt.Errorf("failed to prune default value: %v", err)
		}
		c.Default = d
	}
	if ap := s.AdditionalProperties; ap != nil && p.withDefaults[ap.Schema] {
		as, err := p.prune(ap.Schema, sur.Child("*"))
		if err != nil {
			return nil, err
		}
		c.AdditionalProperties = &structural.SchemaOrBool{Schema: as, Bool: ap.Bool}
	}
	if p.withDefaults[s.Items] {
		is, err := p.prune(s.Items, sur.Index())
		if err != nil {
			return nil, err
		}
		c.Items = is
	}
	if s.Properties != nil {
		// The properties with defaults, in name order: the error
		// reported is the first in that order.
		var keys []string
		for k, ps := range s.Properties {
			if p.withDefaults[ps] {
				keys = append(keys, k)
			}
		}
		if len(keys) > 0 {
			sort.Strings(keys)
			c.Properties = maps.Clone(s.Properties)
			for _, k := range keys {
				ps, err := p.prune(s.Properties[k], sur.Child(k))
				if err != nil {
					return nil, err
				}
				c.Properties[k] = ps
			}
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
