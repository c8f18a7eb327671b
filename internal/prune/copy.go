package prune

import (
	"sort"

	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/structural"
)

// DecodeCopy is Decode on a deep copy of obj, which it returns; obj is
// not modified. The copy leaves out what pruning removes, so that copying
// and pruning take one walk instead of two.
func (d *Decoder) DecodeCopy(obj map[string]any) (map[string]any, []string, error) {
	if obj == nil {
		return nil, nil, nil
	}
	return d.decode(obj, false)
}

// pruneRootNulls is PruneNulls for the field k of the object root.
func pruneRootNulls(root map[string]any, k string, s *structural.Schema) {
	if v, ok := root[k]; ok {
		p := &pruner{inPlace: true}
		c, keep := p.nullsField(k, v, s)
		p.put(root, k, c, keep)
	}
}

// pruneRoot returns what Prune(x, s, true) and then PruneNulls(x, s)
// leave of a copy of the object root x (of x itself, inPlace), and the
// paths Prune reports, in one walk. The root's apiVersion, kind and
// metadata are kept as they are.
func pruneRoot(x map[string]any, s *structural.Schema, inPlace bool) (map[string]any, []string) {
	p := newPruner(inPlace)
	defer p.release()
	ps := s
	if ps == nil {
		ps = &emptySchema
	}
	out := p.newMap(x)
	for k, v := range x {
		if isMetaField(k) {
			out[k] = p.copyOf(v)
			continue
		}
		var c any
		var keep bool
		if ps.XPreserveUnknownFields {
			c, keep = p.keepField(k, v, ps, s)
		} else {
			c, keep = p.field(k, v, ps, s)
		}
		p.put(out, k, c, keep)
	}
	sort.Strings(p.paths)
	return out, p.paths
}

// newMap returns the map an object's entries are kept in: a new one, or
// the object itself in place.
func (p *pruner) newMap(x map[string]any) map[string]any {
	if p.inPlace {
		return x
	}
	return make(map[string]any, len(x))
}

// newList is newMap for a list.
func (p *pruner) newList(x []any) []any {
	if p.inPlace {
		return x
	}
	return make([]any, len(x))
}

// copyOf returns a value kept as it is.
func (p *pruner) copyOf(v any) any {
	if p.inPlace {
		return v
	}
	return jsonvalue.Copy(v)
}

// put keeps the entry k: c in out, or drops it. In place, c is the
// entry's own value, already in out.
func (p *pruner) put(out map[string]any, k string, c any, keep bool) {
	if !p.inPlace {
		if keep {
			out[k] = c
		}
	} else if !keep {
		delete(out, k)
	}
}

// field copies the entry k: v of an object whose schema is s for Prune and
// ns for PruneNulls, unless pruning drops it.
func (p *pruner) field(k string, v any, s, ns *structural.Schema) (any, bool) {
	if fs, ok := s.Properties[k]; ok {
		return p.known(k, v, fs, ns)
	}
	if s.AdditionalProperties != nil {
		return p.known(k, v, s.AdditionalProperties.Schema, ns)
	}
	// The root's meta fields are not reported even when they are removed
	// (the root is not embedded then).
	if len(p.path) > 0 || !isMetaField(k) {
		p.record(k)
	}
	return nil, false
}

// keepField is field below x-kubernetes-preserve-unknown-fields: unknown
// entries are kept.
func (p *pruner) keepField(k string, v any, s, ns *structural.Schema) (any, bool) {
	if _, ok := s.Properties[k]; ok || s.AdditionalProperties != nil {
		return p.field(k, v, s, ns)
	}
	return p.nullsCopy(v, fieldSchema(k, ns)), true
}

// known copies the entry k: v whose schema is fs: a null is dropped as
// PruneNulls drops it (ns is the schema PruneNulls sees for the object,
// whose field k has the schema fs as well).
func (p *pruner) known(k string, v any, fs, ns *structural.Schema) (any, bool) {
	if v == nil {
		if ns != nil && fs != nil && !fs.Nullable && !fs.HasDefault() {
			return nil, false
		}
		return nil, true
	}
	switch v.(type) {
	case map[string]any, []any:
	default:
		return p.copyOf(v), true // a scalar has nothing to prune
	}
	n := p.pushKey(k)
	c := p.copyValue(v, fs, fs != nil && fs.XEmbeddedResource, ns != nil)
	p.path = p.path[:n]
	return c, true
}

// copyValue copies x, whose schema is s, pruned as Prune prunes it below
// the root and, with nulls, with PruneNulls applied too.
func (p *pruner) copyValue(value any, s *structural.Schema, embedded, nulls bool) any {
	ns := s
	if !nulls {
		ns = nil
	}
	if s != nil && s.XPreserveUnknownFields {
		return p.keepUnknownCopy(value, s, embedded, ns)
	}
	switch x := value.(type) {
	case map[string]any:
		if x == nil {
			return x // a nil map stays one, as jsonvalue.Copy keeps it
		}
		if s == nil {
			for k := range x {
				p.record(k)
				if p.inPlace {
					delete(x, k)
				}
			}
			if p.inPlace {
				return x
			}
			return make(map[string]any)
		}
		out := p.newMap(x)
		for k, v := range x {
			if embedded && isMetaField(k) {
				c, keep := p.nullsField(k, v, ns)
				p.put(out, k, c, keep)
				continue
			}
			c, keep := p.field(k, v, s, ns)
			p.put(out, k, c, keep)
		}
		return out
	case []any:
		if x == nil {
			return x
		}
		var is *structural.Schema
		if s != nil {
			is = s.Items
		}
		out := p.newList(x)
		for i, v := range x {
			switch v.(type) {
			case map[string]any, []any:
			default:
				out[i] = p.copyOf(v)
				continue
			}
			n := p.pushIndex(i)
			out[i] = p.copyValue(v, is, is != nil && is.XEmbeddedResource, ns != nil && ns.Items != nil)
			p.path = p.path[:n]
		}
		return p.listValue(out, value)
	}
	return p.copyOf(value)
}

// listValue returns the list out made of value: value itself when out is
// value's list, pruned in place (a slice put in an interface again would
// be a new allocation).
func (p *pruner) listValue(out []any, value any) any {
	if p.inPlace {
		return value
	}
	return out
}

// keepUnknownCopy is copyValue for a node with
// x-kubernetes-preserve-unknown-fields, as keepUnknown prunes it.
func (p *pruner) keepUnknownCopy(value any, s *structural.Schema, embedded bool, ns *structural.Schema) any {
	switch x := value.(type) {
	case map[string]any:
		if x == nil || s.Properties == nil && s.AdditionalProperties == nil {
			return p.nullsCopy(x, ns)
		}
		out := p.newMap(x)
		for k, v := range x {
			var c any
			var keep bool
			if embedded && isMetaField(k) {
				c, keep = p.nullsField(k, v, ns)
			} else {
				c, keep = p.keepField(k, v, s, ns)
			}
			p.put(out, k, c, keep)
		}
		return out
	case []any:
		is := s.Items
		if x == nil || is == nil {
			return p.nullsCopy(x, ns)
		}
		var nis *structural.Schema
		if ns != nil {
			nis = ns.Items
		}
		out := p.newList(x)
		for i, v := range x {
			n := p.pushIndex(i)
			if nis == nil {
				out[i] = p.keepUnknownCopy(v, is, is.XEmbeddedResource, nil)
			} else {
				out[i] = p.keepUnknownCopy(v, is, is.XEmbeddedResource, is)
			}
			p.path = p.path[:n]
		}
		return p.listValue(out, value)
	}
	return p.copyOf(value)
}

// fieldSchema returns the schema of the field k of an object with schema
// s (nil: none): its property schema, or else the additionalProperties
// schema.
func fieldSchema(k string, s *structural.Schema) *structural.Schema {
	if s == nil {
		return nil
	}
	if ps, ok := s.Properties[k]; ok {
		return ps
	}
	if s.AdditionalProperties != nil {
		return s.AdditionalProperties.Schema
	}
	return nil
}

// nullsField copies the entry k: v of an object whose schema is s as
// PruneNulls leaves it (s nil: as it is).
func (p *pruner) nullsField(k string, v any, s *structural.Schema) (any, bool) {
	fs := fieldSchema(k, s)
	if fs == nil {
		return p.copyOf(v), true
	}
	if v == nil {
		if !fs.Nullable && !fs.HasDefault() {
			return nil, false
		}
		return nil, true
	}
	return p.nullsCopy(v, fs), true
}

// nullsCopy copies x as PruneNulls(x, s) leaves it.
func (p *pruner) nullsCopy(value any, s *structural.Schema) any {
	if s == nil {
		return p.copyOf(value)
	}
	switch x := value.(type) {
	case map[string]any:
		if x == nil {
			return x
		}
		out := p.newMap(x)
		for k, v := range x {
			c, keep := p.nullsField(k, v, s)
			p.put(out, k, c, keep)
		}
		return out
	case []any:
		if x == nil || s.Items == nil {
			return p.copyOf(x)
		}
		out := p.newList(x)
		for i, v := range x {
			out[i] = p.nullsCopy(v, s.Items)
		}
		return p.listValue(out, value)
	}
	return p.copyOf(value)
}
