package prune

import (
	"fmt"
	"maps"
	"sort"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/objectmeta"
	"github.com/crdschema/crdschema/internal/surround"
	"github.com/crdschema/crdschema/structural"
)

// Defaults is defaulting.PruneDefaults, unless preserveUnknownFields (the
// CRD's spec.preserveUnknownFields, with which the API server does not
// prune): then the defaults are only read back as from storage. It also
// returns the embedding nodes of s and of the result
// (objectmeta.EmbeddingNodes of a root that is not a resource root, for
// both): one walk of s finds them and the nodes with defaults, and the
// Decoder of the result takes them (DecoderOptions.Embeds).
func Defaults(s *structural.Schema, preserveUnknownFields bool) (*structural.Schema, map[*structural.Schema]bool, error) {
	p := defaultsPruner{root: s, withDefaults: map[*structural.Schema]bool{}, embeds: map[*structural.Schema]bool{}, preserve: preserveUnknownFields}
	if defaults, _ := p.mark(s); !defaults {
		return s, p.embeds, nil
	}
	pruned, err := p.prune(s, surround.Surrounding{})
	return pruned, p.embeds, err
}

type defaultsPruner struct {
	root *structural.Schema
	// embeds are the nodes at or above an embedded resource; the copies
	// of such nodes join them.
	embeds map[*structural.Schema]bool
	// withDefaults are the nodes of root that have a default or a node
	// with a default below them: only those are copied.
	withDefaults map[*structural.Schema]bool
	// preserve only reads the defaults back.
	preserve bool
}

// mark adds s to withDefaults when s or a node below it has a default, and
// to embeds when s or a node below it is an embedded resource, and reports
// whether it did.
func (p *defaultsPruner) mark(s *structural.Schema) (defaults, embeds bool) {
	if s == nil {
		return false, false
	}
	// Every node below is visited (and marked), whatever is found first.
	defaults, embeds = p.mark(s.Items)
	defaults = defaults || s.HasDefault()
	embeds = embeds || s.XEmbeddedResource
	if s.AdditionalProperties != nil {
		d, e := p.mark(s.AdditionalProperties.Schema)
		defaults, embeds = defaults || d, embeds || e
	}
	for _, ps := range s.Properties {
		d, e := p.mark(ps)
		defaults, embeds = defaults || d, embeds || e
	}
	if defaults {
		p.withDefaults[s] = true
	}
	if embeds {
		p.embeds[s] = true
	}
	return defaults, embeds
}

// prune returns s with the defaults at and below it cleaned: s itself
// when it holds none, a copy of s otherwise.
func (p *defaultsPruner) prune(s *structural.Schema, sur surround.Surrounding) (*structural.Schema, error) {
	if s == nil || !p.withDefaults[s] {
		return s, nil
	}
	c := *s
	if p.embeds[s] {
		p.embeds[&c] = true
	}
	if s.HasDefault() {
		// served as read back from storage, then pruned
		v, _ := jsonvalue.RoundTrip(s.Default.Value)
		c.Default = &crdschema.JSON{Value: v}
		if !p.preserve {
			d, err := p.pruneDefault(v, sur)
			if err != nil {
				return nil, fmt.Errorf("failed to prune default value: %v", err)
			}
			c.Default = d
		}
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

// pruneDefault returns the cleaned default d placed at sur: the object
// around it is coerced with root as a resource root (Coerce does not
// look up the root in embeds), and pruned.
func (p *defaultsPruner) pruneDefault(d any, sur surround.Surrounding) (*crdschema.JSON, error) {
	obj, err := sur.Wrap(jsonvalue.Copy(d))
	if err != nil {
		return nil, err
	}
	c := objectmeta.NewCoercer(objectmeta.CoerceOptions{DropInvalidFields: true}, p.embeds)
	if ferr := c.Coerce(nil, obj, p.root, true); ferr != nil {
		return nil, ferr
	}
	Prune(obj, p.root, true)
	v, found, err := sur.Extract(obj)
	if err != nil {
		return nil, err
	}
	if !found || v == nil {
		return nil, nil
	}
	return &crdschema.JSON{Value: v}, nil
}
